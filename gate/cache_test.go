package gate

import (
	"github.com/oracle-ts/oracle/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	testenv.WriteTree(t, root, files)
}

// TestCacheKeyInputs: the key of a mutant changes when anything its
// related test loads at run time changes (a shared assertion helper, the
// code the target calls, a fixture), the vitest config or what it loads, a
// setupFile, the lockfile, or oracle's version; not when an unrelated file
// changes.
func TestCacheKeyInputs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"package.json":            `{"type":"module"}`,
		"package-lock.json":       `{"lockfileVersion":3}`,
		"vitest.config.ts":        "import { defineConfig } from \"vitest/config\";\nimport { dirs } from \"./config/dirs\";\nexport default defineConfig({ test: { include: dirs } });\n",
		"config/dirs.ts":          "export const dirs = [\"test/**/*.test.ts\"];\n",
		"test/setup.ts":           "import \"./polyfill\";\n",
		"test/polyfill.ts":        "export {};\n",
		"src/price.ts":            "import { round } from \"./round\";\nexport function price(n: number) {\n  return round(n * 2);\n}\n",
		"src/round.ts":            "export function round(n: number) {\n  return Math.round(n);\n}\n",
		"src/other.ts":            "export const other = 1;\n",
		"jest.config.js":          "module.exports = { testEnvironment: \"node\" };\n",
		"test/helpers/check.ts":   "import { expect } from \"vitest\";\nimport data from \"../fixtures/data.json\";\nexport function check(v: number) {\n  expect(v).toBe(data.want);\n}\n",
		"test/fixtures/data.json": `{"want": 4}`,
		"test/price.test.ts":      "import { it } from \"vitest\";\nimport { price } from \"../src/price\";\nimport { check } from \"./helpers/check\";\nit(\"p\", () => check(price(2)));\n",
	})
	m := edit.Mutant{Path: "src/price.ts", Operator: "ArithmeticOperator", Diff: "-n * 2\n+n / 2\n"}
	tests := []string{"test/price.test.ts"}
	key := func(version string) string {
		p, err := callgraph.NewProgram(root)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		c := openCache(root, true, KeyInputs(p, []string{"test/setup.ts"}, version))
		return c.key(root, m, tests)
	}
	before := key("v1")
	if key("v1") != before {
		t.Fatal("the key is not deterministic")
	}
	if key("v2") == before {
		t.Error("oracle's version is not in the key")
	}
	for _, f := range []string{"test/helpers/check.ts", "test/fixtures/data.json", "src/round.ts", "test/price.test.ts", "src/price.ts",
		"vitest.config.ts", "config/dirs.ts", "test/setup.ts", "test/polyfill.ts", "package-lock.json", "package.json", "jest.config.js"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		old, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(append([]byte(nil), old...), "\n// changed\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		if key("v1") == before {
			t.Errorf("a change of %s keeps the key", f)
		}
		if err := os.WriteFile(p, old, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeTree(t, root, map[string]string{"src/other.ts": "export const other = 2;\n"})
	if key("v1") != before {
		t.Error("a change of a file no test loads changes the key")
	}
}

// TestCacheConcurrentSave: two runs that read the cache before either
// saved keep both their entries (the last writer does not win alone).
func TestCacheConcurrentSave(t *testing.T) {
	root := t.TempDir()
	a, b := openCache(root, false, nil), openCache(root, false, nil)
	for i := 0; i < 20; i++ {
		a.put("a"+string(rune('a'+i)), lab.Decision{Outcome: "killed"})
		b.put("b"+string(rune('a'+i)), lab.Decision{Outcome: "survived"})
	}
	var wg sync.WaitGroup
	for _, c := range []*resultCache{a, b} {
		wg.Add(1)
		go func(c *resultCache) {
			defer wg.Done()
			if err := c.save(); err != nil {
				t.Error(err)
			}
		}(c)
	}
	wg.Wait()
	got := openCache(root, false, nil)
	if len(got.entries) != 40 || got.entries["aa"].Outcome != "killed" || got.entries["bt"].Outcome != "survived" {
		t.Errorf("%d entries after two concurrent saves, want 40", len(got.entries))
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(cacheFile)) + ".lock"); !os.IsNotExist(err) {
		t.Errorf("the lock is left: %v", err)
	}
}

// TestCacheWritable: a cache directory that cannot be written is found
// before any mutant runs.
func TestCacheWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	root := t.TempDir()
	if err := CheckCacheWritable(root); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(root, ".oracle", "cache"))
	if len(entries) != 0 {
		t.Errorf("the check left %v", entries)
	}
	ro := t.TempDir()
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	if err := CheckCacheWritable(ro); err == nil {
		t.Error("a read-only checkout's cache is writable?")
	}
}

// TestScanEnvReads: the environment variables a file reads, by name or all
// of it.
func TestScanEnvReads(t *testing.T) {
	cases := []struct {
		src   string
		names []string
		all   bool
	}{
		{"it.runIf(process.env.SLOW)(\"x\", () => {});", []string{"SLOW"}, false},
		{"const u = process.env[\"API_URL\"] ?? process.env['B'];", []string{"API_URL", "B"}, false},
		{"if (import.meta.env.VITE_MODE) {}", []string{"VITE_MODE"}, false},
		{"const { A, B: b, C = 1 } = process.env;", []string{"A", "B", "C"}, false},
		{"const { A, ...rest } = process.env;", []string{"A"}, true},
		{"spawn(cmd, { env: { ...process.env } });", nil, true},
		{"const v = process.env[name];", nil, true},
		{"for (const k of Object.keys(process.env)) {}", nil, true},
		{"export const n = 1;", nil, false},
		{"const env = loadEnv(mode, process.cwd(), \"\");", nil, true},
	}
	for _, c := range cases {
		r := scanEnvReads(c.src)
		if !slices.Equal(r.names, c.names) || r.all != c.all {
			t.Errorf("%s: %v all %v, want %v all %v", c.src, r.names, r.all, c.names, c.all)
		}
	}
}

// TestCacheKeyReads: the key of a mutant changes with what its tests read
// at run time beyond their imports: an environment variable a test or the
// code reads (it.runIf(process.env.X)), a variable of the locale, the whole
// environment when a file reads all of it, and a data file read with
// readFileSync; not with a variable nobody reads, nor with a module no test
// loads.
func TestCacheKeyReads(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"package.json":       `{"type":"module"}`,
		"src/price.ts":       "export function price(n: number) {\n  return n * 2;\n}\n",
		"src/other.ts":       "export const other = 1;\n",
		"test/cases.json":    `[{"in": 2, "out": 4}]`,
		"test/price.test.ts": "import { it, expect } from \"vitest\";\nimport { readFileSync } from \"node:fs\";\nimport { price } from \"../src/price\";\nit.runIf(process.env.FULL)(\"p\", () => {\n  for (const c of JSON.parse(readFileSync(\"test/cases.json\", \"utf8\"))) expect(price(c.in)).toBe(c.out);\n});\n",
	})
	m := edit.Mutant{Path: "src/price.ts", Operator: "ArithmeticOperator", Diff: "-n * 2\n+n / 2\n"}
	key := func(env ...string) string {
		p, err := callgraph.NewProgram(root)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		in := KeyInputs(p, nil, "v1")
		in.Env = append([]string{"PATH=/bin", "USER=me"}, env...)
		return openCache(root, true, in).key(root, m, []string{"test/price.test.ts"})
	}
	before := key("FULL=1")
	for _, c := range []struct {
		name string
		env  []string
		same bool
	}{
		{"the variable a test reads, changed", []string{"FULL="}, false},
		{"the variable a test reads, unset", nil, false},
		{"the time zone", []string{"FULL=1", "TZ=Asia/Tokyo"}, false},
		{"a variable nobody reads", []string{"FULL=1", "UNRELATED=x"}, true},
		{"the shell's directory", []string{"FULL=1", "PWD=/elsewhere", "OLDPWD=/"}, true},
	} {
		if got := key(c.env...); (got == before) != c.same {
			t.Errorf("%s: the key changed: %v, want %v", c.name, got != before, !c.same)
		}
	}
	writeTree(t, root, map[string]string{"test/cases.json": `[]`})
	if key("FULL=1") == before {
		t.Error("a data file a test reads with readFileSync changed, and the key did not")
	}
	writeTree(t, root, map[string]string{"test/cases.json": `[{"in": 2, "out": 4}]`, "src/other.ts": "export const other = 2;\n"})
	if key("FULL=1") != before {
		t.Error("a module no test loads changed the key")
	}
	// A file that reads the whole environment: any variable but a shell's.
	writeTree(t, root, map[string]string{"src/price.ts": "const env = { ...process.env };\nexport function price(n: number) {\n  return n * 2;\n}\n"})
	all := key("FULL=1")
	if key("FULL=1", "UNRELATED=x") == all || key("FULL=1", "PWD=/elsewhere", "SHLVL=3") != all {
		t.Error("a file reading the whole environment: the key does not follow it, or follows the shell's variables")
	}
	// A CI service's run, job and commit variables change on every run of a
	// runner whose cache is restored: out of the whole environment's key,
	// in the key of a file that names one.
	for _, c := range []struct {
		name  string
		vars  [2][]string
		same  bool
		reads string
	}{
		{"GitHub's run", [2][]string{{"GITHUB_RUN_ID=1", "GITHUB_RUN_NUMBER=7", "GITHUB_RUN_ATTEMPT=1", "GITHUB_SHA=aaa", "GITHUB_REF=refs/pull/1/merge", "RUNNER_TEMP=/t/1", "ACTIONS_RUNTIME_TOKEN=x", "GITHUB_EVENT_PATH=/e/1.json", "GITHUB_OUTPUT=/o/1"},
			{"GITHUB_RUN_ID=2", "GITHUB_RUN_NUMBER=8", "GITHUB_RUN_ATTEMPT=2", "GITHUB_SHA=bbb", "GITHUB_REF=refs/pull/2/merge", "RUNNER_TEMP=/t/2", "ACTIONS_RUNTIME_TOKEN=y", "GITHUB_EVENT_PATH=/e/2.json", "GITHUB_OUTPUT=/o/2"}}, true, ""},
		{"GitLab's job", [2][]string{{"CI_JOB_ID=1", "CI_PIPELINE_ID=5", "CI_COMMIT_SHA=aaa", "CI_JOB_TOKEN=x"}, {"CI_JOB_ID=2", "CI_PIPELINE_ID=6", "CI_COMMIT_SHA=bbb", "CI_JOB_TOKEN=y"}}, true, ""},
		{"a repository variable of the CI", [2][]string{{"GITHUB_REPOSITORY=o/a"}, {"GITHUB_REPOSITORY=o/b"}}, false, ""},
		{"the commit, named by a test", [2][]string{{"GITHUB_SHA=aaa"}, {"GITHUB_SHA=bbb"}}, false, "const sha = process.env.GITHUB_SHA;\n"},
	} {
		writeTree(t, root, map[string]string{"src/price.ts": c.reads + "const env = { ...process.env };\nexport function price(n: number) {\n  return n * 2;\n}\n"})
		a, b := key(append([]string{"FULL=1"}, c.vars[0]...)...), key(append([]string{"FULL=1"}, c.vars[1]...)...)
		if (a == b) != c.same {
			t.Errorf("%s: the key the same in two runs: %v, want %v", c.name, a == b, c.same)
		}
	}
}

// TestCacheKeyDataInGit: in a git checkout the data files are named by
// git's blob hash, whether read from the working tree (modified, untracked)
// or taken from the index: an edit changes the key, its commit does not
// change it again, and an untracked data file is in it.
func TestCacheKeyDataInGit(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"package.json":       `{"type":"module"}`,
		"src/price.ts":       "export function price(n: number) {\n  return n * 2;\n}\n",
		"test/cases.json":    `[[2, 4]]`,
		"test/price.test.ts": "import { it } from \"vitest\";\nimport { price } from \"../src/price\";\nit(\"p\", () => price(2));\n",
	})
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=a", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "base")
	m := edit.Mutant{Path: "src/price.ts", Operator: "ArithmeticOperator", Diff: "-n * 2\n+n / 2\n"}
	key := func() string {
		p, err := callgraph.NewProgram(root)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		in := KeyInputs(p, nil, "v1")
		in.Env = []string{}
		return openCache(root, true, in).key(root, m, []string{"test/price.test.ts"})
	}
	committed := key()
	writeTree(t, root, map[string]string{"test/cases.json": `[]`})
	edited := key()
	if edited == committed {
		t.Fatal("an edit of a tracked data file keeps the key")
	}
	git("commit", "-qam", "edit")
	if key() != edited {
		t.Error("the commit of the edit changed the key again")
	}
	writeTree(t, root, map[string]string{"test/more.json": `[1]`})
	if key() == edited {
		t.Error("an untracked data file is not in the key")
	}
}
