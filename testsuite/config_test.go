package testsuite

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/callgraph/modules"
	"github.com/oracle-ts/oracle/internal/testenv"
	"github.com/oracle-ts/oracle/internal/warmnode"
)

// TestParseConfig reads what configScript prints: a plugin's log line
// before it is passed over; paths become repo-relative; an alias
// replacement given through the repository's real path is put back under
// the path oracle was given.
func TestParseConfig(t *testing.T) {
	t.Parallel()
	real := t.TempDir()
	root := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, root); err != nil {
		t.Fatal(err)
	}
	out := "[vite] hello\n{\"root\":\"" + real + "\",\"setupFiles\":[\"" + real + "/test/setup.ts\"],\"projects\":[" +
		"{\"name\":\"a\",\"root\":\"" + real + "/packages/a\",\"include\":[\"test/**/*.test.ts\"],\"exclude\":[],\"includeSource\":[\"src/**/*.ts\"],\"setupFiles\":[\"" + real + "/packages/a/setup.ts\"]," +
		"\"alias\":[{\"find\":\"@lib\",\"replacement\":\"" + real + "/packages/a/src/lib\"},{\"regex\":\"^~\\\\/(.*)$\",\"replacement\":\"" + real + "/src/$1\"},{\"regex\":\"^ui$\",\"flags\":\"gi\",\"replacement\":\"./ui\"}]}]}\n"
	cfg, err := parseConfig(root, root, []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{Root: ".", SetupFiles: []string{"packages/a/setup.ts", "test/setup.ts"}, Projects: []Project{{
		Name: "a", Root: "packages/a", Include: []string{"test/**/*.test.ts"}, Exclude: []string{}, IncludeSource: []string{"src/**/*.ts"},
		Alias: []modules.Alias{{Find: "@lib", Replacement: filepath.Join(root, "packages/a/src/lib")}, {Regex: `^~\/(.*)$`, Replacement: filepath.Join(root, "src") + "/$1"}, {Regex: `(?i)^ui$`, Replacement: "./ui"}},
	}}}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got  %+v\nwant %+v", cfg, want)
	}
	if s := cfg.AliasScopes(); len(s) != 1 || s[0].Dir != "packages/a" || len(s[0].Aliases) != 3 {
		t.Errorf("alias scopes %+v", s)
	}
	// A configuration above the repository (a workspace's, found from a
	// package given as the root): the tests run from its directory, where
	// ReadConfig reads it again.
	pkg := filepath.Join(root, "packages", "a")
	os.MkdirAll(filepath.Join(real, "packages", "a"), 0o755)
	above := "{\"root\":\"" + real + "/packages/a\",\"configFile\":\"" + real + "/vitest.config.ts\",\"projects\":[]}\n"
	var ae *aboveError
	if _, err := parseConfig(pkg, pkg, []byte(above)); !errors.As(err, &ae) || ae.file != real+"/vitest.config.ts" || ae.dir != real {
		t.Errorf("config above the root: got %v, want where vitest runs the tests from", err)
	}
	// Read where it is: its projects' root above the package is the
	// package's ("."): their aliases apply to all of it.
	there := "{\"root\":\"" + real + "\",\"configFile\":\"" + real + "/vitest.config.ts\",\"projects\":[{\"root\":\"" + real + "\",\"alias\":[{\"find\":\"@lib\",\"replacement\":\"" + real + "/lib\"}]}]}\n"
	if cfg, err := parseConfig(pkg, real, []byte(there)); err != nil || len(cfg.Projects) != 1 || cfg.Projects[0].Root != "." || len(cfg.AliasScopes()) != 1 {
		t.Errorf("config read in its directory above the root: %+v %v", cfg, err)
	}
	// One above the workspace's root is vitest's search gone too far, not
	// the repository's: no error.
	os.MkdirAll(filepath.Join(real, "packages", "a"), 0o755)
	os.WriteFile(filepath.Join(real, "packages", "a", "pnpm-workspace.yaml"), nil, 0o644)
	if _, err := parseConfig(pkg, pkg, []byte(above)); err != nil {
		t.Errorf("config above the workspace root: %v", err)
	}
	if _, err := parseConfig(root, root, []byte("no json here\n")); err == nil {
		t.Errorf("no configuration printed: want an error")
	}
}

// aliasConfigs write resolve.alias in each form a vite config has: an
// object (path.resolve(__dirname), fileURLToPath(new URL(...))), an array
// of { find, replacement } with a string and a regex find, and test.alias.
var aliasConfigs = map[string]string{
	"object": `import { defineConfig } from "vitest/config";
import path from "node:path";
import { fileURLToPath } from "node:url";
export default defineConfig({
  resolve: { alias: { "@lib": path.resolve(__dirname, "src/lib"), "@app": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: { includeSource: ["src/**/*.ts"] },
});
`,
	"array": `import { defineConfig } from "vitest/config";
import path from "node:path";
export default defineConfig({
  resolve: { alias: [
    { find: "@lib", replacement: path.resolve(__dirname, "src/lib") },
    { find: /^~\/(.*)$/, replacement: path.resolve(__dirname, "src") + "/$1" },
  ] },
  test: { alias: { "@app": path.resolve(__dirname, "src") } },
});
`,
}

// TestReadConfigReal asks the real vitest 4 and 5 for their resolved
// configuration: the aliases in every written form, includeSource.
func TestReadConfigReal(t *testing.T) {
	for _, nm := range []string{testenv.NeedSample(t, "pipeline") + "/node_modules", testenv.Testdata("vitest5/node_modules")} {
		testenv.NeedFile(t, filepath.Join(nm, "vitest", "vitest.mjs"), "run scripts/deps")
		for form, config := range aliasConfigs {
			root := testenv.WriteTree(t, "", map[string]string{"package.json": `{"name":"x","type":"module"}`, "vitest.config.ts": config})
			if err := os.Symlink(nm, filepath.Join(root, "node_modules")); err != nil {
				t.Fatal(err)
			}
			cfg, err := ReadConfig(root, "")
			if err != nil {
				t.Fatalf("%s %s: %v", nm, form, err)
			}
			if cfg.Root != "." || len(cfg.Projects) != 1 || cfg.Projects[0].Root != "." {
				t.Fatalf("%s %s: %+v", nm, form, cfg)
			}
			got := map[string]string{}
			for _, a := range cfg.Projects[0].Alias {
				got[a.Find+a.Regex] = a.Replacement
			}
			src := filepath.Join(root, "src")
			want := map[string]string{"@lib": filepath.Join(src, "lib"), "@app": src}
			if form == "array" {
				want[`^~\/(.*)$`] = src + "/$1"
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s %s: alias %s = %q, want %q (all: %v)", nm, form, k, got[k], v, got)
				}
			}
			if inc := cfg.Projects[0].IncludeSource; form == "object" && !slices.Equal(inc, []string{"src/**/*.ts"}) {
				t.Errorf("%s %s: includeSource %v", nm, form, inc)
			}
		}
	}
}

// TestSuiteFollowsVitestAliases: a test that imports through an alias of
// the vitest config only (no tsconfig paths) is a candidate of the module
// the alias leads to; an in-source test file is production code, its own
// candidate; without the config neither holds.
func TestSuiteFollowsVitestAliases(t *testing.T) {
	root := writeTree(t, map[string]string{
		"src/lib/math.ts":   "export function add(a: number, b: number) { return a + b; }\n",
		"src/util/text.ts":  "export function up(s: string) { return s.toUpperCase(); }\n",
		"src/inline.ts":     "export function double(n: number) { return n * 2; }\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it('doubles', () => { expect(double(2)).toBe(4); });\n}\n",
		"test/math.test.ts": "import { it } from 'vitest';\nimport { add } from '@lib/math';\nit('adds', () => { add(1, 2); });\n",
		"test/text.test.ts": "import { it } from 'vitest';\nimport { up } from '~/util/text';\nit('ups', () => { up('a'); });\n",
	})
	vitest := &Config{Root: ".", Projects: []Project{{Root: ".", Alias: []modules.Alias{
		{Find: "@lib", Replacement: filepath.Join(root, "src/lib")},
		{Regex: `^~\/(.*)$`, Replacement: filepath.Join(root, "src") + "/$1"},
	}}}}
	tests := []string{"src/inline.ts", "test/math.test.ts", "test/text.test.ts"}
	for _, withConfig := range []bool{true, false} {
		p, err := callgraph.NewProgram(root)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Tests: tests}
		if withConfig {
			opts.Vitest = vitest
		}
		s, err := New(p, opts)
		p.Close()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]string{}
		for _, f := range []string{"src/lib/math.ts", "src/util/text.ts", "src/inline.ts"} {
			got[f] = s.Candidates(f)
		}
		want := map[string][]string{"src/lib/math.ts": {"test/math.test.ts"}, "src/util/text.ts": {"test/text.test.ts"}, "src/inline.ts": {"src/inline.ts"}}
		if withConfig && !reflect.DeepEqual(got, want) {
			t.Errorf("with vitest's aliases: candidates %v, want %v", got, want)
		}
		if !withConfig && (len(got["src/lib/math.ts"]) != 0 || len(got["src/util/text.ts"]) != 0) {
			t.Errorf("without vitest's aliases the walk followed them: %v", got)
		}
		if !s.IsProduction("src/inline.ts") || !s.IsTest("src/inline.ts") {
			t.Errorf("src/inline.ts: production %v, test %v; want both", s.IsProduction("src/inline.ts"), s.IsTest("src/inline.ts"))
		}
	}
}

// listLayouts are configs whose test files the node API and the CLI must
// list alike: vitest's defaults, an include and exclude of their own,
// projects, in-source tests, and an include that reads NODE_ENV (which
// "vitest list" sets to "test" before it loads the config, and the probe
// must too: the runs see "test").
var listLayouts = map[string]map[string]string{
	"defaults": {
		"test/a.test.ts": "import { it } from 'vitest';\nit('a', () => {});\n",
		"src/b.spec.ts":  "import { it } from 'vitest';\nit('b', () => {});\n",
		"src/c.ts":       "export const c = 1;\n",
	},
	"include and exclude": {
		"vitest.config.ts":          "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['checks/**/*.ts'], exclude: ['checks/skip/**'] } });\n",
		"checks/one.ts":             "import { it } from 'vitest';\nit('one', () => {});\n",
		"checks/skip/two.ts":        "import { it } from 'vitest';\nit('two', () => {});\n",
		"test/not-included.test.ts": "import { it } from 'vitest';\nit('x', () => {});\n",
	},
	"in-source": {
		"vitest.config.ts": "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { includeSource: ['src/**/*.ts'] } });\n",
		"src/inline.ts":    "export const one = 1;\nif (import.meta.vitest) {\n  const { it } = import.meta.vitest;\n  it('one', () => {});\n}\n",
		"src/plain.ts":     "export const two = 2;\n",
		"test/a.test.ts":   "import { it } from 'vitest';\nit('a', () => {});\n",
	},
	"projects": {
		"vitest.config.ts": "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { projects: [{ test: { name: 'unit', include: ['unit/**/*.test.ts'] } }, { test: { name: 'int', include: ['int/**/*.ts'] } }] } });\n",
		"unit/a.test.ts":   "import { it } from 'vitest';\nit('a', () => {});\n",
		"int/b.ts":         "import { it } from 'vitest';\nit('b', () => {});\n",
		"test/c.test.ts":   "import { it } from 'vitest';\nit('c', () => {});\n",
	},
	"NODE_ENV": {
		"vitest.config.ts": "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: process.env.NODE_ENV === 'test' ? ['t/**/*.spec.ts'] : ['other/**/*.ts'] } });\n",
		"t/a.spec.ts":      "import { it } from 'vitest';\nit('a', () => {});\n",
		"other/b.ts":       "import { it } from 'vitest';\nit('b', () => {});\n",
	},
}

// TestConfigListsLikeCLI: the test files ReadConfig's one node process
// gives are the ones "vitest list --filesOnly" lists (ListTests), under
// vitest 3, 4 and 5, on every layout above; under NODE_ENV the include
// read is the runs' (NODE_ENV=test).
func TestConfigListsLikeCLI(t *testing.T) {
	installs := map[string]string{
		"vitest3": testenv.Testdata("vitest3/node_modules"),
		"vitest4": testenv.Testdata("pipeline/node_modules"),
		"vitest5": testenv.Testdata("vitest5/node_modules"),
	}
	for version, nm := range installs {
		testenv.NeedFile(t, filepath.Join(nm, "vitest", "vitest.mjs"), "run scripts/deps")
		for name, files := range listLayouts {
			t.Run(version+"/"+name, func(t *testing.T) {
				t.Parallel()
				root := testenv.WriteTree(t, "", files)
				testenv.WriteTree(t, root, map[string]string{"package.json": `{"name":"x","type":"module"}`})
				if err := os.Symlink(nm, filepath.Join(root, "node_modules")); err != nil {
					t.Fatal(err)
				}
				cfg, err := ReadConfig(root, "")
				if err != nil {
					t.Fatal(err)
				}
				listed, err := ListTests(root, "")
				if err != nil {
					t.Fatal(err)
				}
				if !cfg.Listed || len(listed) == 0 || !slices.Equal(cfg.Tests, listed) {
					t.Errorf("the node API listed %v (listed %v), vitest list %v", cfg.Tests, cfg.Listed, listed)
				}
				// What the node said of itself, for the runner's marker check.
				if v, err := exec.Command("node", "--version").Output(); err != nil || cfg.Node.Version != strings.TrimSpace(string(v)) || !cfg.Node.Builtin {
					t.Errorf("the probe's node: %+v; node --version %q (%v)", cfg.Node, v, err)
				}
				// The probe kept for the runs (warmnode) reads the same.
				var kept *warmnode.Proc
				warmCfg, err := readConfigKeep(root, "", &warm{keep: func(p *warmnode.Proc) { kept = p }})
				if err != nil || kept == nil {
					t.Fatalf("the probe kept warm: %v, process %v", err, kept)
				}
				kept.Kill()
				if !reflect.DeepEqual(warmCfg, cfg) {
					t.Errorf("the probe kept warm read %+v, the plain one %+v", warmCfg, cfg)
				}
				if name == "NODE_ENV" && (!slices.Equal(cfg.Tests, []string{"t/a.spec.ts"}) || !slices.Equal(cfg.Projects[0].Include, []string{"t/**/*.spec.ts"})) {
					t.Errorf("NODE_ENV: tests %v, include %v; want the include of NODE_ENV=test", cfg.Tests, cfg.Projects[0].Include)
				}
			})
		}
	}
}
