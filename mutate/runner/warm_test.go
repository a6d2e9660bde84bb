//go:build unix

package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/internal/warmnode"
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
