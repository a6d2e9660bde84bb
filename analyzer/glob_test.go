package analyzer

import (
	"fmt"
	"testing"
)

// TestGlobs: an import.meta.glob whose patterns and options are written
// down is a Glob (patterns, eager, import); any other is an OpaqueLoad.
func TestGlobs(t *testing.T) {
	for _, tc := range []struct {
		name, src   string
		globs, opaq string
	}{
		{"lazy", "const ms = import.meta.glob('./dir/*.ts');", "[{[./dir/*.ts] false  1}]", "[]"},
		{"eager array, negative", "const ms = import.meta.glob(['./a/*.ts', '!./a/skip.ts'], { eager: true });", "[{[./a/*.ts !./a/skip.ts] true  1}]", "[]"},
		{"import option", "const ms = import.meta.glob<Fn>(\"/src/pages/**/*.tsx\", { import: 'default', eager: false });", "[{[/src/pages/**/*.tsx] false default 1}]", "[]"},
		{"quoted keys, template literal", "const ms = import.meta.glob(`@/x/*.ts`, { 'eager': true, \"import\": \"setup\", query: '?raw' });", "[{[@/x/*.ts] true setup 1}]", "[]"},
		{"globEager", "function f() {\n  return import.meta.globEager('./m/*.ts');\n}", "[{[./m/*.ts] true  2}]", "[]"},
		{"computed pattern", "const ms = import.meta.glob(dir + '/*.ts');", "[]", "[{import.meta.glob 1}]"},
		{"computed element", "const ms = import.meta.glob(['./a/*.ts', x]);", "[]", "[{import.meta.glob 1}]"},
		{"base option", "const ms = import.meta.glob('./*.ts', { base: './src' });", "[]", "[{import.meta.glob 1}]"},
		{"computed eager", "const ms = import.meta.glob('./*.ts', { eager: flag });", "[]", "[{import.meta.glob 1}]"},
		{"options by name", "const ms = import.meta.glob('./*.ts', opts);", "[]", "[{import.meta.glob 1}]"},
		{"spread options", "const ms = import.meta.glob('./*.ts', { ...opts });", "[]", "[{import.meta.glob 1}]"},
		{"in a string", "const s = \"import.meta.glob('./*.ts')\";", "[]", "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse("src/a.ts", []byte(tc.src))
			var globs []string
			for _, g := range f.Globs {
				globs = append(globs, fmt.Sprintf("{%v %v %s %d}", g.Patterns, g.Eager, g.Import, g.Line))
			}
			if got := fmt.Sprintf("%v", globs); got != tc.globs {
				t.Errorf("globs = %s, want %s", got, tc.globs)
			}
			if got := fmt.Sprintf("%v", f.OpaqueLoads); got != tc.opaq {
				t.Errorf("opaque loads = %s, want %s", got, tc.opaq)
			}
		})
	}
}

// TestImportUses: an import whose local the code never reads is Unused;
// a namespace read only as `ns.name` lists the names (Members); types,
// the import statements themselves and property names are no reads; JSX
// and decorators turn the marking off.
func TestImportUses(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            string
	}{
		{"unused and used", "a.ts", "import { a, b } from './m';\nimport c from './c';\nexport const x = a();\n", "[a: b:unused c:unused]"},
		{"a type read only", "a.ts", "import { A, f } from './m';\nlet v: A;\nconst o = { f: 1 };\no.f;\n", "[A:unused f:unused]"},
		{"shorthand, export, typeof", "a.ts", "import { a, b, c } from './m';\nexport const o = { a };\nexport { b };\nconst z = 1 as unknown as typeof c;\n", "[a: b: c:]"},
		{"namespace members", "a.ts", "import * as ns from './m';\nns.f(1);\nconst v = ns.g;\nns?.h();\n", "[ns:[f g h]]"},
		{"namespace passed whole", "a.ts", "import * as ns from './m';\nns.f(1);\nuse(ns);\n", "[ns:]"},
		{"namespace computed", "a.ts", "import * as ns from './m';\nns['f']();\n", "[ns:]"},
		{"namespace unused", "a.ts", "import * as ns from './m';\n", "[ns:unused]"},
		{"shadowed: still a read", "a.ts", "import { a } from './m';\nfunction g(a: number) { return a; }\n", "[a:]"},
		{"jsx", "a.tsx", "import { h, b } from './m';\nexport const v = <div />;\n", "[h: b:]"},
		{"decorators", "a.ts", "import { Svc } from './m';\n@dec class A { constructor(s: Svc) {} }\n", "[Svc:]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse(tc.path, []byte(tc.src))
			var got []string
			for _, im := range f.Imports {
				s := im.Local + ":"
				switch {
				case im.Unused:
					s += "unused"
				case im.Members != nil:
					s += fmt.Sprint(im.Members)
				}
				got = append(got, s)
			}
			if fmt.Sprint(got) != tc.want {
				t.Errorf("got %v, want %s", got, tc.want)
			}
		})
	}
}
