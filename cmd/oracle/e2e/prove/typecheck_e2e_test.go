package prove

// The generated oracle type-checks under the repository's own `tsc --noEmit`
// (strict) and passes under its vitest, for the fixture forms the SPEC
// allows and the import styles repositories use (issue 8 items 1 and 2).
// The cases' oracles run in one vitest run, each case a project.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

func TestOracleTypeChecks(t *testing.T) {
	tc := V4(t)
	repo := func(ext, tsconfig, arrange string) map[string]string {
		return map[string]string{
			"package.json":  `{"name":"tc","private":true,"type":"module"}`,
			"tsconfig.json": tsconfig,
			"oracle.yaml":   "fixtures:\n  - name: orders\n    file: test/orders.fixture.ts\n",
			"src/lines.ts":  "export interface OrderLine { sku: string; qty: number }\nexport function total(lines: OrderLine[]): number { return lines.reduce((a, l) => a + l.qty, 0); }\n",
			"src/save.ts":   "export const saved: number[] = [];\nexport async function save(n: number): Promise<void> { saved.push(n); }\n",
			"src/order.ts": "import { total, type OrderLine } from \"./lines" + ext + "\";\nimport { save } from \"./save" + ext + "\";\n" +
				"export async function place(lines: OrderLine[], opts: { skipTotal?: boolean } = {}): Promise<number> {\n  let n = 0;\n  if (!opts.skipTotal) {\n    n = total(lines);\n  }\n  await save(n);\n  return n;\n}\n",
			"test/orders.fixture.ts": "export const arrange = {\n  place: async () => {\n    await import(\"../src/order" + ext + "\");\n    return " + arrange + ";\n  },\n};\n",
			"tickets/T.yaml":         "ticket: T-1\noperations:\n  - kind: conditional-skip\n    id: skip-total\n    function: src/order.ts#place\n    flag: opts.skipTotal\n    wrap: total\n    preserve: [save]\n",
		}
	}
	bundler := `{"compilerOptions":{"target":"ES2022","module":"ESNext","moduleResolution":"Bundler","strict":true,"noEmit":true,"skipLibCheck":true,"types":[]},"include":["src","test"]}`
	nodenext := `{"compilerOptions":{"target":"ES2022","module":"NodeNext","moduleResolution":"NodeNext","strict":true,"noEmit":true,"skipLibCheck":true,"types":[]},"include":["src","test"]}`
	tsExt := `{"compilerOptions":{"target":"ES2022","module":"ESNext","moduleResolution":"Bundler","allowImportingTsExtensions":true,"strict":true,"noEmit":true,"skipLibCheck":true,"types":[]},"include":["src","test"]}`
	cases := []struct{ name, ext, tsconfig, arrange, wantImport string }{
		{"as const with a nested readonly array", "", bundler, `[[{ sku: "a", qty: 2 }], {}] as const`, `"../order"`},
		{"a tuple type", "", bundler, `[[{ sku: "a", qty: 2 }], {}] as [{ sku: string; qty: number }[], { skipTotal?: boolean }]`, `"../order"`},
		{"a plain array", "", bundler, `[[{ sku: "a", qty: 2 }], {}]`, `"../order"`},
		{"nodenext: .js specifiers", ".js", nodenext, `[[{ sku: "a", qty: 2 }], {}] as const`, `"../order.js"`},
		{"allowImportingTsExtensions: .ts specifiers", ".ts", tsExt, `[[{ sku: "a", qty: 2 }], {}] as const`, `"../order.ts"`},
	}
	// Each case is a repository of its own, parent/<i>/; their oracles run
	// in one vitest run at the end (they were a run each), each case a
	// vitest project (runProjects).
	parent := t.TempDir()
	if err := os.Symlink(tc.NodeModules, filepath.Join(parent, "node_modules")); err != nil {
		t.Fatal(err)
	}
	const file = "src/__oracles__/place.skip-total.oracle.test.ts"
	var dirs []string
	for i, c := range cases {
		dir := filepath.Join(parent, fmt.Sprint(i))
		dirs = append(dirs, dir)
		t.Run(c.name, func(t *testing.T) {
			WriteFiles(t, dir, repo(c.ext, c.tsconfig, c.arrange))
			if err := os.Symlink(tc.NodeModules, filepath.Join(dir, "node_modules")); err != nil {
				t.Fatal(err)
			}
			if code, out, errs := Oracle(t, "gen", "--root", dir, filepath.Join(dir, "tickets/T.yaml")); code != 0 || !strings.HasPrefix(out, "generated") {
				t.Fatalf("gen: exit %d\n%s%s", code, out, errs)
			}
			got, _ := os.ReadFile(filepath.Join(dir, file))
			if !strings.Contains(string(got), "import("+c.wantImport+")") {
				t.Errorf("the oracle does not import %s:\n%s", c.wantImport, got)
			}
			runTSC(t, tc, dir)
		})
	}
	results := runProjects(t, tc, parent, dirs, file)
	for i, c := range cases {
		if r := results[i]; r.NumPassedTests != 2 || r.NumFailedTests != 0 {
			t.Errorf("%s: %d passed, %d failed\n%s", c.name, r.NumPassedTests, r.NumFailedTests, r.Failures())
		}
	}
}

// runProjects runs file (a slash path from each directory) of every
// directory of dirs (under parent, whose node_modules has vitest) in one
// vitest run under tc, each directory a vitest project of its own (a config
// naming it is written there), and returns each directory's results.
func runProjects(t *testing.T, tc Toolchain, parent string, dirs []string, file string) []VitestReport {
	t.Helper()
	real, err := filepath.EvalSymlinks(parent) // vitest names files by their real path
	if err != nil {
		t.Fatal(err)
	}
	var projects, filters []string
	for i, d := range dirs {
		rel, err := filepath.Rel(parent, d)
		if err != nil {
			t.Fatal(err)
		}
		WriteFiles(t, d, map[string]string{"vitest.config.ts": fmt.Sprintf("import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { name: \"project-%d\" } });\n", i)})
		projects = append(projects, fmt.Sprintf("%q", filepath.ToSlash(rel)+"/vitest.config.ts"))
		filters = append(filters, filepath.Join(real, rel, filepath.FromSlash(file)))
	}
	WriteFiles(t, real, map[string]string{copiesConfig: "import { defineConfig } from \"vitest/config\";\n" +
		"export default defineConfig({ test: { projects: [" + strings.Join(projects, ", ") + "] } });\n"})
	vr := RunVitest(t, tc.Node, real, append([]string{"--config", copiesConfig}, filters...)...)
	out := make([]VitestReport, len(dirs))
	for i := range dirs {
		for _, f := range vr.TestResults {
			if f.Name == filters[i] {
				out[i].TestResults = append(out[i].TestResults, f)
			}
		}
		if out[i].TestResults == nil {
			t.Fatalf("vitest ran no %s\n%s", filters[i], vr.Failures())
		}
		out[i] = counted(out[i])
	}
	return out
}
