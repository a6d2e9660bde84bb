package lab

import (
	"cmp"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
)

const planSrc = `export const RATE = 2 * 3;

export function price(n: number): number {
  return n * RATE;
}
`

// planJobs are three mutants of planSrc: two in price's body (a schema
// switch holds them), one in module code (no switch: alone), the third
// with no test file of its own (no-coverage, no run).
func planJobs(t *testing.T) []Job {
	t.Helper()
	mutant := func(op edit.Operator, old, text string) edit.Mutant {
		at := strings.Index(planSrc, old)
		m, err := edit.NewMutant(op, "", "src/price.ts", []byte(planSrc), []edit.Change{{Start: uint(at), End: uint(at + len(old)), Text: text}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	return []Job{
		{Key: "a", Mutant: mutant("ArithmeticOperator", "n * RATE", "n / RATE")},
		{Key: "b", Mutant: mutant("ArithmeticOperator", "2 * 3", "2 / 3")},
		{Key: "c", Mutant: mutant("BlockStatement", "{\n  return n * RATE;\n}", "{}"), Tests: []string{"src/other.test.ts"}},
	}
}

// The plan says, before any mutant runs, what the lab will do with each:
// its test files, batched or alone and why (a schema's placement, Isolate),
// an early no-coverage; its text is the same for the same plan.
func TestPlan(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src/price.ts"), []byte(planSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []string{"src/price.test.ts", "src/total.test.ts"}
	cases := []struct {
		name string
		lab  Lab
		want string
	}{
		{"batched", Lab{Root: root}, `plan: 3 mutants, 2 to run (1 batched first, 1 alone), against 2 test files; a mutant's time limit derived from the slowest baseline (3 times it and 5 s, at least 10 s)
  batched: counted in the batch: 100 times the original's most in a test (at least 100000), a stop confirmed at 100 times that
  alone: counted alone: 10000000 hits in a test, raised to 10000 times the original's most when a stop asks
  src/price.ts:4 ArithmeticOperator [a]: batched tests src/price.test.ts, src/total.test.ts
  src/price.ts:1 ArithmeticOperator [b]: alone (no schema switch in this function shape: the change is outside a function body) tests src/price.test.ts, src/total.test.ts
  src/price.ts:3 BlockStatement [c]: no-coverage (no test file to run it against)
`},
		{"isolate, a time limit given", Lab{Root: root, Isolate: true, Timeout: 30 * time.Second}, `plan: 3 mutants, 2 to run (0 batched first, 2 alone), against 2 test files; a mutant's time limit 30s
  alone: counted alone: 10000000 hits in a test, raised to 10000 times the original's most when a stop asks
  src/price.ts:4 ArithmeticOperator [a]: alone (isolate) tests src/price.test.ts, src/total.test.ts
  src/price.ts:1 ArithmeticOperator [b]: alone (isolate) tests src/price.test.ts, src/total.test.ts
  src/price.ts:3 BlockStatement [c]: no-coverage (no test file to run it against)
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := c.lab
			l.alone, l.aloneWhy = l.Isolate, AloneIsolate
			tasks := newTasks(&l, planJobs(t))
			assign(tasks, tests, []string{"src/other.test.ts"}, nil)
			p := l.plan(tasks, tests, cmp.Or(l.Timeout, 12*time.Second)) // as ExecuteJobs: the lab's, else derived
			if got := p.String(); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			if p.Steps[0].Key != "a" || p.Steps[2].Early != NoCoverage || p.Steps[2].Tests != nil {
				t.Errorf("steps: %+v", p.Steps)
			}
		})
	}
}
