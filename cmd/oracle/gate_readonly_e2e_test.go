package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/oracle-ts/oracle/internal/testenv"
)

// TestMain lets the test binary be oracle itself (ORACLE_TEST_RUN_CLI=1):
// a test runs it as another user, or in a checkout it cannot write.
func TestMain(m *testing.M) {
	if os.Getenv("ORACLE_TEST_RUN_CLI") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestGateReadOnlyCheckout: in a checkout the user cannot write (a CI
// cache mount, another user's files), vite cannot write its bundled
// config next to vitest.config.ts ("failed to load config"): the gate
// loads it with vitest's --configLoader runner, runs, says the cache is not
// saved, and leaves the checkout as it was. As root the run is made as
// the user nobody (root writes anywhere).
func TestGateReadOnlyCheckout(t *testing.T) {
	nm := v4(t).nodeModules
	base, err := os.MkdirTemp("", "oracle-ro-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.Walk(base, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(base)
	})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Chmod(base, 0o755))
	g := gitRepo{t, filepath.Join(base, "repo")}
	must(os.Mkdir(g.dir, 0o755))
	must(os.Symlink(nm, filepath.Join(g.dir, "node_modules")))
	g.git("init", "-q")
	g.commit("base", map[string]string{
		".gitignore":       "node_modules\n",
		"package.json":     `{"name":"grades","private":true,"type":"module"}`,
		"vitest.config.ts": "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { include: [\"test/**/*.test.ts\"] } });\n",
		"src/grade.ts":     strings.Replace(gradeTS, "50", "60", 1),
		"test/grade.test.ts": "import { expect, it } from \"vitest\";\nimport { grade } from \"../src/grade\";\n" +
			"it(\"grades\", () => {\n  expect(grade(50)).toBe(\"pass\");\n  expect(grade(49)).toBe(\"fail\");\n});\n",
	})
	g.commit("change", map[string]string{"src/grade.ts": gradeTS})
	// The test binary, where another user can run it.
	exe := filepath.Join(base, "oracle.test")
	src, err := os.Open(os.Args[0])
	must(err)
	dst, err := os.OpenFile(exe, os.O_CREATE|os.O_WRONLY, 0o755)
	must(err)
	_, err = io.Copy(dst, src)
	src.Close()
	must(dst.Close())
	must(err)
	home := filepath.Join(base, "home")
	must(os.Mkdir(home, 0o777))
	must(os.Chmod(home, 0o777))
	before := treeHash(t, g.dir)

	cmd := exec.Command(exe, "gate", "--root", g.dir)
	cmd.Env = append(os.Environ(), "ORACLE_TEST_RUN_CLI=1", "HOME="+home,
		// The checkout is another user's: git needs to be told to trust it.
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*")
	if os.Geteuid() == 0 {
		// Another user reaches vitest through the node_modules link: every
		// directory above it must let others pass (a checkout cloned into
		// a `mktemp -d` directory, mode 0700, does not).
		for d := nm; d != filepath.Dir(d); d = filepath.Dir(d) {
			if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o001 == 0 {
				t.Skipf("%s is not open to other users (mode %v): the read-only run as uid 65534 cannot reach vitest; clone the repository where others can read it", d, fi.Mode().Perm())
			}
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	} else {
		filepath.Walk(g.dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.IsDir() && info.Mode()&os.ModeSymlink == 0 {
				os.Chmod(p, 0o555)
			}
			return nil
		})
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr // progress lines: the result is on stdout
	out, err := cmd.Output()
	out = append(out, stderr.String()...)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != 0 || !strings.HasPrefix(string(out), "GATE PASS ") || !strings.Contains(string(out), "note: the cache cannot be written") {
		t.Errorf("a read-only checkout: exit %d\n%s", code, out)
	}
	if after := treeHash(t, g.dir); after != before {
		t.Error("the checkout changed")
	}
}

// TestGateSIGKILLLeavesNoVitest: oracle killed with SIGKILL cannot stop
// the vitest it started, in a process group of its own: a worker busy in
// an endless loop (here a related test that never ends) spins on after the
// driver went. The next run's sweep stops what the dead run's sandbox
// recorded.
func TestGateSIGKILLLeavesNoVitest(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	nm := v4(t).nodeModules
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // this test's sandboxes only
	mark := filepath.Join(t.TempDir(), "spinning.pid")
	g := gitRepo{t, t.TempDir()}
	if err := os.Symlink(nm, filepath.Join(g.dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	g.git("init", "-q")
	g.commit("base", map[string]string{
		".gitignore":   "node_modules\n",
		"package.json": `{"name":"grades","private":true,"type":"module"}`,
		"src/grade.ts": strings.Replace(gradeTS, "50", "60", 1),
		// The worker says who it is, then never ends.
		"test/grade.test.ts": "import { it } from \"vitest\";\nimport { writeFileSync } from \"node:fs\";\nimport { grade } from \"../src/grade\";\n" +
			"it(\"spins\", () => {\n  grade(1);\n  writeFileSync(process.env.ORACLE_TEST_SPIN_MARK!, String(process.pid));\n  for (;;) {}\n});\n",
	})
	g.commit("change", map[string]string{"src/grade.ts": gradeTS})
	cmd := exec.Command(os.Args[0], "gate", "--root", g.dir, "--no-cache")
	cmd.Env = append(os.Environ(), "ORACLE_TEST_RUN_CLI=1", "ORACLE_TEST_SPIN_MARK="+mark)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Waits for the related test without a cap of its own (one that never
	// runs is go test's -timeout, naming this test).
	var spinning int
	testenv.Await(func() bool {
		b, _ := os.ReadFile(mark)
		spinning, _ = strconv.Atoi(string(b))
		return spinning != 0
	})
	if pgid, err := syscall.Getpgid(spinning); err == nil && pgid > 1 && pgid != syscall.Getpgrp() {
		defer syscall.Kill(-pgid, syscall.SIGKILL) // vitest's group, whatever the sweep did
	}
	defer syscall.Kill(spinning, syscall.SIGKILL)
	gone := func() bool {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(spinning) + "/stat")
		i := strings.LastIndexByte(string(b), ')')
		return err != nil || i < 0 || strings.HasPrefix(strings.TrimSpace(string(b[i+1:])), "Z")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if gone() {
		t.Fatal("the worker ended with oracle: nothing is left to stop")
	}
	oracle(t, "gate", "--root", g.dir, "--files", os.DevNull) // its sweep
	// The worker of the killed run ends with the next run's sweep.
	testenv.Await(gone)
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("left in the temp dir: %v", entries)
	}
}
