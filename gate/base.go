package gate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
)

// A red suite (SPEC "oracle gate": "A red suite is never PASS or SKIP"): a
// candidate test file whose baseline fails on the code as it is, at load or
// in a test, makes the verdict FAIL attribution tests, unless it fails the
// same way at the base revision: then the change did not make it red, and
// it is a note that counts for nothing. This file runs the red files at the
// base, in a sandbox of their own: a copy of the checkout in which every
// file that differs from the base revision is put back as the base has it
// (a file the base lacks is removed).

// redBaseline is one candidate's red baseline.
type redBaseline struct {
	run lab.Run
	// atBase: it fails the same way at the base revision; greenAtBase: it
	// passes there.
	atBase, greenAtBase bool
	// aside are its failed tests that fail the same way at the base (red at
	// the base is per test: they are set aside, and the file's other tests
	// decide); atBase with aside: every failed test is one of them.
	aside []string
}

// sameFailures are the tests that failed in head and fail the same way in
// base (the same test, its failure the same but for paths and numbers,
// as failure compares a file's), in head's order; all says every failed
// test of head is one of them.
func sameFailures(head, base []runner.Test) (same []string, all bool) {
	at := map[string]string{}
	for _, t := range base {
		if t.Status == runner.TestFailed {
			at[t.Name] = testFailure(t)
		}
	}
	all = true
	for _, t := range head {
		if t.Status != runner.TestFailed {
			continue
		}
		if f, ok := at[t.Name]; ok && f == testFailure(t) {
			same = append(same, t.Name)
		} else {
			all = false
		}
	}
	return same, all && len(same) > 0
}

// testFailure is what a failed test says, comparable across sandboxes
// and runs (failure's terms).
func testFailure(t runner.Test) string {
	return string(t.Phase) + "\x00" + number.ReplaceAllString(sandboxPath.ReplaceAllString(t.Failure, ""), "#")
}

// skippedOnly: a baseline whose file loaded and whose every test was
// skipped (it.skip, it.runIf(false), describe.skip): it runs none of the
// code, and vitest reports it green; not a red file. A file that failed
// with no test executed (a beforeAll that threw) is red: the lab's detail
// then carries the file's message.
func skippedOnly(b lab.Run) bool {
	return b.NoTestRan && b.Detail == fmt.Sprintf("%s (%d skipped)", lab.NoTestExecuted, len(b.Tests))
}

// sandboxPath is the place of a sandbox's copy in a message: two runs in
// two sandboxes say the same thing once it is gone.
var sandboxPath = regexp.MustCompile(`\S*` + regexp.QuoteMeta(sandbox.Prefix) + `[^/\\\s]+[/\\][^/\\\s]+[/\\]?`)

// failure is what a red baseline says, comparable across sandboxes and
// runs: its outcome, its detail without the sandbox's paths and with every
// number as #, and the tests that failed. The same test failing the same
// assertion fails the same way whatever it measured: vuejs/core's
// computed.spec.ts asserts a time under 100 ms, which a loaded machine
// misses by a different margin each run (136.9 at the change, 141.3 at the
// base), and that was a FAIL "tests" the change had no part in.
func failure(b lab.Run) string {
	if b.NoTestRan {
		// No test ran here, and none at the base (the same file cannot run in
		// either: a browser project's file with no browser installed, whose
		// error comes as an unhandled one or as the file's, as the launch
		// races): whatever it says, the change did not stop a test running.
		return string(b.Outcome) + "\x00no test ran\x00" + fmt.Sprint(len(b.Tests))
	}
	var failed []string
	for _, t := range b.Tests {
		if t.Status == runner.TestFailed {
			failed = append(failed, t.Name)
		}
	}
	detail := number.ReplaceAllString(sandboxPath.ReplaceAllString(b.Detail, ""), "#")
	return string(b.Outcome) + "\x00" + detail + "\x00" + strings.Join(failed, "\x00")
}

// number is a number in a message: digits, with a fraction or exponent.
var number = regexp.MustCompile(`\d+(\.\d+)?([eE][-+]?\d+)?`)

// checkAtBase runs each red candidate at the base revision of the change
// (opts.Origin; a list of files has none, and every red file stays red)
// and marks those that fail the same way there. A test file the change
// added has no base. An error is the environment's (git, the copy, the
// runner).
func checkAtBase(ctx context.Context, root string, reds []redBaseline, opts Options, bt time.Duration) error {
	o := opts.Origin
	if o == nil || o.Base == "" || len(reds) == 0 {
		return nil
	}
	// The base revision, not the working tree with the change undone: every
	// file that differs from the base in the working tree (the change, and
	// an uncommitted edit beside it) is put back, and an untracked file
	// removed; what git ignores (node_modules, a local .env) stays.
	names, err := gitOut(root, "diff", o.Base, "--relative", "--no-renames", "--no-ext-diff", "--no-textconv", "--name-status", "-z")
	if err != nil {
		return err
	}
	type edit struct{ status, path string }
	var edits []edit
	fields := strings.Split(string(names), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		edits = append(edits, edit{fields[i], fields[i+1]})
	}
	untracked, err := gitOut(root, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return err
	}
	for _, p := range strings.Split(string(untracked), "\x00") {
		if p != "" && !strings.HasPrefix(p, ".oracle/") && !slices.Contains(strings.Split(p, "/"), "node_modules") {
			// node_modules is the sandbox's own (linked), whatever git makes of
			// it: `node_modules/` in .gitignore does not match a symlink.
			edits = append(edits, edit{"A", p})
		}
	}
	added := map[string]bool{}
	for _, e := range edits {
		if strings.HasPrefix(e.status, "A") {
			added[e.path] = true
		}
	}
	var todo []*redBaseline
	for i := range reds {
		if !added[reds[i].run.Test] {
			todo = append(todo, &reds[i])
		}
	}
	if len(todo) == 0 {
		return nil
	}
	sb, err := sandbox.New(root, sandbox.Options{Config: opts.Config})
	if err != nil {
		return err
	}
	defer sb.Close()
	if c, ok := opts.Runner.(interface{ CloseDir(string) }); ok {
		defer c.CloseDir(sb.Root)
	}
	for _, e := range edits {
		p, err := sb.Path(e.path)
		if err != nil {
			continue // a path the sandbox cannot hold (through a link out of it)
		}
		if strings.HasPrefix(e.status, "A") {
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("the base's sandbox: %w", err)
			}
			continue
		}
		data, err := gitOut(root, "show", o.Base+":./"+e.path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("the base's sandbox: %w", err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return fmt.Errorf("the base's sandbox: %w", err)
		}
	}
	for _, red := range todo {
		head := red.run
		bound := bt
		if head.Bound > 0 {
			bound = head.Bound // the bound its baseline had
		}
		r, err := opts.Runner.Run(ctx, runner.Spec{Dir: sb.Root, TestFile: head.Test, Timeout: bound, Config: opts.Config, Once: true})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		o, detail := lab.BaselineOutcome(r)
		base := lab.Run{Test: head.Test, Outcome: o, Detail: detail, Tests: r.Tests, NoTestRan: strings.HasPrefix(detail, lab.NoTestExecuted)}
		red.atBase = o != lab.Passed && failure(base) == failure(head)
		red.greenAtBase = o == lab.Passed
		if o != lab.Passed && slices.ContainsFunc(head.Tests, func(t runner.Test) bool { return t.Status == runner.TestFailed }) {
			// Per test: the failures the base shares are set aside, whatever
			// else failed there (a test the change fixed).
			red.aside, red.atBase = sameFailures(head.Tests, r.Tests)
		}
	}
	return nil
}

// gitOut runs git in root; its error is git's message.
func gitOut(root string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-c", "core.quotePath=false"}, args...)...)
	cmd.Dir = root
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// redNames are the test files of reds, in order, for a message.
func redNames(reds []redBaseline) []string {
	var out []string
	for _, r := range reds {
		out = append(out, r.run.Test)
	}
	return slices.Compact(out)
}

// The bound of a candidate's baseline (SPEC "A red suite is never PASS or
// SKIP": a candidate whose baseline does not finish within a bound derived
// from the others is named, in minutes). A candidate's run alone is
// bounded by BaselineFactor times the slowest baseline of the other
// candidates known by then (the joint run of them all, the runs alone
// before it), at least DefaultBaselineTimeout and at most BaselineCeiling;
// with no other candidate's baseline to compare to (one related test file,
// or the first to run alone after a joint run that did not finish), the
// ceiling: a lone jsdom file of vueuse took 4 minutes of vite transform
// on a loaded machine, and the floor made that an ERROR whose coming
// depended on the load. The joint run of them all (others nil) is bounded
// by the floor, past which it goes on while its tests finish or its files
// are collected. The bound is final (a baseline past it is not run again), and the
// first candidate past it ends the baselines: the verdict is ERROR, naming
// it (dropping it could turn its targets' verdict into a PASS or SKIP the
// suite never earned). ORACLE_BASELINE_TIMEOUT sets one bound for every
// candidate instead.
const (
	BaselineFactor  = 10
	BaselineCeiling = 5 * time.Minute
)

// baselineBound is the lab's BaselineBound: fixed when set
// (ORACLE_BASELINE_TIMEOUT), else derivedBound.
func baselineBound(fixed time.Duration) func([]time.Duration) time.Duration {
	if fixed > 0 {
		return func([]time.Duration) time.Duration { return fixed }
	}
	return derivedBound
}

// derivedBound: BaselineFactor times the slowest of others, within
// [DefaultBaselineTimeout, BaselineCeiling]; the floor for the joint run
// (others nil), the ceiling for a file with no other to compare to (others
// empty).
func derivedBound(others []time.Duration) time.Duration {
	if others != nil && len(others) == 0 {
		return BaselineCeiling
	}
	slowest := time.Duration(0)
	for _, d := range others {
		slowest = max(slowest, d)
	}
	return min(max(BaselineFactor*slowest, DefaultBaselineTimeout), BaselineCeiling)
}

// hungReason is the ERROR's reason for the candidates hung, whose
// baselines (in bs) ran past their bound: the bound, and how it came about.
func hungReason(hung []string, bs []lab.Run, fixed bool) string {
	var bound time.Duration
	for _, b := range bs {
		if slices.Contains(hung, b.Test) {
			bound = max(bound, b.Bound)
		}
	}
	why := "set by " + BaselineTimeoutEnv
	switch {
	case fixed:
	case bound <= DefaultBaselineTimeout:
		why = fmt.Sprintf("the floor; %d times the slowest other candidate's baseline is less", BaselineFactor)
	case bound >= BaselineCeiling:
		why = fmt.Sprintf("the ceiling; %d times the slowest other candidate's baseline is more, or there is none to compare to", BaselineFactor)
	default:
		why = fmt.Sprintf("%d times the slowest other candidate's baseline, %s", BaselineFactor, minutes(bound/BaselineFactor))
	}
	return fmt.Sprintf("the related test %s did not finish within %s on the code as it is (its baseline; the bound: %s; a test file that hangs, at import or in a test): the gate cannot judge the change; make it finish, or set the bound (%s)",
		strings.Join(hung, ", "), minutes(bound), why, BaselineTimeoutEnv)
}
