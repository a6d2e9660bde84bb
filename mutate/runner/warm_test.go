//go:build unix

package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/internal/warmnode"
	sbox "github.com/oracle-ts/oracle/mutate/sandbox"
)

// warmProbe starts what testsuite's config probe leaves for the runner: a
// node process that imported vitest's node API from dir's node_modules,
// answered, and waits (warmnode); its environment has PROBE_ONLY, which
// the driver it becomes must not.
func warmProbe(t *testing.T, dir, vitest string) *warmnode.Proc {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	script := filepath.Join(t.TempDir(), "probe.mjs")
	src := `import { writeSync } from "node:fs";
import { pathToFileURL } from "node:url";
await import(pathToFileURL(process.argv[2] + "/dist/node.js").href);
process.env.SET_BY_PROBE = "1";
writeSync(3, "{}\n");
` + warmnode.Tail
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := warmnode.Start(node, vitest, dir, append(os.Environ(), "PROBE_ONLY=1"), script, vitest)
	if err != nil {
		t.Fatal(err)
	}
	if _, out, err := p.Answer(time.Minute, nil); err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	return p
}

// The first driver becomes the offered process when it is the same node
// and vitest (Stats.Adopted), and serves its runs as a started one does: the
// workers see the driver's environment (nothing of the probe's) and working
// directory. An offer of another vitest is not taken, and Close ends it.
func TestLongLivedAdoptsOffered(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	os.WriteFile(filepath.Join(dir, "reference", "world.test.ts"), []byte(`import { expect, it } from "vitest";
it("sees the driver's world, not the probe's", () => {
  expect(process.env.PROBE_ONLY).toBeUndefined();
  expect(process.env.SET_BY_PROBE).toBeUndefined();
  expect(process.env.PWD).toBe(process.cwd());
});
`), 0o644)
	vitest := filepath.Join(dir, "node_modules", "vitest")
	other := warmProbe(t, dir, vitest)
	other.Vitest = "/another/vitest" // as if another package's
	r := newLL(t, dir, false)
	r.Offer(other)
	if res := llRun(t, r, Spec{Dir: dir, TestFile: "reference/world.test.ts", Config: refConfig, Timeout: time.Minute}); shapeOf(res) != passed {
		t.Errorf("with another vitest offered: %+v", res)
	}
	if st := r.Stats(); st.Adopted != 0 || st.Starts != 1 {
		t.Errorf("another vitest's process adopted: %+v", st)
	}
	r.Close()
	if err := syscall.Kill(other.Pid(), 0); err == nil {
		t.Errorf("Close left the offered process %d running", other.Pid())
	}

	r = newLL(t, dir, false)
	warm := warmProbe(t, dir, vitest)
	r.Offer(warm)
	for i, f := range []string{"reference/world.test.ts", refOracle, "reference/world.test.ts"} {
		if res := llRun(t, r, Spec{Dir: dir, TestFile: f, Config: refConfig, Timeout: time.Minute}); shapeOf(res) != passed {
			t.Errorf("run %d (%s) on the adopted process: %+v", i, f, res)
		}
	}
	if st := r.Stats(); st.Adopted != 1 || st.Starts != 1 || st.Runs != 3 {
		t.Errorf("want one start, the offered process, serving 3 runs: %+v", st)
	}
}

// A plain run of many files (RunTogetherOn, audit's measuring run) becomes
// the offered process as a driver does, and says what a fresh process
// says: the same files, tests and statuses, vitest's JSON report read (so
// its arguments were vitest's CLI's, not the probe's), the workers in their
// own environment. Without an offer it starts node, as RunTogether.
func TestRunTogetherOnOffered(t *testing.T) {
	t.Parallel()
	repo := sandbox(t)
	os.WriteFile(filepath.Join(repo, "reference", "world.test.ts"), []byte(`import { expect, it } from "vitest";
it("sees the run's world, not the probe's", () => {
  expect(process.env.PROBE_ONLY).toBeUndefined();
  expect(process.env.SET_BY_PROBE).toBeUndefined();
});
`), 0o644)
	sb, err := sbox.New(repo, sbox.Options{TempDir: t.TempDir()}) // a run of many files is a sandbox's
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	dir := sb.Root
	files := []string{"reference/world.test.ts", refOracle}
	spec := Spec{Dir: dir, Config: refConfig}
	vitestSlots <- struct{}{}
	defer func() { <-vitestSlots }()
	plain, err := RunTogether(context.Background(), spec, files)
	if err != nil || !plain.Report {
		t.Fatalf("plain run: %v, report %v\n%s", err, plain.Report, plain.Output)
	}
	r := newLL(t, dir, false)
	r.Offer(warmProbe(t, dir, filepath.Join(dir, "node_modules", "vitest")))
	warm, err := RunTogetherOn(context.Background(), r, spec, files)
	if err != nil || !warm.Report {
		t.Fatalf("run in the offered process: %v, report %v\n%s", err, warm.Report, warm.Output)
	}
	if st := r.Stats(); st.Adopted != 1 {
		t.Errorf("the offered process was not adopted: %+v", st)
	}
	if !reflect.DeepEqual(warm.Files, plain.Files) {
		t.Errorf("files and tests differ:\n  offered %+v\n  fresh   %+v", warm.Files, plain.Files)
	}
	for _, f := range files {
		if warm.Files[f].Status != "passed" {
			t.Errorf("%s: %+v", f, warm.Files[f])
		}
	}
	again, err := RunTogetherOn(context.Background(), r, spec, files) // the offer is taken: a fresh process
	if err != nil || !reflect.DeepEqual(again.Files, plain.Files) || r.Stats().Adopted != 1 {
		t.Errorf("second run: %v, %+v, stats %+v", err, again.Files, r.Stats())
	}
}
