package operators

import (
	"os"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// TestWindowAgreesWithWhole: every candidate mutant of the gate's operators
// in the corpus's files of at least edit.WindowFloor bytes is accepted in
// its window exactly when the whole file accepts it (a window can only
// accept; a false acceptance would be a mutant vitest cannot load), and
// windows accept most of them (else they save nothing). Each eighth such
// file under 40 KB, each function's first 10 candidates (run with every
// file and 40 candidates a function: 6,305 mutants of 25 files, every one
// the same, 96% accepted in their window).
func TestWindowAgreesWithWhole(t *testing.T) {
	files, checked, windowed := 0, 0, 0
	for _, path := range corpus(t) {
		src, err := os.ReadFile(path)
		if err != nil || len(src) < edit.WindowFloor || len(src) > 40_000 {
			continue
		}
		if files++; files%8 != 1 {
			continue
		}
		f, syn := analyzer.ParseSyntax(path, src)
		if syn == nil || len(f.Errors) > 0 {
			continue
		}
		accept := edit.Accepting(path, src)
		ctx := &Context{Path: path, Src: src, Syn: syn}
		for _, fn := range f.Functions {
			body := syn.Find(fn.BodyStartByte, fn.BodyEndByte, "")
			if body < 0 {
				continue
			}
			cands := gateCandidates(ctx, body)
			for _, c := range cands[:min(len(cands), 10)] {
				m, err := edit.NewMutant(c.op.Name, "", path, src, c.Changes)
				if err != nil {
					continue
				}
				checked++
				whole := accept.CheckWhole(m.Source()) == nil
				if got := accept.Check(m.Source()) == nil; got != whole {
					t.Errorf("%s: %s at %d:%d %q: accepted in its window %v, whole %v", path, m.Operator, m.Original.Start.Line, m.Original.Start.Column, m.Replacement, got, whole)
				}
				if edit.WindowAccepts(accept, m.Source()) {
					windowed++
				}
			}
		}
		accept.Close()
	}
	t.Logf("%d files, %d mutants, %d accepted in their window", files, checked, windowed)
	if checked == 0 || windowed*2 < checked {
		t.Errorf("%d of %d mutants accepted in their window", windowed, checked)
	}
}

// TestWindowFallsBack: a statement that needs its real context (a label
// outside it, `super` of a method) is no window; the whole file decides.
func TestWindowFallsBack(t *testing.T) {
	pad := strings.Repeat("// padding to make the file big enough for windows\n", edit.WindowFloor/40)
	src := pad + "export class A extends Object {\n  m(): number {\n    outer: for (let i = 0; i < 3; i++) {\n      for (let j = 0; j < 3; j++) {\n        if (i > j) continue outer;\n      }\n    }\n    return super.toString().length + 1;\n  }\n}\n"
	accept := edit.Accepting("a.ts", []byte(src))
	defer accept.Close()
	for _, c := range [][2]string{{"i > j", "i >= j"}, {"length + 1", "length - 1"}} {
		out := strings.Replace(src, c[0], c[1], 1)
		if edit.WindowAccepts(accept, []byte(out)) {
			t.Errorf("%q → %q: accepted in a window that needs its context", c[0], c[1])
		}
		if err := accept.Check([]byte(out)); err != nil {
			t.Errorf("%q → %q: refused: %v", c[0], c[1], err)
		}
	}
}

// TestWindowRefuses: a mutant its window does not parse is refused, by
// either parser: tree-sitter's syntax error, and esbuild's alone (`??`
// mixed with `||` unparenthesized, which tree-sitter's grammar takes).
func TestWindowRefuses(t *testing.T) {
	pad := strings.Repeat("// padding to make the file big enough for windows\n", edit.WindowFloor/40)
	src := pad + "export function f(a: number, b: number | null, c: number): number {\n  const x = a + c;\n  const y = (b ?? 0) + x;\n  return y;\n}\n"
	accept := edit.Accepting("a.ts", []byte(src))
	defer accept.Close()
	for _, c := range [][2]string{{"a + c", "a + + ;"}, {"(b ?? 0) + x", "b ?? 0 || x"}} {
		out := []byte(strings.Replace(src, c[0], c[1], 1))
		if edit.WindowAccepts(accept, out) || accept.Check(out) == nil {
			t.Errorf("%q → %q: accepted", c[0], c[1])
		}
	}
	if out := []byte(strings.Replace(src, "a + c", "a - c", 1)); !edit.WindowAccepts(accept, out) {
		t.Errorf("a valid mutant is not accepted in its window")
	}
}

// TestCheckAllAgreesWithCheck: the gate's candidate mutants of the corpus's
// files of at least edit.WindowFloor bytes get from CheckAll (their windows
// checked together) exactly the verdicts Check gives each alone, refused
// ones among them. Each sixteenth such file under 40 KB, each function's
// first 30 candidates, every seventh made one tree-sitter refuses
// (`a + + ;`) and every seventh another one esbuild alone may refuse
// (`??` mixed with `||`).
func TestCheckAllAgreesWithCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("checks thousands of mutants one by one")
	}
	files, checked, refused := 0, 0, 0
	for _, path := range corpus(t) {
		src, err := os.ReadFile(path)
		if err != nil || len(src) < edit.WindowFloor || len(src) > 40_000 {
			continue
		}
		if files++; files%16 != 1 {
			continue
		}
		f, syn := analyzer.ParseSyntax(path, src)
		if syn == nil || len(f.Errors) > 0 {
			continue
		}
		ctx := &Context{Path: path, Src: src, Syn: syn}
		var ms []edit.Mutant
		for _, fn := range f.Functions {
			body := syn.Find(fn.BodyStartByte, fn.BodyEndByte, "")
			if body < 0 {
				continue
			}
			cands := gateCandidates(ctx, body)
			for k, c := range cands[:min(len(cands), 30)] {
				chs := c.Changes
				switch k % 7 {
				case 6:
					chs = []edit.Change{{Start: chs[0].Start, End: chs[0].End, Text: " + + ;"}}
				case 3:
					chs = []edit.Change{{Start: chs[0].Start, End: chs[0].End, Text: "(a ?? b || c)"}}
				}
				if m, err := edit.NewMutant(c.op.Name, "", path, src, chs); err == nil {
					ms = append(ms, m)
				}
			}
		}
		accept := edit.Accepting(path, src)
		all := accept.CheckAll(ms)
		for i, m := range ms {
			one := accept.Check(m.Source())
			if (all[i] == nil) != (one == nil) || all[i] != nil && all[i].Error() != one.Error() {
				t.Errorf("%s: %s at %d:%d %q: CheckAll %v, Check %v", path, m.Operator, m.Original.Start.Line, m.Original.Start.Column, m.Replacement, all[i], one)
			}
			if one != nil {
				refused++
			}
		}
		checked += len(ms)
		accept.Close()
	}
	t.Logf("%d mutants, %d refused", checked, refused)
	if checked == 0 || refused == 0 {
		t.Errorf("%d mutants, %d refused: nothing compared", checked, refused)
	}
}
