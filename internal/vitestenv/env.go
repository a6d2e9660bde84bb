// Package vitestenv is the environment every vitest run oracle starts
// runs in (the runner's runs, the suite's listing, audit's own runs): one
// definition of what a run inherits, where its temporary files and its
// home go, and what the package manager's shim would set.
package vitestenv

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// For is the environment every vitest oracle starts runs in: the
// user's, as a CI run (CI=1, npm offline), the temporary directory in tmp
// (Temp), what the package manager's shim would set (PackageManager,
// for cwd), then extra. Colour is left as a plain `CI=1 vitest run` has it
// (on, for most libraries, under CI): a test of coloured output must pass
// as it does in the user's CI; what the runner reads of vitest's messages
// is stripped of ANSI codes.
//
// The run's world is the sandbox (Sandbox): PWD and INIT_CWD are cwd,
// HOME a directory of tmp, so that a test writing through process.env.PWD,
// INIT_CWD or os.homedir() writes into the sandbox, never into the user's
// checkout or home.
func For(cwd, tmp string, extra ...string) []string {
	env := append(os.Environ(), "CI=1", "npm_config_offline=true")
	env = append(env, extra...)
	env = append(env, Temp(tmp)...)
	env = append(env, Sandbox(cwd, tmp)...)
	return filter(append(env, PackageManager(cwd)...), dropped)
}

// Sandbox points what a test takes for its places at the run's own:
// PWD and INIT_CWD (what npm sets to where it was started) at cwd, HOME at
// tmp/home (made here; "" tmp: HOME is left alone). What a test run needs
// of the user's home stays reachable (homeKept: browsers, git's and npm's
// config); the package managers' caches are not needed by a vitest run,
// and the XDG_*_HOME variables are dropped (filter), so that they
// follow HOME.
func Sandbox(cwd, tmp string) []string {
	env := []string{"PWD=" + cwd, "INIT_CWD=" + cwd}
	if tmp == "" {
		return env
	}
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return env
	}
	if real, err := os.UserHomeDir(); err == nil {
		for _, k := range homeKept {
			if os.Getenv(k.env) != "" {
				continue
			}
			for _, rel := range k.paths {
				if fi, err := os.Stat(filepath.Join(real, rel)); err == nil && fi.IsDir() == k.dir {
					env = append(env, k.env+"="+filepath.Join(real, rel))
					break
				}
			}
		}
	}
	return append(env, "HOME="+home, "USERPROFILE="+home)
}

// homeKept is what a run still reads of the user's home, through a
// variable that names it (unless the variable is set): the browsers of
// Playwright and Puppeteer (browser-mode tests), git's global config (a
// test that commits in a repository it makes needs user.name), npm's
// user config. Read only: nothing is written there through them.
var homeKept = []struct {
	env   string
	paths []string
	dir   bool
}{
	{"PLAYWRIGHT_BROWSERS_PATH", []string{".cache/ms-playwright"}, true},
	{"PUPPETEER_CACHE_DIR", []string{".cache/puppeteer"}, true},
	{"GIT_CONFIG_GLOBAL", []string{".gitconfig", ".config/git/config"}, false},
	{"npm_config_userconfig", []string{".npmrc"}, false},
}

// dropped are the variables a sandboxed run does not inherit: the
// shell's previous directory, and the XDG base directories (which would
// point writes into the user's home; unset, they follow HOME).
var dropped = []string{"OLDPWD", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"}

// filter is env without the variables named in drop.
func filter(env, drop []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(drop, name) {
			out = append(out, kv)
		}
	}
	return out
}

// PackageManager is what the package manager's own `vitest` shim would
// set and running vitest.mjs directly does not: pnpm's shim exports
// NODE_PATH=<workspace>/node_modules/.pnpm/node_modules (code that resolves
// a package from elsewhere, as nuxt's loadKit does, needs it). dir is where
// vitest runs; the first ancestor holding that directory is used, after any
// NODE_PATH already set.
func PackageManager(dir string) []string {
	for d := dir; ; d = filepath.Dir(d) {
		hoisted := filepath.Join(d, "node_modules", ".pnpm", "node_modules")
		if fi, err := os.Stat(hoisted); err == nil && fi.IsDir() {
			if prev := os.Getenv("NODE_PATH"); prev != "" {
				hoisted = prev + string(os.PathListSeparator) + hoisted
			}
			return []string{"NODE_PATH=" + hoisted}
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// Temp points the temporary directory of vitest and its workers into dir
// (vite writes transformed sources under $TMPDIR/<id>/ssr), so that it goes
// with the run's own files.
func Temp(dir string) []string {
	return []string{"TMPDIR=" + dir, "TMP=" + dir, "TEMP=" + dir}
}
