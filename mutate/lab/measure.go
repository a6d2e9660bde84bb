package lab

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/internal/text"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// Measurement is what Measure established of the test files on the
// unmodified code: which of them entered each probe, which could not run,
// and notes on what the runs could not see.
type Measurement struct {
	// entered has, by probe, the test files that entered it (EnteredBy).
	entered map[Probe][]string
	// Unrunnable are the test files that could not run, with their first
	// error: they measured nothing.
	Unrunnable map[string]string
	// Notes say which test files do not pass on the code as it is (what
	// they ran before they stopped counts as run), sorted.
	Notes []string
	// Runs counts the vitest runs it took (1: every file at once).
	Runs int
}

// EnteredBy lists the test files that entered probe p, sorted; nil when p
// could not be marked (or is not one of the probes measured).
func (m *Measurement) EnteredBy(p Probe) []string { return m.entered[p] }

// Measure runs tests on the unmodified code with an entry marker in each
// probe, and says which test files entered each (the answer to "which
// tests execute this", measured). It runs them first in one plain vitest
// run of them all (runner.RunTogether: vitest's own pool, the per-file
// runs cost a vitest run each, most of the time on a suite of many small
// files); when that run gives no report, the lab's baselines run them
// (ExecuteJobs's first stage: the joint run, then each file alone), with
// coverage. The markers record nothing while a vi.mock factory of
// Lab.Factories runs: a function called only while a factory builds its
// stand-in is not run by the test. The files are restored after the runs.
//
// Its notes and errors name the repository's files as the repository does
// (src/hash.ts), never by the sandbox's path on this machine (Lab.Root's:
// "imported from /tmp/oracle-prove-…/ohash/src/hash.ts").
func (l *Lab) Measure(ctx context.Context, tests []string, probes []Probe) (*Measurement, error) {
	m, err := l.measure(ctx, tests, probes)
	if m != nil {
		m.scrub(l.Root)
	}
	return m, err
}

// scrub replaces the sandbox root in m's notes and errors with the paths
// relative to it: a file of the sandbox is the repository's file.
func (m *Measurement) scrub(root string) {
	for i, n := range m.Notes {
		m.Notes[i] = WithoutRoot(n, root)
	}
	for f, e := range m.Unrunnable {
		m.Unrunnable[f] = WithoutRoot(e, root)
	}
}

// WithoutRoot is s with the directory root (as given, and as its symbolic
// links resolve) written as the paths relative to it: root/src/a.ts is
// src/a.ts, root itself ".".
func WithoutRoot(s, root string) string {
	if root == "" {
		return s
	}
	roots := []string{root}
	if real, err := filepath.EvalSymlinks(root); err == nil && real != root {
		roots = append(roots, real)
	}
	for _, r := range roots {
		r = strings.TrimSuffix(r, string(filepath.Separator))
		s = strings.ReplaceAll(s, r+string(filepath.Separator), "")
		s = strings.ReplaceAll(s, r, ".")
	}
	return s
}

func (l *Lab) measure(ctx context.Context, tests []string, probes []Probe) (*Measurement, error) {
	if m, ok, err := l.measureTogether(ctx, tests, probes); err != nil || ok {
		return m, err
	}
	one := *l
	one.Probes, one.Coverage = probes, true
	res, err := one.Execute(ctx, tests, nil)
	if err != nil {
		return nil, err
	}
	m := &Measurement{entered: res.entered, Unrunnable: map[string]string{}, Runs: len(res.Baselines)}
	for _, files := range m.entered {
		slices.Sort(files)
	}
	for _, b := range res.Baselines {
		if b.Outcome == Error && !strings.HasPrefix(b.Detail, NoTestExecuted) {
			m.Unrunnable[b.Test] = runner.FirstError(b.Detail) // it could not run: it measured nothing
			continue
		}
		if b.Outcome != Passed {
			m.Notes = append(m.Notes, fmt.Sprintf("%s does not pass on the code as it is (%s): what it ran before it stopped counts as run", b.Test, text.FirstLine(b.Detail, 200)))
		}
	}
	return m, nil
}

// measureTogether is Measure's one run of every test file at once; ok is
// false when it gave no report. Its probes carry the markers the
// baselines' do (instrument), silent while a vi.mock factory runs, and
// coverage.entered reads them as it reads the baselines'.
//
// The run itself is not the baselines' joint run (jointBaselines), on
// purpose: it is a plain `vitest run` of the user's pool (any vitest; the
// long-lived runner's joint run needs vitest 4 and one package's vitest for
// every file, so on vitest 3, as unjs/h3 pins, and across a workspace's
// packages it runs nothing), and it counts what each file ran even when a
// file fails or vitest reports an error no file owns, where a joint
// baseline attributes nothing (its result stands for the file's own run,
// which must be exact); a baseline also needs a bound and each file's own
// time (DerivedTimeout, BaselineBound), which a plain run does not give.
func (l *Lab) measureTogether(ctx context.Context, tests []string, probes []Probe) (m *Measurement, ok bool, err error) {
	if err := runner.CheckMarkerSupport(ctx); err != nil {
		return nil, false, nil
	}
	one := *l
	one.Probes = probes
	cov, err := one.instrument(nil, func(id string) string {
		return "if (!globalThis." + inFactory + ") { " + runner.FileMarkerStatement(id) + " }"
	})
	if err != nil {
		return nil, false, err
	}
	var written []string
	defer func() {
		if rerr := cov.restore(l.Files); rerr != nil && err == nil {
			err = rerr
		}
		for _, f := range written {
			if rerr := l.Files.Restore(f); rerr != nil && err == nil {
				err = fmt.Errorf("sandbox: %w", rerr)
			}
		}
	}()
	for _, f := range slices.Sorted(maps.Keys(l.Factories)) {
		orig, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		src, ok := wrapFactories(orig, l.Factories[f])
		if !ok {
			continue
		}
		if err := l.Files.WriteFile(f, src); err != nil {
			return nil, false, fmt.Errorf("sandbox: %w", err)
		}
		written = append(written, f)
	}
	t, err := runner.RunTogetherOn(ctx, l.Runner, l.spec(l.Root, "", 0, ""), tests) // in the config probe's process when the runner was offered it
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	if err != nil || !t.Report {
		return nil, false, nil // no report: vitest itself failed; the caller measures file by file
	}
	m = &Measurement{Runs: 1, Unrunnable: map[string]string{}}
	if len(t.Files) == 0 {
		why := runner.RunError(t.Output)
		if why == "" {
			return nil, false, nil // the caller measures file by file
		}
		// The whole run failed before any test file (a globalSetup that
		// throws): each would fail the same way alone; none measured.
		for _, f := range tests {
			m.Unrunnable[f] = "the vitest run failed: " + why
		}
		m.entered = map[Probe][]string{}
		for _, p := range probes {
			m.entered[p] = []string{} // nothing ran
		}
		return m, true, nil
	}
	for _, f := range tests {
		m.Unrunnable[f] = "vitest did not run it"
	}
	for _, f := range slices.Sorted(maps.Keys(t.Files)) {
		r := t.Files[f]
		delete(m.Unrunnable, f)
		if r.Status == "failed" && len(r.Tests) == 0 {
			m.Unrunnable[f] = runner.FirstError(r.Message)
			continue
		}
		if r.Status != "passed" {
			failed, passed := firstFailure(r)
			if !passed && failed != "" {
				// Every test stopped at a failure: what they would have
				// run after it is not known (a sandbox without .git, a
				// network the tests need): as a file that cannot load.
				m.Unrunnable[f] = "none of its tests passed (" + failed + ")"
				continue
			}
			why := ""
			if msg := text.FirstLine(r.Message, 200); msg != "" {
				why = " (" + msg + ")"
			} else if failed != "" {
				why = " (" + failed + ")"
			}
			m.Notes = append(m.Notes, fmt.Sprintf("%s does not pass on the code as it is%s: what it ran before it stopped counts as run", f, why))
		}
	}
	slices.Sort(m.Notes)
	m.entered = cov.entered(recordEntered(cov, t.Entered))
	return m, true, nil
}

// firstFailure is a file's first failed test, "name: failure" ("" when
// none failed), and whether any of its tests passed.
func firstFailure(r runner.TogetherFile) (failed string, passed bool) {
	for _, t := range r.Tests {
		switch {
		case t.Status == "passed":
			passed = true
		case t.Status == "failed" && failed == "":
			failed = t.Name + ": " + text.FirstLine(t.Failure, 200)
		}
	}
	return failed, passed
}

// recordEntered records in cov the marker ids each test file entered, from
// a run's files by id, and returns those files, sorted.
func recordEntered(cov *coverage, byID map[string][]string) []string {
	reached := map[string][]string{}
	for id, files := range byID {
		for _, f := range files {
			reached[f] = append(reached[f], id)
		}
	}
	for f, ids := range reached {
		slices.Sort(ids)
		cov.record(f, ids)
	}
	return slices.Sorted(maps.Keys(reached))
}

// inFactory is the global counting the vi.mock factories running.
const inFactory = "__oracleInMockFactory"

// wrapFactories wraps each factory (byte ranges of src, in any order) in a
// function that counts itself running in globalThis[inFactory], awaiting
// what the factory returns (vitest awaits a factory's result), on the
// factory's own line. ok is false when a range does not fit src.
func wrapFactories(src []byte, ranges [][2]uint) ([]byte, bool) {
	rs := slices.Clone(ranges)
	slices.SortFunc(rs, func(a, b [2]uint) int { return int(b[0]) - int(a[0]) }) // last first
	out := slices.Clone(src)
	const head = "((f) => async function (...a) { const g = globalThis; g." + inFactory + " = (g." + inFactory + " ?? 0) + 1; try { return await f.apply(this, a); } finally { g." + inFactory + "--; } })("
	for i, r := range rs {
		if r[0] >= r[1] || r[1] > uint(len(src)) || i > 0 && r[1] > rs[i-1][0] {
			return nil, false // out of the file, or overlapping
		}
		out = slices.Concat(out[:r[0]], []byte(head), out[r[0]:r[1]], []byte(")"), out[r[1]:])
	}
	return out, true
}
