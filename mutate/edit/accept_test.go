package edit

import (
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
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

// TestAcceptingParsed: the rule given the original's tree gives the
// verdicts it gives parsing it; a tree of another source is not used.
func TestAcceptingParsed(t *testing.T) {
	pad := strings.Repeat("// padding to make the file big enough for windows\n", WindowFloor/40)
	orig := []byte(pad + "export function f(a: number, c: number): number {\n  const x = a + c;\n  return x;\n}\n")
	other := []byte(strings.Replace(string(orig), "const x = a + c;", "{}", 1)) // another source, another tree
	_, syn := analyzer.ParseSyntax("a.ts", orig)
	_, wrong := analyzer.ParseSyntax("a.ts", other)
	for _, tc := range []struct {
		name string
		a    Acceptance
	}{{"parsed here", Accepting("a.ts", orig)}, {"its tree", AcceptingParsed("a.ts", orig, syn)}, {"another's tree", AcceptingParsed("a.ts", orig, wrong)}} {
		good := []byte(strings.Replace(string(orig), "a + c", "a - c", 1))
		bad := []byte(strings.Replace(string(orig), "a + c", "a + + ;", 1))
		if !WindowAccepts(tc.a, good) || tc.a.Check(good) != nil {
			t.Errorf("%s: a valid mutant is not accepted in its window", tc.name)
		}
		if tc.a.Check(bad) == nil {
			t.Errorf("%s: a broken mutant is accepted", tc.name)
		}
		if errs := tc.a.CheckAll([]Mutant{mustMutant(t, orig, "a + c", "a - c"), mustMutant(t, orig, "a + c", "a + + ;")}); errs[0] != nil || errs[1] == nil {
			t.Errorf("%s: CheckAll %v", tc.name, errs)
		}
		tc.a.Close()
	}
}

// mustMutant is orig with the first from replaced by to.
func mustMutant(t *testing.T, orig []byte, from, to string) Mutant {
	i := strings.Index(string(orig), from)
	m, err := NewMutant("test", "", "a.ts", orig, []Change{{Start: uint(i), End: uint(i + len(from)), Text: to}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
