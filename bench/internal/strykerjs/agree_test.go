package strykerjs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAgree(t *testing.T) {
	at := func(line, col int, repl, status string) Mutant {
		return Mutant{File: "src/a.ts", Line: line, Column: col, EndLine: line, EndColumn: col + 3, Replacement: repl, Status: status}
	}
	cases := []struct {
		name                           string
		stryker, gate                  []Mutant
		both, same, onlyS, onlyG, diff int
	}{
		{"same span, same verdict", []Mutant{at(1, 1, "a - b", "Killed")}, []Mutant{at(1, 1, "a - b", "killed")}, 1, 1, 0, 0, 0},
		{"timeout counts as killed", []Mutant{at(1, 1, "x", "Timeout")}, []Mutant{at(1, 1, "x", "killed")}, 1, 1, 0, 0, 0},
		{"no coverage against survived agree", []Mutant{at(1, 1, "x", "NoCoverage")}, []Mutant{at(1, 1, "x", "survived")}, 1, 1, 0, 0, 0},
		{"whitespace in the replacement", []Mutant{at(2, 5, "{\n  }", "Survived")}, []Mutant{at(2, 5, "{}", "survived")}, 1, 1, 0, 0, 0},
		{"a disagreement", []Mutant{at(3, 1, "false", "Survived")}, []Mutant{at(3, 1, "false", "killed")}, 1, 0, 0, 0, 1},
		{"other replacement at the same span", []Mutant{at(3, 1, "true", "Killed")}, []Mutant{at(3, 1, "false", "killed")}, 0, 0, 1, 1, 0},
		{"other span", []Mutant{at(3, 1, "x", "Killed")}, []Mutant{at(4, 1, "x", "killed")}, 0, 0, 1, 1, 0},
		{"two of the same kind", []Mutant{at(5, 1, "x", "Killed"), at(5, 1, "x", "Survived")}, []Mutant{at(5, 1, "x", "killed")}, 1, 1, 1, 0, 0},
	}
	for _, c := range cases {
		a := Agree(c.stryker, c.gate)
		if a.Both != c.both || a.Same != c.same || a.OnlyStryker != c.onlyS || a.OnlyGate != c.onlyG || len(a.Differ) != c.diff {
			t.Errorf("%s: both %d same %d only StrykerJS %d only gate %d differ %d; want %d %d %d %d %d",
				c.name, a.Both, a.Same, a.OnlyStryker, a.OnlyGate, len(a.Differ), c.both, c.same, c.onlyS, c.onlyG, c.diff)
		}
	}
}

func TestReadReportMutants(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mutation.json")
	doc := `{"files":{"src/b.ts":{"mutants":[{"status":"Survived","mutatorName":"BooleanLiteral","replacement":"false",
"location":{"start":{"line":4,"column":10},"end":{"line":4,"column":14}}}]},
"src/a.ts":{"mutants":[{"status":"Killed","mutatorName":"EqualityOperator","replacement":"a !== b",
"location":{"start":{"line":2,"column":3},"end":{"line":2,"column":10}}}]}}}`
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := ReadReport(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []Mutant{
		{File: "src/a.ts", Line: 2, Column: 3, EndLine: 2, EndColumn: 10, Replacement: "a !== b", MutatorName: "EqualityOperator", Status: "Killed"},
		{File: "src/b.ts", Line: 4, Column: 10, EndLine: 4, EndColumn: 14, Replacement: "false", MutatorName: "BooleanLiteral", Status: "Survived"},
	}
	if len(r.List) != len(want) {
		t.Fatalf("got %d mutants, want %d: %+v", len(r.List), len(want), r.List)
	}
	for i := range want {
		if r.List[i] != want[i] {
			t.Errorf("mutant %d: got %+v, want %+v", i, r.List[i], want[i])
		}
	}
}

func TestInstallArgsTypescript(t *testing.T) {
	dir := t.TempDir()
	has := func() bool {
		args := installArgs(dir)
		return args[len(args)-1] == "typescript@5"
	}
	if has() {
		t.Errorf("no tsconfig.json: typescript added")
	}
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !has() {
		t.Errorf("tsconfig.json and no typescript installed: typescript not added")
	}
	ts := filepath.Join(dir, "node_modules", "typescript")
	if err := os.MkdirAll(ts, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ts, "package.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if has() {
		t.Errorf("typescript installed: added again")
	}
}
