package callgraph

import (
	"strings"
	"testing"
)

// TestMemberResolution: calls of members, each case one disagreement class
// the differential tests found or one rule of the SPEC's member resolution.
func TestMemberResolution(t *testing.T) {
	service := map[string]string{
		"src/mailer.ts": `export interface Mailer { send(to: string): Promise<void>; sink: (x: number) => void }
export class Outbox implements Mailer { async send(to: string) {} sink = (x: number) => {} }`,
		"src/repo.ts": `export class Repo {
  constructor(private readonly db: string) {}
  find(id: number) { return id; }
  save(): void;
  save(x?: number): void {}
}`,
		"src/base.ts": `export abstract class Base { protected audit(e: string) {} }`,
		"src/svc.ts": `import type { Mailer } from "./mailer";
import { Repo } from "./repo";
import { Base } from "./base";
export class Svc extends Base {
  private cache = new Map<string, number>();
  constructor(private readonly repo: Repo, private mailer: Mailer, private readonly opts: { a: number }) { super(); }
  async run(id: number) {
    this.repo.find(id);
    this.repo.save();
    await this.mailer.send("a");
    this.audit("x");
    this.helper();
    this.cache.get("k");
    this.opts.a.toFixed();
    Svc.make();
    const arrow = () => this.helper();
  }
  helper = () => 1;
  static make() { return new Svc(new Repo("db"), null as any, { a: 1 }); }
}`,
	}
	cases := []struct {
		name  string
		files map[string]string
		fn    string
		want  []string
	}{
		{
			name:  "this.dep.m() through declared field types, this.m() through extends, fields, static members",
			files: service, fn: "src/svc.ts#Svc.run",
			want: []string{
				"this.repo.find -> src/repo.ts#Repo.find (member)",
				"this.repo.save -> src/repo.ts#Repo.save (member)", // the implementation, not an overload signature
				"this.mailer.send -> src/mailer.ts#Mailer.send (member)",
				"this.audit -> src/base.ts#Base.audit (member)",
				"this.helper -> src/svc.ts#Svc.helper (member)",
				"this.cache.get -> unresolved: the declared type Map<string, number> of this.cache: Map: not a class…", // a global's type
				"this.opts.a.toFixed -> unresolved: the declared type number of this.opts.a: number: not a class…",
				"Svc.make -> src/svc.ts#Svc.make (member)",
				"this.helper -> src/svc.ts#Svc.helper (member)",
			},
		},
		{
			name:  "new X() is a call of X's constructor (declared, or none)",
			files: service, fn: "src/svc.ts#Svc.make",
			want: []string{
				"Svc -> src/svc.ts#Svc.constructor (member)",
				"Repo -> src/repo.ts#Repo.constructor (member)",
			},
		},
		{
			name: "a class without a constructor anywhere, a local class",
			files: map[string]string{
				"src/a.ts": `class Plain {}
export function f() {
  new Plain();
  class Local { constructor() {} static s() {} }
  new Local();
  Local.s();
}`,
			},
			fn: "src/a.ts#f",
			want: []string{
				"Plain -> unresolved: class src/a.ts#Plain declares no constructor…",
				"Local -> src/a.ts#f.Local.constructor (member)",
				"Local.s -> src/a.ts#f.Local.s (member)",
			},
		},
		{
			name: "namespaces: a function of a namespace, nested namespaces, calls inside the namespace",
			files: map[string]string{
				"src/util.ts": `export namespace util {
  export const joinValues = (a: string[]) => a.join(",");
  export function assert() { joinValues([]); }
}
export namespace A.B { export function c() {} }`,
				"src/use.ts": `import { util, A } from "./util";
export function f() { util.joinValues([]); A.B.c(); }`,
			},
			fn: "src/use.ts#f",
			want: []string{
				"util.joinValues -> src/util.ts#util.joinValues (namespace)",
				"A.B.c -> src/util.ts#A.B.c (namespace)",
			},
		},
		{
			name: "members of an object literal built by spreading namespaces; its own properties are not declarations",
			files: map[string]string{
				"src/schemas.ts": `export function string() {} export function any() {}`,
				"src/checks.ts":  `export function any() {} export function min() {}`,
				"src/iso.ts":     `export function date() {}`,
				"src/z.ts": `import * as schemas from "./schemas";
import * as checks from "./checks";
import * as iso from "./iso";
function own() {}
const z = { ...schemas, ...checks, iso, own };
export function f() { z.string(); z.any(); z.min(); z.iso.date(); z.own(); }`,
			},
			fn: "src/z.ts#f",
			want: []string{
				"z.string -> src/schemas.ts#string (member)",
				"z.any -> src/checks.ts#any (member)", // the later spread wins, as at run time
				"z.min -> src/checks.ts#min (member)",
				"z.iso.date -> src/iso.ts#date (member)",
				"z.own -> unresolved: own is a property of the object literal z…",
			},
		},
		{
			name: "a type and a value with one name: the value is called",
			files: map[string]string{
				"src/r.ts": `export type OK<T> = { value: T };
export const OK = <T,>(value: T): OK<T> => ({ value });`,
				"src/use.ts": `import { OK } from "./r";
export interface Local { x: number }
export const Local = () => 1;
export function f() { OK(1); Local(); }`,
			},
			fn: "src/use.ts#f",
			want: []string{
				"OK -> src/r.ts#OK (import)",
				"Local -> src/use.ts#Local (local)",
			},
		},
		{
			name: "a nested function is called through its enclosing scope; a plain function's this is not resolved",
			files: map[string]string{
				"src/n.ts": `export function outer() {
  function inner() { helper(); }
  const helper = () => 1;
  inner();
  function g(this: unknown) { (this as any).x(); }
}`,
			},
			fn:   "src/n.ts#outer.inner",
			want: []string{"helper -> src/n.ts#outer.helper (local)"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkCalls(t, tc.files, tc.fn, tc.want) })
	}
}

// TestDeclaredTypes: calls through declared types (issue 22), one case per
// form, each with the forms it must leave unresolved.
func TestDeclaredTypes(t *testing.T) {
	lib := map[string]string{
		"src/rm.ts": `export class RequestManager { flush() {} }
export class Conn { ws = new RequestManager(); open() {} }`,
		"src/types.ts": `import type { Conn } from "./rm";
export abstract class Base<Def extends BaseDef = BaseDef> {
  readonly _def!: Def;
  abstract _parse(x: unknown): unknown;
  onClose?: () => void;
  run() {}
}
export interface BaseDef { description?: string }
export interface EffectsDef<T extends Base = Base> extends BaseDef { schema: T; inner: AnyBase }
export type AnyBase = Base<any>;
export type Shape = { conn: Conn; m(): void; base: AnyBase };
export class Effects<T extends AnyBase> extends Base<EffectsDef<T>> {
  _parse(x: unknown) {
    this._def.schema._parse(x);
    this._def.inner.run();
    this.onClose?.();
    this._def.description.trim();
    return x;
  }
}`,
	}
	cases := []struct {
		name  string
		files map[string]string
		fn    string
		want  []string
	}{
		{
			name: "a field, a const local, a let and a parameter property's default initialized with new X() have type X",
			files: merge(lib, map[string]string{"src/ws.ts": `import { RequestManager, Conn } from "./rm";
import * as rm from "./rm";
export class Client {
  private requestManager = new RequestManager();
  private other = new rm.Conn();
  constructor(private readonly conn = new Conn()) {}
  send() {
    this.requestManager.flush();
    this.other.open();
    this.conn.open();
    const m = new RequestManager();
    m.flush();
    let c = new Conn();
    c.ws.flush();
    const f = (RequestManager: any) => { const r = new RequestManager(); r.flush(); };
  }
}`}),
			fn: "src/ws.ts#Client.send",
			want: []string{
				"this.requestManager.flush -> src/rm.ts#RequestManager.flush (member)",
				"this.other.open -> src/rm.ts#Conn.open (member)",
				"this.conn.open -> src/rm.ts#Conn.open (member)",
				"RequestManager -> unresolved: class src/rm.ts#RequestManager declares no constructor…",
				"m.flush -> src/rm.ts#RequestManager.flush (member)",
				"Conn -> unresolved: class src/rm.ts#Conn declares no constructor…",
				"c.ws.flush -> src/rm.ts#RequestManager.flush (member)",
				"RequestManager -> unresolved: RequestManager is bound inside the function by parameter…",
				"r.flush -> unresolved: r is bound inside the function by const r…", // new of a parameter: no declared type
			},
		},
		{
			name:  "property chains of declared types: generic base arguments, interfaces, aliases, constraints, ?.",
			files: lib, fn: "src/types.ts#Effects._parse",
			want: []string{
				"this._def.schema._parse -> src/types.ts#Base._parse (member)", // Def = EffectsDef<T>, T extends AnyBase = Base<any>
				"this._def.inner.run -> src/types.ts#Base.run (member)",
				"this.onClose -> src/types.ts#Base.onClose (member)",
				"this._def.description.trim -> unresolved: the declared type string of this._def.description: string: not a class…",
			},
		},
		{
			name: "typed parameters and variables, T extends Base, !, object type aliases; unions, any and inference stay unresolved",
			files: merge(lib, map[string]string{"src/use.ts": `import { Base, type Shape, type AnyBase } from "./types";
import { Conn } from "./rm";
export function use<T extends Base, U>(x: T, u: U, s: Shape, maybe: Conn | undefined, a: any, both: Conn | Base, made = new Conn()) {
  x.run();
  x._parse(1);
  u.run();
  s.conn.ws.flush();
  s.m();
  s.base._def.description;
  maybe!.open();
  maybe?.ws.flush();
  a.run();
  both.open();
  const inferred = s.conn;
  inferred.open();
  const typed: AnyBase = x;
  typed.run();
  made.open();
}`}),
			fn: "src/use.ts#use",
			want: []string{
				"x.run -> src/types.ts#Base.run (member)",
				"x._parse -> src/types.ts#Base._parse (member)",
				"u.run -> unresolved: u is bound inside the function by parameter u (line 3)", // U has no constraint
				"s.conn.ws.flush -> src/rm.ts#RequestManager.flush (member)",
				"s.m -> unresolved: s.m is a member of an object type literal…",
				"maybe!.open -> src/rm.ts#Conn.open (member)",
				"maybe?.ws.flush -> src/rm.ts#RequestManager.flush (member)",
				"a.run -> unresolved: a is bound inside the function by parameter a, of declared type any: any: not a class…",
				"both.open -> unresolved: both is bound inside the function by parameter both, of declared type Conn | Base: Conn | Base is a union",
				"inferred.open -> unresolved: inferred is bound inside the function by const inferred…",
				"typed.run -> src/types.ts#Base.run (member)",
				"made.open -> unresolved: made is bound inside the function by parameter made…", // a parameter's default is not its declared type
			},
		},
		{
			name: "this in methods of an object literal of declared type, ThisType<T>, an explicit this: T parameter",
			files: merge(lib, map[string]string{"src/lit.ts": `import { Conn } from "./rm";
export interface Methods { check(): void; clone(): Methods }
export function methods(): Methods {
  return {
    check() { this.clone(); },
    clone() { return this; },
  };
}
export const typed: Methods = { check() { this.clone(); }, clone() { return this; } };
export const sat = { check() { this.clone(); }, clone() { return this; } } satisfies Methods;
export const viaThisType: { go(): void } & ThisType<Conn> = { go() { this.open(); } };
export function own(this: Conn) { this.ws.flush(); }
export function inferredReturn() { return { check() { this.clone(); }, clone() { return 1; } }; }
export function untyped(this: any) { this.open(); }
type LazyMethodsOf<T> = Partial<{
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (this: T, ...args: A) => R : never;
}>;
export function lazy(): LazyMethodsOf<Conn> { return { open() { this.ws.flush(); } }; }
export function callAll() {}`}),
			fn: "",
			want: []string{
				"methods: this.clone -> src/lit.ts#Methods.clone (member)",
				"typed.check: this.clone -> src/lit.ts#Methods.clone (member)",
				"sat.check: this.clone -> src/lit.ts#Methods.clone (member)",
				"viaThisType.go: this.open -> src/rm.ts#Conn.open (member)",
				"own: this.ws.flush -> src/rm.ts#RequestManager.flush (member)",
				"inferredReturn: this.clone -> unresolved: this is not a class instance here…",
				"untyped: this.open -> unresolved: this has the declared type any (from the this parameter): any: not a class…",
				"lazy: this.ws.flush -> src/rm.ts#RequestManager.flush (member)", // every method of the mapped type has this: T
				// The module's code holds them too (TopCalls):
				"src/lit.ts: this.clone -> src/lit.ts#Methods.clone (member)", // typed variable
				"src/lit.ts: this.clone -> src/lit.ts#Methods.clone (member)", // satisfies
				"src/lit.ts: this.open -> src/rm.ts#Conn.open (member)",       // ThisType<Conn>
			},
		},
		{
			name: "abstract members and function-typed fields pin to their declaration",
			files: merge(lib, map[string]string{"src/abs.ts": `import { Base } from "./types";
export abstract class Job {
  abstract step(): void;
  handler: (x: number) => void = () => {};
  cb!: () => void;
  constructor(private readonly done: () => void) {}
  run(b: Base) { this.step(); this.cb(); this.done(); b._parse(1); Job.make(); }
  static make: () => Job;
}`}),
			fn: "src/abs.ts#Job.run",
			want: []string{
				"this.step -> src/abs.ts#Job.step (member)",
				"this.cb -> src/abs.ts#Job.cb (member)",
				"this.done -> src/abs.ts#Job.done (member)",
				"b._parse -> src/types.ts#Base._parse (member)",
				"Job.make -> src/abs.ts#Job.make (member)",
			},
		},
		{
			name: "a value narrowed by instanceof, or of a type with a type predicate on this, stays unresolved (the checker sees the narrowed type)",
			files: merge(lib, map[string]string{"src/narrow.ts": `import { Base } from "./types";
export class Ws { isOpen(): this is { ws: string } { return true; } close() {} }
export class Sub extends Base<any> { _parse(x: unknown) { return x; } }
function isSub(x: unknown): x is Sub { return true; }
export function n(b: Base, w: Ws, g: Base) {
  if (b instanceof Sub) b._parse(1);
  if (w.isOpen()) return;
  w.close();
  if (!isSub(g)) return;
  g._parse(1);
}`}),
			fn: "src/narrow.ts#n",
			want: []string{
				"b._parse -> unresolved: b is bound inside the function by parameter b, of declared type Base, and narrowed…",
				"w.isOpen -> unresolved: w is bound inside the function by parameter w, of declared type Ws, whose Ws.isOpen narrows it…",
				"w.close -> unresolved: w is bound inside the function by parameter w, of declared type Ws, whose Ws.isOpen narrows it…",
				"isSub -> src/narrow.ts#isSub (local)",
				"g._parse -> unresolved: g is bound inside the function by parameter g, of declared type Base, and narrowed…",
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.fn != "" {
				checkCalls(t, tc.files, tc.fn, tc.want)
				return
			}
			checkAllCalls(t, tc.files, "src/lit.ts", tc.want)
		})
	}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// checkAllCalls resolves every call of file: those of its functions
// ("id: edge", in source order), then its module-level calls ("file: edge").
func checkAllCalls(t *testing.T, files map[string]string, file string, want []string) {
	t.Helper()
	p, err := NewProgram(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, why := p.Module(file)
	if f == nil {
		t.Fatal(why)
	}
	var got []string
	for _, fn := range f.Functions {
		for _, c := range p.FunctionNode(f, fn).Calls {
			got = append(got, fn.Qual+": "+edgeLine(c))
		}
	}
	for i := range f.TopCalls {
		c := &f.TopCalls[i]
		e := p.ResolveCall(f, c)
		e.Text = c.Text
		got = append(got, file+": "+edgeLine(e))
	}
	if len(got) != len(want) {
		t.Fatalf("calls:\n got  %q\n want %q", got, want)
	}
	for i := range got {
		w := want[i]
		if p, ok := strings.CutSuffix(w, "…"); ok {
			if !strings.HasPrefix(got[i], p) {
				t.Errorf("call %d:\n got  %s\n want %s", i, got[i], w)
			}
		} else if got[i] != w {
			t.Errorf("call %d:\n got  %s\n want %s", i, got[i], w)
		}
	}
}

// TestModuleCalleeMemo: a module-scope callee is resolved once per file and
// reused, but `X()` and `new X()` stay apart, and so do different paths.
func TestModuleCalleeMemo(t *testing.T) {
	files := map[string]string{"src/a.ts": `import * as ns from "./b";
class A { constructor() {} static s() {} }
export function f() { A(); new A(); A.s(); ns.g(); ns.h(); }
export function g() { new A(); A(); ns.h(); }`,
		"src/b.ts": `export function g() {} export function h() {}`}
	checkCalls(t, files, "src/a.ts#f", []string{
		"A -> src/a.ts#A (local)", "A -> src/a.ts#A.constructor (member)", "A.s -> src/a.ts#A.s (member)",
		"ns.g -> src/b.ts#g (namespace)", "ns.h -> src/b.ts#h (namespace)"})
	checkCalls(t, files, "src/a.ts#g", []string{
		"A -> src/a.ts#A.constructor (member)", "A -> src/a.ts#A (local)", "ns.h -> src/b.ts#h (namespace)"})
}
