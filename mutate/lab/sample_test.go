package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/internal/samplecopy"
	"github.com/oracle-ts/oracle/internal/testenv"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
)

// The lab's tests against a real vitest run on copies of testdata/pipeline.
// Each runs in its own copy, sandbox and runner, so they run in parallel
// (t.Parallel: two at a time, go test's -parallel, the cores): most of
// their time is waits (a mutant's wall-clock limit, vitest's time-outs, a
// test's sleep), and none of them reads a shared variable. A real test
// that sets one, or the environment, must not be parallel.

// pipelineCopy copies testdata/pipeline into a temporary directory, with the
// node_modules of testdata/<env> linked (vitest there is the one that runs),
// and writes files over it. Without that vitest the test is skipped (failed
// under CI).
func pipelineCopy(t testing.TB, env string, files map[string]string) string {
	t.Helper()
	nm, _ := filepath.Abs("../../testdata/" + env + "/node_modules")
	if _, err := os.Stat(filepath.Join(nm, "vitest", "package.json")); err != nil {
		testenv.Missing(t, fmt.Sprintf("testdata/%s has no vitest: scripts/test installs it", env))
	}
	repo := t.TempDir()
	if err := samplecopy.Copy("../../testdata/pipeline", repo, nm); err != nil {
		t.Fatal(err)
	}
	for rel, body := range files {
		if err := os.WriteFile(filepath.Join(repo, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

// labRun executes ms against tests with l in a fresh sandbox of repo, on
// a long-lived runner with node ("": the one on PATH), and returns the
// result and the runner's stats. l's Root, Files and Runner are set here;
// its MarkerPrefix is "s" unless l sets one.
func labRun(t testing.TB, repo, node string, l Lab, tests []string, ms []edit.Mutant) (*Result, runner.LongLivedStats) {
	t.Helper()
	sb, err := sandbox.New(repo, sandbox.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	r := runner.NewLongLived()
	r.Node = node
	defer r.Close()
	l.Root, l.Files, l.Runner = sb.Root, sb, r
	if l.MarkerPrefix == "" {
		l.MarkerPrefix = "s"
	}
	res, err := l.Execute(context.Background(), tests, ms)
	if err != nil {
		t.Fatal(err)
	}
	return res, r.Stats()
}

// textMutants makes one mutant of src (the file at path) per edit {name,
// old, new}: the first old replaced by new.
func textMutants(t testing.TB, path, src string, edits [][3]string) []edit.Mutant {
	t.Helper()
	var ms []edit.Mutant
	for _, e := range edits {
		at := strings.Index(src, e[1])
		if at < 0 {
			t.Fatalf("%s has no %q", path, e[1])
		}
		m, err := edit.NewMutant("test", e[0], path, []byte(src), []edit.Change{{Start: uint(at), End: uint(at + len(e[1])), Text: e[2]}})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	return ms
}
