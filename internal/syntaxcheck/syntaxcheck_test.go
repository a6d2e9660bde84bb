package syntaxcheck

import (
	"strings"
	"testing"
)

// TestCheck: the loader follows the extension (JSX parses in .tsx and .jsx,
// a type annotation only in TypeScript), and an error names its line.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      string // "" = parses
	}{
		{"a.ts", "export const f = (x: number) => x;\n", ""},
		{"a.tsx", "export const C = () => <div>{1}</div>;\n", ""},
		{"a.jsx", "export const C = () => <div/>;\n", ""},
		{"a.js", "export const f = (x: number) => x;\n", "esbuild: line 1: "},
		{"a.mjs", "export const f = 1;\n", ""},
		{"a.ts", "const a = 1;\nfunction (\n", "esbuild: line 2: "},
		{"a.ts", "class C {\n  constructor(@Inject(T) t: T) {}\n}\n", ""},                 // a parameter decorator: experimental decorators (tsyringe's tests)
		{"a.ts", "class C {\n  @dec accessor x = 1;\n}\n", ""},                            // a standard decorator on an auto-accessor, which experimental ones refuse
		{"a.ts", "class C {\n  constructor(@Inject(T) t: T) {\n}\n", "esbuild: line 4: "}, // a syntax error still is one
	} {
		err := Check(tc.path, []byte(tc.src))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %q: %v", tc.path, tc.src, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s %q: %v, want %q...", tc.path, tc.src, err, tc.want)
		}
	}
}
