package runner

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/oracle-ts/oracle/internal/nodeproc"
	"github.com/oracle-ts/oracle/internal/vitestenv"
	"github.com/oracle-ts/oracle/internal/vitestloc"
	sbox "github.com/oracle-ts/oracle/mutate/sandbox"
)

//go:embed jest_env.cjs
var jestEnvironment []byte

//go:embed jest_runner.cjs
var jestTestRunner []byte

// JestRunner runs every Spec in a fresh jest process (the repository's own jest, found as
// vitest is: FindJest), one test file in band (--runInBand): the jest counterpart of
// ProcessRunner, with the same Result. Its runs cannot hold batches (Batcher): the lab runs
// every mutant alone under it, as --isolate does.
//
// Jest's JSON report (--json) says which tests failed, not where: the runner gives jest a
// test environment of its own (jest_env.cjs), the project's environment extended through
// jest-circus's handleTestEvent, which writes each failed test's phase (a beforeEach or
// beforeAll hook that threw: setup, never a kill) and keeps the running test where the
// markers of the mutated code read it (marker.go). A test file that sets its environment
// in a docblock (@jest-environment) runs in that one instead: a test runner of the
// runner's (jest_runner.cjs: the project's own runner, called with the file's environment
// extended in the same way) gives it the same.
type JestRunner struct {
	// Node is the node binary; "" = "node" from PATH.
	Node string
	// ExtraArgs are appended to the jest command line (tests, debugging).
	ExtraArgs []string

	mu   sync.Mutex
	envs map[string][2]string // by working directory and config: $ORACLE_JEST_ENVS, $ORACLE_JEST_RUNNERS
}

// NewJest returns the one-jest-process-per-run Runner.
func NewJest() *JestRunner { return &JestRunner{} }

// Close does nothing: every run's process ends with the run.
func (r *JestRunner) Close() error { return nil }

// Batches is false: a jest run holds one version of the code (Batcher).
func (r *JestRunner) Batches() bool { return false }

// noCheck is TypeScript's pragma that turns its type check of a file off.
const noCheck = "// @ts-nocheck\n"

// PrepareMutant turns ts-jest's type check off in a mutated file (TypeScript's
// `// @ts-nocheck`, on the first line, after a shebang): ts-jest type-checks what it runs
// and fails to load a file that does not type-check, where vitest's transform only strips
// the types. A mutant need be valid JavaScript only, as under vitest (StrykerJS's
// disableTypeChecks does the same): `return undefined` in a function declared to return a
// number is run, and its tests decide. The file's lines move down by one; the test files,
// whose lines the report names, are never mutated.
func (r *JestRunner) PrepareMutant(path string, src []byte) []byte {
	out := make([]byte, 0, len(src)+len(noCheck))
	if bytes.HasPrefix(src, []byte("#!")) {
		end := bytes.IndexByte(src, '\n')
		if end < 0 {
			return append(append(out, src...), "\n"+noCheck...)
		}
		out = append(out, src[:end+1]...)
		src = src[end+1:]
	}
	return append(append(out, noCheck...), src...)
}

// FindJest returns the absolute path of the jest command (jest/bin/jest.js) the package
// manager would run for testFile (repo-relative) in the repository dir: internal/vitestloc's
// lookup, which the listing of the tests shares. A missing jest is an error that says what
// to install.
func FindJest(dir, testFile string) (string, error) {
	abs, err := repoFile(dir, testFile)
	if err != nil {
		return "", err
	}
	if p := vitestloc.FindJest(filepath.Dir(abs)); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("jest is not installed: no node_modules/jest/bin/jest.js from %s up to the workspace root; run your package manager's install (npm ci)", filepath.ToSlash(testFile))
}

// Run runs s.TestFile with the repository's jest. A first time-out is re-run once, as
// ProcessRunner's (retryOnce).
func (r *JestRunner) Run(ctx context.Context, s Spec) (Result, error) {
	inv, err := r.prepare(ctx, s)
	if err != nil {
		return Result{}, err
	}
	return runFresh(ctx, s, inv.node, func() (Result, bool, error) { return r.once(ctx, s, inv) })
}

// jestInvocation is what prepare worked out once for a Spec.
type jestInvocation struct {
	invocation
	jest    string // .../node_modules/jest/bin/jest.js
	envs    string // $ORACLE_JEST_ENVS: each project's own test environment, by project id
	runners string // $ORACLE_JEST_RUNNERS: each project's own test runner, by project id
}

// prepare finds the test file, jest and node, and where jest runs: the test file's package
// (the nearest package.json up to the repository root), where jest's own search finds its
// config (a jest.config.* file, or package.json's "jest" key) as `npx jest` there does.
func (r *JestRunner) prepare(ctx context.Context, s Spec) (jestInvocation, error) {
	var inv jestInvocation
	abs, err := testFileOf(s)
	if err != nil {
		return inv, err
	}
	inv.testAbs = abs
	if inv.jest, err = FindJest(s.Dir, s.TestFile); err != nil {
		return inv, err
	}
	inv.cwd = packageDir(filepath.Clean(s.Dir), filepath.Dir(abs))
	if s.Config != "" {
		if inv.config, err = configFile(s.Dir, s.Config); err != nil {
			return inv, err
		}
	}
	if inv.node, err = exec.LookPath(cmp.Or(r.Node, "node")); err != nil {
		return inv, fmt.Errorf("node is not installed (or not on PATH): %v", err)
	}
	inv.clean = newCleaner(s.Dir, inv.cwd)
	inv.envs, inv.runners, err = r.environments(ctx, inv)
	return inv, err
}

// environments asks jest, once per working directory and config, for each project's test
// environment and test runner (--showConfig: the paths jest resolved), which jest_env.cjs
// extends and jest_runner.cjs calls, as JSON objects by project id.
func (r *JestRunner) environments(ctx context.Context, inv jestInvocation) (envs, runners string, err error) {
	key := inv.cwd + "\x00" + inv.config
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.envs[key]; ok {
		return e[0], e[1], nil
	}
	args := []string{inv.jest, "--showConfig", "--ci", "--watchman=false"}
	if inv.config != "" {
		args = append(args, "--config="+inv.config)
	}
	cmd := nodeproc.Command(ctx, inv.node, inv.cwd, vitestenv.For(inv.cwd, ""), args...)
	var stderr tailBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return "", "", ctx.Err()
	}
	var shown struct {
		Configs []struct {
			ID              string `json:"id"`
			TestEnvironment string `json:"testEnvironment"`
			TestRunner      string `json:"testRunner"`
		} `json:"configs"`
	}
	if err != nil || json.Unmarshal(out, &shown) != nil {
		return "", "", fmt.Errorf("jest cannot read its configuration (jest --showConfig in %s): %s", inv.clean.paths(inv.cwd), cmp.Or(inv.clean.cause(stderr.String(), inv.clean.line(stderr.String(), true)), fmt.Sprint(err)))
	}
	envBy, runnerBy := map[string]string{}, map[string]string{}
	for _, c := range shown.Configs {
		envBy[c.ID], runnerBy[c.ID] = c.TestEnvironment, c.TestRunner
	}
	e, _ := json.Marshal(envBy)
	rn, _ := json.Marshal(runnerBy)
	if r.envs == nil {
		r.envs = map[string][2]string{}
	}
	r.envs[key] = [2]string{string(e), string(rn)}
	return string(e), string(rn), nil
}

// writeJestFiles writes in dir the test environment and the test runner a jest run is
// given (jestArgs names the runner beside the environment), and returns the environment's
// path.
func writeJestFiles(dir string) (string, error) {
	env := filepath.Join(dir, "oracle-jest-environment.cjs")
	if err := os.WriteFile(env, jestEnvironment, 0o644); err != nil {
		return "", fmt.Errorf("runner: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, jestRunnerFile), jestTestRunner, 0o644); err != nil {
		return "", fmt.Errorf("runner: %w", err)
	}
	return env, nil
}

// jestRunnerFile is the name of the test runner's file, beside the environment's.
const jestRunnerFile = "oracle-jest-runner.cjs"

// jestRunEnv is the environment of a jest run of inv with its temporary directory tmp and
// its run files f.
func jestRunEnv(inv jestInvocation, tmp string, f runFiles) []string {
	return vitestenv.For(inv.cwd, tmp,
		ReachedEnv+"="+f.reached,
		"ORACLE_PHASES="+f.phases,
		ProgressEnv+"="+f.progress,
		"ORACLE_JEST_ENVS="+inv.envs,
		"ORACLE_JEST_RUNNERS="+inv.runners,
	)
}

// jestCache is jest's cache directory for runs in dir: the sandbox's own (jest keeps its
// transforms there, safe for the processes that share it), the system's temporary
// directory's outside a sandbox.
func jestCache(dir string) string {
	return filepath.Join(cmp.Or(sbox.TempDirFor(dir), os.TempDir()), "oracle-jest-cache")
}

// jestArgs is the command line of a run of s: the test file alone, in band, its JSON report
// in report, the environment of env and the test runner beside it (jest_runner.cjs), jest's cache in cache (the sandbox's own: jest keeps its
// transforms there, safe for the processes that share it), no watchman, as in CI (a missing
// snapshot fails instead of being written), coverage off, and the process ended once the
// tests are done (a handle a test leaves open would keep it waiting).
func jestArgs(s Spec, inv jestInvocation, report, env, cache string, extra []string) []string {
	args := []string{inv.jest, "--json", "--outputFile=" + report, "--testLocationInResults",
		"--ci", "--watchman=false", "--runInBand", "--coverage=false", "--forceExit",
		"--cacheDirectory=" + cache, "--testEnvironment=" + env,
		"--testRunner=" + filepath.Join(filepath.Dir(env), jestRunnerFile)}
	if inv.config != "" {
		args = append(args, "--config="+inv.config)
	}
	if s.TestTimeout > 0 {
		// jest's testTimeout is its hooks' too.
		args = append(args, fmt.Sprintf("--testTimeout=%d", max(s.TestTimeout.Milliseconds(), 1)))
	}
	if s.TestName != "" {
		// jest matches -t against a test's full name: its describe titles and its own,
		// joined by spaces (Test.Name).
		args = append(args, "--testNamePattern=^"+regexp.QuoteMeta(s.TestName)+"$")
	}
	args = append(args, extra...) // before the path: what follows --runTestsByPath is paths
	return append(args, "--runTestsByPath", inv.testAbs)
}

// once runs jest one time. timedOut reports that s.Timeout killed it.
func (r *JestRunner) once(ctx context.Context, s Spec, inv jestInvocation) (res Result, timedOut bool, err error) {
	tmp, err := os.MkdirTemp(sbox.TempDirFor(inv.cwd), "oracle-run-")
	if err != nil {
		return res, false, fmt.Errorf("runner: temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	files := filesIn(tmp)
	envPath, err := writeJestFiles(tmp)
	if err != nil {
		return res, false, err
	}
	args := jestArgs(s, inv, files.report, envPath, jestCache(inv.cwd), r.ExtraArgs)
	env := jestRunEnv(inv, tmp, files)
	var out tailBuffer
	wd, runErr := execWatched(ctx, s, files.progress, func(runCtx context.Context) *exec.Cmd {
		cmd := nodeproc.Command(runCtx, inv.node, inv.cwd, env, args...)
		cmd.Stdout, cmd.Stderr = &out, &out
		return cmd
	}, &res.Duration)
	return settle(ctx, s, wd, runErr, evidence{output: out.String(), rel: filepath.ToSlash(s.TestFile), clean: inv.clean, jest: true}, inv.testAbs, res.Duration, files)
}

// suiteFailedRE is how jest's report begins the message of a test file that did not run (a
// syntax or type error, a module not found, a throw at the top level): "● Test suite
// failed to run".
var suiteFailedRE = regexp.MustCompile(`●\s*Test suite failed to run\s*`)

// jestFileMessage is the file's own error in jest's report message: what follows "Test suite
// failed to run", "" when the message only lists the failed tests (jest repeats every
// test's failure there, which vitest's report keeps apart).
func jestFileMessage(m string) string {
	m = stripANSI(m)
	loc := suiteFailedRE.FindStringIndex(m)
	if loc == nil {
		return ""
	}
	return strings.TrimSpace(m[loc[1]:])
}

// failure is a test's failure message as read: jest's matcher messages say what was
// expected and received on lines of their own, after the matcher ("Error:
// expect(received).toBe(expected) // Object.is equality", then "Expected: 90", "Received:
// 80"), which are joined to the first line, as vitest's one line says them ("expected 80 to
// be 90").
func (ev evidence) failure(m string) string {
	if !ev.jest {
		return m
	}
	lines := strings.Split(stripANSI(m), "\n")
	var said []string
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "at ") {
			break
		}
		if strings.HasPrefix(l, "Expected") || strings.HasPrefix(l, "Received") {
			said = append(said, strings.Join(strings.Fields(l), " "))
		}
	}
	if len(said) == 0 {
		return m
	}
	return strings.TrimSpace(lines[0]) + ": " + strings.Join(said, ", ")
}

// Finds tells which of files (repo-relative, slash-separated; they need not exist) the
// repository's jest at dir takes as test files, asked of jest where a run of each runs (its
// package, as prepare decides): `jest --listTests --json --runTestsByPath FILE...`, whose
// answer keeps a path only when jest's own roots, testMatch or testRegex and
// testPathIgnorePatterns (each project's) take it. A run of a file it leaves out finds no
// test. Nothing of jest's configuration is derived again here.
func (r *JestRunner) Finds(ctx context.Context, dir string, files []string) (map[string]bool, error) {
	node, err := exec.LookPath(cmp.Or(r.Node, "node"))
	if err != nil {
		return nil, fmt.Errorf("node is not installed (or not on PATH): %v", err)
	}
	type ask struct {
		jest string
		abs  map[string]string // absolute path -> the file as given
	}
	asks := map[string]*ask{} // by working directory
	var cwds []string
	for _, f := range files {
		abs, err := repoFile(dir, filepath.FromSlash(f))
		if err != nil {
			return nil, err
		}
		jest, err := FindJest(dir, filepath.FromSlash(f))
		if err != nil {
			return nil, err
		}
		cwd := packageDir(filepath.Clean(dir), filepath.Dir(abs))
		if asks[cwd] == nil {
			asks[cwd] = &ask{jest: jest, abs: map[string]string{}}
			cwds = append(cwds, cwd)
		}
		asks[cwd].abs[realPath(abs)] = f // jest's roots are real paths
	}
	found := map[string]bool{}
	for _, cwd := range cwds {
		a := asks[cwd]
		args := []string{a.jest, "--listTests", "--json", "--ci", "--watchman=false", "--runTestsByPath"}
		args = append(args, slices.Sorted(maps.Keys(a.abs))...)
		cmd := nodeproc.Command(ctx, node, cwd, vitestenv.For(cwd, ""), args...)
		var stderr tailBuffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var listed []string
		if err == nil {
			err = json.Unmarshal(lastLine(out), &listed)
		}
		if err != nil {
			clean := newCleaner(dir, cwd)
			return nil, fmt.Errorf("jest cannot list its tests (jest --listTests in %s): %s", clean.paths(cwd), cmp.Or(clean.cause(stderr.String(), clean.line(stderr.String(), true)), err.Error()))
		}
		for _, l := range listed {
			if f, ok := a.abs[l]; ok {
				found[f] = true
			}
		}
	}
	return found, nil
}

// realPath is p with its symbolic links resolved as far as it exists (the rest, a file
// not written yet, appended as it is).
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	up := filepath.Dir(p)
	if up == p {
		return p
	}
	return filepath.Join(realPath(up), filepath.Base(p))
}

// lastLine is the last line of out that starts a JSON value (jest may print a warning before
// its answer).
func lastLine(out []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if l := bytes.TrimSpace(lines[i]); len(l) > 0 && (l[0] == '[' || l[0] == '{') {
			return l
		}
	}
	return out
}
