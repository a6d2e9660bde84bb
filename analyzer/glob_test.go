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
