package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	} else {
		filepath.Walk(g.dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.IsDir() && info.Mode()&os.ModeSymlink == 0 {
				os.Chmod(p, 0o555)
			}
			return nil
		})
	}
	out, err := cmd.CombinedOutput()
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
