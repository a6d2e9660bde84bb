package gate

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
	"github.com/oracle-ts/oracle/internal/testenv"
)

// TestInterruptExitCodes (issue 28 item 4): every verb that runs vitest
// ends on SIGINT with 130 and on SIGTERM with 143 (docs/reference.md "Exit
// codes"), says so on stderr, prints its --json document with the one
// error, and leaves no sandbox. The sample's test loops: the run hangs
// until the signal comes, however fast or slow the machine.
func TestInterruptExitCodes(t *testing.T) {
	bin := Bin(t)
	const loopingTest = "import { expect, it } from \"vitest\";\nimport { total } from \"../src/price\";\n" +
		"it(\"multiplies\", () => {\n  " + Endless + "\n  expect(total(2, 3)).toBe(6);\n});\n"
	// gate: a change to price.ts, its test hangs.
	gateRepo := func(t *testing.T) (string, []string) {
		g := NewGateRepo(t, map[string]string{"src/price.ts": TotalTS, "test/price.test.ts": loopingTest})
		g.Commit("change", map[string]string{"src/price.ts": strings.Replace(TotalTS, "price * qty", "price * qty + 0", 1)})
		return g.Dir, []string{"gate", "--json", "--concurrency", "1", "--root", g.Dir}
	}
	// audit: the test file runs once with markers, and hangs.
	auditDir := func(t *testing.T) (string, []string) {
		dir := AuditRepo(t, map[string]string{"package.json": `{"name":"a","private":true,"type":"module"}`,
			"src/price.ts": TotalTS, "test/price.test.ts": loopingTest})
		return dir, []string{"audit", "--json", "--root", dir}
	}
	// prove: processItem loops in the baseline run.
	proveDir := func(t *testing.T) (string, []string) {
		dir := CopySample(t, "pipeline", V4(t).NodeModules)
		index := filepath.Join(dir, "src/server/index.ts")
		src, _ := os.ReadFile(index)
		looping := strings.Replace(string(src), "  const record = await getRecord(id);\n", "  const record = await getRecord(id);\n  "+Endless+"\n", 1)
		if looping == string(src) {
			t.Fatal("processItem changed: no place for the loop")
		}
		os.WriteFile(index, []byte(looping), 0o644)
		return dir, []string{"prove", "--json", "--isolate", "--concurrency", "1", "--timeout", "10m", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml")}
	}
	for _, verb := range []struct {
		name string
		repo func(t *testing.T) (string, []string)
	}{{"gate", gateRepo}, {"audit", auditDir}, {"prove", proveDir}} {
		for _, sig := range []struct {
			sig  syscall.Signal
			code int
		}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
			t.Run(verb.name+"/"+sig.sig.String(), func(t *testing.T) {
				_, args := verb.repo(t)
				tmp := t.TempDir()
				cmd := exec.Command(bin, args...)
				cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
				var stdout, stderr strings.Builder
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				// The verb handles signals from its start; its sandbox in
				// TMPDIR says it is running, and vitest has had time to start.
				// (No cap of its own: one that never comes is go test's
				// -timeout, naming this test.)
				testenv.Await(func() bool { entries, _ := os.ReadDir(tmp); return len(entries) > 0 })
				time.Sleep(1500 * time.Millisecond)
				cmd.Process.Signal(sig.sig)
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				err := <-done // it ends after the signal (however loaded the machine)
				if code := cmd.ProcessState.ExitCode(); code != sig.code {
					t.Errorf("exit %d after %v, want %d (%v)\nstderr: %s", code, sig.sig, sig.code, err, stderr.String())
				}
				if !strings.Contains(stderr.String(), "oracle "+verb.name+": interrupted (") {
					t.Errorf("stderr does not say it was interrupted: %q", stderr.String())
				}
				var doc struct {
					Schema string
					Errors []struct{ Message string }
				}
				if err := json.Unmarshal([]byte(stdout.String()), &doc); err != nil || doc.Schema != "oracle."+verb.name+"/v1" ||
					len(doc.Errors) != 1 || !strings.Contains(doc.Errors[0].Message, "interrupted (") {
					t.Errorf("--json document: %v %s", err, stdout.String())
				}
				entries, _ := os.ReadDir(tmp)
				for _, e := range entries {
					if strings.HasPrefix(e.Name(), "oracle-") {
						t.Errorf("sandbox left behind: %s", e.Name())
					}
				}
				// No process left: vitest's workers (a fork spinning in the
				// test's loop) die with the verb (an interrupted audit left
				// one running, its working directory in the deleted sandbox).
				testenv.Await(func() bool { return len(processesIn(tmp)) == 0 })
			})
		}
	}
}

// processesIn lists the processes whose working directory or environment
// names dir (Linux's /proc; none elsewhere), each as its pid and command.
func processesIn(dir string) []string {
	procs, _ := os.ReadDir("/proc")
	var out []string
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cwd, _ := os.Readlink(filepath.Join("/proc", p.Name(), "cwd"))
		env, _ := os.ReadFile(filepath.Join("/proc", p.Name(), "environ"))
		if strings.HasPrefix(cwd, dir) || strings.Contains(string(env), dir) {
			cmdline, _ := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
			out = append(out, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(string(cmdline), "\x00", " ")))
		}
	}
	return out
}

// An interrupt while vitest's configuration is still loading ends the gate
// (and an audit that runs tests) there: the config probe runs in a process
// group of its own (it becomes the long-lived driver, whose workers die with
// its group, or audit's measuring run), so a terminal's Ctrl-C does not
// reach it, and the verb stops waiting for its answer and kills it. Before,
// the gate waited for the probe (its limit is 10 minutes). The config here
// never finishes loading; the signal comes once the probe runs, however slow
// the machine.
func TestInterruptWhileReadingConfig(t *testing.T) {
	for _, verb := range []string{"gate", "audit"} {
		t.Run(verb, func(t *testing.T) { interruptWhileReadingConfig(t, verb) })
	}
}

func interruptWhileReadingConfig(t *testing.T, verb string) {
	bin := Bin(t)
	g := NewGateRepo(t, map[string]string{"src/price.ts": TotalTS,
		"test/price.test.ts": "import { expect, it } from \"vitest\";\nimport { total } from \"../src/price\";\nit(\"multiplies\", () => {\n  expect(total(2, 3)).toBe(6);\n});\n",
		"vitest.config.ts":   "import { defineConfig } from \"vitest/config\";\nawait new Promise(() => setInterval(() => {}, 1000));\nexport default defineConfig({});\n"})
	g.Commit("change", map[string]string{"src/price.ts": strings.Replace(TotalTS, "price * qty", "price * qty + 0", 1)})
	tmp := t.TempDir()
	cmd := exec.Command(bin, verb, "--root", g.Dir)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	probing := func() bool {
		for _, p := range processesIn(tmp) {
			if strings.Contains(p, "oracle-config") {
				return true
			}
		}
		return false
	}
	testenv.Await(probing) // no cap of its own: go test's -timeout names a hang
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait() // it stops waiting for the config probe after SIGINT
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "oracle "+verb+": interrupted (") {
		t.Errorf("exit %d, want 130\nstderr: %s", code, stderr.String())
	}
	testenv.Await(func() bool { return !probing() }) // the config probe ends with it
}

// TestGateEnvironmentSaidOnce: a temporary directory that cannot be made
// is the environment's failing (exit 3), said once: never "environment:
// environment: temp directory".
func TestGateEnvironmentSaidOnce(t *testing.T) {
	g := NewGateRepo(t, map[string]string{"src/total.ts": TotalTS,
		"test/total.test.ts": "import { expect, it } from \"vitest\";\nimport { total } from \"../src/total\";\nit(\"totals\", () => expect(total(2, 3)).toBe(6));\n"})
	g.Commit("change", map[string]string{"src/total.ts": strings.Replace(TotalTS, "price * qty", "price * qty + 0", 1)})
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "gone"))
	code, out, errs := Oracle(t, "gate", "--root", g.Dir)
	if code != ExitError || !strings.Contains(errs, "oracle gate: environment: temp directory") || strings.Count(errs, "environment:") != 1 {
		t.Errorf("exit %d, want 3 and the environment said once:\n%s%s", code, out, errs)
	}
}
