package callgraph

import "testing"

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
				"this.cache.get -> unresolved: this.cache has no declared type",
				"this.opts.a.toFixed -> unresolved: this.opts.a.toFixed: only calls one property deep…",
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
