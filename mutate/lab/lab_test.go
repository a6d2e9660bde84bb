package lab

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// fakeRunner answers by the source written for the run in the sandbox the
// run is in.
type fakeRunner struct {
	files  *memFiles            // the sandbox at /sb
	more   map[string]*memFiles // other sandboxes, by root
	answer func(test string, src string) runner.Result
	mu     sync.Mutex
	runs   []string
	roots  map[string]int
	err    error
}

func (f *fakeRunner) Run(ctx context.Context, s runner.Spec) (runner.Result, error) {
	if f.err != nil {
		return runner.Result{}, f.err
	}
	files := f.files
	if m, ok := f.more[s.Dir]; ok {
		files = m
	}
	f.mu.Lock()
	f.runs = append(f.runs, s.TestFile)
	if f.roots == nil {
		f.roots = map[string]int{}
	}
	f.roots[s.Dir]++
	src := files.current
	f.mu.Unlock()
	time.Sleep(time.Millisecond) // let the other workers take their turn
	r := f.answer(s.TestFile, src)
	r.Duration = time.Second
	return r, nil
}

func (f *fakeRunner) Close() error { return nil }

type memFiles struct {
	orig, current string
	writes        int
}

func (m *memFiles) WriteFile(rel string, data []byte) error {
	m.current = string(data)
	m.writes++
	return nil
}
func (m *memFiles) Restore(rel string) error { m.current = m.orig; return nil }

func mutant(name, src string) edit.Mutant {
	m, err := edit.NewMutant(edit.Operator(name), "", "x.ts", nil, []edit.Change{{Text: src}})
	if err != nil {
		panic(err)
	}
	// The whole file is its source, and nothing says where it changed.
	m.Line, m.Diff, m.Original, m.Replacement, m.Site, m.Sites = 0, "", edit.Span{}, "", [2]uint{}, nil
	return m
}

// TestExecute: baselines first, each mutant against the test files until
// one kills it, the file restored after each; no mutant runs when a
// baseline fails; an environment failure stops the lab with an EnvError.
func TestExecute(t *testing.T) {
	files := &memFiles{orig: "orig", current: "orig"}
	f := &fakeRunner{files: files, answer: func(test, src string) runner.Result {
		switch {
		case src == "orig":
			return passedRun()
		case strings.Contains(src, "kill-b") && test == "b.test.ts":
			return failedRun("expected")
		case strings.Contains(src, "broken"):
			return loadErrorRun("SyntaxError")
		}
		return passedRun()
	}}
	l := &Lab{Root: "/sb", Files: files, Runner: f}
	res, err := l.Execute(context.Background(), []string{"a.test.ts", "b.test.ts"},
		[]edit.Mutant{mutant("kill-b", "kill-b"), mutant("survivor", "survivor"), mutant("broken", "broken")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Mutants {
		got = append(got, r.Mutant.Name+"="+string(r.Outcome)+"@"+r.Test)
	}
	// Markers cannot be placed in these sources: no coverage evidence, so a pass is survived.
	if want := "kill-b=killed@b.test.ts survivor=survived@a.test.ts broken=error@a.test.ts"; strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	if len(res.Baselines) != 2 || res.Baselines[0].Outcome != Passed || files.current != "orig" {
		t.Errorf("baselines %+v, file %q", res.Baselines, files.current)
	}
	if res.Mutants[0].Duration != 2*time.Second {
		t.Errorf("duration of a mutant run against two files: %s", res.Mutants[0].Duration)
	}

	files.orig, files.current = "bad", "bad"
	f.answer = func(test, src string) runner.Result { return failedRun("expected") }
	f.runs = nil
	res, err = l.Execute(context.Background(), []string{"a.test.ts"}, []edit.Mutant{mutant("m", "m")})
	if err != nil || len(res.Mutants) != 0 || res.Baselines[0].Outcome != Failed || len(f.runs) != 1 {
		t.Errorf("failing baseline: err %v, %d mutant runs, baseline %s, %d runs", err, len(res.Mutants), res.Baselines[0].Outcome, len(f.runs))
	}

	f.err = errors.New("vitest is not installed")
	_, err = l.Execute(context.Background(), []string{"a.test.ts"}, nil)
	var env *EnvError
	if !errors.As(err, &env) {
		t.Errorf("runner failure: %v, want an EnvError", err)
	}
}

// TestExecuteSpread: mutants spread over several sandboxes give the runs of
// one sandbox, in input order, whatever order they end in; every sandbox
// is used and restored.
func TestExecuteSpread(t *testing.T) {
	answer := func(test, src string) runner.Result {
		if strings.HasPrefix(src, "kill") {
			return failedRun("expected")
		}
		return passedRun()
	}
	var ms []edit.Mutant
	for i := range 9 {
		name := fmt.Sprintf("kill%d", i)
		if i%3 == 0 {
			name = fmt.Sprintf("live%d", i)
		}
		ms = append(ms, mutant(name, name))
	}
	outcomes := func(res *Result) string {
		var got []string
		for _, r := range res.Mutants {
			got = append(got, r.Mutant.Name+"="+string(r.Outcome))
		}
		return strings.Join(got, " ")
	}
	one := &memFiles{orig: "orig", current: "orig"}
	single, err := (&Lab{Root: "/sb", Files: one, Runner: &fakeRunner{files: one, answer: answer}}).Execute(context.Background(), []string{"a.test.ts"}, ms)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := &memFiles{orig: "orig", current: "orig"}, &memFiles{orig: "orig", current: "orig"}, &memFiles{orig: "orig", current: "orig"}
	f := &fakeRunner{files: a, more: map[string]*memFiles{"/sb2": b, "/sb3": c}, answer: answer}
	l := &Lab{Root: "/sb", Files: a, Runner: f, More: []Slot{{Root: "/sb2", Files: b}, {Root: "/sb3", Files: c}}}
	spread, err := l.Execute(context.Background(), []string{"a.test.ts"}, ms)
	if err != nil {
		t.Fatal(err)
	}
	if outcomes(spread) != outcomes(single) || len(spread.Mutants) != 9 {
		t.Errorf("spread:\n %s\nsingle:\n %s", outcomes(spread), outcomes(single))
	}
	if len(f.roots) != 3 {
		t.Errorf("sandboxes used: %v", f.roots)
	}
	for _, m := range []*memFiles{a, b, c} {
		if m.current != "orig" {
			t.Errorf("a sandbox left mutated: %q", m.current)
		}
	}
}
