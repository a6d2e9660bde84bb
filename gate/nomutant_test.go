package gate

import (
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// TestNoMutantReason: a gate that scored no mutant says why: every mutant
// an error (never counted; unjs/rou3 0eed2e8, whose two mutants failed the
// test file's collection, said "no mutant could be built"), a shard with
// none of the mutants, or none built.
func TestNoMutantReason(t *testing.T) {
	errs := &Result{Targets: []Target{{ID: "src/_utils.ts#EmptyObject"}}, Mutants: []Mutant{
		{ID: "src/_utils.ts#EmptyObject.<arrow>#1", Decision: lab.Decision{Outcome: lab.Error, Detail: "the mutated code failed outside every test"}},
		{ID: "src/_utils.ts#EmptyObject.<arrow>#2", Decision: lab.Decision{Outcome: lab.Error, Detail: "the same"}},
	}}
	if got, want := noMutantReason(errs, 2), "every mutant of the change was an error (2), and errors are never counted: src/_utils.ts#EmptyObject.<arrow>#1: the mutated code failed outside every test"; got != want {
		t.Errorf("all errors: %q\nwant %q", got, want)
	}
	if got := noMutantReason(&Result{Targets: []Target{{ID: "a"}}}, 0); got != "no mutant could be built on what the change touched" {
		t.Errorf("none: %q", got)
	}
	if got := noMutantReason(&Result{Shard: "2/3", Identity: &Identity{Mutants: 1}}, 0); !strings.HasPrefix(got, "shard 2/3 is empty") {
		t.Errorf("an empty shard: %q", got)
	}
}
