package vitestenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageManagerEnv: under pnpm, vitest runs with the NODE_PATH pnpm's
// own shim exports (the workspace's .pnpm/node_modules, found walking up);
// elsewhere nothing is added.
func TestPackageManagerEnv(t *testing.T) {
	t.Setenv("NODE_PATH", "")
	ws := t.TempDir()
	hoisted := filepath.Join(ws, "node_modules", ".pnpm", "node_modules")
	pkg := filepath.Join(ws, "packages", "a")
	os.MkdirAll(hoisted, 0o755)
	os.MkdirAll(pkg, 0o755)
	if got := PackageManager(pkg); len(got) != 1 || got[0] != "NODE_PATH="+hoisted {
		t.Errorf("pnpm workspace: %v", got)
	}
	t.Setenv("NODE_PATH", "/custom")
	if got := PackageManager(pkg); len(got) != 1 || !strings.HasPrefix(got[0], "NODE_PATH=/custom"+string(os.PathListSeparator)) {
		t.Errorf("an existing NODE_PATH is kept first: %v", got)
	}
	if got := PackageManager(t.TempDir()); got != nil {
		t.Errorf("no pnpm: %v", got)
	}
}

// TestVitestEnvKeepsColour: a run is a plain CI run (CI=1) with the user's
// colour settings: forcing colour off failed the tests of coloured output
// that pass in the user's CI (nuxt/cli's curl.spec: 11 of 32), and the gate
// said FAIL on a green suite.
func TestVitestEnvKeepsColour(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("FORCE_COLOR", "")
	os.Unsetenv("NO_COLOR")
	os.Unsetenv("FORCE_COLOR")
	env := For(t.TempDir(), t.TempDir())
	ci := false
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "NO_COLOR", "FORCE_COLOR":
			t.Errorf("the run's environment sets %s=%s", k, v)
		case "CI":
			ci = v == "1"
		}
	}
	if !ci {
		t.Error("the run's environment does not say CI=1")
	}
}

// TestVitestEnvSandboxWorld: a run's PWD and INIT_CWD are its working
// directory in the sandbox, its HOME a directory of its own temporary one
// (made), whatever the user's shell says; OLDPWD and the XDG base
// directories (which would lead writes into the user's home) are dropped.
func TestVitestEnvSandboxWorld(t *testing.T) {
	cwd, tmp := t.TempDir(), t.TempDir()
	for k, v := range map[string]string{"PWD": "/the/checkout", "INIT_CWD": "/the/checkout", "HOME": "/home/user",
		"OLDPWD": "/the", "XDG_CACHE_HOME": "/home/user/.cache", "XDG_CONFIG_HOME": "/home/user/.config"} {
		t.Setenv(k, v)
	}
	got := map[string]string{}
	for _, kv := range For(cwd, tmp) { // as exec does: the last value of a name wins
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	home := filepath.Join(tmp, "home")
	want := map[string]string{"PWD": cwd, "INIT_CWD": cwd, "HOME": home, "OLDPWD": "", "XDG_CACHE_HOME": "", "XDG_CONFIG_HOME": ""}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s=%q, want %q", k, got[k], v)
		}
	}
	if fi, err := os.Stat(home); err != nil || !fi.IsDir() {
		t.Errorf("the run's home %s was not made: %v", home, err)
	}
}

// TestVitestEnvKeepsWhatHomeLends: with HOME in the sandbox, what a run
// reads of the user's home is named by its own variable: git's global
// config (a test that commits needs user.name), Playwright's browsers,
// npm's user config; a variable the user set is kept as set.
func TestVitestEnvKeepsWhatHomeLends(t *testing.T) {
	real := t.TempDir()
	os.MkdirAll(filepath.Join(real, ".cache", "ms-playwright"), 0o755)
	os.MkdirAll(filepath.Join(real, ".config", "git"), 0o755)
	os.WriteFile(filepath.Join(real, ".config", "git", "config"), []byte("[user]\n\tname = me\n"), 0o644)
	os.WriteFile(filepath.Join(real, ".npmrc"), nil, 0o644)
	t.Setenv("HOME", real)
	for _, k := range []string{"PLAYWRIGHT_BROWSERS_PATH", "PUPPETEER_CACHE_DIR", "GIT_CONFIG_GLOBAL", "npm_config_userconfig"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("PUPPETEER_CACHE_DIR", "/opt/browsers")
	got := map[string]string{}
	for _, kv := range For(t.TempDir(), t.TempDir()) {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	want := map[string]string{"PLAYWRIGHT_BROWSERS_PATH": filepath.Join(real, ".cache", "ms-playwright"), "PUPPETEER_CACHE_DIR": "/opt/browsers",
		"GIT_CONFIG_GLOBAL": filepath.Join(real, ".config", "git", "config"), "npm_config_userconfig": filepath.Join(real, ".npmrc")}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s=%q, want %q", k, got[k], v)
		}
	}
}
