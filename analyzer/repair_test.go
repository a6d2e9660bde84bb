package analyzer

import (
	"fmt"
	"strings"
	"testing"
)

// rawErrors parses src without repairs and counts the error sites.
func rawErrors(t *testing.T, path, src string) int {
	t.Helper()
	p := NewParser()
	defer p.Close()
	g := grammarTS
	if strings.HasSuffix(path, ".tsx") {
		g = grammarTSX
	}
	if !p.p.setLanguage(g) {
		t.Fatal("cannot set the grammar")
	}
	tr, n := p.build(g, []byte(src))
	if tr == nil {
		t.Fatal("no tree")
	}
	return n
}

// TestGrammarGaps: constructs TypeScript 5.9 accepts and tree-sitter-typescript
// v0.23.2 does not. Each must parse without errors and keep its meaning.
func TestGrammarGaps(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		check     func(t *testing.T, f *File)
	}{
		{"in variance", "function f<in T>(x: T) { g(x); }", func(t *testing.T, f *File) {
			check(t, "calls", projCalls(f), []string{"1:26 g ident root=g bind=module"})
		}},
		{"out variance", "type Box<out T> = { v: T };\nexport interface Sink<in T, out U extends T = T> { put(x: T): U }", func(t *testing.T, f *File) {
			check(t, "decls", projDecls(f), []string{"type Box L1", "type Sink L2"})
		}},
		{"in out variance", "export class Cell<in out T> { }\nexport function h() { z(); }", func(t *testing.T, f *File) {
			check(t, "exports", projExports(f), []string{"local Cell=Cell L1", "local h=h L2"})
			check(t, "calls", projCalls(f), []string{"2:23 z ident root=z bind=module"})
		}},
		{"type star", "export type * from \"./types\";\nexport * from \"./values\";", func(t *testing.T, f *File) {
			check(t, "exports", projExports(f), []string{`all = "./types" L1 type`, `all = "./values" L2`})
		}},
		{"type star as", "export type * as T from './types';", func(t *testing.T, f *File) {
			check(t, "exports", projExports(f), []string{`all-as T= "./types" L1 type`})
		}},
		{"for using", "function f(xs) {\n  for (using g of xs) {\n    g();\n  }\n  g();\n}", func(t *testing.T, f *File) {
			check(t, "calls", projCalls(f), []string{
				"3:5 g ident root=g bind=local(using g@2)",
				"5:3 g ident root=g bind=module"})
		}},
		{"for await using", "async function f(xs) {\n  for (await using g of xs) g();\n}", func(t *testing.T, f *File) {
			check(t, "calls", projCalls(f), []string{"2:29 g ident root=g bind=local(using g@2)"})
		}},
		{"for using named of", "function f(xs) { for (using of of xs) of(); }", func(t *testing.T, f *File) {
			check(t, "calls", projCalls(f), []string{"1:39 of ident root=of bind=local(using of@1)"})
		}},
		{"import type query with type arguments", "let a: import(\"./m\").Box<string>;\nexport function f(): import('./m').Map<K, Array<V>> { return g(); }",
			func(t *testing.T, f *File) {
				check(t, "calls", projCalls(f), []string{"2:62 g ident root=g bind=module"})
				check(t, "decls", projDecls(f), []string{"variable a L1", "function f L2 fn=f"})
			}},
		{"import defer", "import defer * as ns from \"./heavy\";\nfunction f() { ns.go(); }", func(t *testing.T, f *File) {
			check(t, "imports", projImports(f), []string{`namespace ns= "./heavy" L1`})
			check(t, "calls", projCalls(f), []string{"2:16 ns.go member root=ns path=[go] bind=module"})
		}},
		{"static accessor", "export class C {\n  static accessor x = 1;\n  private static accessor #y = g();\n  accessor z;\n}\nexport const k = () => h();", func(t *testing.T, f *File) {
			check(t, "decls", projDecls(f), []string{"class C L1", "function k L6 fn=k"})
			check(t, "calls", projCalls(f), []string{"6:24 h ident root=h bind=module"})
		}},
		// mobx: `declare const __MOBX_DEVTOOLS_GLOBAL_HOOK__: { injectMobx: (any) => void }`.
		{"function type whose parameter is named like a type keyword", "declare const hook: { inject: (any) => void };\nlet f: (string) => void;\nexport function g() { return f(\"x\"); }", func(t *testing.T, f *File) {
			check(t, "decls", projDecls(f), []string{"variable hook L1", "variable f L2", "function g L3 fn=g"})
			check(t, "calls", projCalls(f), []string{"3:30 f ident root=f bind=module"})
		}},
		// starlight: `collections: import('astro:content').ContentConfig['collections'] | undefined`.
		{"import type with an indexed access", "export const c: import('astro:content').ContentConfig['collections']['x'] | undefined;\nexport function f() { return g(); }", func(t *testing.T, f *File) {
			check(t, "decls", projDecls(f), []string{"variable c L1", "function f L2 fn=f"})
			check(t, "calls", projCalls(f), []string{"2:30 g ident root=g bind=module"})
		}},
		// starlight: `function resolveVirtualModuleId<T extends string>(id: T): `\0${T}``.
		{"escapes in a template literal type", "export function r<T extends string>(id: T): `\\0${T}\\n\\`` {\n  return `\\0${g(id)}\\u{1F600}` as any;\n}", func(t *testing.T, f *File) {
			check(t, "calls", projCalls(f), []string{"2:15 g ident root=g bind=module"})
		}},
		// hono's helper/factory: generic call signatures after a member without
		// `;`, object types in their type parameters, lists of any length.
		{"call signature with object types in its type parameters", "export interface Handlers<E, P extends string> {\n  <I extends Input = {}, R = any>(h1: H<E, P, I, R>): [H<E, P, I, R>]\n\n  // two\n  <\n    I1 extends Input = { k1: string; n: number },\n    I2 extends Input = { k2: string; n: number },\n    I3 extends Input = { k3: string; n: number },\n    I4 extends Input = { k4: string; n: number },\n    I5 extends Input = { k5: string; n: number },\n    I6 extends Input = { k6: string; n: number },\n    I7 extends Input = { k7: string; n: number },\n    I8 extends Input = { k8: string; n: number },\n    I9 extends Input = { k9: string; n: number },\n    I10 extends Input = { k10: string; n: number },\n    I11 extends Input = { k11: string; n: number },\n    I12 extends Input = { k12: string; n: number },\n  >(h1: H<E, P, I1>, h2: H<E, P, I2>): [H<E, P, I1>, H<E, P, I2>]\n}\nexport class Factory {\n  createHandlers(...hs: H[]) {\n    return hs.filter(keep);\n  }\n}\nexport const createFactory = () => new Factory();", func(t *testing.T, f *File) {
			var quals []string
			for _, fn := range f.Functions {
				quals = append(quals, fmt.Sprintf("%s %s L%d", fn.Qual, fn.Kind, fn.Line))
			}
			check(t, "functions", quals, []string{"Factory.createHandlers method L21", "createFactory function L25"})
			check(t, "calls", projCalls(f), []string{"25:36 Factory ident root=Factory bind=module new"})
			check(t, "decls", projDecls(f), []string{"type Handlers L1", "class Factory L20", "function createFactory L25 fn=createFactory"})
		}},
	} {
		for _, path := range []string{"x.ts", "x.tsx"} {
			t.Run(tc.name+"/"+path, func(t *testing.T) {
				if n := rawErrors(t, path, tc.src); n == 0 {
					t.Errorf("the grammar now parses this: the repair may be unnecessary")
				}
				f := Parse(path, []byte(tc.src))
				noErrors(t, f)
				tc.check(t, f)
			})
		}
	}
}

// TestRepairIsConservative: look-alikes are left alone.
func TestRepairIsConservative(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // calls
		errors    bool
	}{
		{"for in is not variance", "function f(o) { for (const k in o) k(); }", []string{"1:36 k ident root=k bind=local(const k@1)"}, false},
		{"mapped type in", "type M<T> = { [K in keyof T]: T[K] };\nfunction f() { g(); }", []string{"2:16 g ident root=g bind=module"}, false},
		{"strings and comments", "function f() {\n  const s = 'export type * from \"m\"'; // for (using x of y)\n  /* import defer * as n from 'x' */ g(`<in T>`);\n}",
			[]string{"3:38 g ident root=g bind=module"}, false},
		{"real error is kept", "function f<in T>() { g(; }", []string{"1:22 g ident root=g bind=module"}, true},
		{"a parameter named any in an arrow keeps its name", "let t: (any) => void;\nexport function f() { const o = { h: (any) => any.x() }; }", []string{"2:47 any.x member root=any path=[x] bind=local(parameter any@2) nested"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			if tc.errors != (len(f.Errors) > 0) {
				t.Errorf("errors: %v", projErrors(f))
			}
			check(t, "calls", projCalls(f), tc.want)
		})
	}
}

func TestTokenize(t *testing.T) {
	src := "a = b / c; d = /x[/]y/g.test(e); s = `t${ {u: 1}.u }v${w}`; // c\n/* c */ 'q\\'r' \"z\" 1.5e3 #p => x"
	var got []string
	for _, tk := range tokenize([]byte(src)) {
		got = append(got, string(tk.kind)+":"+src[tk.start:tk.end])
	}
	want := []string{"i:a", "p:=", "i:b", "p:/", "i:c", "p:;", "i:d", "p:=", "r:/x[/]y/g", "p:.", "i:test", "p:(", "i:e", "p:)", "p:;",
		"i:s", "p:=", "t:`t${", "p:{", "i:u", "p::", "n:1", "p:}", "p:.", "i:u", "t:}v${", "i:w", "t:}`", "p:;",
		`s:'q\'r'`, `s:"z"`, "n:1.5e3", "i:#p", "p:=>", "i:x"}
	check(t, "tokens", got, want)
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		errors    []string
		functions []string
		calls     []string
	}{
		{"missing paren", "function f() {\n  g(;\n}\nexport function h() { i(); }",
			[]string{"2:5 missing `)`"}, []string{"f 1:1 ()", "h 4:1 exported ()"},
			[]string{"f: 2:3 g ident root=g bind=module", "h: 4:23 i ident root=i bind=module"}},
		{"missing semicolon", "const a = 1\nconst b = 2 3", []string{"2:11 unexpected `2`"}, nil, nil},
		{"unclosed function", "export function f() {\n  g();\n", []string{"2:7 missing `}`"},
			[]string{"f 1:1 exported ()"}, []string{"2:3 g ident root=g bind=module"}},
		{"garbage between functions", "function f() { g(); }\n)))\nfunction h() { i(); }",
			[]string{"2:1 unexpected `)`"}, []string{"f 1:1 ()", "h 3:1 ()"},
			[]string{"f: 1:16 g ident root=g bind=module", "h: 3:16 i ident root=i bind=module"}},
		{"columns are utf-16", "const s = '😀'; )", []string{"1:17 unexpected `)`"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			check(t, "errors", projErrors(f), tc.errors)
			check(t, "functions", projFunctions(f), tc.functions)
			check(t, "calls", projCalls(f), tc.calls)
		})
	}
}

func TestParseNeverPanics(t *testing.T) {
	p := NewParser()
	defer p.Close()
	for _, src := range []string{"", "\x00", "\xff\xfe", "{{{{{{", strings.Repeat("(", 10000), "`${", "/*", "'",
		"export", "export default", "import", "export import x = require", "function", "async () =>"} {
		f := p.Parse("x.ts", []byte(src))
		checkInvariants(t, []byte(src), f)
		f = p.Parse("x.tsx", []byte(src))
		checkInvariants(t, []byte(src), f)
	}
	p.Close()
	if f := p.Parse("x.ts", []byte("f()")); len(f.Errors) != 1 {
		t.Errorf("closed parser: %v", f.Errors)
	}
}
