package analyzer

import (
	"fmt"
	"strings"
	"testing"
)

// projQuals lists every function with its id name, kind, position and class.
func projQuals(f *File) []string {
	var out []string
	for _, fn := range f.Functions {
		s := fmt.Sprintf("%s %s %d:%d", fn.Qual, fn.Kind, fn.Line, fn.Column)
		if fn.Class != "" {
			s += " class=" + fn.Class
		}
		if fn.Static {
			s += " static"
		}
		if fn.Parent != nil {
			s += " parent=" + fn.Parent.Qual
		}
		if fn.Exported {
			s += " exported"
		}
		out = append(out, s)
	}
	return out
}

func projClasses(f *File) []string {
	var out []string
	for _, c := range f.Classes {
		s := c.Name
		if c.Interface {
			s = "interface " + s
		}
		if len(c.Extends) > 0 {
			s += " extends " + strings.Join(c.Extends, ",")
		}
		for _, m := range c.Members {
			s += " | " + m.Name
			if m.Static {
				s += " static"
			}
			if m.Function != "" {
				s += " fn=" + m.Function
			}
			if m.Type != "" {
				s += " : " + m.Type
			}
		}
		out = append(out, s)
	}
	return out
}

func TestNestedFunctionsAndMembers(t *testing.T) {
	for _, tc := range []struct {
		name, src    string
		fns, classes []string
	}{
		{"nested at any depth", "export function outer() {\n  function inner() {\n    const deep = () => 1;\n  }\n  const arrow = async () => {};\n  let expr = function named() {};\n  xs.map(() => { function inCallback() {} });\n}", []string{
			"outer function 1:1 exported",
			"outer.inner nested 2:3 parent=outer",
			"outer.inner.deep nested 3:5 parent=outer.inner",
			"outer.arrow nested 5:3 parent=outer",
			"outer.expr nested 6:3 parent=outer",
			"outer.inCallback nested 7:18 parent=outer",
		}, nil},
		{"same name twice", "function f() { if (a) { function g() {} } else { function g() {} } }", []string{
			"f function 1:1", "f.g nested 1:25 parent=f", "f.g~2 nested 1:50 parent=f"}, nil},
		{"class members", "export class Svc extends Base<T> {\n  constructor(private readonly repo: Repo, plain: number) { super(); }\n  async run() {}\n  static make() {}\n  get v() { return 1; }\n  set v(x) {}\n  handler = async () => {};\n  count: number = 0;\n  #secret() {}\n  @dec() decorated() {}\n}", []string{
			"Svc.constructor constructor 2:3 class=Svc exported",
			"Svc.run method 3:3 class=Svc exported",
			"Svc.make method 4:3 class=Svc static exported",
			"Svc.v getter 5:3 class=Svc exported",
			"Svc.v= setter 6:3 class=Svc exported",
			"Svc.handler field 7:3 class=Svc exported",
			"Svc.<fields> fields 8:3 class=Svc exported",
			"Svc.#secret method 9:3 class=Svc exported",
			"Svc.decorated method 10:3 class=Svc exported",
		}, []string{"Svc extends Base | repo : Repo | constructor fn=Svc.constructor | run fn=Svc.run | make static fn=Svc.make | v fn=Svc.v | v fn=Svc.v= | handler fn=Svc.handler | count : number | #secret fn=Svc.#secret | decorated fn=Svc.decorated"}},
		{"default class, class expression, class in a function", "export default class { m() {} }\nconst K = class { n() {} };\nfunction f() { class L { o() {} } }", []string{
			"default.m method 1:24 class=default exported",
			"K.n method 2:19 class=K",
			"f function 3:1",
			"f.L.o method 3:26 class=f.L parent=f",
		}, []string{"default | m fn=default.m", "K | n fn=K.n", "f.L | o fn=f.L.o"}},
		{"interfaces", "export interface Mailer extends Base, Other<T> { send(m: Mail): Promise<void>; sink: Sink; }", nil,
			[]string{"interface Mailer extends Base,Other | send | sink : Sink"}},
		{"namespaces", "export namespace util {\n  export function joinValues() {}\n  const local = () => {};\n}\nnamespace A.B { function c() {} }", []string{
			"util.joinValues namespace 2:3",
			"util.local namespace 3:3",
			"A.B.c namespace 5:17",
		}, nil},
		{"abstract and overloads are not functions", "abstract class A { abstract m(): void; o(): void; o(x?: number) {} }", []string{
			"A.o method 1:51 class=A"}, []string{"A | m | o | o fn=A.o"}},
		{"object literal methods are not functions", "function f() { return { m() { g(); } }; }", []string{"f function 1:1"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "functions", projQuals(f), tc.fns)
			if tc.classes != nil {
				check(t, "classes", projClasses(f), tc.classes)
			}
		})
	}
}

func TestCallsOfNestedFunctionsAndMembers(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"a nested function lists its own calls; the outer lists them too, nested", "function outer() {\n  function inner() { g(); }\n  inner();\n}", []string{
			"outer: 2:22 g ident root=g bind=module nested",
			"outer: 3:3 inner ident root=inner bind=local(function inner@2) fn=outer.inner",
			"outer.inner: 2:22 g ident root=g bind=module",
		}},
		{"a const arrow is bound to its function", "function outer() {\n  const flush = () => save();\n  flush();\n}", []string{
			"outer: 2:23 save ident root=save bind=module nested",
			"outer: 3:3 flush ident root=flush bind=local(const flush@2) fn=outer.flush",
			"outer.flush: 2:23 save ident root=save bind=module",
		}},
		{"an enclosing function's binding is seen from a nested one", "function outer(p) {\n  function a() { b(); p(); }\n  function b() {}\n}", []string{
			"outer: 2:18 b ident root=b bind=local(function b@3) fn=outer.b nested",
			"outer: 2:23 p ident root=p bind=local(parameter p@1) nested",
			"outer.a: 2:18 b ident root=b bind=local(function b@3) fn=outer.b",
			"outer.a: 2:23 p ident root=p bind=local(parameter p@1)",
		}},
		{"this in methods, arrows and fields", "class S {\n  a() { this.b(); [1].map(() => this.c.d()); function f() { this.x(); } }\n  static s() { this.t(); }\n  h = () => this.b();\n}", []string{
			"S.a: 2:9 this.b this path=[b] class=S",
			"S.a: 2:19 [1].map other",
			"S.a: 2:33 this.c.d this path=[c d] class=S nested",
			"S.a: 2:61 this.x this path=[x] class= nested",
			"S.a.f: 2:61 this.x this path=[x] class=",
			"S.s: 3:16 this.t this path=[t] class=S static",
			"S.h: 4:13 this.b this path=[b] class=S",
		}},
		{"new", "function f() { new Foo(1); new ns.Bar(); new (g())(); }", []string{
			"f: 1:16 Foo ident root=Foo bind=module new",
			"f: 1:28 ns.Bar member root=ns path=[Bar] bind=module new",
			"f: 1:42 (g()) other new",
			"f: 1:47 g ident root=g bind=module",
		}},
		{"await f<T>(x) is a call of f", "async function f() { await g<T>(x); await h.i<T>(); }", []string{
			"f: 1:28 g ident root=g bind=module",
			"f: 1:43 h.i member root=h path=[i] bind=module",
		}},
		{"class name inside its methods is module scope", "class A { m() { A.make(); } static make() {} }", []string{
			"A.m: 1:17 A.make member root=A path=[make] bind=module",
		}},
		{"a namespace's functions see each other", "namespace u { export function a() { b(); } function b() {} }", []string{
			"u.a: 1:37 b ident root=b bind=local(function b@1) fn=u.b",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "calls", projAllCalls(f), tc.want)
		})
	}
}

func TestObjectSpreads(t *testing.T) {
	f := parseTS(t, "import * as a from './a';\nimport * as b from './b';\nexport const z = { ...a, ...b, extra: 1, ...(c as any) };")
	noErrors(t, f)
	d := f.Decls[len(f.Decls)-1]
	if got := strings.Join(d.Spreads, ","); got != "a,b,c" {
		t.Errorf("spreads %q", got)
	}
}

// TestGrammarGapsFoundOnRealCode: each a construct of a real package that
// tree-sitter-typescript misreads, found by the differential test.
func TestGrammarGapsFoundOnRealCode(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"postfix ! binds tighter than ??, !, && (mobx, zod)", "function f() { a ?? name!.toString(); !copy_!.has(x); n > max && d.when!(y); }", []string{
			"f: 1:21 name!.toString member root=name path=[toString] bind=module",
			"f: 1:40 copy_!.has member root=copy_ path=[has] bind=module",
			"f: 1:66 d.when! member root=d path=[when] bind=module",
		}},
		{"a generic call signature on the line after a member (mobx)", "export interface F extends A {\n  a: string\n  <T>(fn: T): T\n  <K = any, V = any>(): Map<K, V>\n}\nexport function g() { h(); }", []string{
			"g: 6:23 h ident root=h bind=module",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "calls", projAllCalls(f), tc.want)
		})
	}
}

func TestObjectTypeProperties(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" and ok false: not readable
		ok   bool
	}{
		{"{ skip?: boolean }", "skip", true},
		{"{ skip?: boolean; readonly n: number; m(): void; f: (x: number) => { a: 1 }, g?: Array<{ z: 1 }> }", "skip n m f g", true},
		{"{ skip?: boolean } | undefined", "skip", true},
		{"{}", "", true},
		{"Opts", "", false},
		{"{ a: 1 } & B", "", false},
		{"{ [k: string]: boolean }", "", false},
	} {
		got, ok := ObjectTypeProperties(tc.in)
		if ok != tc.ok || strings.Join(got, " ") != tc.want {
			t.Errorf("%q: got %q %v, want %q %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestTypeTextMembers: a type made one line keeps the members of its
// object types apart, however they are separated (shadcn's
// dryRunComponents: `opts: {\n overwrite?: boolean\n skipFonts?: boolean\n}`),
// and the parameter's declared type is that text.
func TestTypeTextMembers(t *testing.T) {
	for _, tc := range []struct {
		name, in, text, props string
	}{
		{"one line", "{ skip?: boolean; n: number }", "{ skip?: boolean; n: number }", "skip n"},
		{"newlines only", "{\n  overwrite?: boolean\n  skipFonts?: boolean\n}", "{ overwrite?: boolean; skipFonts?: boolean }", "overwrite skipFonts"},
		{"CRLF", "{\r\n  a: 1\r\n  b: 2\r\n}", "{ a: 1; b: 2 }", "a b"},
		{"mixed separators", "{\n  a: number;\n  b: string,\n  c?: boolean\n  d: 1\n}", "{ a: number; b: string, c?: boolean; d: 1 }", "a b c d"},
		{"nested object type", "{\n  fonts: {\n    x: number\n    y: number\n  }\n  skip?: boolean\n}", "{ fonts: { x: number; y: number }; skip?: boolean }", "fonts skip"},
		{"methods and optional members", "{\n  log(m: string): void\n  run?<T>(): T\n  readonly skip?: boolean\n}", "{ log(m: string): void; run?<T>(): T; readonly skip?: boolean }", "log run skip"},
		{"comments", "{\n  // the fonts\n  a: 1 // one\n  /* two,\n three */ b: 2; /* { c: 3 } */\n  d: 4\n}", "{ a: 1; b: 2; d: 4 }", "a b d"},
		{"types over several lines", "{\n  kind:\n    | 'a'\n    | 'b'\n  cb?: (\n    a: string,\n  ) => void\n  m: Promise<\n    number\n  >\n  u: A\n    & B\n  z: 1\n}", "{ kind: | 'a' | 'b'; cb?: ( a: string, ) => void; m: Promise< number >; u: A & B; z: 1 }", "kind cb m u z"},
		{"strings and templates kept", "{\n  a: \"x  // y\"\n  b: `${'}'}\\n  c: d`\n  e: 1\n}", "{ a: \"x  // y\"; b: `${'}'}\\n  c: d`; e: 1 }", "a b e"},
		{"members named like keywords", "{\n  a: 1\n  is: boolean\n  extends?: string\n  b: T extends U\n    ? 1\n    : 2\n}", "{ a: 1; is: boolean; extends?: string; b: T extends U ? 1 : 2 }", "a is extends b"},
		{"union with undefined", "{\n  a: 1\n  b: 2\n} | undefined", "{ a: 1; b: 2 } | undefined", "a b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := typeText(tc.in)
			if got != tc.text {
				t.Errorf("typeText:\n got %q\nwant %q", got, tc.text)
			}
			props, ok := ObjectTypeProperties(got)
			if !ok || strings.Join(props, " ") != tc.props {
				t.Errorf("properties: got %q %v, want %q", props, ok, tc.props)
			}
			f := parseTS(t, "export function f(opts: "+tc.in+") {}\n")
			if p := f.Functions[0].Params[0]; p.Type != tc.text {
				t.Errorf("param type: got %q, want %q", p.Type, tc.text)
			}
		})
	}
}

func TestMocks(t *testing.T) {
	f := parseTS(t, `import { vi } from "vitest";
vi.mock("@server/index", () => ({ processItem: vi.fn().mockResolvedValue({ ok: true }) }));
vi.mock("../src/enrich", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../src/enrich")>();
  return { ...mod, enrichItem: vi.fn(mod.enrichItem).mockName("enrichItem"), other: vi.fn(), own: vi.fn(() => 0) };
});
vi.mock("./auto");
describe("x", () => { it("y", async () => { vi.doMock(import("./late"), () => ({})); }); });
`)
	noErrors(t, f)
	var got []string
	for _, m := range f.Mocks {
		s := fmt.Sprintf("%s %s L%d factory=%v partial=%v", m.Call, m.Specifier, m.Line, m.Factory, m.Partial)
		for _, o := range m.Overrides {
			s += fmt.Sprintf(" %s:%v", o.Name, o.CallThrough)
		}
		got = append(got, s)
	}
	check(t, "mocks", got, []string{
		"vi.mock @server/index L2 factory=true partial=false",
		"vi.mock ../src/enrich L3 factory=true partial=true enrichItem:true other:false own:false",
		"vi.mock ./auto L7 factory=false partial=false",
		"vi.doMock ./late L8 factory=true partial=false",
	})
}

// TestModuleLevelFunctions: every body that runs is a function of the
// graph, with an id from what binds it (issue 26): arrows and function
// expressions in module-level code (passed to a call, in a conditional),
// object-literal methods and properties holding functions (nested objects
// too), functions assigned to a name, class static blocks. Inside another
// function they stay part of it.
func TestModuleLevelFunctions(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		fns       []string
	}{
		{"arrow passed to a call", "export const fee = wrap((n: number) => n * 2);\nconst memoed = memo(function inner() { return 1; });", []string{
			"fee.<arrow> expression 1:25 exported",
			"memoed.inner expression 2:21"}},
		{"several arrows in one call", "export const total = createSelector(\n  (s) => s.a,\n  (s) => s.b,\n  (a, b) => a + b,\n);", []string{
			"total.<arrow> expression 2:3 exported",
			"total.<arrow>~2 expression 3:3 exported",
			"total.<arrow>~3 expression 4:3 exported"}},
		{"default export of a call", "export default defineEventHandler(async (e) => { return e; });", []string{
			"default.<arrow> expression 1:35 exported"}},
		{"wrapped function expression", "export const handler = withAuth(async function (req) { return req; });", []string{
			"handler.<function> expression 1:33 exported"}},
		{"router callbacks, nothing binds them", "app.get(\"/x\", (c) => c.text(\"x\"));\napp.post(\"/y\", (c) => c.json(1));\napp.get(\"/z\", (c) => 1);\nrouter.use(compose.all([1])(\"t\", () => {}));", []string{
			"app.get.<arrow> expression 1:15",
			"app.post.<arrow> expression 2:16",
			"app.get.<arrow>~2 expression 3:15",
			"router.use.<arrow> expression 4:34"}},
		{"tRPC procedure", "export const appRouter = router({\n  greet: t.procedure.input(z.string()).query(({ input }) => input),\n  bye: t.procedure.mutation(async () => 1),\n});", []string{
			"appRouter.greet.<arrow> expression 2:46 exported",
			"appRouter.bye.<arrow> expression 3:29 exported"}},
		{"defineCommand's run", "export default defineCommand({\n  meta: { name: \"x\" },\n  args: { n: { type: \"string\" } },\n  async run({ args }) {\n    const inner = () => go(args);\n    return inner();\n  },\n  setup: () => 1,\n});", []string{
			"default.run property 4:3 exported",
			"default.run.inner nested 5:5 parent=default.run",
			"default.setup property 8:3 exported"}},
		{"object literal methods and properties", "export const handlers = {\n  add() { return 1; },\n  del: (x) => x,\n  get g() { return 2; },\n  set g(v) {},\n  'content-type': function () {},\n  [Symbol.iterator]() {},\n  a: { b() {}, c: { d: () => 1 } },\n  n: 1,\n};", []string{
			"handlers.add property 2:3 exported",
			"handlers.del property 3:3 exported",
			"handlers.g property 4:3 exported",
			"handlers.g= property 5:3 exported",
			"handlers.content-type property 6:3 exported",
			"handlers.[Symbol.iterator] property 7:3 exported",
			"handlers.a.b property 8:8 exported",
			"handlers.a.c.d property 8:21 exported"}},
		{"exported by a later export statement", "const a = { m() {} };\nconst b = { m() {} };\nexport { a };\nexport default b;", []string{
			"a.m property 1:13 exported",
			"b.m property 2:13 exported"}},
		{"assigned functions", "exports.handler = async (e) => e;\nmodule.exports.x = wrap(() => 1);\nFoo.prototype.bar = function () {};", []string{
			"exports.handler expression 1:19",
			"module.exports.x.<arrow> expression 2:25",
			"Foo.prototype.bar expression 3:21"}},
		{"load-time code", "(() => { boot(); })();\nexport const mode = process.env.X ? () => 1 : () => 2;", []string{
			"<arrow> expression 1:2",
			"mode.<arrow> expression 2:37 exported",
			"mode.<arrow>~2 expression 2:47 exported"}},
		{"namespaces", "export namespace Geo {\n  export function dist() { return 1; }\n  export const table = { f: () => 2 };\n  export namespace Flat { export const g = wrap(() => 3); }\n}", []string{
			"Geo.dist namespace 2:3",
			"Geo.table.f property 3:26 exported",
			"Geo.Flat.g.<arrow> expression 4:49 exported"}},
		{"class static blocks, accessor fields", "export class A {\n  static x = 0;\n  static { A.x = 1; }\n  static { A.x++; }\n  accessor inc = (n: number) => n + 1;\n}", []string{
			"A.<static> static 3:3 class=A static exported",
			"A.<static>~2 static 4:3 class=A static exported",
			"A.inc field 5:3 class=A exported"}},
		{"inside a function: part of it", "export function f() {\n  app.get(\"/x\", (c) => c);\n  return { m() {}, n: () => 1 };\n}\nexport class C { m() { return wrap(() => 1); } x = wrap(() => 2); }", []string{
			"f function 1:1 exported",
			"C.m method 5:18 class=C exported",
			"C.<fields> fields 5:48 class=C exported"}},
		{"instance field initializers: one function, Class.<fields>", "export class Store {\n  static shared = new Map();\n  count = 0;\n  get n() { return this.count; }\n  #cache = new Map<string, number>();\n  onChange = () => this.#cache.clear();\n  label: string;\n  items = [makeItem(1)];\n}", []string{
			"Store.<fields> fields 3:3 class=Store exported",
			"Store.n getter 4:3 class=Store exported",
			"Store.onChange field 6:3 class=Store exported"}},
		{"test callbacks are the test's code, unless the name is the module's own", "import { describe, it } from \"vitest\";\ndescribe(\"x\", () => { it(\"y\", () => { function h() {} }); });\ndescribe.each([1])(\"z\", () => {});\nbeforeEach(() => {});\nimport { test } from \"./lib\";\nexport const ok = test((n) => n > 0);", []string{
			"ok.<arrow> expression 6:24 exported"}},
		{"anonymous class in a call: its members are not module-level code", "register(class { m() { return () => 1; } });", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "functions", projQuals(f), tc.fns)
		})
	}
}

// TestModuleLevelFunctionCalls: the calls of a function of module-level code
// are its own (and, as before, the module's TopCalls).
func TestModuleLevelFunctionCalls(t *testing.T) {
	f := parseTS(t, "import { go } from \"./go\";\nexport default defineCommand({\n  async run(ctx) {\n    await go(ctx);\n    [1].map((x) => go(x));\n  },\n});\nexport const fee = wrap((n) => go(n));")
	noErrors(t, f)
	got := map[string][]string{}
	for _, fn := range f.Functions {
		for _, c := range fn.Calls {
			got[fn.Qual] = append(got[fn.Qual], fmt.Sprintf("%d:%d %s nested=%v", c.Line, c.Column, c.Text, c.Nested))
		}
	}
	check(t, "default.run", got["default.run"], []string{"4:11 go nested=false", "5:5 [1].map nested=false", "5:20 go nested=true"})
	check(t, "fee.<arrow>", got["fee.<arrow>"], []string{"8:32 go nested=false"})
	var top []string
	for _, c := range f.TopCalls {
		top = append(top, fmt.Sprintf("%d:%d %s", c.Line, c.Column, c.Text))
	}
	check(t, "top calls", top, []string{"2:16 defineCommand", "4:11 go", "5:5 [1].map", "5:20 go", "8:20 wrap", "8:32 go"})
}

func TestMockPartialForms(t *testing.T) {
	for _, tc := range []struct {
		name, factory string
		partial       bool
	}{
		{"spread of a renamed parameter's call", `async (orig) => ({ ...(await orig()) })`, true},
		{"typed call bound to a name", `async (io) => { const m = await io<typeof import("../src/core")>(); return { ...m, x: vi.fn() } }`, true},
		{"importOriginal bound and spread", `async (importOriginal) => { const mod = await importOriginal(); return { ...mod, f: vi.fn() } }`, true},
		{"vi.importActual spread", `async () => ({ ...(await vi.importActual("../src/core")), f: vi.fn() })`, true},
		{"vi.importActual typed", `async () => { const a = await vi.importActual<typeof import("../src/core")>("../src/core"); return { ...a } }`, true},
		{"vi.importActual as-cast", `async () => { const a = (await vi.importActual("../src/core")) as any; return { ...a } }`, true},
		{"function expression", `async function (load) { return { ...(await load()), f: vi.fn() } }`, true},
		{"Object.assign", `async (o) => Object.assign({}, await o(), { f: vi.fn() })`, true},
		{"returned itself", `async (o) => { const m = await o(); m.f = vi.fn(); return m }`, true},
		{"arrow returning the original", `(o) => o()`, true},
		{"rest of a destructuring", `async (o) => { const { f, ...rest } = await o(); return { ...rest, f: vi.fn() } }`, true},
		{"a part of the original spread", `async (importOriginal) => { const mod = await importOriginal(); return { default: { ...mod.default, f: vi.fn() } } }`, true},
		{"a member of the call spread", `async (o) => ({ default: { ...(await o()).default } })`, true},
		{"names importOriginal, never calls it", `(importOriginal) => ({ f: vi.fn() })`, false},
		{"calls it, returns its own object (the real module loads)", `async (importOriginal) => { const m = await importOriginal(); return { f: vi.fn(m.f) } }`, true},
		{"calls it, keeps nothing (the real module loads)", `async (o) => { await o(); return { f: vi.fn() } }`, true},
		{"spreads something else", `async (orig) => { const base = { a: 1 }; return { ...base, f: vi.fn() } }`, false},
		{"a stand-in calls a parameter of its own", `(orig) => ({ f: vi.fn((orig) => orig()) })`, false},
		{"a stand-in loads the original when called", `(orig) => ({ f: vi.fn(async () => (await orig()).f()) })`, true},
		{"no parameter", `() => ({ f: vi.fn() })`, false},
		{"a string mentions importActual", `() => ({ f: vi.fn(), note: "importActual" })`, false},
		{"spy option: the originals run", `{ spy: true }`, true},
		{"other options", `{ spy: false }`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, "import { vi } from \"vitest\";\nvi.mock(\"../src/core\", "+tc.factory+");\n")
			noErrors(t, f)
			if len(f.Mocks) != 1 {
				t.Fatalf("mocks: got %d, want 1", len(f.Mocks))
			}
			if m := f.Mocks[0]; !m.Factory || m.Partial != tc.partial {
				t.Errorf("factory=%v partial=%v, want factory=true partial=%v", m.Factory, m.Partial, tc.partial)
			}
		})
	}
}

// TestJestMocks: jest.mock and jest.doMock are mocks, recorded as jest's; a factory
// that spreads jest.requireActual is partial (the real module loads), one that does
// not, or no factory (automock), replaces the module whole.
func TestJestMocks(t *testing.T) {
	f := parseTS(t, `jest.mock("../src/a");
jest.mock("../src/b", () => ({ f: jest.fn() }));
jest.mock("../src/c", () => ({ ...jest.requireActual("../src/c"), f: jest.fn() }));
jest.mock("../src/d", () => { const real = jest.requireActual<typeof import("../src/d")>("../src/d"); return { ...real }; });
jest.doMock("../src/e");
`)
	noErrors(t, f)
	var got []string
	for _, m := range f.Mocks {
		got = append(got, fmt.Sprintf("%d %s %s factory=%v partial=%v", m.Line, m.Call, m.Specifier, m.Factory, m.Partial))
	}
	check(t, "mocks", got, []string{
		"1 jest.mock ../src/a factory=false partial=false",
		"2 jest.mock ../src/b factory=true partial=false",
		"3 jest.mock ../src/c factory=true partial=true",
		"4 jest.mock ../src/d factory=true partial=true",
		"5 jest.doMock ../src/e factory=false partial=false",
	})
}

func TestMockOverrides(t *testing.T) {
	for _, tc := range []struct{ factory, want string }{
		{`async (orig) => ({ ...(await orig()), f: vi.fn(), g: vi.fn(() => 1) })`, "f:false g:false"},
		{`async (io) => { const m = await io(); return { f: vi.fn(m.f).mockName("f"), g: m.g, h: vi.fn() } }`, "f:true g:true h:false"},
		{`async (io) => { const { f, g } = await io(); return { f, g: vi.fn() } }`, "f:true g:false"},
		{`async (io) => { const m = await io(); return { ...m, f: vi.fn(() => ({ ...other })) } }`, "f:false"},
	} {
		f := parseTS(t, "import { vi } from \"vitest\";\nvi.mock(\"../src/core\", "+tc.factory+");\n")
		noErrors(t, f)
		var got []string
		for _, o := range f.Mocks[0].Overrides {
			got = append(got, fmt.Sprintf("%s:%v", o.Name, o.CallThrough))
		}
		if strings.Join(got, " ") != tc.want || !f.Mocks[0].Partial {
			t.Errorf("%s: partial=%v overrides %q, want %q", tc.factory, f.Mocks[0].Partial, strings.Join(got, " "), tc.want)
		}
	}
}

// TestFieldsFunctionCalls: the calls of every instance field initializer
// are Class.<fields>'s, and no other member's code is.
func TestFieldsFunctionCalls(t *testing.T) {
	f := parseTS(t, "export class Store {\n  count = start();\n  get n() { return read(); }\n  #cache = new Map();\n  items = [make(1)];\n}")
	noErrors(t, f)
	got := map[string][]string{}
	for _, fn := range f.Functions {
		for _, c := range fn.Calls {
			got[fn.Qual] = append(got[fn.Qual], fmt.Sprintf("%d:%d %s", c.Line, c.Column, c.Text))
		}
	}
	check(t, "Store.<fields>", got["Store.<fields>"], []string{"2:11 start", "4:12 Map", "5:12 make"})
	check(t, "Store.n", got["Store.n"], []string{"3:20 read"})
}
