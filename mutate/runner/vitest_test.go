package runner

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sbox "github.com/oracle-ts/oracle/mutate/sandbox"
)

// TestMissingVitestNamesTheFix: the error says what to do, and a Yarn
// Plug'n'Play repository is told to switch its linker.
func TestMissingVitestNamesTheFix(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"declared, not installed", map[string]string{"package.json": `{"devDependencies":{"vitest":"4.1.0"}}`},
			"package.json declares vitest 4.1.0 but there is no node_modules/vitest"},
		{"not declared", map[string]string{"package.json": `{}`}, "npm install --save-dev vitest"},
		{"yarn plug'n'play", map[string]string{"package.json": `{"devDependencies":{"vitest":"4.1.0"}}`, ".pnp.cjs": "// pnp"},
			"Yarn Plug'n'Play repository (.pnp.cjs)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, body := range tc.files {
				if err := os.WriteFile(filepath.Join(root, rel), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := missingVitest(root, root)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want it to contain %q", err, tc.want)
			}
			if strings.Contains(tc.want, "Plug'n'Play") && !strings.Contains(err.Error(), "nodeLinker: node-modules") {
				t.Errorf("the fix is not named: %v", err)
			}
		})
	}
}

// TestWorkDir: vitest runs a test file where its config is found, so that
// its root is the one the listing had: a workspace's one config at its
// root (no config in the package), a package's own config, the repository
// root when a config is given, the package when there is no config.
func TestWorkDir(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"ws/vitest.config.ts", "ws/package.json", "ws/packages/a/package.json", "ws/packages/a/test/x",
		"ws/packages/b/package.json", "ws/packages/b/vite.config.mts", "ws/packages/b/test/x",
		"plain/package.json", "plain/packages/c/package.json", "plain/packages/c/test/x"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if filepath.Base(p) != "x" {
			os.WriteFile(p, []byte("{}"), 0o644)
		}
	}
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	for _, tc := range []struct {
		repo, from string
		config     bool
		want       string
	}{
		{"ws", "ws/packages/a/test", false, "ws"},                     // the workspace's config, above the package
		{"ws", "ws/packages/b/test", false, "ws/packages/b"},          // the package's own
		{"ws", "ws/packages/b/test", true, "ws"},                      // -c: where the tests were listed
		{"plain", "plain/packages/c/test", false, "plain/packages/c"}, // no config: the package
	} {
		if got := workDir(at(tc.repo), at(tc.from), tc.config); got != at(tc.want) {
			t.Errorf("workDir(%s, %s, %v) = %s, want %s", tc.repo, tc.from, tc.config, got, at(tc.want))
		}
	}
}

// TestVitestDir: a config above the repository (a workspace's, given as
// "../../vitest.config.ts") runs vitest from its directory, and is accepted
// as the run's config; one inside the repository runs from the root; a path
// that leaves the repository sideways is refused.
func TestVitestDir(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "ws", "packages", "b")
	for _, tc := range []struct {
		config, dir string
		ok          bool
	}{
		{"", ".", false},
		{"vitest.config.ts", ".", true},
		{"config/vitest.unit.ts", ".", true},
		{"../../vitest.config.ts", "../..", true},
		{"../vitest.config.ts", "..", true},
		{"../a/vitest.config.ts", ".", false},
	} {
		if got := VitestDir(root, tc.config); got != filepath.Join(root, tc.dir) {
			t.Errorf("VitestDir(%q) = %s, want %s", tc.config, got, filepath.Join(root, tc.dir))
		}
		if _, err := configFile(root, tc.config); (err == nil) != tc.ok {
			t.Errorf("configFile(%q): %v, want ok %v", tc.config, err, tc.ok)
		}
	}
}

// TestWriteReporter: in a sandbox the phases reporter is written to a new
// dot-directory of vitest's working directory (vitest 3.1 loads a reporter
// only from inside its root), which remove takes away; outside a sandbox
// (the user's checkout) it goes to the run's temp directory, and nothing is
// written in the working directory.
func TestWriteReporter(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "package.json"), []byte("{}"), 0o644)
	sb, err := sbox.New(repo, sbox.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	for _, tc := range []struct {
		name, cwd string
		inCwd     bool
	}{
		{"sandbox", sb.Root, true},
		{"checkout", repo, false},
	} {
		tmp := t.TempDir()
		p, remove, err := writeReporter(tc.cwd, tmp)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if b, err := os.ReadFile(p); err != nil || !bytes.Equal(b, phasesReporter) {
			t.Errorf("%s: the reporter is not at %s: %v", tc.name, p, err)
		}
		dir := filepath.Dir(p)
		if got := filepath.Dir(dir) == tc.cwd && strings.HasPrefix(filepath.Base(dir), "."); got != tc.inCwd {
			t.Errorf("%s: reporter at %s, in a dot-directory of %s: %v, want %v", tc.name, p, tc.cwd, got, tc.inCwd)
		}
		if !tc.inCwd && dir != tmp {
			t.Errorf("%s: reporter at %s, want in %s", tc.name, p, tmp)
		}
		remove()
		entries, _ := os.ReadDir(tc.cwd)
		for _, e := range entries {
			if e.Name() != "package.json" {
				t.Errorf("%s: left in the working directory: %s", tc.name, e.Name())
			}
		}
	}
}

// TestReporterProgress: the reporter appends to $ORACLE_PROGRESS when a
// test file is collected (vitest 3+ and before 3), not only when a test
// ends: a joint run of jsdom files spends minutes in vite's transform
// before its first test ends, and without it the run's watchdog took that
// for a stall. A failed test is no progress (TestFailingTestsAreNoProgress).
func TestReporterProgress(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node")
	}
	tmp := t.TempDir()
	p, remove, err := writeReporter(tmp, tmp)
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	progress := filepath.Join(tmp, "progress")
	script := `const R = (await import(process.argv[1])).default; const r = new R();
r.onTestModuleCollected({}); r.onCollected([]); r.onTestCaseResult({});
r.onTestCaseResult({ result: () => ({ state: "failed" }) }); r.onTestCaseResult({ result: () => ({ state: "passed" }) });
r.onTestCaseResult({ result: () => ({ state: "skipped" }) });`
	cmd := exec.Command(node, "--input-type=module", "-e", script, p)
	cmd.Env = append(os.Environ(), ProgressEnv+"="+progress)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	b, _ := os.ReadFile(progress)
	if string(b) != "c\nc\nt\nt\nt\n" {
		t.Errorf("progress file %q, want a line per collected file and per test that did not fail", b)
	}
}
