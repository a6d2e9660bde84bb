package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// TestScore: (killed + timeout) / (killed + timeout + survived +
// no-coverage) per file, errors apart; any file below the threshold fails
// the gate, naming it.
func TestScore(t *testing.T) {
	m := func(file, outcome string) Mutant {
		return Mutant{File: file, Decision: lab.Decision{Outcome: lab.Outcome(outcome)}}
	}
	for _, tc := range []struct {
		name      string
		threshold float64
		mutants   []Mutant
		want      string // verdict score detected/total, per file
	}{
		{"all killed", 70, []Mutant{m("a.ts", "killed"), m("a.ts", "timeout")}, "PASS 100 2/2 [a.ts 100 2/2 e0]"},
		{"a survivor under the threshold", 70, []Mutant{m("a.ts", "killed"), m("a.ts", "survived")}, "FAIL 50 1/2 [a.ts 50 1/2 e0]"},
		{"no-coverage counts against", 50, []Mutant{m("a.ts", "killed"), m("a.ts", "no-coverage")}, "PASS 50 1/2 [a.ts 50 1/2 e0]"},
		{"errors apart", 100, []Mutant{m("a.ts", "killed"), m("a.ts", "error")}, "PASS 100 1/1 [a.ts 100 1/1 e1]"},
		{"one weak file fails the gate", 70, []Mutant{m("a.ts", "killed"), m("b.ts", "survived"), m("b.ts", "killed"), m("b.ts", "survived")},
			"FAIL 50 2/4 [a.ts 100 1/1 e0] [b.ts 33 1/3 e0]"},
		{"nothing scored: 0, as every SKIP reads (class-transformer e34e1ae said 100)", 70, nil, "PASS 0 0/0"},
		{"a file of errors only scores 0 and fails nothing", 70, []Mutant{m("a.ts", "killed"), m("b.ts", "error")}, "PASS 100 1/1 [a.ts 100 1/1 e0] [b.ts 0 0/0 e1]"},
	} {
		res := &Result{Threshold: tc.threshold, Mutants: tc.mutants}
		score(res)
		got := fmt.Sprintf("%s %.0f %d/%d", res.Verdict, res.Score, res.Detected, res.Total)
		for _, f := range res.Files {
			got += fmt.Sprintf(" [%s %.0f %d/%d e%d]", f.File, f.Score, f.Detected, f.Total, f.Errors)
		}
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestMutantsStage: mutants go on the lines the change wrote (a span that
// reaches a changed line counts), or everywhere in the function with
// --scope function; the shards split the mutants by their index among all,
// each exactly once, keeping each mutant's index in its target.
func TestMutantsStage(t *testing.T) {
	src := []byte("export function f(a: number): number {\n  if (a > 1) {\n    return a + 1;\n  }\n  return a - 1;\n}\n")
	file := analyzer.Parse("src/f.ts", src)
	build := func(scope string, k, n int, ch change.Change) [][]*mutant {
		j := &job{target: &Target{ID: "src/f.ts#f", File: "src/f.ts"}, fn: file.Functions[0]}
		ms, _, _ := mutants([]*job{j}, map[string][]byte{"src/f.ts": src}, ch, nil, nil, Options{Scope: scope, Shard: Shard{K: k, N: n}})
		return [][]*mutant{ms}
	}
	lines := func(ms []*mutant) string {
		var out []string
		for _, mu := range ms {
			out = append(out, fmt.Sprintf("%d@%d", mu.index, mu.edit.Original.Start.Line))
		}
		return strings.Join(out, " ")
	}
	all := build(ScopeFunction, 0, 0, change.Change{"src/f.ts": {{5, 5}}})[0]
	onLine5 := build(ScopeLines, 0, 0, change.Change{"src/f.ts": {{5, 5}}})[0]
	if len(all) <= len(onLine5) || len(onLine5) == 0 {
		t.Fatalf("function scope %d mutants, line 5 scope %d", len(all), len(onLine5))
	}
	for _, mu := range onLine5 {
		if m := mu.edit; m.Original.Start.Line > 5 || m.Original.End.Line < 5 {
			t.Errorf("mutant %d (%s) spans lines %d-%d, off the changed line 5", mu.index, m.Operator, m.Original.Start.Line, m.Original.End.Line)
		}
	}
	// The body block spans line 5: its removal counts on a change to line 5.
	if !strings.HasPrefix(lines(onLine5), "0@1") {
		t.Errorf("the body's BlockStatement (index 0, line 1) is not among line 5's mutants: %s", lines(onLine5))
	}
	seen := map[string]int{}
	for k := 1; k <= 3; k++ {
		for _, part := range strings.Fields(lines(build(ScopeFunction, k, 3, change.Change{"src/f.ts": nil})[0])) {
			seen[part]++
		}
	}
	for _, part := range strings.Fields(lines(all)) {
		if seen[part] != 1 {
			t.Errorf("mutant %s in %d shards", part, seen[part])
		}
		delete(seen, part)
	}
	if len(seen) != 0 {
		t.Errorf("shards made mutants the whole run does not: %v", seen)
	}
}

// TestMutantsOfADecoratedClass: a method of a class whose constructor has a
// parameter decorator (NestJS, tsyringe: TypeScript's experimental
// decorators) has its mutants; every one was refused as a syntax error, and
// a tested change was SKIP "no mutant could be built".
func TestMutantsOfADecoratedClass(t *testing.T) {
	src := []byte("export class S {\n  constructor(@Inject(\"RATE\") private readonly rate: number) {}\n\n  price(a: number): number {\n    return a * this.rate;\n  }\n}\n")
	file := analyzer.Parse("src/s.ts", src)
	var fn *analyzer.Function
	for i := range file.Functions {
		if file.Functions[i].Name == "price" && file.Functions[i].Class == "S" {
			fn = file.Functions[i]
		}
	}
	if fn == nil {
		t.Fatalf("no method price among %d functions", len(file.Functions))
	}
	j := &job{target: &Target{ID: "src/s.ts#S.price", File: "src/s.ts"}, fn: fn}
	ms, _, _ := mutants([]*job{j}, map[string][]byte{"src/s.ts": src}, change.Change{"src/s.ts": {{5, 5}}}, nil, nil, Options{Scope: ScopeLines})
	if len(ms) == 0 {
		t.Errorf("no mutant of `return a * this.rate;`")
	}
}

// TestWithoutInSourceTests: what a change wrote inside an in-source test
// block (`if (import.meta.vitest) { ... }`) is the file's tests, not its
// code: taken out of the change's tokens (a span across the block keeps
// the parts outside it); the code around stays.
func TestWithoutInSourceTests(t *testing.T) {
	root := t.TempDir()
	src := "export function add(a: number, b: number) {\n  return a + b;\n}\n\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it(\"adds\", () => { expect(add(1, 2)).toBe(3); });\n}\nexport const TWO = 2;\n"
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src/add.ts"), []byte(src), 0o644)
	os.WriteFile(filepath.Join(root, "src/plain.ts"), []byte("export const x = 1;\n"), 0o644)
	at := func(s string) int { return strings.Index(src, s) }
	block := change.Span{Start: at("if (import"), End: at("export const TWO")}
	inside := change.Span{Start: at("toBe(3)") + 5, End: at("toBe(3)") + 6}
	code := change.Span{Start: at("a + b"), End: at("a + b") + 5}
	across := change.Span{Start: at("TWO") - 20, End: at("TWO") + 3}
	toks := change.Tokens{"src/add.ts": {code, inside, across}, "src/plain.ts": {{Start: 0, End: 5}}}
	withoutInSourceTests(root, toks)
	want := []change.Span{code, {Start: block.End - 1, End: across.End}}
	if got := toks["src/add.ts"]; len(got) != 2 || got[0] != want[0] || got[1].End != want[1].End || got[1].Start < block.End-1 {
		t.Errorf("spans %v, want the code's %v and the part after the block, ending at %d (block %v)", got, code, across.End, block)
	}
	if got := toks["src/plain.ts"]; len(got) != 1 {
		t.Errorf("a file without in-source tests: %v", got)
	}
}
