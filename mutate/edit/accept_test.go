package edit

import (
	"strings"
	"testing"
)

// TestAcceptance: the one rule for a mutated source: no more tree-sitter
// errors than the original, and esbuild's parser accepts it; the error says
// which refused it and where.
func TestAcceptance(t *testing.T) {
	orig := []byte("function f(a: number) {\n  if (a) save(a);\n  return a;\n}\n")
	a := Accepting("x.ts", orig)
	defer a.Close()
	for _, tc := range []struct{ src, err string }{
		{"function f(a: number) {\n  if (a) ;\n  return a;\n}\n", ""},
		{"function f(a: number) {\n  if (a) save(a);\n  return a;\n}\n", ""},
		{"function f(a: number) {\n  if () save(a);\n  return a;\n}\n", "line 2: "},
		// tree-sitter reads it, esbuild (what vitest runs) does not
		{"function f(a: number) {\n  let b = 1; let b = 2;\n  return a;\n}\n", `esbuild: line 2: The symbol "b" has already been declared`},
		{"function f(a: number) {\n  break;\n  return a;\n}\n", `esbuild: line 2: Cannot use "break" here`},
	} {
		err := a.Check([]byte(tc.src))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q refused: %v", tc.src, err)
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
			t.Errorf("%q: got %v, want %s...", tc.src, err, tc.err)
		}
	}
	// An original with a parse error: a mutant keeping it is not refused
	// for it by tree-sitter (esbuild still must accept the result).
	broken := Accepting("y.ts", []byte("function f() {\n  return 1 +;\n}\nconst x = <T,>(a: T) => a;\n"))
	defer broken.Close()
	if err := broken.Check([]byte("function f() {\n  return 2 +;\n}\n")); err == nil || !strings.HasPrefix(err.Error(), "esbuild: ") {
		t.Errorf("got %v", err)
	}
}
