package analyzer

import "testing"

func TestLangFor(t *testing.T) {
	for _, tc := range []struct {
		path string
		lang Lang
		ok   bool
	}{
		{"a.ts", LangTS, true}, {"a.mts", LangTS, true}, {"a.cts", LangTS, true},
		{"types/a.d.ts", LangTS, true}, {"a.d.mts", LangTS, true}, {"c/App.tsx", LangTSX, true},
		{"a.js", "", false}, {"a.jsx", "", false}, {"README.md", "", false}, {"ts", "", false},
		{"a.TS", LangTS, true},
	} {
		lang, ok := LangFor(tc.path)
		if lang != tc.lang || ok != tc.ok {
			t.Errorf("LangFor(%q) = %q, %v; want %q, %v", tc.path, lang, ok, tc.lang, tc.ok)
		}
	}
}

func TestImports(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"named", `import { a } from "m";`, []string{`named a=a "m" L1`}},
		{"aliased", `import { a as b, c } from "./m";`, []string{`named b=a "./m" L1`, `named c=c "./m" L1`}},
		{"default as", `import { default as x } from "m";`, []string{`named x=default "m" L1`}},
		{"string name", `import { "a b" as c } from "m";`, []string{`named c=a b "m" L1`}},
		{"default", `import x from 'm';`, []string{`default x=default "m" L1`}},
		{"namespace", `import * as ns from "m";`, []string{`namespace ns= "m" L1`}},
		{"default and named", "import x, { a, b as c } from \"m\";",
			[]string{`default x=default "m" L1`, `named a=a "m" L1`, `named c=b "m" L1`}},
		{"default and namespace", `import x, * as ns from "m";`,
			[]string{`default x=default "m" L1`, `namespace ns= "m" L1`}},
		{"require", `import fs = require("fs");`, []string{`require fs=default "fs" L1`}},
		{"type require", `import type fs = require("fs");`, []string{`require fs=default "fs" L1 type`}},
		{"export import require", "export import fs = require(\"fs\");\nfs.readFileSync();",
			[]string{`require fs=default "fs" L1`}},
		{"side effect", `import "./polyfill";`, []string{`side-effect = "./polyfill" L1`}},
		{"type named", `import type { A, B as C } from "m";`,
			[]string{`named A=A "m" L1 type`, `named C=B "m" L1 type`}},
		{"type default", `import type D from "m";`, []string{`default D=default "m" L1 type`}},
		{"type namespace", `import type * as T from "m";`, []string{`namespace T= "m" L1 type`}},
		{"inline type", `import { type A, b } from "m";`, []string{`named A=A "m" L1 type`, `named b=b "m" L1`}},
		{"multi-line", "import {\n  a,\n  b,\n} from \"m\";\nimport c from \"n\";",
			[]string{`named a=a "m" L1`, `named b=b "m" L1`, `default c=default "n" L5`}},
		{"attributes", `import data from "./d.json" with { type: "json" };`, []string{`default data=default "./d.json" L1`}},
		{"defer", `import defer * as ns from "m";`, []string{`namespace ns= "m" L1`}},
		{"default named defer", `import defer from "m";`, []string{`default defer=default "m" L1`}},
		{"escaped specifier", `import a from "./\u0061";`, []string{`default a=default "./u0061" L1`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "imports", projImports(f), tc.want)
		})
	}
}

func TestExports(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"function", `export function f() {}`, []string{`local f=f L1`}},
		{"async generator", `export async function* g() {}`, []string{`local g=g L1`}},
		{"const", `export const a = 1, b = () => 2;`, []string{`local a=a L1`, `local b=b L1`}},
		{"destructured", `export const { a, b: [c] } = o;`, []string{`local a=a L1`, `local c=c L1`}},
		{"let var", "export let a;\nexport var b;", []string{`local a=a L1`, `local b=b L2`}},
		{"class", `export class C {}`, []string{`local C=C L1`}},
		{"abstract class", `export abstract class C {}`, []string{`local C=C L1`}},
		{"enum", `export enum E { A }`, []string{`local E=E L1`}},
		{"const enum", `export const enum E { A }`, []string{`local E=E L1`}},
		{"namespace", `export namespace N { export const x = 1; }`, []string{`local N=N L1`}},
		{"type namespace", `export namespace N { export type T = 1; }`, []string{`local N=N L1 type`}},
		{"declare", `export declare const x: number;`, []string{`local x=x L1`}},
		{"declare function", `export declare function f(): void;`, []string{`local f=f L1`}},
		{"overloads", "export function f(a: string): void;\nexport function f(a: any) {}", []string{`local f=f L1`}},
		{"interface", `export interface I {}`, []string{`local I=I L1 type`}},
		{"type alias", `export type T = string;`, []string{`local T=T L1 type`}},
		{"list", `export { a, b as c };`, []string{`local a=a L1`, `local c=b L1`}},
		{"list as default", `export { a as default };`, []string{`local default=a L1`}},
		{"list string name", `export { a as "a b" };`, []string{`local a b=a L1`}},
		{"type list", `export type { A, B as C };`, []string{`local A=A L1 type`, `local C=B L1 type`}},
		{"inline type", `export { type A, b };`, []string{`local A=A L1 type`, `local b=b L1`}},
		{"from", `export { a, b as c } from "./m";`, []string{`from a=a "./m" L1`, `from c=b "./m" L1`}},
		{"default from", `export { default } from "./m";`, []string{`from default=default "./m" L1`}},
		{"default as from", `export { default as X } from "./m";`, []string{`from X=default "./m" L1`}},
		{"as default from", `export { a as default } from "./m";`, []string{`from default=a "./m" L1`}},
		{"type from", `export type { T } from "./m";`, []string{`from T=T "./m" L1 type`}},
		{"star", `export * from "./m";`, []string{`all = "./m" L1`}},
		{"star as", `export * as ns from "./m";`, []string{`all-as ns= "./m" L1`}},
		{"type star", `export type * from "./types";`, []string{`all = "./types" L1 type`}},
		{"type star as", `export type * as T from "./types";`, []string{`all-as T= "./types" L1 type`}},
		{"default identifier", `export default foo;`, []string{`local default=foo L1`}},
		{"default parenthesized identifier", `export default (foo);`, []string{`local default=foo L1`}},
		{"default function", `export default function foo() {}`, []string{`local default=foo L1`}},
		{"default anonymous function", `export default function () {}`, []string{`local default=default L1`}},
		{"default async arrow", `export default async () => {};`, []string{`local default=default L1`}},
		{"default generator", `export default function* () {}`, []string{`local default=default L1`}},
		{"default class", `export default class Foo {}`, []string{`local default=Foo L1`}},
		{"default anonymous class", `export default class {}`, []string{`expression default= L1`}},
		{"default interface", `export default interface I {}`, []string{`local default=I L1 type`}},
		{"default expression", `export default { a: 1 };`, []string{`expression default= L1`}},
		{"default call", `export default make();`, []string{`expression default= L1`}},
		{"export equals", `export = foo;`, []string{`local default=foo L1`}},
		{"export equals expression", `export = { a: 1 };`, []string{`expression default= L1`}},
		{"export import", `export import fs = require("fs");`, []string{`local fs=fs L1`}},
		{"umd", `export as namespace Lib;`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "exports", projExports(f), tc.want)
		})
	}
}

func TestDecls(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"function", "function f() {}\nexport function g() {}", []string{"function f L1 fn=f", "function g L2 fn=g"}},
		{"arrow const", "const f = () => 1;\nlet g = function () {};", []string{"function f L1 fn=f", "function g L2 fn=g"}},
		{"variables", "const a = 1, { b, c: [d], ...e } = o;\nvar [f = 1] = arr;",
			[]string{"variable a L1", "variable b L1", "variable d L1", "variable e L1", "variable f L2"}},
		{"class enum", "class C {}\nabstract class A {}\nenum E { X }", []string{"class C L1", "class A L2", "enum E L3"}},
		{"types", "interface I {}\ntype T = 1;", []string{"type I L1", "type T L2"}},
		{"namespace with values", "namespace N { export const x = 1; }", []string{"namespace N L1"}},
		{"namespace with types only", "namespace N { export interface I {} type T = 1; }", []string{"type N L1"}},
		{"nested namespace", "namespace A.B { export const x = 1; }", []string{"namespace A L1"}},
		{"module augmentation", `declare module "m" { export function f(): void; }`, nil},
		{"global", `declare global { interface Window { x: 1 } }`, nil},
		{"ambient", "declare const x: number;\ndeclare function g(): void;\ndeclare class K {}",
			[]string{"variable x L1", "function g L2", "class K L3"}},
		{"overloads", "function f(a: string): void;\nfunction f(a: number): void;\nfunction f(a: any) {}",
			[]string{"function f L3 fn=f"}},
		{"default function", "export default function foo() {}", []string{"function foo L1 fn=foo"}},
		{"default anonymous", "export default function () {}", nil},
		{"import alias", "import q = A.B;", []string{"variable q L1"}},
		{"using", "using r = open();", []string{"variable r L1"}},
		{"exported", "export const a = 1;\nexport class C {}", []string{"variable a L1", "class C L2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "decls", projDecls(f), tc.want)
		})
	}
}

func TestFunctions(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"declaration", "function f(a, b) {}", []string{"f 1:1 (a b)"}},
		{"exported", "\nexport function f() {}", []string{"f 2:1 exported ()"}},
		{"async", "export async function f() {}", []string{"f 1:1 exported async ()"}},
		{"generator", "function* g() {}\nasync function* h() {}", []string{"g 1:1 ()", "h 2:1 async ()"}},
		{"default named", "export default function foo() {}", []string{"foo 1:1 exported default ()"}},
		{"default anonymous", "export default function (x) {}", []string{"default 1:1 exported default (x)"}},
		{"default async arrow", "export default async () => {};", []string{"default 1:1 exported default async ()"}},
		{"default arrow param", "export default x => x;", []string{"default 1:1 exported default (x)"}},
		{"const arrow", "const f = (a) => a;\nexport const g = async (b) => b;",
			[]string{"f 1:1 (a)", "g 2:1 exported async (b)"}},
		{"function expression", "let f = function named() {};\nvar g = function* () {};",
			[]string{"f 1:1 ()", "g 2:1 ()"}},
		{"wrapped arrow", "const f = ((x) => x) as H;\nconst g = (async () => 1) satisfies H;",
			[]string{"f 1:1 (x)", "g 2:1 async ()"}},
		{"exported later", "function f() {}\nconst g = () => 1;\nfunction h() {}\nexport { f, g as gg };",
			[]string{"f 1:1 exported ()", "g 2:1 exported ()", "h 3:1 ()"}},
		// Not Default: the function keeps its name (the checker's id is file#f).
		{"exported as default later", "function f() {}\nexport default f;", []string{"f 1:1 exported ()"}},
		{"exported as default by list", "function f() {}\nexport { f as default };", []string{"f 1:1 exported ()"}},
		{"type export does not export", "function f() {}\nexport type { f };", []string{"f 1:1 ()"}},
		{"overloads", "function f(a: string): void;\nfunction f(a: any): any { return a; }", []string{"f 2:1 (a)"}},
		{"declare", "declare function f(): void;", nil},
		{"not values", "const a = 1;\nclass C { m() {} }\nconst o = { m() {} };", nil},
		{"nested not top-level", "function f() { function g() {} const h = () => 1; }", []string{"f 1:1 ()"}},
		{"params", "function f(a: string, b?: number, c = 1, ...d: any[]) {}", []string{"f 1:1 (a b? c? ...d)"}},
		{"this param", "function f(this: Window, a) {}", []string{"f 1:1 (a)"}},
		{"destructuring params", "function f({ a, b: [c, d = 2], ...e }: X, [g, , ...h] = []) {}",
			[]string{"f 1:1 ({a,c,d,e} {g,h}?)"}},
		{"rest pattern", "function f(...[a, b]) {}", []string{"f 1:1 (...{a,b})"}},
		{"object default", "function f({ a = 1 } = {}) {}", []string{"f 1:1 ({a}?)"}},
		{"multi declarators", "const a = 1, f = () => 2;", []string{"f 1:1 ()"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseTS(t, tc.src)
			noErrors(t, f)
			check(t, "functions", projFunctions(f), tc.want)
		})
	}
}
