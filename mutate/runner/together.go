package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/internal/nodeproc"
	"github.com/oracle-ts/oracle/internal/text"
	"github.com/oracle-ts/oracle/internal/vitestenv"
	"github.com/oracle-ts/oracle/internal/vitestloc"
	"github.com/oracle-ts/oracle/internal/warmnode"
	sbox "github.com/oracle-ts/oracle/mutate/sandbox"
)

// Together is what one plain `vitest run` of many test files at once
// established (RunTogether), read from vitest's JSON report as every run
// of the runner is (jsonReport): facts only.
type Together struct {
	// Report: vitest wrote a readable report; without one the other fields
	// are empty but Output.
	Report bool
	// Files are the test files the report names (repository-relative),
	// each with its status, its own error message and its tests.
	Files map[string]TogetherFile
	// Entered are, per marker id, the test files whose worker ran a
	// FileMarkerStatement of that id (sorted); a line written outside a
	// worker ("?") names no file and counts for none.
	Entered map[string][]string
	// Output is what the run printed (stdout and stderr).
	Output string
}

// TogetherFile is one test file's part of the report.
type TogetherFile struct {
	Status  string // vitest's: "passed", "failed"
	Message string // its own error (a load error), as vitest wrote it
	Tests   []TogetherTest
}

// TogetherTest is one test of a TogetherFile.
type TogetherTest struct {
	Name    string // vitest's full name
	Status  string // vitest's: passed, failed, skipped, pending, todo
	Failure string // its first failure message, as vitest wrote it
}

// togetherVitest is the vitest of a run of many files: the one that lists
// the suite, found from the config's directory when s.Config is set, else
// from the repository's root, and only failing both from the first file. In
// a workspace a package may hold a vitest of its own (nuxt/cli: vitest for
// vite 7 at the root, for vite 8 in a package): found from one file, another
// vitest would run all of them, and two runs of the same files (audit's
// mock-swap: with and without the mocks) could differ by more than the mocks.
func togetherVitest(s Spec, first string) (string, error) {
	if s.Config != "" {
		return FindVitest(s.Dir, s.Config)
	}
	if p := vitestloc.Find(s.Dir); p != "" {
		return p, nil
	}
	return FindVitest(s.Dir, first)
}

// togetherAt is where vitest runs the test files (repo-relative) of the
// sandbox root with config, and how they and the config are named there:
// the root, as they are; or, for a workspace's config above the package
// (VitestDir), the config's directory, with absolute paths.
func togetherAt(root, config string, tests []string) (dir, cfg string, files []string) {
	dir = VitestDir(root, config)
	if dir == root {
		return dir, config, tests
	}
	for _, t := range tests {
		files = append(files, filepath.Join(root, filepath.FromSlash(t)))
	}
	return dir, filepath.Join(root, filepath.FromSlash(config)), files
}

// RunTogether runs files (repository-relative) of the repository s.Dir, a
// sandbox, in one plain `vitest run` from s.Dir (vitest's own pool and
// isolation, as the user's run), with s.Config when set, $ORACLE_REACHED
// set for FileMarkerStatement's lines, and env added to the environment.
// Its error is vitest's absence, a sandbox without a temporary directory,
// or ctx's.
func RunTogether(ctx context.Context, s Spec, files []string, env ...string) (Together, error) {
	return runTogether(ctx, nil, s, files, env)
}

// RunTogetherOn is RunTogether in the node process r was offered
// (WarmOffer: the config probe's, vitest's node API imported) when r is a
// LongLivedRunner holding one that fits (the same node binary and vitest
// package): the run is vitest's CLI as a fresh process runs it (its own
// working directory, environment and argv), without node's start and
// vitest's import again. Otherwise, and when the process cannot take the
// job, a fresh process as RunTogether.
func RunTogetherOn(ctx context.Context, r Runner, s Spec, files []string, env ...string) (Together, error) {
	ll, _ := r.(*LongLivedRunner)
	return runTogether(ctx, ll, s, files, env)
}

func runTogether(ctx context.Context, ll *LongLivedRunner, s Spec, files []string, env []string) (Together, error) {
	var t Together
	if len(files) == 0 {
		return t, fmt.Errorf("runner: no test file to run")
	}
	vitest, err := togetherVitest(s, files[0])
	if err != nil {
		return t, err
	}
	base, tmp, err := togetherTemp(s.Dir)
	if err != nil {
		return t, err
	}
	defer os.RemoveAll(tmp)
	reached, reportPath := filepath.Join(tmp, "entered"), filepath.Join(tmp, "report.json")
	args := []string{vitest, "run", "--reporter=json", "--outputFile=" + reportPath}
	dir, config, named := togetherAt(s.Dir, s.Config, files)
	if config != "" {
		args = append(args, "--config", config)
	}
	args = append(args, named...)
	runEnv := vitestenv.For(dir, base, append([]string{ReachedEnv + "=" + reached}, env...)...)
	var out bytes.Buffer
	if !ll.togetherWarm(ctx, args, dir, runEnv, &out) {
		// vitest and its workers in a group of their own, killed together: an
		// interrupted audit left a fork worker spinning after vitest was killed.
		cmd := nodeproc.Command(ctx, "node", dir, runEnv, args...)
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.WaitDelay = 5 * time.Second
		_ = cmd.Run() // its exit code says less than its report: a red test file exits 1 too
	}
	t.Output = out.String()
	if ctx.Err() != nil {
		return t, ctx.Err()
	}
	readTogether(&t, s.Dir, reportPath, reached, false)
	return t, nil
}

// togetherTemp makes the temporary directory of a run of many test files of
// the sandbox dir (in base, the sandbox's): the caller removes it.
func togetherTemp(dir string) (base, tmp string, err error) {
	base = sbox.TempDirFor(dir)
	if base == "" {
		return "", "", fmt.Errorf("sandbox %s: no temporary directory", dir)
	}
	if tmp, err = os.MkdirTemp(base, "oracle-together-"); err != nil {
		return "", "", fmt.Errorf("runner: temp dir: %w", err)
	}
	return base, tmp, nil
}

// readTogether reads the JSON report of a run of many test files of the
// repository root (vitest's, or jest's: the same shape, a file's message
// there repeating its failed tests') and the markers at reached into t.
func readTogether(t *Together, root, reportPath, reached string, jest bool) {
	var rep jsonReport
	b, err := os.ReadFile(reportPath)
	if err != nil || json.Unmarshal(b, &rep) != nil {
		return
	}
	t.Report, t.Files, t.Entered = true, map[string]TogetherFile{}, map[string][]string{}
	real, _ := filepath.EvalSymlinks(root)
	rel := func(abs string) string {
		for _, dir := range []string{real, root} {
			if r, err := filepath.Rel(dir, abs); err == nil && filepath.IsLocal(r) {
				return filepath.ToSlash(r)
			}
		}
		return ""
	}
	for _, fr := range rep.TestResults {
		f := TogetherFile{Status: fr.Status, Message: fr.Message}
		if jest && fr.Message != "" {
			f.Message = jestFileMessage(fr.Message) // "" when it only lists the failed tests
		}
		for _, a := range fr.AssertionResults {
			tt := TogetherTest{Name: a.FullName, Status: a.Status}
			if len(a.FailureMessages) > 0 {
				tt.Failure = a.FailureMessages[0]
			}
			f.Tests = append(f.Tests, tt)
		}
		t.Files[rel(fr.Name)] = f
	}
	if f, err := os.Open(reached); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			file, id, found := strings.Cut(sc.Text(), "\t")
			if test := rel(file); found && test != "" && !slices.Contains(t.Entered[id], test) {
				t.Entered[id] = append(t.Entered[id], test)
			}
		}
		f.Close()
	}
	for _, files := range t.Entered {
		slices.Sort(files)
	}
}

// togetherWarm runs `node args...` (args[0] vitest's CLI) in the process
// ll was offered, when it fits, in dir with env, its output to out, and
// waits for it (ctx ends it and its workers); false when it ran nothing
// (no process offered, another node or vitest, or the process could not
// take the job: the caller starts one).
func (ll *LongLivedRunner) togetherWarm(ctx context.Context, args []string, dir string, env []string, out *bytes.Buffer) bool {
	if ll == nil {
		return false
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return false
	}
	a := ll.adopt(node, args[0], warmnode.Job{Script: args[0], Args: args[1:], Cwd: dir, Env: env, Out: out})
	if a == nil {
		return false
	}
	a.stdin.Close() // a fresh run's stdin is /dev/null: at its end at once
	defer a.fd3.Close()
	select {
	case <-a.exited:
	case <-ctx.Done():
		_ = nodeproc.Kill(a.cmd)
		<-a.exited
	}
	return true
}

// FirstError is the first line of a test file's error message, joined
// with the next when it only announces it ("Transform failed with 1
// error:"), without colours, at most 300 bytes.
func FirstError(msg string) string {
	var lines []string
	for _, l := range strings.Split(stripANSI(msg), "\n") {
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

// namedError matches the line of a run's output that names its error
// (`Error: the database is not reachable`, `TypeError: ...`).
var namedError = regexp.MustCompile(`^(?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)\b.*`)

// RunError is the first error a vitest run's output names, without
// colours, "" when it names none.
func RunError(out string) string {
	for _, l := range strings.Split(stripANSI(out), "\n") {
		if l = strings.TrimSpace(l); namedError.MatchString(l) {
			return text.FirstLine(l, 300)
		}
	}
	return ""
}
