package lab

import (
	"context"
	"path"
	"strings"

	"github.com/oracle-ts/oracle/mutate/runner"
)

// Tests set aside (SPEC "A red suite is never PASS or SKIP": red at the
// base is per test). A test that fails on the code as it is and the same
// way at the base revision says nothing of the change: Lab.Aside names
// such tests by test file, and every run of the lab leaves them out. A
// batch's harness takes them out of each of its blocks before they start
// (as a selection does); a plain run of the file still runs them, and the
// runner's result then shows them skipped (asideRunner), so no baseline is
// red and no mutant killed by them, and the file's other tests decide.

// withAside is r, its results masked by aside (test file → full test
// names); r itself when aside is empty. A runner.JointRunner stays one.
func withAside(r runner.Runner, aside map[string][]string) runner.Runner {
	if len(aside) == 0 {
		return r
	}
	a := asideRunner{Runner: r, aside: map[string]map[string]bool{}}
	for f, names := range aside {
		a.aside[f] = map[string]bool{}
		for _, n := range names {
			a.aside[f][n] = true
		}
	}
	if jr, ok := r.(runner.JointRunner); ok {
		return asideJoint{a, jr}
	}
	return a
}

// asideRunner is a runner whose results show the tests set aside skipped.
type asideRunner struct {
	runner.Runner
	aside map[string]map[string]bool
}

func (a asideRunner) Run(ctx context.Context, s runner.Spec) (runner.Result, error) {
	r, err := a.Runner.Run(ctx, s)
	return a.mask(s.TestFile, r), err
}

// asideJoint is an asideRunner over a runner.JointRunner.
type asideJoint struct {
	asideRunner
	jr runner.JointRunner
}

func (a asideJoint) RunJoint(ctx context.Context, s runner.Spec, files []string) (map[string]runner.Result, error) {
	out, err := a.jr.RunJoint(ctx, s, files)
	for f, r := range out {
		out[f] = a.mask(f, r)
	}
	return out, err
}

// mask is r, the result of file (a test file, or the batch harness of
// one, whose tests' names start with their block's title), with the tests
// set aside skipped; a run whose only failures were theirs exits 0, as
// vitest would have without them.
func (a asideRunner) mask(file string, r runner.Result) runner.Result {
	if strings.HasPrefix(path.Base(file), HarnessPrefix) {
		file = path.Join(path.Dir(file), strings.TrimPrefix(path.Base(file), HarnessPrefix))
	}
	set := a.aside[file]
	if len(set) == 0 {
		return r
	}
	tests := make([]runner.Test, len(r.Tests))
	failed := false
	for i, t := range r.Tests {
		name := t.Name
		if strings.HasPrefix(name, variantPrefix) { // a batch harness's block (in the file's place, or beside it)
			_, name, _ = strings.Cut(name, " ")
		}
		if set[name] {
			t.Status, t.Failure, t.Phase, t.TimedOut = runner.TestSkipped, "", runner.PhaseUnknown, false
		}
		failed = failed || t.Status == runner.TestFailed
		tests[i] = t
	}
	r.Tests = tests
	if !failed && r.ExitCode == 1 && len(r.Unhandled) == 0 && r.FileMessage == "" {
		r.ExitCode = 0
	}
	return r
}
