package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/internal/text"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
)

// measureOneRun is the measurement in one vitest run of every candidate
// test file at once (vitest's own pool, as a plain `vitest run`), with an
// entry marker in each probed function that records the test file running
// it (runner.FileMarkerStatement: vitest's worker knows its file): the
// per-file runs of the lab cost a vitest run each, which on a suite of
// many small files is most of the time. entered[i] are the test files that
// entered probe i (nil: it could not be marked); ok is false when the run
// gave no report (the caller then measures file by file).
//
// The vi.mock factories of factories' files (test and setup files) are
// wrapped so that a global counts the factories running, and a marker
// records nothing while one runs: a function called only while a factory
// builds its stand-in is not run by the test.
//
// unrunnable are the test files that could not run, with their first
// error: those that failed with no test collected (at load: a module that
// throws, a transform or tsconfig error) and those the run left out.
func measureOneRun(ctx context.Context, sb *sandbox.Sandbox, config string, probes []lab.Probe, tests []string, factories map[string][][2]uint) (entered [][]string, unrunnable map[string]string, notes []string, ok bool, err error) {
	if err := runner.CheckMarkerSupport(ctx); err != nil {
		return nil, nil, nil, false, nil
	}
	byFile := map[string][]int{}
	var files []string
	for i, pr := range probes {
		if byFile[pr.Path] == nil {
			files = append(files, pr.Path)
		}
		byFile[pr.Path] = append(byFile[pr.Path], i)
	}
	marked := make([]bool, len(probes))
	var written []string
	defer func() {
		for _, f := range written {
			if rerr := sb.Restore(f); rerr != nil && err == nil {
				err = fmt.Errorf("sandbox: %w", rerr)
			}
		}
	}()
	for _, f := range files {
		ps := byFile[f]
		orig, err := os.ReadFile(filepath.Join(sb.Root, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		bodies := make([][2]uint, len(ps))
		for k, i := range ps {
			bodies[k] = probes[i].Body
		}
		src, _, err := edit.Instrument(f, orig, nil, nil, bodies, func(k int) string {
			return "if (!globalThis." + inFactory + ") { " + runner.FileMarkerStatement(fmt.Sprint(ps[k])) + " }"
		})
		if err != nil {
			continue
		}
		if err := sb.WriteFile(f, src); err != nil {
			return nil, nil, nil, false, fmt.Errorf("sandbox: %w", err)
		}
		written = append(written, f)
		for _, i := range ps {
			marked[i] = true
		}
	}
	for _, f := range slices.Sorted(maps.Keys(factories)) {
		orig, err := os.ReadFile(filepath.Join(sb.Root, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		src, ok := wrapFactories(orig, factories[f])
		if !ok {
			continue
		}
		if err := sb.WriteFile(f, src); err != nil {
			return nil, nil, nil, false, fmt.Errorf("sandbox: %w", err)
		}
		written = append(written, f)
	}
	vitest, err := runner.FindVitest(sb.Root, tests[0])
	if err != nil {
		return nil, nil, nil, false, nil
	}
	tmp := sandbox.TempDirFor(sb.Root)
	if tmp == "" {
		return nil, nil, nil, false, nil
	}
	reached, report := filepath.Join(tmp, "entered"), filepath.Join(tmp, "audit-report.json")
	args := []string{vitest, "run", "--reporter=json", "--outputFile=" + report}
	dir, config, files := vitestAt(sb.Root, config, tests)
	if config != "" {
		args = append(args, "--config", config)
	}
	cmd := exec.CommandContext(ctx, "node", append(args, files...)...)
	cmd.Dir = dir
	cmd.Env = runner.VitestEnv(dir, tmp, runner.ReachedEnv+"="+reached)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run() // its exit code says less than its report: a red test file exits 1 too
	if ctx.Err() != nil {
		return nil, nil, nil, false, ctx.Err()
	}
	var rep struct {
		TestResults []struct {
			Name             string            `json:"name"`
			Status           string            `json:"status"`
			Message          string            `json:"message"`
			AssertionResults []json.RawMessage `json:"assertionResults"`
		} `json:"testResults"`
	}
	b, err := os.ReadFile(report)
	if err != nil || json.Unmarshal(b, &rep) != nil {
		return nil, nil, nil, false, nil // no report: vitest itself failed; the caller measures file by file
	}
	if len(rep.TestResults) == 0 {
		why := runError(out.String())
		if why == "" {
			return nil, nil, nil, false, nil // the caller measures file by file
		}
		// The whole run failed before any test file (a globalSetup that
		// throws): each would fail the same way alone; none measured.
		unrunnable = map[string]string{}
		for _, t := range tests {
			unrunnable[t] = "the vitest run failed: " + why
		}
		entered = make([][]string, len(probes))
		for i := range entered {
			entered[i] = []string{} // nothing ran
		}
		return entered, unrunnable, nil, true, nil
	}
	real, _ := filepath.EvalSymlinks(sb.Root)
	rel := func(abs string) string {
		for _, root := range []string{real, sb.Root} {
			if r, err := filepath.Rel(root, abs); err == nil && filepath.IsLocal(r) {
				return filepath.ToSlash(r)
			}
		}
		return ""
	}
	unrunnable = map[string]string{}
	for _, t := range tests {
		unrunnable[t] = "vitest did not run it"
	}
	for _, tr := range rep.TestResults {
		delete(unrunnable, rel(tr.Name))
		if tr.Status == "failed" && len(tr.AssertionResults) == 0 {
			unrunnable[rel(tr.Name)] = firstError(tr.Message)
			continue
		}
		if tr.Status != "passed" {
			why := ""
			if msg := text.FirstLine(tr.Message, 200); msg != "" {
				why = " (" + msg + ")"
			}
			notes = append(notes, fmt.Sprintf("%s does not pass on the code as it is%s: what it ran before it stopped counts as run", rel(tr.Name), why))
		}
	}
	slices.Sort(notes)
	entered = make([][]string, len(probes))
	for i := range probes {
		if marked[i] {
			entered[i] = []string{}
		}
	}
	if f, err := os.Open(reached); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			file, id, found := strings.Cut(sc.Text(), "\t")
			var i int
			if _, err := fmt.Sscan(id, &i); !found || err != nil || i < 0 || i >= len(probes) || !marked[i] {
				continue
			}
			if t := rel(file); t != "" && !slices.Contains(entered[i], t) {
				entered[i] = append(entered[i], t)
			}
		}
		f.Close()
	}
	for i := range entered {
		slices.Sort(entered[i])
	}
	return entered, unrunnable, notes, true, nil
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

// ansi matches the terminal colour codes vitest puts in its messages.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// firstError is the first line of a test file's error message, joined with
// the next when it only announces it ("Transform failed with 1 error:"),
// without colours, at most 300 bytes.
func firstError(msg string) string {
	var lines []string
	for _, l := range strings.Split(ansi.ReplaceAllString(msg, ""), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return "it failed to load, with no message"
	}
	first := lines[0]
	if strings.HasSuffix(first, ":") && len(lines) > 1 {
		first += " " + lines[1]
	}
	return text.FirstLine(first, 300)
}

// errorLine matches the line of a run's output that names its error
// (`Error: the database is not reachable`, `TypeError: ...`).
var errorLine = regexp.MustCompile(`^(?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)\b.*`)

// runError is the first error a vitest run's output names, without
// colours, "" when it names none.
func runError(out string) string {
	for _, l := range strings.Split(ansi.ReplaceAllString(out, ""), "\n") {
		if l = strings.TrimSpace(l); errorLine.MatchString(l) {
			return text.FirstLine(l, 300)
		}
	}
	return ""
}

// vitestAt is where vitest runs the test files (repo-relative) of the
// sandbox root with config, and how they and the config are named there:
// the root, as they are; or, for a workspace's config above the package
// (testsuite.Config.Above), the config's directory, with absolute paths.
func vitestAt(root, config string, tests []string) (dir, cfg string, files []string) {
	dir = runner.VitestDir(root, config)
	if dir == root {
		return dir, config, tests
	}
	for _, t := range tests {
		files = append(files, filepath.Join(root, filepath.FromSlash(t)))
	}
	return dir, filepath.Join(root, filepath.FromSlash(config)), files
}
