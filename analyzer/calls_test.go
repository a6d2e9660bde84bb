package analyzer

import (
	"strings"
	"testing"
)

func TestCallShapes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"ident", "function f() {\n  g();\n}", []string{"2:3 g ident root=g bind=module"}},
		{"member", "function f() { audit.write(1); }", []string{"1:16 audit.write member root=audit path=[write] bind=module"}},
		{"deep member", "function f() { a.b.c.d(); }", []string{"1:16 a.b.c.d member root=a path=[b c d] bind=module"}},
		{"optional member", "function f() { a?.b(); }", []string{"1:16 a?.b member root=a path=[b] bind=module"}},
		{"optional call", "function f() { a?.(); a.b?.(); }", []string{
			"1:16 a ident root=a bind=module",
			"1:23 a.b member root=a path=[b] bind=module"}},
		{"non-null", "function f() { a!.b(); }", []string{"1:16 a!.b member root=a path=[b] bind=module"}},
		{"whitespace runs collapsed, comments kept", "function f() {\n  a\n    . b /* c */\n    .c ();\n}",
			[]string{"2:3 a . b /* c */ .c member root=a path=[b c] bind=module"}},
		{"awaited", "async function f() { await g(); return await h.i(); }", []string{
			"1:28 g ident root=g bind=module",
			"1:46 h.i member root=h path=[i] bind=module"}},
		{"type arguments", "function f() { g<string>(1); }", []string{"1:16 g ident root=g bind=module"}},
		{"arguments are calls too", "function f() { g(h(), i.j()); }", []string{
			"1:16 g ident root=g bind=module",
			"1:18 h ident root=h bind=module",
			"1:23 i.j member root=i path=[j] bind=module"}},
		{"call result", "function f() { g()(); }", []string{
			"1:16 g() other",
			"1:16 g ident root=g bind=module"}},
		{"method on call result", "function f() { g().h(); }", []string{
			"1:16 g().h other root=g chain=g().h bind=module",
			"1:16 g ident root=g bind=module"}},
		{"chains through call results and element access", "function f(k) { class C { m() { this.a().b<T, U>(1).c(); this.#t[k].insert(); this.m2(k)!.x?.y(); this.a[k](); x[k].y(); } } }", []string{
			"1:33 this.a().b<T, U>(1).c other chain=this.a().b(T,U).c class=f.C nested",
			"1:33 this.a().b other chain=this.a().b class=f.C nested",
			"1:33 this.a this path=[a] class=f.C nested",
			"1:58 this.#t[k].insert other chain=this.#t[].insert class=f.C nested",
			"1:79 this.m2(k)!.x?.y other chain=this.m2().x.y class=f.C nested",
			"1:79 this.m2 this path=[m2] class=f.C nested",
			"1:99 this.a[k] other nested", // the element called: not a member
			"1:112 x[k].y other root=x chain=x[].y bind=module nested"}},
		{"this", "function f() { this.x(); }", []string{"1:16 this.x this path=[x] class="}},
		{"string-literal element access is a member", "function f() { o[\"k\"](); o.a['b'](); o[`c`](); }", []string{
			`1:16 o["k"] member root=o path=[k] bind=module`,
			`1:26 o.a['b'] member root=o path=[a b] bind=module`,
			"1:38 o[`c`] member root=o path=[c] bind=module"}},
		{"computed", "function f() { o[k](); o[1](); o[`${k}`](); }", []string{"1:16 o[k] other", "1:24 o[1] other", "1:32 o[`${k}`] other"}},
		{"whitespace in a key", `function f() { o["a b"](); }`, []string{`1:16 o["a b"] member root=o path=[a b] bind=module`}},
		{"private", "function f() { a.#p(); this.#q(); }", []string{"1:16 a.#p member root=a path=[#p] bind=module", "1:24 this.#q this path=[#q] class="}},
		{"iife", "function f() { (() => g())(); (function () {})(); }", []string{
			"1:16 (() => g()) other",
			"1:23 g ident root=g bind=module nested",
			"1:31 (function () {}) other"}},
		{"sequence", "function f() { (0, g)(); }", []string{"1:16 (0, g) other"}},
		{"parenthesized ident", "function f() { (g)(); }", []string{"1:16 (g) other"}},
		{"new is a call of the constructor", "function f() { new X(g()); }", []string{"1:16 X ident root=X bind=module new", "1:22 g ident root=g bind=module"}},
		{"tagged template is not a call", "function f() { tag`a${g()}b`; }", []string{"1:23 g ident root=g bind=module"}},
		{"import() is not a call", `async function f() { import("m"); await import("n"); }`, nil},
		{"super is not a call", "function f() { class A extends B { constructor() { super(); s(); } } }",
			[]string{"1:61 s ident root=s bind=module nested"}},
		{"import().then is other", `function f() { import("m").then(g); }`, []string{`1:16 import("m").then other`}},
		{"dynamic member", `async function f() { (await import("./x")).a(); }`, []string{
			`1:22 (await import("./x")).a dynamic-member path=[a] spec="./x"`}},
		{"dynamic member deep", `async function f() { (await import('./x')).a.b(); }`, []string{
			`1:22 (await import('./x')).a.b dynamic-member path=[a b] spec="./x"`}},
		{"dynamic member over lines", "async function f() {\n  (await\n    import(\"./x\")).a();\n}", []string{
			`2:3 (await import("./x")).a dynamic-member path=[a] spec="./x"`}},
		{"method of an asserted type", "function f() { (a as B<C>).run(); (a as const).run(); (a satisfies B).run(); }", []string{
			"1:16 (a as B<C>).run other chain=(B<C>).run", "1:35 (a as const).run other", "1:55 (a satisfies B).run other"}},
		{"method of new", "function f() { new X(1).run(); }", []string{"1:16 new X(1).run other chain=(new X).run", "1:16 X ident root=X bind=module new"}},
		{"dynamic member non-literal", "async function f() { (await import(p)).a(); }", []string{
			`1:22 (await import(p)).a other`}},
		{"calls in nested callbacks", "function f(xs) {\n  xs.map((x) => g(x));\n  xs.forEach(function (y) { h(y); });\n}", []string{
			"2:3 xs.map member root=xs path=[map] bind=local(parameter xs@1)",
			"2:17 g ident root=g bind=module nested",
			"3:3 xs.forEach member root=xs path=[forEach] bind=local(parameter xs@1)",
			"3:29 h ident root=h bind=module nested"}},
		{"calls in class methods are nested", "function f() { class K { m() { g(); } x = h(); static { i(); } } }", []string{
			"1:32 g ident root=g bind=module nested",
			"1:43 h ident root=h bind=module nested",
			"1:57 i ident root=i bind=module nested"}},
		{"default params of the function are not in the body", "function f(a = g()) { h(); }",
			[]string{"1:23 h ident root=h bind=module"}},
		{"expression body", "const f = (x) => g(x);", []string{"1:18 g ident root=g bind=module"}},
		{"all functions", "function a() { x(); }\nconst b = () => { y(); };", []string{
			"a: 1:16 x ident root=x bind=module",
			"b: 2:19 y ident root=y bind=module"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "calls", projCalls(f), tc.want)
		})
	}
}

func TestBindings(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"import is module scope", "import { g } from './g';\nfunction f() { g(); }",
			[]string{"2:16 g ident root=g bind=module"}},
		{"parameter shadows import", "import { g } from './g';\nfunction f(g) { g(); }",
			[]string{"2:17 g ident root=g bind=local(parameter g@2)"}},
		{"destructured parameter", "function f({ g }, [h]) { g(); h(); }", []string{
			"1:26 g ident root=g bind=local(parameter g@1)",
			"1:31 h ident root=h bind=local(parameter h@1)"}},
		{"rest parameter", "function f(...g) { g.at(); }", []string{"1:20 g.at member root=g path=[at] bind=local(parameter g@1)"}},
		{"arrow parameter", "const f = g => g();", []string{"1:16 g ident root=g bind=local(parameter g@1)"}},
		{"local const", "function f() {\n  const g = make();\n  g();\n}", []string{
			"2:13 make ident root=make bind=module",
			"3:3 g ident root=g bind=local(const g@2)"}},
		{"member root local", "function f() {\n  let audit = get();\n  audit.write();\n}", []string{
			"2:15 get ident root=get bind=module",
			"3:3 audit.write member root=audit path=[write] bind=local(let audit@2)"}},
		{"tdz still binds", "function f() {\n  g();\n  const g = 1;\n}", []string{"2:3 g ident root=g bind=local(const g@3)"}},
		{"nested function declaration hoisted", "function f() {\n  g();\n  function g() {}\n}",
			[]string{"2:3 g ident root=g bind=local(function g@3) fn=f.g"}},
		{"nested class", "function f() {\n  class K {}\n  K.make();\n}",
			[]string{"3:3 K.make member root=K path=[make] bind=local(class K@2)"}},
		{"catch parameter", "function f() {\n  try { g(); } catch (g) { g(); }\n}", []string{
			"2:9 g ident root=g bind=module",
			"2:28 g ident root=g bind=local(catch parameter g@2)"}},
		{"catch destructuring", "function f() { try {} catch ({ g }) { g(); } }",
			[]string{"1:39 g ident root=g bind=local(catch parameter g@1)"}},
		{"for of", "function f(xs) {\n  for (const g of xs) g();\n}", []string{"2:23 g ident root=g bind=local(const g@2)"}},
		{"for of destructuring", "function f(xs) { for (const [k, g] of xs) { g(); } }",
			[]string{"1:45 g ident root=g bind=local(const g@1)"}},
		{"for in let", "function f(o) { for (let g in o) g(); }", []string{"1:34 g ident root=g bind=local(let g@1)"}},
		{"for loop", "function f() { for (let g = h; ;) g(); }", []string{"1:35 g ident root=g bind=local(let g@1)"}},
		{"for without declaration", "import { g } from 'g';\nfunction f(xs) { for (g of xs) g(); }",
			[]string{"2:32 g ident root=g bind=module"}},
		{"loop variable not visible after the loop", "function f(xs) { for (const g of xs) {} g(); }",
			[]string{"1:41 g ident root=g bind=module"}},
		{"sibling block let does not shadow", "function f() {\n  { let g = 1; }\n  g();\n}",
			[]string{"3:3 g ident root=g bind=module"}},
		{"enclosing block let shadows", "function f() {\n  let g = 1;\n  { { g(); } }\n}",
			[]string{"3:7 g ident root=g bind=local(let g@2)"}},
		{"block let shadows inside the block", "function f(c) {\n  if (c) { const g = h; g(); }\n  g();\n}", []string{
			"2:25 g ident root=g bind=local(const g@2)",
			"3:3 g ident root=g bind=module"}},
		{"var is hoisted out of blocks", "function f(c) {\n  g();\n  if (c) { var g = h; }\n}",
			[]string{"2:3 g ident root=g bind=local(var g@3)"}},
		{"var in for", "function f() { for (var i = 0; ;) {} i(); }", []string{"1:38 i ident root=i bind=local(var i@1)"}},
		{"var in nested function does not leak", "function f() {\n  function inner() { var g; }\n  g();\n}",
			[]string{"3:3 g ident root=g bind=module"}},
		{"closure parameter", "function f(xs) { xs.map((g) => g()); }", []string{
			"1:18 xs.map member root=xs path=[map] bind=local(parameter xs@1)",
			"1:32 g ident root=g bind=local(parameter g@1) nested"}},
		{"outer local seen from closure", "function f() {\n  const g = 1;\n  return () => g();\n}",
			[]string{"3:16 g ident root=g bind=local(const g@2) nested"}},
		{"closure local does not leak", "function f() {\n  const h = () => { const g = 1; };\n  g();\n}",
			[]string{"3:3 g ident root=g bind=module"}},
		{"named function expression", "const f = function g() { g(); };", []string{"1:26 g ident root=g bind=local(function g@1)"}},
		{"class expression name", "function f() { return class K { m() { K.x(); } }; }",
			[]string{"1:39 K.x member root=K path=[x] bind=local(class K@1) nested"}},
		{"switch case scope", "function f(x) {\n  switch (x) {\n    case 1: const g = h; g(); break;\n    default: g();\n  }\n}", []string{
			"3:26 g ident root=g bind=local(const g@3)",
			"4:14 g ident root=g bind=local(const g@3)"}},
		{"enum", "function f() { enum E { A } E.x(); }", []string{"1:29 E.x member root=E path=[x] bind=local(enum E@1)"}},
		{"using", "function f() {\n  using g = open();\n  g();\n}", []string{
			"2:13 open ident root=open bind=module",
			"3:3 g ident root=g bind=local(using g@2)"}},
		{"await using", "async function f() {\n  await using g = open();\n  g();\n}", []string{
			"2:19 open ident root=open bind=module",
			"3:3 g ident root=g bind=local(using g@2)"}},
		{"own name is module scope", "function f() { f(); }", []string{"1:16 f ident root=f bind=module"}},
		{"parameter default sees earlier parameter", "function f() { return (a, b = a()) => b; }",
			[]string{"1:31 a ident root=a bind=local(parameter a@1) nested"}},
		{"static block var", "function f() { class K { static { var g; g(); } } }",
			[]string{"1:42 g ident root=g bind=local(var g@1) nested"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "calls", projCalls(f), tc.want)
		})
	}
}

func TestDynamicImportBindings(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"named", "async function f() {\n  const { a } = await import(\"./m\");\n  a();\n}",
			[]string{`3:3 a ident root=a bind=dynamic-named(const a@2) "./m".a`}},
		{"renamed", "async function f() {\n  const { a: b } = await import('./m');\n  b.c();\n}",
			[]string{`3:3 b.c member root=b path=[c] bind=dynamic-named(const b@2) "./m".a`}},
		{"default", "async function f() { const { default: d } = await import('./m'); d(); }",
			[]string{`1:66 d ident root=d bind=dynamic-named(const d@1) "./m".default`}},
		{"with default value", "async function f() { const { a = noop } = await import('./m'); a(); }",
			[]string{`1:64 a ident root=a bind=dynamic-named(const a@1) "./m".a`}},
		{"namespace", "async function f() {\n  const m = await import(\"./m\");\n  m.a();\n}",
			[]string{`3:3 m.a member root=m path=[a] bind=dynamic-namespace(const m@2) "./m"`}},
		{"parenthesized", "async function f() { const m = (await import('./m')); m.a(); }",
			[]string{`1:55 m.a member root=m path=[a] bind=dynamic-namespace(const m@1) "./m"`}},
		{"let", "async function f() { let { a } = await import('./m'); a(); }",
			[]string{`1:55 a ident root=a bind=dynamic-named(let a@1) "./m".a`}},
		{"rest", "async function f() { const { a, ...rest } = await import('./m'); rest.b(); }",
			[]string{`1:66 rest.b member root=rest path=[b] bind=dynamic-namespace(const rest@1) "./m"`}},
		{"nested pattern is local", "async function f() { const { a: { b } } = await import('./m'); b(); }",
			[]string{`1:64 b ident root=b bind=local(const b@1)`}},
		{"not awaited is local", "function f() { const p = import('./m'); p.then(); }",
			[]string{`1:41 p.then member root=p path=[then] bind=local(const p@1)`}},
		{"in a closure", "function f() {\n  return async () => {\n    const { a } = await import('./m');\n    a();\n  };\n}",
			[]string{`4:5 a ident root=a bind=dynamic-named(const a@3) "./m".a nested`}},
		{"shadowed by a closure parameter", "async function f() {\n  const { a } = await import('./m');\n  [1].map((a) => a());\n}", []string{
			"3:3 [1].map other",
			"3:18 a ident root=a bind=local(parameter a@3) nested"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "calls", projCalls(f), tc.want)
		})
	}
}

func TestUTF16Columns(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"ascii", "function f() { const s = 'ab'; g(); }", []string{"1:32 g ident root=g bind=module"}},
		// é is 2 bytes, 1 UTF-16 unit.
		{"latin", "function f() { const s = 'éé'; g(); }", []string{"1:32 g ident root=g bind=module"}},
		// 日本 is 6 bytes, 2 units.
		{"cjk", "function f() { const s = '日本'; g(); }", []string{"1:32 g ident root=g bind=module"}},
		// 😀 is 4 bytes, 2 units (a surrogate pair): counting bytes gives 34, runes 31.
		{"emoji", "function f() { const s = '😀'; g(); }", []string{"1:32 g ident root=g bind=module"}},
		{"emoji on an earlier line only", "function f() {\n  const s = '😀😀';\n  g();\n}", []string{"3:3 g ident root=g bind=module"}},
		{"crlf", "function f() {\r\n  g();\r\n}", []string{"2:3 g ident root=g bind=module"}},
		{"non-ascii identifier", "function f() { const ñ = 1; ñandú(); }", []string{"1:29 ñandú ident root=ñandú bind=module"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "calls", projCalls(f), tc.want)
		})
	}
}

// TestByteRanges checks the byte ranges through the text they cover.
func TestByteRanges(t *testing.T) {
	src := `import { x } from "x";
export async function process(item: Item, opts: Opts) {
  const settings = resolveSettings(item);
  if (!opts.skip) {
    const enriched = await enrichItem(item);
    audit . write(enriched);
  }
  items.forEach((i) => { update(i); });
  return (y) => last(y);
}
export const arrow = (a: number) => helper(a);
`
	f := parseTS(t, src)
	noErrors(t, f)
	if len(f.Functions) != 2 {
		t.Fatalf("functions: %v", projFunctions(f))
	}
	text := func(a, b uint) string {
		if a == 0 && b == 0 {
			return "<none>"
		}
		return src[a:b]
	}
	prefix := func(s string, n int) string { return s[:min(n, len(s))] }
	var got []string
	for _, fn := range f.Functions {
		got = append(got, "FUNC "+prefix(text(fn.StartByte, fn.EndByte), 20)+" | BODY "+prefix(text(fn.BodyStartByte, fn.BodyEndByte), 12))
		for _, c := range fn.Calls {
			got = append(got, strings.Join([]string{c.Text, text(c.StartByte, c.EndByte),
				text(c.CalleeStartByte, c.CalleeEndByte), text(c.StatementStartByte, c.StatementEndByte)}, " | "))
		}
	}
	want := []string{
		"FUNC export async functio | BODY {\n  const se",
		"resolveSettings | resolveSettings(item) | resolveSettings | const settings = resolveSettings(item);",
		"enrichItem | enrichItem(item) | enrichItem | const enriched = await enrichItem(item);",
		"audit . write | audit . write(enriched) | audit . write | audit . write(enriched);",
		"items.forEach | items.forEach((i) => { update(i); }) | items.forEach | items.forEach((i) => { update(i); });",
		"update | update(i) | update | update(i);",
		"last | last(y) | last | return (y) => last(y);",
		"FUNC export const arrow = | BODY helper(a)",
		"helper | helper(a) | helper | <none>",
	}
	check(t, "ranges", got, want)
	if fn := f.Functions[0]; fn.EndByte != uint(strings.Index(src, "\nexport const")) {
		t.Errorf("function end %d", fn.EndByte)
	}
}

func TestTSX(t *testing.T) {
	src := `import { render } from "./r";
export function App({ items }: Props) {
  const [s, setS] = useState(0);
  return (
    <div onClick={() => setS(s + 1)} title={fmt("x")}>
      {items.map((i) => <Item key={i.id} {...props(i)} />)}
      <p>Don't {render(s)}</p>
    </div>
  );
}
`
	f := Parse("src/App.tsx", []byte(src))
	noErrors(t, f)
	if f.Lang != LangTSX {
		t.Errorf("lang %q", f.Lang)
	}
	check(t, "calls", projCalls(f), []string{
		"3:21 useState ident root=useState bind=module",
		"5:25 setS ident root=setS bind=local(const setS@3) nested",
		"5:45 fmt ident root=fmt bind=module",
		"6:8 items.map member root=items path=[map] bind=local(parameter items@2)",
		"6:46 props ident root=props bind=module nested",
		"7:17 render ident root=render bind=module",
	})
	// The same file as .ts does not parse: JSX needs the TSX grammar.
	if g := Parse("src/App.ts", []byte(src)); len(g.Errors) == 0 {
		t.Errorf("JSX parsed as .ts without errors")
	}
}
