// Package npm holds the npm packaging of oracle (@oracle-ts/cli and its
// per-platform packages, built by scripts/npm-pack) and its end-to-end test.
package npm

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestNpmInstallWithoutGo takes the linux-x64 packages (glibc and musl) and
// the main one as scripts/npm-pack packs them (fastPacks), installs the main and the glibc
// tarballs into a copy of testdata/pipeline where no Go is on the PATH, and
// runs the installed `npx oracle`: --version (stamped), gen, gate (PASS;
// then FAIL with GitHub annotations) and audit; then, with the launcher told
// it runs on musl (as Node on Alpine reports: no glibc version) and only the
// musl package there, the same gate and audit from its static binary; then
// the launcher's errors when the platform's package is missing or no binary
// was built for the platform.
func TestNpmInstallWithoutGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds, packs and installs the npm packages")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the CI machine's platform is linux-x64")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	// The packages TestCrossBuilds checks (fastPlatforms), packed once: the
	// macOS one is not installed here.
	packs, _ := fastPacks(t, repo)
	tarballs, _ := filepath.Glob(filepath.Join(packs, "*.tgz"))
	tarballs = slices.DeleteFunc(tarballs, func(s string) bool { return strings.Contains(filepath.Base(s), "-darwin-") })
	musl, _ := filepath.Glob(filepath.Join(packs, "oracle-ts-cli-linux-x64-musl-*.tgz"))
	if len(tarballs) != 3 || len(musl) != 1 {
		t.Fatalf("want the main package, linux-x64 and linux-x64-musl packed, got %v", tarballs)
	}
	tarballs = slices.DeleteFunc(tarballs, func(s string) bool { return s == musl[0] })

	// A user's repository: the sample, its own packages, no Go.
	app := filepath.Join(tmp, "app")
	copyTree(t, filepath.Join(repo, "testdata", "pipeline"), app)
	env := noGo(t)
	sh := func(stdin string, extraEnv []string, name string, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = app, append(append([]string{}, env...), extraEnv...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		return code, string(out)
	}
	npm := func(args ...string) {
		t.Helper()
		if code, out := sh("", nil, "npm", append(args, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")...); code != 0 {
			t.Fatalf("npm %v: exit %d\n%s", args, code, out)
		}
	}
	npm("ci")
	npm(append([]string{"install", "--save-dev"}, tarballs...)...)

	head, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	main, err := os.ReadFile(filepath.Join(repo, "cmd", "oracle", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`(?m)^\tversion *= *"(.*)"$`).FindSubmatch(main)
	if version == nil {
		t.Fatal("no version in cmd/oracle/main.go")
	}
	if code, out := sh("", nil, "npx", "oracle", "--version"); code != 0 || !strings.Contains(out, "oracle "+string(version[1])+" (commit "+string(head[:12])) {
		t.Fatalf("npx oracle --version: exit %d\n%s", code, out)
	}
	if code, out := sh("", nil, "npx", "oracle", "gen", "tickets/PROJ-142.yaml"); code != 0 || !strings.Contains(out, "generated skip-enrichment") {
		t.Fatalf("npx oracle gen: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(app, "src/server/__oracles__/processItem.skip-enrichment.oracle.test.ts")); err != nil {
		t.Fatalf("gen wrote no oracle: %v", err)
	}
	// The gate on the file a pipeline recorded as changed; then, stricter and
	// in GitHub Actions, its survivor as an annotation (from the cache).
	code, out := sh("src/server/targets.ts\n", nil, "npx", "oracle", "gate", "--files-from", "-")
	if code != 0 || !strings.Contains(out, "GATE PASS ") || !strings.Contains(out, "src/server/targets.ts") {
		t.Fatalf("npx oracle gate: exit %d\n%s", code, out)
	}
	code, out = sh("src/server/targets.ts\n", []string{"GITHUB_ACTIONS=true"}, "npx", "oracle", "gate", "--files-from", "-", "--threshold", "99")
	if code != 1 || !strings.Contains(out, "GATE FAIL ") || !strings.Contains(out, "\n::error file=src/server/targets.ts,line=") {
		t.Fatalf("npx oracle gate --threshold 99 in GitHub Actions: exit %d\n%s", code, out)
	}
	audit := func(code int, out string) {
		t.Helper()
		if code > 1 || !strings.Contains(out, "AUDIT ") {
			t.Fatalf("oracle audit: exit %d\n%s", code, out)
		}
	}
	code, out = sh("", nil, "npx", "oracle", "audit", "src/server")
	audit(code, out)
	glibcAudit := out

	// On musl: the launcher picks @oracle-ts/cli-linux-x64-musl (unpacked as
	// npm does on Alpine, where it installs that one alone) and its static
	// binary runs the gate and the audit.
	glibc := filepath.Join(app, "node_modules", "@oracle-ts", "cli-linux-x64")
	if err := os.Rename(glibc, glibc+".away"); err != nil {
		t.Fatal(err)
	}
	muslDir := filepath.Join(app, "node_modules", "@oracle-ts", "cli-linux-x64-musl")
	onMusl := func(args ...string) (int, string) {
		t.Helper()
		return sh("src/server/targets.ts\n", nil, "node", append([]string{"--require", filepath.Join(tmp, "musl.cjs"), "node_modules/@oracle-ts/cli/bin/oracle.js"}, args...)...)
	}
	if err := os.WriteFile(filepath.Join(tmp, "musl.cjs"), []byte("process.report.getReport = () => ({ header: {} });\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := onMusl("--version"); code != 3 || !strings.Contains(out, "the package @oracle-ts/cli-linux-x64-musl, which holds oracle's binary for linux-x64-musl, is not installed") {
		t.Errorf("on musl without the musl package: exit %d\n%s", code, out)
	}
	if err := os.MkdirAll(muslDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out := sh("", nil, "tar", "-xzf", musl[0], "-C", muslDir, "--strip-components=1"); code != 0 {
		t.Fatalf("tar: %s", out)
	}
	if code, out := onMusl("--version"); code != 0 || !strings.Contains(out, "oracle "+string(version[1])+" (commit "+string(head[:12])) {
		t.Fatalf("the musl binary's --version: exit %d\n%s", code, out)
	}
	if code, out := onMusl("gate", "--files-from", "-"); code != 0 || !strings.Contains(out, "GATE PASS ") || !strings.Contains(out, "src/server/targets.ts") {
		t.Fatalf("the musl binary's gate: exit %d\n%s", code, out)
	}
	code, out = onMusl("audit", "src/server")
	audit(code, out)
	if out != glibcAudit {
		t.Errorf("the musl binary's audit differs from the glibc one's:\n%s\n---\n%s", out, glibcAudit)
	}
	os.RemoveAll(muslDir)
	os.Rename(glibc+".away", glibc)

	// The launcher's errors: the platform's package not installed
	// (--omit=optional), and a platform the release has no binary for.
	plat := filepath.Join(app, "node_modules", "@oracle-ts", "cli-linux-x64")
	if err := os.Rename(plat, plat+".away"); err != nil {
		t.Fatal(err)
	}
	if code, out := sh("", nil, "npx", "oracle", "--version"); code != 3 || !strings.Contains(out, "the package @oracle-ts/cli-linux-x64, which holds oracle's binary for linux-x64, is not installed") {
		t.Errorf("without the platform's package: exit %d\n%s", code, out)
	}
	os.Rename(plat+".away", plat)
	if code, out := sh("", nil, "node", "-e", `Object.defineProperty(process, "platform", { value: "aix" }); require("./node_modules/@oracle-ts/cli/bin/oracle.js")`); code != 3 ||
		!strings.Contains(out, "no prebuilt binary for aix-x64: this release has linux-x64") {
		t.Errorf("on a platform without a binary: exit %d\n%s", code, out)
	}
}

// noGo is the test's environment with every PATH directory holding a go
// command dropped, and Go's own variables unset.
func noGo(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "go")); err != nil {
			dirs = append(dirs, d)
		}
	}
	path := strings.Join(dirs, string(os.PathListSeparator))
	env := []string{"PATH=" + path}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "GO") && !strings.HasPrefix(kv, "CGO") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command("bash", "-c", "command -v go; command -v node npm npx git")
	cmd.Env = env
	out, _ := cmd.Output()
	if lines := strings.Fields(string(out)); len(lines) != 4 {
		t.Fatalf("want node, npm, npx and git and no go on the PATH %s; found %q", path, out)
	}
	return env
}

// copyTree copies the sample's own files (not node_modules, oracle's cache,
// or the marker scripts/deps leaves).
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".oracle") {
			return filepath.SkipDir
		}
		if d.Name() == ".lock-installed" {
			return nil
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
