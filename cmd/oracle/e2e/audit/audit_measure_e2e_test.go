package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// blindOf lists "rule file qual" of the findings, sorted (qual: the
// message up to its colon).
func blindOf(r auditResult) []string {
	var out []string
	for _, f := range r.Findings {
		qual, _, _ := strings.Cut(f.Message, ":")
		out = append(out, f.Rule+" "+f.File+" "+qual)
	}
	sort.Strings(out)
	return out
}

// TestAuditMeasuredScaffoldingAndShapes: measured (the test file run with
// entry markers) and static, a function called only while a vi.mock
// factory builds its stand-in is blind (the factory is the test's
// scaffolding); a getter and a namespace function no test runs are
// reported, the ones the test runs are not; a partial mock whose parameter
// is not named importOriginal keeps the real module (helper runs) and
// stubs what it sets; vi.mock(path, { spy: true }) runs the originals.
func TestAuditMeasuredScaffoldingAndShapes(t *testing.T) {
	dir := AuditRepo(t, map[string]string{
		"package.json": `{"name":"m26","private":true,"type":"module"}`,
		"src/geo.ts": "export namespace Geo {\n  export function near(a: number, b: number): boolean {\n    return Math.abs(a - b) < 2;\n  }\n" +
			"  export function dist(a: number, b: number): number {\n    return Math.abs(a - b);\n  }\n}\n\n" +
			"export class Cache {\n  items: number[] = [1];\n  get size(): number {\n    return this.items.length;\n  }\n  get first(): number {\n    return this.items[0];\n  }\n}\n",
		"src/config.ts": "export function buildConfig(): { url: string } {\n  return { url: \"x\" };\n}\n",
		"src/db.ts":     "export function connect(): string {\n  return \"real\";\n}\n",
		"src/util.ts":   "export function helper(n: number): number {\n  return n + 1;\n}\nexport function stubbed(): number {\n  return 1;\n}\n",
		"src/spied.ts":  "export function spied(n: number): number {\n  return n * 3;\n}\n",
		"test/geo.test.ts": `import { expect, it, vi } from "vitest";
import { Geo, Cache } from "../src/geo";
import { connect } from "../src/db";
import { helper, stubbed } from "../src/util";
import { spied } from "../src/spied";

vi.mock("../src/db", async () => {
  const { buildConfig } = await import("../src/config");
  const url = buildConfig().url;
  return { connect: () => url };
});
vi.mock("../src/util", async (orig) => ({ ...(await orig<typeof import("../src/util")>()), stubbed: vi.fn(() => 0) }));
vi.mock("../src/spied", { spy: true });

it("geo", () => {
  expect(Geo.near(1, 2)).toBe(true);
  expect(new Cache().size).toBe(1);
  expect(connect()).toBe("x");
  expect(helper(1) + stubbed()).toBe(2);
  expect(spied(1)).toBe(3);
});
`,
	})
	want := []string{
		"blind-function src/config.ts buildConfig",
		"blind-function src/db.ts connect",
		"blind-function src/geo.ts Cache.first",
		"blind-function src/geo.ts Geo.dist",
		"blind-function src/util.ts stubbed",
	}
	r := auditJSON(t, dir)
	if got := blindOf(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("measured:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range r.Findings {
		if !strings.Contains(f.Message, "(measured)") {
			t.Errorf("not measured: %s", f.Message)
		}
		if f.File == "src/config.ts" && !strings.Contains(f.Message, "imported inside the vi.mock factory at test/geo.test.ts:7") {
			t.Errorf("the factory is not named: %s", f.Message)
		}
	}
	code, out, errs := Oracle(t, "audit", "--json", "--static", "--root", dir)
	if code != 0 {
		t.Fatalf("audit --static: exit %d\n%s", code, errs)
	}
	var rs auditResult
	if err := json.Unmarshal([]byte(out), &rs); err != nil {
		t.Fatal(err)
	}
	// The static walk counts every member of a class the test takes as run
	// (Cache.first): measuring decides members.
	want = slices.DeleteFunc(want, func(s string) bool { return strings.HasSuffix(s, "Cache.first") })
	if got := blindOf(rs); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("static:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAuditWorkspacePackageAndUnrunnableTests: audit of one package of a
// workspace (its own node_modules, as pnpm lays them out) whose tsconfig
// extends the workspace's base file and references a sibling package:
// the sandbox gives the copy both, so its tests load and measure (price is
// tested, unused is blind). A test file that throws at load measured
// nothing: what it would decide is cannot-measure naming it and its
// error, never blind-function. With the sibling gone from the workspace
// too, no test file loads: every judged function is cannot-measure.
func TestAuditWorkspacePackageAndUnrunnableTests(t *testing.T) {
	ws := t.TempDir()
	WriteFiles(t, ws, map[string]string{
		"package.json":                    `{"name":"ws","private":true,"type":"module","workspaces":["packages/*"]}`,
		"tsconfig.base.json":              "{\n  // shared\n  \"compilerOptions\": { \"target\": \"ES2022\", \"module\": \"ESNext\", \"moduleResolution\": \"Bundler\", \"strict\": true, \"composite\": true },\n}\n",
		"packages/lib/package.json":       `{"name":"@ws/lib","private":true,"type":"module"}`,
		"packages/lib/tsconfig.json":      `{"extends": "../../tsconfig.base.json", "include": ["src"]}`,
		"packages/lib/src/index.ts":       "export const one = 1;\n",
		"packages/app/package.json":       `{"name":"@ws/app","private":true,"type":"module"}`,
		"packages/app/tsconfig.json":      "{\n  \"extends\": \"../../tsconfig.base.json\",\n  \"references\": [{ \"path\": \"../lib\" }],\n  \"include\": [\"src\", \"test\"],\n}\n",
		"packages/app/src/price.ts":       "export function price(n: number): number {\n  return n * 2;\n}\nexport function unused(): number {\n  return 0;\n}\n",
		"packages/app/src/total.ts":       "export function total(n: number): number {\n  return n + 1;\n}\n",
		"packages/app/test/price.test.ts": "import { expect, it } from \"vitest\";\nimport { price } from \"../src/price\";\nit(\"price\", () => { expect(price(2)).toBe(4); });\n",
		"packages/app/test/boom.test.ts":  "import { expect, it } from \"vitest\";\nimport { total } from \"../src/total\";\nthrow new Error(\"boom at load\");\nit(\"total\", () => { expect(total(2)).toBe(3); });\n",
	})
	app := filepath.Join(ws, "packages", "app")
	if err := os.Symlink(V4(t).NodeModules, filepath.Join(app, "node_modules")); err != nil {
		t.Fatal(err)
	}
	r := auditJSON(t, app)
	want := []string{
		"blind-function src/price.ts unused",
		"cannot-measure src/total.ts total",
	}
	if got := blindOf(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range r.Findings {
		if f.Rule == "cannot-measure" && (f.Severity != "warning" || !strings.Contains(f.Message, "test/boom.test.ts could not run: boom at load") || len(f.Related) != 1 || f.Related[0].File != "test/boom.test.ts") {
			t.Errorf("cannot-measure does not name the test file and its error: %+v", f)
		}
	}
	// Every test file fails to load: nothing is blind, all cannot-measure.
	if err := os.RemoveAll(filepath.Join(ws, "packages", "lib")); err != nil {
		t.Fatal(err)
	}
	code, out, errs := Oracle(t, "audit", "--root", app)
	if code != 0 || strings.Contains(out, "blind-function") || !strings.Contains(out, "cannot-measure (3)") || !strings.Contains(out, "test/price.test.ts could not run: ") || !strings.Contains(out, ", 3 function(s) cannot be measured") {
		t.Errorf("every test file unloadable: exit %d\n%s%s", code, out, errs)
	}
}

// TestAuditWholeRunFails: a globalSetup that throws fails the whole vitest
// run (vitest list does not run it): nothing was measured, so the function
// is cannot-measure with the run's error, not blind.
func TestAuditWholeRunFails(t *testing.T) {
	dir := AuditRepo(t, map[string]string{
		"package.json":         `{"name":"gs","private":true,"type":"module"}`,
		"vitest.config.ts":     "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { globalSetup: [\"./test/global-setup.ts\"] } });\n",
		"test/global-setup.ts": "export default function setup() {\n  throw new Error(\"the database is not reachable\");\n}\n",
		"src/price.ts":         "export function price(n: number): number {\n  return n * 2;\n}\n",
		"test/price.test.ts":   "import { expect, it } from \"vitest\";\nimport { price } from \"../src/price\";\nit(\"p\", () => { expect(price(2)).toBe(4); });\n",
	})
	r := auditJSON(t, dir)
	if got := blindOf(r); strings.Join(got, "\n") != "cannot-measure src/price.ts price" || !strings.Contains(r.Findings[0].Message, "test/price.test.ts could not run: the vitest run failed: Error: the database is not reachable") {
		t.Errorf("findings: %+v", r.Findings)
	}
}

// TestAuditNoSandboxPath: a test file that could not run names the file
// its error is about as the repository does (src/hash.ts), never by the
// sandbox's temporary path on the machine that ran it, in the text, the
// --json document and the --summary.
func TestAuditNoSandboxPath(t *testing.T) {
	dir := AuditRepo(t, map[string]string{
		"package.json":      `{"name":"ohash","private":true,"type":"module"}`,
		"src/hash.ts":       "import { digest } from \"not-installed-pkg\";\nexport function h(s: string): string {\n  return digest(s);\n}\n",
		"test/hash.test.ts": "import { expect, it } from \"vitest\";\nimport { h } from \"../src/hash\";\nit(\"h\", () => { expect(h(\"a\")).toBe(\"b\"); });\n",
	})
	summary := filepath.Join(t.TempDir(), "summary.md")
	for _, args := range [][]string{{"audit", "--root", dir, "--summary", summary}, {"audit", "--json", "--root", dir}} {
		_, out, errs := Oracle(t, args...)
		md, _ := os.ReadFile(summary)
		for name, text := range map[string]string{"stdout": out, "--summary": string(md)} {
			if !strings.Contains(text, "imported from src/hash.ts") || strings.Contains(text, "oracle-prove-") || strings.Contains(text, os.TempDir()) {
				t.Errorf("%v: %s names the sandbox, or not src/hash.ts:\n%s\n%s", args, name, text, errs)
			}
		}
	}
}

// TestAuditEveryTestFailsInSandbox (issue 41, found on unjs/changelogen):
// a test file whose tests pass in the repository but all fail in the
// sandbox (a git command before the code under test: the copy has no
// .git) ran nothing past its failures: what it would decide is
// cannot-measure naming the first failure, not blind-function; a file
// with a passing test still counts what it ran, its note naming the
// failed test.
func TestAuditEveryTestFailsInSandbox(t *testing.T) {
	dir := NewGateRepo(t, map[string]string{
		"src/ref.ts":          "import { execSync } from \"node:child_process\";\nexport function ref(): string {\n  return execSync(\"git rev-parse HEAD\", { encoding: \"utf8\" }).trim();\n}\n",
		"src/render.ts":       "export function render(ref: string): string {\n  return \"at \" + ref;\n}\n",
		"src/other.ts":        "export function other(): number {\n  return 1;\n}\nexport function never(): number {\n  return 2;\n}\n",
		"test/render.test.ts": "import { expect, it } from \"vitest\";\nimport { ref } from \"../src/ref\";\nimport { render } from \"../src/render\";\nit(\"renders\", () => { expect(render(ref())).toMatch(/^at /); });\n",
		"test/other.test.ts":  "import { expect, it } from \"vitest\";\nimport { ref } from \"../src/ref\";\nimport { never, other } from \"../src/other\";\nit(\"other\", () => { expect(other()).toBe(1); });\nit(\"never\", () => { ref(); expect(never()).toBe(2); });\n",
	}).Dir
	r := auditJSON(t, dir)
	want := []string{
		"blind-function src/other.ts never",
		"cannot-measure src/render.ts render",
	}
	if got := blindOf(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range r.Findings {
		if f.Rule == "cannot-measure" && !strings.Contains(f.Message, "test/render.test.ts could not run: none of its tests passed (renders: Error: Command failed: git rev-parse HEAD") {
			t.Errorf("cannot-measure does not name the test file and its first failure: %+v", f)
		}
	}
	code, out, errs := Oracle(t, "audit", "--root", dir)
	if code != 0 || !strings.Contains(out, "note: test/other.test.ts does not pass on the code as it is (never: Error: Command failed: git rev-parse HEAD") {
		t.Errorf("the note does not name the failed test: exit %d\n%s%s", code, out, errs)
	}
}

// TestAuditMissingExportWhatRan (issue 41, shadcn-ui, gemini-cli):
// mock-drift's missing-export counts the calls a test file runs.
// Measured: the call in deepOrders, which the test reaches through
// summary, is found though the test does not import its module, and so is
// the one in count, which the test calls; the call in rarely, which the
// static walk reaches (summary may call it) but the run never entered, is
// not. Static: only the functions the test calls by name in modules it
// imports itself (count), not what the walk reaches past them.
func TestAuditMissingExportWhatRan(t *testing.T) {
	dir := AuditRepo(t, map[string]string{
		"package.json": `{"name":"mx","private":true,"type":"module"}`,
		"src/api.ts": "export async function fetchUser() {\n  return { id: 1 };\n}\nexport async function fetchOrders() {\n  return [1];\n}\n" +
			"export async function fetchTotals() {\n  return [2];\n}\nexport function fetchCount() {\n  return 3;\n}\n",
		"src/deep.ts": "import { fetchOrders } from \"./api\";\nexport async function deepOrders() {\n  try {\n    return await fetchOrders();\n  } catch {\n    return [];\n  }\n}\n",
		"src/service.ts": "import { fetchCount, fetchTotals, fetchUser } from \"./api\";\nimport { deepOrders } from \"./deep\";\n" +
			"async function rarely() {\n  try {\n    return await fetchTotals();\n  } catch {\n    return [];\n  }\n}\n" +
			"export async function summary(all = false) {\n  await fetchUser();\n  return all ? rarely() : deepOrders();\n}\n" +
			"export function count() {\n  try {\n    return fetchCount();\n  } catch {\n    return 0;\n  }\n}\n",
		"test/service.test.ts": `import { expect, it, vi } from "vitest";
import { count, summary } from "../src/service";

vi.mock("../src/api", () => ({ fetchUser: vi.fn(async () => ({ id: 2 })) }));

it("summary", async () => {
  expect(await summary()).toEqual([]);
  expect(count()).toBe(0);
});
`,
	})
	drifts := func(r auditResult) []string {
		var out []string
		for _, f := range r.Findings {
			if f.Rule == "mock-drift/missing-export" {
				for _, rel := range f.Related {
					out = append(out, fmt.Sprintf("%s:%d", rel.File, rel.Line))
				}
			}
		}
		sort.Strings(out)
		return out
	}
	if got := drifts(auditJSON(t, dir)); strings.Join(got, " ") != "src/deep.ts:4 src/service.ts:16" {
		t.Errorf("measured: missing-export at %v, want the calls in deepOrders and count (src/deep.ts:4 src/service.ts:16)", got)
	}
	code, out, errs := Oracle(t, "audit", "--json", "--static", "--root", dir)
	if code != 0 {
		t.Fatalf("audit --static: exit %d\n%s", code, errs)
	}
	var rs auditResult
	if err := json.Unmarshal([]byte(out), &rs); err != nil {
		t.Fatal(err)
	}
	if got := drifts(rs); strings.Join(got, " ") != "src/service.ts:16" {
		t.Errorf("static: missing-export at %v, want the call in count (src/service.ts:16)", got)
	}
}
