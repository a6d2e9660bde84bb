package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
)

// A Plan is what the lab does with each mutant, decided once the baselines
// (and their coverage runs) have run and before any mutant runs: StrykerJS's
// mutant-test plan, go/analysis's action graph. With Lab.PlanOnly,
// ExecuteJobs makes it (Result.Plan) and stops there (oracle gate --dry-run
// prints it); otherwise it goes on to run those same decisions without
// building the value (its placement would read and parse each file again,
// as the schemas do). What the runs then find can send a planned
// batch's mutant on alone (its batch timed out, its variant survived: the
// Alone* reasons Result's runs carry); the plan never changes a mutant's
// test files, limits or early outcome.
type Plan struct {
	// Tests are the test files mutants run against (those whose baseline
	// reached code under test, when measured), in order.
	Tests []string
	// Timeout is a mutant's time limit alone, and a variant's in a batch;
	// Derived says it comes from the slowest baseline (DerivedTimeout), so
	// it differs from run to run and String does not print it.
	Timeout time.Duration
	Derived bool
	// Batches says whether the lab batches at all (not with Isolate, a
	// runner that runs no batches, or a single mutant).
	Batches bool
	Steps   []Step
}

// A Step is one mutant's part of the plan.
type Step struct {
	Key    string // the job's key
	Mutant string // its name
	Path   string
	Line   int
	// Tests are the test files it runs against, in order: its job's, those
	// whose coverage run reached its code when Covered.
	Tests   []string
	Covered bool
	// Early is the outcome decided without a run (no-coverage: no test file
	// reached it), with its Detail; "" for a mutant that runs.
	Early  Outcome
	Detail string
	// Alone is why it runs alone (an Alone* reason); "" when it runs first
	// in the batches of its test files.
	Alone string
}

// Hits says how the step's loops are stopped (SPEC "Runs and kills"): in
// a batch, past HitLimitFactor times the most hits a test of the original
// counts (at least HitLimitFloor), a stop confirmed with the limit raised
// ConfirmRaise-fold; alone, counted from the confirming floor, the limit
// derived from the original's hits measured when a stop asks (count.go).
func (s Step) Hits() string {
	switch {
	case s.Early != "":
		return ""
	case s.Alone != "":
		return fmt.Sprintf("counted alone: %d hits in a test, raised to %d times the original's most when a stop asks", confirmHits.floor, confirmHits.factor)
	}
	return fmt.Sprintf("counted in the batch: %d times the original's most in a test (at least %d), a stop confirmed at %d times that", HitLimitFactor, HitLimitFloor, ConfirmRaise)
}

// String is the plan as `oracle gate --dry-run` prints it: a line of what
// holds for every mutant, then one per mutant, in the jobs' order; the same
// plan, the same text.
func (p *Plan) String() string {
	var b strings.Builder
	runs, batched := 0, 0
	for _, s := range p.Steps {
		if s.Early == "" {
			runs++
			if s.Alone == "" {
				batched++
			}
		}
	}
	limit := "derived from the slowest baseline (3 times it and 5 s, at least 10 s)"
	if !p.Derived {
		limit = p.Timeout.String()
	}
	fmt.Fprintf(&b, "plan: %s, %d to run (%d batched first, %d alone), against %s; a mutant's time limit %s\n",
		count(len(p.Steps), "mutant"), runs, batched, runs-batched, count(len(p.Tests), "test file"), limit)
	if batched > 0 {
		fmt.Fprintf(&b, "  batched: %s\n", Step{}.Hits())
	}
	if runs > batched {
		fmt.Fprintf(&b, "  alone: %s\n", Step{Alone: "-"}.Hits())
	}
	for _, s := range p.Steps {
		how := "batched"
		switch {
		case s.Early != "":
			how = string(s.Early)
			if s.Detail != "" {
				how += " (" + s.Detail + ")"
			}
		case s.Alone != "":
			how = "alone (" + s.Alone + ")"
		}
		tests := ""
		if s.Early == "" {
			by := "tests"
			if s.Covered {
				by = "reached by"
			}
			tests = fmt.Sprintf(" %s %s", by, strings.Join(s.Tests, ", "))
		}
		fmt.Fprintf(&b, "  %s:%d %s [%s]: %s%s\n", s.Path, s.Line, s.Mutant, s.Key, how, tests)
	}
	return b.String()
}

// count is n and noun, plural but for one.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// plan is the lab's plan for tasks, once assign gave each its test files
// (of tests): each task's step, and why the ones the batches would not
// hold run alone (their file's schema placement, edit.Placement).
func (l *Lab) plan(tasks []*task, tests []string, timeout time.Duration) *Plan {
	p := &Plan{Tests: tests, Timeout: timeout, Derived: l.Timeout == 0, Batches: !l.alone && len(tasks) > 1}
	placed := map[*task]string{}
	if p.Batches {
		placed = l.placement(tasks)
	}
	for _, t := range tasks {
		m := t.job.Mutant
		s := Step{Key: t.job.Key, Mutant: m.Name, Path: m.Path, Line: m.Line, Tests: t.tests, Covered: t.covered, Alone: t.why}
		switch {
		case t.run != nil:
			s.Early, s.Detail, s.Tests, s.Alone = t.run.Outcome, t.run.Detail, nil, ""
		case s.Alone == "":
			s.Alone = placed[t]
		}
		p.Steps = append(p.Steps, s)
	}
	return p
}

// placement is why each task left to run (no run, no reason yet) would run
// alone rather than in its file's schema ("" when a switch holds it), as
// schemas will decide it.
func (l *Lab) placement(tasks []*task) map[*task]string {
	out := map[*task]string{}
	paths, byPath := byFile(tasks, func(t *task) bool { return t.run == nil && t.why == "" })
	for _, p := range paths {
		ts := byPath[p]
		orig, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)))
		if err != nil {
			for _, t := range ts {
				out[t] = AloneUnreadable
			}
			continue
		}
		var ms []edit.Mutant
		var ids []int
		for _, t := range ts {
			ms, ids = append(ms, t.job.Mutant), append(ids, t.n+1) // its switch, as schemas gives it
		}
		why, err := edit.Placement(p, orig, ms, ids)
		for _, t := range ts {
			switch {
			case err != nil:
				out[t] = AloneNoSchema + ": the file's schema could not be built"
			case why[t.n+1] != "":
				out[t] = AloneNoSchema + ": " + why[t.n+1]
			}
		}
	}
	return out
}
