package testsuite

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/testenv"
)

// TestJestConfig: jest's resolved configuration (--showConfig, recorded) as the suite's:
// the setup files of every project, repo-relative; moduleNameMapper as aliases that map
// the whole module name when the pattern matches anywhere in it, the first of several
// replacements; a project's displayName.
func TestJestConfig(t *testing.T) {
	root := t.TempDir()
	shown := `{"configs":[{"rootDir":"` + root + `","displayName":{"name":"unit","color":"blue"},
	  "setupFiles":["` + root + `/test/env.ts"],"setupFilesAfterEnv":["` + root + `/test/mocks.ts","/elsewhere/x.js"],
	  "moduleNameMapper":[["^@app/(.*)$","` + root + `/src/$1"],["legacy","` + root + `/src/legacy/index.ts"],["^multi$",["` + root + `/src/a.ts","` + root + `/src/b.ts"]]]}]}`
	var jc jestConfig
	if err := jsonUnmarshal(shown, &jc); err != nil {
		t.Fatal(err)
	}
	cfg := jc.config(root)
	if want := []string{"test/env.ts", "test/mocks.ts"}; !slices.Equal(cfg.SetupFiles, want) {
		t.Errorf("setup files %q, want %q", cfg.SetupFiles, want)
	}
	if len(cfg.Projects) != 1 || cfg.Projects[0].Name != "unit" || cfg.Projects[0].Root != "." || len(cfg.Projects[0].Alias) != 3 {
		t.Fatalf("projects %+v", cfg.Projects)
	}
	p, err := callgraph.NewProgram(testenv.WriteTree(t, root, map[string]string{
		"src/x/y.ts":          "export const y = 1;\n",
		"src/legacy/index.ts": "export const l = 1;\n",
		"src/a.ts":            "export const a = 1;\n",
		"test/env.ts":         "",
		"test/mocks.ts":       "",
		"test/a.test.ts":      "",
		"test/legacy.test.ts": "",
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Resolver().SetAliases("jest", cfg.AliasScopes())
	for spec, want := range map[string]string{"@app/x/y": "src/x/y.ts", "old/legacy/thing": "src/legacy/index.ts", "multi": "src/a.ts"} {
		if r := p.Resolver().Resolve("test/a.test.ts", spec); r.Path != want {
			t.Errorf("%s resolves to %q (%s), want %s", spec, r.Path, r.Kind, want)
		}
	}
}

// TestRunsJest: jest is the runner when no vitest is found and the repository says jest.
func TestRunsJest(t *testing.T) {
	for _, tc := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"jest.config.ts": "export default {};\n"}, "jest.config.ts"},
		{map[string]string{"package.json": `{"jest":{"preset":"ts-jest"}}`}, `package.json "jest"`},
		{map[string]string{"package.json": `{"devDependencies":{"jest":"^29"}}`}, "the jest dependency in package.json"},
		{map[string]string{"package.json": `{"devDependencies":{"jest":"^29"}}`, "node_modules/vitest/vitest.mjs": ""}, ""},
		{map[string]string{"package.json": `{"devDependencies":{"vitest":"^4"}}`}, ""},
	} {
		root := testenv.WriteTree(t, "", tc.files)
		os.Mkdir(filepath.Join(root, ".git"), 0o755)
		if got := RunsJest(root); got != tc.want {
			t.Errorf("%v: RunsJest = %q, want %q", tc.files, got, tc.want)
		}
	}
}

// TestLoadJest asks a real jest (testdata/jest) for the suite: its test files (testMatch,
// roots), a moduleNameMapper alias followed; a whole-module jest.mock stops the walk (the
// candidates, and Explain names the mock), a factory spreading jest.requireActual does not;
// test files written for jest are its tests, not problems.
func TestLoadJest(t *testing.T) {
	t.Parallel()
	env := testenv.NeedJest(t)
	testenv.NeedTool(t, "node")
	root := testenv.WriteTree(t, "", map[string]string{
		"package.json":               `{"name":"j","private":true,"jest":{"preset":"ts-jest","testEnvironment":"node","roots":["<rootDir>/src","<rootDir>/test"],"moduleNameMapper":{"^@app/(.*)$":"<rootDir>/src/$1"}}}`,
		"tsconfig.json":              `{"compilerOptions":{"strict":true,"module":"commonjs","baseUrl":".","paths":{"@app/*":["src/*"]}}}`,
		"src/orders/checkout.ts":     "export function finalize(id: number) { return id; }\n",
		"src/orders/index.ts":        "export { finalize } from './checkout';\n",
		"src/routes.ts":              "import { finalize } from '@app/orders';\nexport function route(id: number) { return finalize(id); }\n",
		"src/tax.ts":                 "export function tax(n: number) { return n; }\n",
		"src/total.ts":               "import { tax } from './tax';\nexport function total(n: number) { return tax(n); }\n",
		"test/routes.test.ts":        "import { route } from '../src/routes';\n\njest.mock('@app/orders');\nit('routes', () => { route(1); });\n",
		"test/total.test.ts":         "import { total } from '../src/total';\njest.mock('../src/tax', () => ({ ...jest.requireActual('../src/tax'), extra: jest.fn() }));\nit('totals', () => { expect(total(1)).toBe(1); });\n",
		"scripts/not-a-root.test.ts": "it('x', () => {});\n",
	})
	s := loadJestTree(t, env, root)
	if !s.Jest || !slices.Equal(s.Tests, []string{"test/routes.test.ts", "test/total.test.ts"}) || len(s.Problems) != 0 {
		t.Fatalf("jest %v, tests %q, problems %+v", s.Jest, s.Tests, s.Problems)
	}
	if c := s.Candidates("src/routes.ts"); !slices.Equal(c, []string{"test/routes.test.ts"}) {
		t.Errorf("routes.ts candidates %q", c)
	}
	if c := s.Candidates("src/orders/checkout.ts"); len(c) != 0 {
		t.Errorf("the whole-module jest.mock of the barrel does not stop the walk: %q", c)
	}
	if got, want := s.Explain("src/orders/checkout.ts"), `reached only through jest.mock("@app/orders") at test/routes.test.ts:3, which re-exports it from src/orders/checkout.ts`; got != want {
		t.Errorf("explain:\n got  %s\n want %s", got, want)
	}
	if c := s.Candidates("src/tax.ts"); !slices.Equal(c, []string{"test/total.test.ts"}) {
		t.Errorf("a factory spreading jest.requireActual stops the walk: tax.ts candidates %q", c)
	}
	if !strings.Contains(s.Explain("src/tax.ts"), "loaded by test/total.test.ts") {
		t.Errorf("explain tax.ts: %s", s.Explain("src/tax.ts"))
	}
}

// loadJestTree loads the suite of the repository at root, with the jest
// install of env linked as its node_modules and a .git marking its root.
func loadJestTree(t *testing.T, env, root string) *Suite {
	t.Helper()
	if err := os.Symlink(filepath.Join(env, "node_modules"), filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	p, err := callgraph.NewProgram(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	s, err := Load(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// TestLoadJestScriptConfig: the jest config the test script names (jest -c FILE) is the
// one jest is asked with, and a note says so.
func TestLoadJestScriptConfig(t *testing.T) {
	t.Parallel()
	env := testenv.NeedJest(t)
	testenv.NeedTool(t, "node")
	root := testenv.WriteTree(t, "", map[string]string{
		"package.json":        `{"name":"j","private":true,"devDependencies":{"jest":"29.7.0"},"scripts":{"test":"jest -c jest.unit.config.js"}}`,
		"jest.unit.config.js": "module.exports = { preset: \"ts-jest\", testEnvironment: \"node\", roots: [\"<rootDir>/test/unit\"] };\n",
		"src/a.ts":            "export const a = 1;\n",
		"test/unit/a.test.ts": "import { a } from \"../../src/a\";\nit(\"a\", () => { expect(a).toBe(1); });\n",
		"test/e2e/a.test.ts":  "it(\"e2e\", () => {});\n",
	})
	s := loadJestTree(t, env, root)
	if !slices.Equal(s.Tests, []string{"test/unit/a.test.ts"}) || s.Config != "jest.unit.config.js" || !strings.Contains(s.ConfigNote, "named by the test script") {
		t.Errorf("tests %q, config %q, note %q", s.Tests, s.Config, s.ConfigNote)
	}
}

// TestLoadJestProjects: jest projects with their own roots read as their own: the same
// moduleNameMapper alias maps, under each project's roots, to that project's directory;
// a setup file's whole-module mock stops the walk for the tests of the project that sets
// it up only (the other project's test runs the module for real: a candidate); automock
// is read from the resolved configuration.
func TestLoadJestProjects(t *testing.T) {
	t.Parallel()
	env := testenv.NeedJest(t)
	testenv.NeedTool(t, "node")
	project := func(name, setup string) string {
		s := ""
		if setup != "" {
			s = `"setupFiles":["<rootDir>/packages/` + name + `/` + setup + `"],`
		}
		return `{"displayName":"` + name + `","testEnvironment":"node",` + s + `"roots":["<rootDir>/packages/` + name + `"],"moduleNameMapper":{"^@lib/(.*)$":"<rootDir>/packages/` + name + `/src/$1"}}`
	}
	root := testenv.WriteTree(t, "", map[string]string{
		"package.json":                  `{"name":"j","private":true,"jest":{"projects":[` + project("server", "setup.js") + `,` + project("web", "") + `]}}`,
		"packages/server/setup.js":      "import '../shared/env';\njest.mock('../shared/clock');\n",
		"packages/shared/env.ts":        "process.env.TZ = 'UTC';\n",
		"packages/server/src/round.ts":  "export const round = Math.round;\n",
		"packages/server/round.test.ts": "import { round } from '@lib/round';\nimport { hour } from '../shared/clock';\nit('r', () => { round(hour(1)); });\n",
		"packages/web/src/round.ts":     "export const round = Math.round;\n",
		"packages/web/round.test.ts":    "import { round } from '@lib/round';\nimport { hour } from '../shared/clock';\nit('r', () => { round(hour(1)); });\n",
		"packages/shared/clock.ts":      "export function hour(ms: number) { return ms; }\n",
	})
	s := loadJestTree(t, env, root)
	if want := []string{"packages/server/round.test.ts", "packages/web/round.test.ts"}; !slices.Equal(s.Tests, want) || s.Automock {
		t.Fatalf("tests %q, want %q; automock %v", s.Tests, want, s.Automock)
	}
	for file, want := range map[string][]string{
		"packages/server/src/round.ts": {"packages/server/round.test.ts"},
		"packages/web/src/round.ts":    {"packages/web/round.test.ts"},
		"packages/shared/clock.ts":     {"packages/web/round.test.ts"},
		// What a setup file loads is loaded for every test file (a candidate too many
		// costs a run).
		"packages/shared/env.ts": {"packages/server/round.test.ts", "packages/web/round.test.ts"},
	} {
		if c := s.Candidates(file); !slices.Equal(c, want) {
			t.Errorf("%s: candidates %q, want %q", file, c, want)
		}
	}
}

// TestLoadJestManualMocks: a jest.mock with no factory of a module with a __mocks__ file
// of its name beside it loads that file: what the file loads is the test's (a candidate),
// and a file that takes the real module (jest.requireActual) does not stop the walk,
// where one that does not does (Explain names the mock). Under automock (read from jest)
// a __mocks__ file serves its module with no jest.mock: what it loads is the test's too.
func TestLoadJestManualMocks(t *testing.T) {
	t.Parallel()
	env := testenv.NeedJest(t)
	testenv.NeedTool(t, "node")
	root := testenv.WriteTree(t, "", map[string]string{
		"package.json":           `{"name":"j","private":true,"jest":{"testEnvironment":"node","automock":true}}`,
		"src/rates.ts":           "export function vat(n: number) { return n; }\n",
		"src/__mocks__/rates.ts": "const actual = jest.requireActual('../rates');\nexport const vat = actual.vat;\n",
		"src/plain.ts":           "export function plain() { return 1; }\n",
		"src/__mocks__/plain.ts": "import { helper } from '../helper';\nexport const plain = () => helper();\n",
		"src/helper.ts":          "export function helper() { return 2; }\n",
		"src/auto.ts":            "export function auto() { return 3; }\n",
		"src/__mocks__/auto.ts":  "import { extra } from '../extra';\nexport const auto = () => extra();\n",
		"src/extra.ts":           "export function extra() { return 4; }\n",
		"test/a.test.ts":         "import { vat } from '../src/rates';\nimport { plain } from '../src/plain';\nimport { auto } from '../src/auto';\n\njest.mock('../src/rates');\njest.mock('../src/plain');\nit('a', () => { vat(plain() + auto()); });\n",
	})
	s := loadJestTree(t, env, root)
	if !s.Automock {
		t.Errorf("automock not read")
	}
	for file, want := range map[string][]string{
		"src/rates.ts":  {"test/a.test.ts"},
		"src/helper.ts": {"test/a.test.ts"},
		"src/plain.ts":  nil,
		"src/extra.ts":  {"test/a.test.ts"},
	} {
		if c := s.Candidates(file); !slices.Equal(c, want) {
			t.Errorf("%s: candidates %q, want %q", file, c, want)
		}
	}
	if got, want := s.Explain("src/plain.ts"), `reached only through jest.mock("../src/plain") at test/a.test.ts:6`; got != want {
		t.Errorf("explain plain.ts:\n got  %s\n want %s", got, want)
	}
}

// TestJestHint: a jest.config.ts jest cannot read without ts-node says what to do.
func TestJestHint(t *testing.T) {
	stderr := "Error: Jest: Failed to parse the TypeScript config file /r/jest.config.ts\n  Error: Jest: 'ts-node' is required for the TypeScript configuration files. Make sure it is installed\nError: Cannot find package 'ts-node'\n"
	if h := jestHint(stderr); !strings.Contains(h, "npm i -D ts-node") || !strings.Contains(h, "--config FILE") {
		t.Errorf("hint %q", h)
	}
	if h := jestHint("SyntaxError: Unexpected token"); h != "" {
		t.Errorf("hint for another error: %q", h)
	}
}

// TestJestConfigMapperObject: jest 24 prints a project's moduleNameMapper as an object of
// regex → replacement (jest 25 and later as pairs): read in its order, it gives the same
// aliases; a null one gives none. It was an unmarshal error, every gate exit 3.
func TestJestConfigMapperObject(t *testing.T) {
	root := t.TempDir()
	shown := `{"configs":[{"rootDir":"` + root + `","moduleNameMapper":{"^@app/(.*)$":"` + root + `/src/$1","legacy":"` + root + `/src/legacy/index.ts"}},{"rootDir":"` + root + `","moduleNameMapper":null}]}`
	var jc jestConfig
	if err := jsonUnmarshal(shown, &jc); err != nil {
		t.Fatal(err)
	}
	cfg := jc.config(root)
	if len(cfg.Projects) != 2 || len(cfg.Projects[0].Alias) != 2 || len(cfg.Projects[1].Alias) != 0 {
		t.Fatalf("projects %+v", cfg.Projects)
	}
	if a := cfg.Projects[0].Alias; !strings.Contains(a[0].Regex, "@app") || !strings.Contains(a[1].Regex, "legacy") {
		t.Errorf("aliases out of order: %+v", a)
	}
}
