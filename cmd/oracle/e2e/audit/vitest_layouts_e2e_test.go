package audit

// Related tests where vitest finds and resolves them (issue 26 items 6, 7,
// 8): each layout is a small repository whose change a test runs; gate
// gives a verdict on it (not SKIP) and audit no false blind function.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

const (
	moneyBase = "export function cents(n: number): number {\n  return n * 10;\n}\n"
	moneyNew  = "export function cents(n: number): number {\n  return n * 100;\n}\n"
	// moneyTest imports cents by spec; it checks two values, so that each
	// arithmetic mutant of `n * 100` fails it.
	moneyTest = "import { expect, it } from \"vitest\";\nimport { cents } from \"SPEC\";\nit(\"cents\", () => {\n  expect(cents(2)).toBe(200);\n  expect(cents(3)).toBe(300);\n});\n"
	gradeBase = "export function grade(n: number): string {\n  if (n >= 40) {\n    return \"pass\";\n  }\n  return \"fail\";\n}\n"
	gradeNew  = "export function grade(n: number): string {\n  if (n >= 50) {\n    return \"pass\";\n  }\n  return \"fail\";\n}\n"
	gradeTest = "import { expect, it } from \"vitest\";\nimport { grade } from \"SPEC\";\nit(\"grades\", () => {\n  expect(grade(50)).toBe(\"pass\");\n  expect(grade(49)).toBe(\"fail\");\n});\n"
	inSource  = "export function double(n: number): number {\n  return n * 2;\n}\n\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it(\"doubles\", () => {\n    expect(double(3)).toBe(6);\n  });\n}\n"
)

func importing(test, spec string) string { return strings.Replace(test, "SPEC", spec, 1) }

// layout is a repository: base, then the change, gate run at the root or
// in a directory of it (from), and the targets the change must have, each
// with a related test.
type layout struct {
	name         string
	base, change map[string]string
	links        map[string]string // path → link target, made before the base commit
	from         string            // "" : --root; else gate runs with this working directory
	targets      []string
	vitest5      bool   // also under vitest 5
	vitest3      bool   // also under vitest 3.1 (testdata/vitest3)
	pkg          string // the package from is, as the root: its one target and related tests
}

var vitestLayouts = []layout{
	{name: "npm workspace, one root config", from: "packages/b",
		base: map[string]string{
			"package.json":                  `{"name":"ws","private":true,"type":"module","workspaces":["packages/*"]}`,
			"vitest.config.ts":              "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { include: [\"packages/*/test/**/*.test.ts\"] } });\n",
			"packages/a/package.json":       `{"name":"@ws/a","type":"module"}`,
			"packages/a/src/grade.ts":       gradeBase,
			"packages/a/test/grade.test.ts": importing(gradeTest, "../src/grade"),
			"packages/b/package.json":       `{"name":"@ws/b","type":"module"}`,
			"packages/b/src/money.ts":       moneyBase,
			"packages/b/test/money.test.ts": strings.Replace(importing(moneyTest, "../src/money"), "00)", "0)", 2),
		},
		change:  map[string]string{"packages/a/src/grade.ts": gradeNew, "packages/b/src/money.ts": moneyNew, "packages/b/test/money.test.ts": importing(moneyTest, "../src/money")},
		targets: []string{"packages/a/src/grade.ts#grade", "packages/b/src/money.ts#cents"}, vitest5: true, vitest3: true,
		pkg: "src/money.ts#cents [test/money.test.ts]"},
	{name: "pnpm workspace, root config with projects", from: "packages/a",
		base: map[string]string{
			"package.json":                  `{"name":"ws","private":true,"type":"module"}`,
			"pnpm-workspace.yaml":           "packages:\n  - packages/*\n",
			"vitest.config.ts":              "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { projects: [\"packages/*\"] } });\n",
			"packages/a/package.json":       `{"name":"@ws/a","type":"module"}`,
			"packages/a/src/grade.ts":       gradeBase,
			"packages/a/test/grade.test.ts": importing(gradeTest, "../src/grade"),
		},
		change:  map[string]string{"packages/a/src/grade.ts": gradeNew},
		targets: []string{"packages/a/src/grade.ts#grade"}, pkg: "src/grade.ts#grade [test/grade.test.ts]"},
	{name: "aliases written as an object",
		base: map[string]string{
			"package.json": `{"name":"al","private":true,"type":"module"}`,
			"vitest.config.ts": "import { defineConfig } from \"vitest/config\";\nimport path from \"node:path\";\nimport { fileURLToPath } from \"node:url\";\n" +
				"export default defineConfig({ resolve: { alias: { \"@lib\": path.resolve(__dirname, \"src/lib\"), \"@app\": fileURLToPath(new URL(\"./src\", import.meta.url)) } } });\n",
			"src/lib/money.ts":   moneyBase,
			"src/grade.ts":       gradeBase,
			"test/money.test.ts": importing(moneyTest, "@lib/money"),
			"test/grade.test.ts": importing(gradeTest, "@app/grade"),
		},
		change:  map[string]string{"src/lib/money.ts": moneyNew, "src/grade.ts": gradeNew},
		targets: []string{"src/grade.ts#grade", "src/lib/money.ts#cents"}, vitest5: true},
	{name: "aliases written as an array, a regex find",
		base: map[string]string{
			"package.json": `{"name":"al","private":true,"type":"module"}`,
			"vitest.config.ts": "import { defineConfig } from \"vitest/config\";\nimport path from \"node:path\";\n" +
				"export default defineConfig({ resolve: { alias: [ { find: \"@lib\", replacement: path.resolve(__dirname, \"src/lib\") }, { find: /^~\\/(.*)$/, replacement: path.resolve(__dirname, \"src\") + \"/$1\" } ] } });\n",
			"src/lib/money.ts":   moneyBase,
			"src/grade.ts":       gradeBase,
			"test/money.test.ts": importing(moneyTest, "@lib/money"),
			"test/grade.test.ts": importing(gradeTest, "~/grade"),
		},
		change:  map[string]string{"src/lib/money.ts": moneyNew, "src/grade.ts": gradeNew},
		targets: []string{"src/grade.ts#grade", "src/lib/money.ts#cents"}, vitest5: true},
	{name: "in-source tests",
		base: map[string]string{
			"package.json":     `{"name":"is","private":true,"type":"module"}`,
			"vitest.config.ts": "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { includeSource: [\"src/**/*.ts\"] } });\n",
			"src/inline.ts":    strings.Replace(inSource, "n * 2", "n + 4", 1), // not n + 3: double(3) is 6 both ways, and the change's revert would survive
		},
		change:  map[string]string{"src/inline.ts": inSource},
		targets: []string{"src/inline.ts#double"}},
	{name: "a source directory reached through a symlink",
		base: map[string]string{
			"package.json":       `{"name":"sl","private":true,"type":"module"}`,
			"shared/money.ts":    moneyBase,
			"test/money.test.ts": strings.Replace(importing(moneyTest, "../src/shared/money"), "00)", "0)", 2),
		},
		links:   map[string]string{"src/shared": "../shared"},
		change:  map[string]string{"shared/money.ts": moneyNew, "test/money.test.ts": importing(moneyTest, "../src/shared/money")},
		targets: []string{"shared/money.ts#cents"}},
}

// TestGateVitestLayouts: on each layout gate gives PASS (each target has
// its related test, and each mutant of the changed lines fails it: checked
// by hand) where it said SKIP, and audit reports no blind function of the
// changed files.
func TestGateVitestLayouts(t *testing.T) {
	chains := append(Toolchains(t), Toolchain{Name: "vitest3-node20", Node: "node", NodeModules: v3(t)})
	for _, tc := range chains {
		for _, l := range vitestLayouts {
			if tc.Name == chains[1].Name && !l.vitest5 || tc.Name == chains[2].Name && !l.vitest3 {
				continue
			}
			t.Run(tc.Name+"/"+l.name, func(t *testing.T) {
				if tc.Node != "node" {
					t.Setenv("PATH", filepath.Dir(tc.Node)+string(os.PathListSeparator)+os.Getenv("PATH"))
				}
				g := Repo{T: t, Dir: t.TempDir()}
				if err := os.Symlink(tc.NodeModules, filepath.Join(g.Dir, "node_modules")); err != nil {
					t.Fatal(err)
				}
				for p, to := range l.links {
					os.MkdirAll(filepath.Dir(filepath.Join(g.Dir, p)), 0o755)
					if err := os.Symlink(to, filepath.Join(g.Dir, p)); err != nil {
						t.Fatal(err)
					}
				}
				g.Git("init", "-q")
				g.Commit("base", MergeFiles(map[string]string{".gitignore": "node_modules\n"}, l.base))
				g.Commit("change", l.change)
				args := []string{"gate", "--json"}
				if l.from == "" {
					args = append(args, "--root", g.Dir)
				} else {
					t.Chdir(filepath.Join(g.Dir, l.from))
				}
				code, out, errs := Oracle(t, args...)
				var r GateResult
				if err := json.Unmarshal([]byte(out), &r); err != nil {
					t.Fatalf("gate --json (exit %d): %v\n%s\n%s", code, err, out, errs)
				}
				related := map[string]bool{}
				for _, tg := range r.Targets {
					related[tg.ID] = tg.Skipped == "" && len(tg.Tests) > 0
				}
				for _, id := range l.targets {
					if !related[id] {
						t.Errorf("%s: no related test (targets %+v)", id, r.Targets)
					}
				}
				if code != 0 || r.Verdict != "PASS" {
					t.Errorf("gate: exit %d %s %q, want PASS\n%s", code, r.Verdict, r.Reason, errs)
				}
				if l.from != "" {
					packageRoot(t, tc.Name != chains[1].Name, g, l)
				}
				a := auditJSON(t, g.Dir)
				for _, f := range a.Findings {
					for changed := range l.change {
						if f.Rule == "blind-function" && f.File == changed {
							t.Errorf("audit: false blind function %s: %s", f.File, f.Message)
						}
					}
				}
			})
		}
	}
}

// packageRoot: the package l.from is the repository, given as --root or
// found from inside it (its own oracle.yaml). vitest 4 finds the workspace's
// config above it: its tests run from the workspace's root with that config
// (its include is written from there), in the sandbox too, and the scope is
// the package's (vitest 3.1 too): PASS on its one target, each mutant killed as by hand (it
// was an error saying to run at the root; with `projects`, an error of
// vitest, which finds no project from the package). vitest 5 looks for a config in its
// root only: the package's tests run without it, there as in the sandbox.
// audit measures the package the same way: no false blind function.
func packageRoot(t *testing.T, upward bool, g Repo, l layout) {
	pkg := filepath.Join(g.Dir, l.from)
	for _, form := range []string{"--root", "cwd"} {
		t.Run(form, func(t *testing.T) {
			args := []string{"gate", "--json", "--root", pkg}
			if form == "cwd" {
				WriteFiles(t, pkg, map[string]string{"oracle.yaml": "# the package's own: oracle's root\n"})
				defer os.Remove(filepath.Join(pkg, "oracle.yaml"))
				t.Chdir(pkg)
				args = []string{"gate", "--json", "--base", "HEAD~1"}
			}
			code, out, errs := Oracle(t, args...)
			var r HostileResult
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("gate %v (exit %d): %v\n%s\n%s", args, code, err, out, errs)
			}
			var ids []string
			for _, tg := range r.Targets {
				ids = append(ids, fmt.Sprintf("%s %v", tg.ID, tg.Tests))
			}
			if code != 0 || r.Verdict != "PASS" || r.Score != 100 || strings.Join(ids, "; ") != l.pkg {
				t.Errorf("gate %v: exit %d %s %v%% %q, targets %v: want PASS 100%% on %s\n%s", args, code, r.Verdict, r.Score, r.Reason, ids, l.pkg, errs)
			}
			above := slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "../../vitest.config.ts") })
			if above != upward {
				t.Errorf("gate %v: a note on the workspace's config: %v, want %v (notes %q)", args, above, upward, r.Notes)
			}
			if form == "cwd" {
				return
			}
			code, out, errs = Oracle(t, "audit", "--json", "--root", pkg)
			var a auditResult
			if err := json.Unmarshal([]byte(out), &a); err != nil || code != 0 {
				t.Fatalf("audit --root %s: exit %d %v\n%s\n%s", l.from, code, err, out, errs)
			}
			for _, f := range a.Findings {
				t.Errorf("audit --root %s: %s %s:%d %s", l.from, f.Rule, f.File, f.Line, f.Message)
			}
		})
	}
}

// TestGraphFollowsVitestAliases: a call through an alias of the vitest
// config only resolves to its function in `oracle graph` (it was external).
func TestGraphFollowsVitestAliases(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(V4(t).NodeModules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	WriteFiles(t, dir, map[string]string{
		"package.json":     `{"name":"al","private":true,"type":"module"}`,
		"vitest.config.ts": vitestLayouts[3].base["vitest.config.ts"],
		"src/lib/money.ts": moneyNew,
		"src/app.ts":       "import { cents } from \"@lib/money\";\nimport { grade } from \"~/grade\";\nexport function total(n: number): string {\n  return grade(cents(n));\n}\n",
		"src/grade.ts":     gradeNew,
	})
	code, out, errs := Oracle(t, "graph", "--root", dir, filepath.Join(dir, "src/app.ts"))
	if code != 0 || !strings.Contains(out, "-> src/lib/money.ts#cents (import)") || !strings.Contains(out, "-> src/grade.ts#grade (import)") {
		t.Errorf("graph: exit %d\n%s%s", code, out, errs)
	}
	// A config vitest cannot load: the graph is tsconfig's, and a note
	// names the config.
	WriteFiles(t, dir, map[string]string{"vitest.config.ts": "throw new Error(\"broken config\");\n"})
	code, out, errs = Oracle(t, "graph", "--root", dir, filepath.Join(dir, "src/app.ts"))
	if code != 0 || !strings.Contains(out, "-> @lib/money (external)") || !strings.Contains(out+errs, "vitest.config.ts") || !strings.Contains(out+errs, "resolve.alias is not followed") {
		t.Errorf("graph with a broken config: exit %d\n%s%s", code, out, errs)
	}
}

// TestGateInSourceTestBlockIsNotCode: what a change writes inside
// `if (import.meta.vitest) { ... }` is the file's tests: a change there
// alone touches no code (SKIP), and with a change of the function beside
// it no mutant lands in the test block (its id is the function's).
func TestGateInSourceTestBlockIsNotCode(t *testing.T) {
	nm := V4(t).NodeModules
	for _, tc := range []struct {
		name, change string
		verdict      string
	}{
		{"only the tests", strings.Replace(inSource, "toBe(6);", "toBe(6);\n    expect(double(0)).toBe(0);", 1), "SKIP"},
		{"the function and the tests", strings.Replace(strings.Replace(inSource, "toBe(6);", "toBe(6);\n    expect(double(-1)).toBe(-2);", 1), "n * 2", "n * 2 + 0", 1), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Repo{T: t, Dir: t.TempDir()}
			if err := os.Symlink(nm, filepath.Join(g.Dir, "node_modules")); err != nil {
				t.Fatal(err)
			}
			g.Git("init", "-q")
			g.Commit("base", map[string]string{".gitignore": "node_modules\n", "package.json": `{"name":"is","private":true,"type":"module"}`,
				"vitest.config.ts": "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { includeSource: [\"src/**/*.ts\"] } });\n",
				"src/inline.ts":    inSource})
			g.Commit("change", map[string]string{"src/inline.ts": tc.change})
			code, r, errs := GateJSON(t, g.Dir)
			if tc.verdict == "SKIP" {
				if code != 0 || r.Verdict != "SKIP" || !strings.Contains(r.Reason, "touches no code") {
					t.Errorf("exit %d %s %q, want SKIP: the change touches no code\n%s", code, r.Verdict, r.Reason, errs)
				}
				return
			}
			for _, m := range r.Mutants {
				if m.Line >= 5 || m.Target != "src/inline.ts#double" {
					t.Errorf("a mutant in the in-source tests: %+v", m)
				}
			}
			if len(r.Mutants) == 0 {
				t.Errorf("no mutant of the function: exit %d %s %q\n%s", code, r.Verdict, r.Reason, errs)
			}
		})
	}
}
