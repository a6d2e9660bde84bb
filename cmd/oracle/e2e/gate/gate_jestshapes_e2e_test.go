package gate

import (
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// The shapes of real jest repositories the first samples lacked (issue 45): the @swc/jest
// transform, test environments (jsdom for the project, a docblock's for a file), automock
// and __mocks__ files, a jest.config.ts with projects. The same verdicts as on vitest:
// PASS only with every mutant killed by a test that executed it, SKIP only where no test
// executes the code.

// jestKilledIn fails t unless r is PASS with at least min mutants, some in each file of
// prefix, every one killed by a test whose KilledByTest begins with its file's prefix.
func jestKilledIn(t *testing.T, what string, code int, r jestGate, errs string, min int, prefix map[string]string) {
	t.Helper()
	if code != ExitOK || r.Verdict != "PASS" || len(r.Mutants) < min {
		t.Fatalf("%s: exit %d %s %q, %d mutants: %+v\n%s", what, code, r.Verdict, r.Reason, len(r.Mutants), r.Mutants, errs)
	}
	seen := map[string]bool{}
	for _, m := range r.Mutants {
		file, _, _ := strings.Cut(m.ID, "#")
		seen[file] = true
		if m.Outcome != "killed" || !strings.HasPrefix(m.KilledByTest, prefix[file]) {
			t.Errorf("%s: %s (%s): %s by %q, want a test of %q: %s", what, m.ID, m.Replacement, m.Outcome, m.KilledByTest, prefix[file], m.Detail)
		}
	}
	for file := range prefix {
		if !seen[file] {
			t.Errorf("%s: no mutant of %s (targets %+v)", what, file, r.Targets)
		}
	}
}

// jestSkipped fails t unless target id is skipped with a reason holding want.
func jestSkipped(t *testing.T, what string, r jestGate, id, want string) {
	t.Helper()
	for _, tg := range r.Targets {
		if tg.ID == id {
			if !strings.Contains(tg.Skipped, want) {
				t.Errorf("%s: %s: skipped %q, want %q (tests %v)", what, id, tg.Skipped, want, tg.Tests)
			}
			return
		}
	}
	t.Errorf("%s: no target %s: %+v", what, id, r.Targets)
}

// jestPricePins is a test file that tells every mutant of jestPriceChange apart.
const jestPricePins = "describe(\"price\", () => {\n  it(\"discounts vips\", () => {\n    expect(price(100, true)).toBe(80);\n  });\n  it(\"charges others in full\", () => {\n    expect(price(100, false)).toBe(100);\n  });\n" +
	"  it(\"charges small vip orders in full\", () => {\n    expect(price(50, true)).toBe(50);\n    expect(price(51, true)).toBeCloseTo(40.8);\n  });\n});\n"

// TestGateJestSwc: a repository whose transform is @swc/jest (no ts-jest, no babel): the
// markers and the hit counter the runner writes into a mutated file survive swc's
// transform (every mutant killed by the test that executed it: PASS), and swc hoists
// jest.mock above the imports as babel-jest does, so a module the test mocks whole is
// reached by no test: SKIP, the mock named.
func TestGateJestSwc(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"package.json":       `{"name":"swcrepo","private":true,"devDependencies":{"jest":"29.7.0","@swc/core":"1.16.22","@swc/jest":"0.2.39"},"jest":{"testEnvironment":"node","transform":{"^.+\\.(t|j)sx?$":"@swc/jest"}}}`,
		"src/price.ts":       jestPriceBase,
		"test/price.test.ts": "import { price } from \"../src/price\";\n\nit(\"discounts vips\", () => {\n  expect(price(100, true)).toBe(90);\n});\n",
		"src/tax.ts":         "export function tax(n: number): number {\n  return n * 0.2;\n}\n",
		"src/total.ts":       "import { tax } from \"./tax\";\n\nexport function total(n: number): number {\n  return n + tax(n);\n}\n",
		"test/total.test.ts": "import { total } from \"../src/total\";\nimport { tax } from \"../src/tax\";\n\njest.mock(\"../src/tax\");\n\nit(\"adds the tax\", () => {\n  jest.mocked(tax).mockReturnValue(5);\n  expect(total(100)).toBe(105);\n});\n",
	})
	g.Commit("vip discount over 50", map[string]string{"src/price.ts": jestPriceChange, "test/price.test.ts": "import { price } from \"../src/price\";\n\n" + jestPricePins})
	code, r, errs := jestGateJSON(t, g.Dir)
	jestKilledIn(t, "swc", code, r, errs, 4, map[string]string{"src/price.ts": "test/price.test.ts > price > "})
	g.Commit("tax rate", map[string]string{"src/tax.ts": "export function tax(n: number): number {\n  return n * 0.25;\n}\n"})
	code, r, errs = jestGateJSON(t, g.Dir)
	if code != ExitOK || r.Verdict != "SKIP" || len(r.Mutants) != 0 {
		t.Fatalf("swc, mocked: exit %d %s %q, %d mutants\n%s", code, r.Verdict, r.Reason, len(r.Mutants), errs)
	}
	jestSkipped(t, "swc, mocked", r, "src/tax.ts#tax", `reached only through jest.mock("../src/tax") at test/total.test.ts:4`)
}

// jestLabel is src/label.ts: the base, and the change (a plural).
const (
	jestLabelBase   = "export function label(n: number): string {\n  return \"item\";\n}\n"
	jestLabelChange = "export function label(n: number): string {\n  return n > 1 ? \"items\" : \"item\";\n}\n"
)

// TestGateJestEnvironments: a project whose testEnvironment is jsdom (the runner's
// environment extends jest-environment-jsdom: its markers and hit counter run in the
// jsdom global), with one test file that names node in a docblock (`@jest-environment
// node`: jest runs it in that environment, not the runner's). A mutant executed by a test
// in either is credited to that test: PASS, each killed by a test of the file that
// executes its code.
func TestGateJestEnvironments(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"package.json":       `{"name":"domrepo","private":true,"devDependencies":{"jest":"29.7.0","ts-jest":"29.4.6","jest-environment-jsdom":"29.7.0"},"jest":{"preset":"ts-jest","testEnvironment":"jsdom"}}`,
		"tsconfig.json":      `{"compilerOptions":{"strict":true,"target":"es2020","module":"commonjs","esModuleInterop":true,"types":["jest"],"lib":["es2020","dom"]}}`,
		"src/price.ts":       jestPriceBase,
		"src/label.ts":       jestLabelBase,
		"test/price.test.ts": "import { price } from \"../src/price\";\n\nit(\"discounts vips\", () => {\n  expect(price(100, true)).toBe(90);\n});\n",
		"test/label.test.ts": "/**\n * @jest-environment node\n */\nimport { label } from \"../src/label\";\n\nit(\"names one\", () => {\n  expect(label(1)).toBe(\"item\");\n});\n",
	})
	g.Commit("vip discount over 50, plurals", map[string]string{
		"src/price.ts":       jestPriceChange,
		"src/label.ts":       jestLabelChange,
		"test/price.test.ts": "import { price } from \"../src/price\";\n\nit(\"runs in jsdom\", () => {\n  document.body.textContent = \"cart\";\n  expect(document.body.textContent).toBe(\"cart\");\n});\n\n" + jestPricePins,
		"test/label.test.ts": "/**\n * @jest-environment node\n */\nimport { label } from \"../src/label\";\n\ndescribe(\"label\", () => {\n  it(\"runs in node\", () => {\n    expect(typeof document).toBe(\"undefined\");\n  });\n" +
			"  it(\"names one\", () => {\n    expect(label(1)).toBe(\"item\");\n  });\n  it(\"names many\", () => {\n    expect(label(2)).toBe(\"items\");\n  });\n});\n",
	})
	code, r, errs := jestGateJSON(t, g.Dir)
	jestKilledIn(t, "environments", code, r, errs, 8, map[string]string{
		"src/price.ts": "test/price.test.ts > price > ",
		"src/label.ts": "test/label.test.ts > label > names ",
	})
}

// TestGateJestAutomock: jest's automock (every module a mock unless the test unmocks it):
// a module the test does not unmock runs no code of its own, so no test executes it (SKIP,
// saying automock is on); the module the test unmocks runs, and its mutants are killed by
// the test (PASS).
func TestGateJestAutomock(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"package.json":       `{"name":"autorepo","private":true,"devDependencies":{"jest":"29.7.0","ts-jest":"29.4.6"},"jest":{"preset":"ts-jest","testEnvironment":"node","automock":true}}`,
		"src/tax.ts":         "export function tax(n: number): number {\n  return n * 0.2;\n}\n",
		"src/total.ts":       "import { tax } from \"./tax\";\n\nexport function total(n: number): number {\n  return n + tax(n);\n}\n",
		"test/total.test.ts": "jest.unmock(\"../src/total\");\n\nimport { total } from \"../src/total\";\nimport { tax } from \"../src/tax\";\n\nit(\"adds the tax\", () => {\n  jest.mocked(tax).mockReturnValue(5);\n  expect(total(100)).toBe(105);\n});\n",
	})
	g.Commit("tax rate", map[string]string{"src/tax.ts": "export function tax(n: number): number {\n  return n * 0.25;\n}\n"})
	code, r, errs := jestGateJSON(t, g.Dir)
	if code != ExitOK || r.Verdict != "SKIP" || len(r.Mutants) != 0 {
		t.Fatalf("automocked: exit %d %s %q, %d mutants\n%s", code, r.Verdict, r.Reason, len(r.Mutants), errs)
	}
	jestSkipped(t, "automocked", r, "src/tax.ts#tax", "jest's automock is on")
	g.Commit("double tax", map[string]string{
		"src/total.ts":       "import { tax } from \"./tax\";\n\nexport function total(n: number): number {\n  return n + tax(n) * 2;\n}\n",
		"test/total.test.ts": "jest.unmock(\"../src/total\");\n\nimport { total } from \"../src/total\";\nimport { tax } from \"../src/tax\";\n\nit(\"adds the tax twice\", () => {\n  jest.mocked(tax).mockReturnValue(5);\n  expect(total(100)).toBe(110);\n});\n",
	})
	code, r, errs = jestGateJSON(t, g.Dir)
	jestKilledIn(t, "unmocked", code, r, errs, 2, map[string]string{"src/total.ts": "test/total.test.ts > adds the tax twice"})
}

// TestGateJestManualMocks: a jest.mock with no factory of a module with a file of its name
// in a __mocks__ directory beside it loads that file in its place (jest's manual mock);
// one that takes the real module's functions (jest.requireActual) runs them, so its test
// executes them and kills their mutants, where a function the manual mock replaces is
// executed by no test (SKIP). The same for a factory that spreads jest.requireActual: the
// spread names run, the ones it sets do not.
func TestGateJestManualMocks(t *testing.T) {
	t.Parallel()
	rates := func(vat, duty string) string {
		return "export function vat(n: number): number {\n  return n * " + vat + ";\n}\n\nexport function duty(n: number): number {\n  return n * " + duty + ";\n}\n"
	}
	fees := func(card, wire string) string {
		return "export function card(n: number): number {\n  return n / " + card + ";\n}\n\nexport function wire(n: number): number {\n  return n + " + wire + ";\n}\n"
	}
	g := NewJestRepo(t, map[string]string{
		"src/rates.ts":           rates("0.2", "0.1"),
		"src/__mocks__/rates.ts": "const actual = jest.requireActual<typeof import(\"../rates\")>(\"../rates\");\n\nexport const vat = actual.vat;\nexport const duty = (n: number): number => 0 * n;\n",
		"test/rates.test.ts":     "import { vat, duty } from \"../src/rates\";\n\njest.mock(\"../src/rates\");\n\nit(\"taxes, duty free\", () => {\n  expect(vat(100)).toBe(20);\n  expect(duty(100)).toBe(0);\n});\n",
		"src/fees.ts":            fees("100", "1"),
		"test/fees.test.ts":      "import { card, wire } from \"../src/fees\";\n\njest.mock(\"../src/fees\", () => ({ ...jest.requireActual(\"../src/fees\"), wire: jest.fn(() => 0) }));\n\nit(\"charges cards, wires free\", () => {\n  expect(card(100)).toBe(1);\n  expect(wire(100)).toBe(0);\n});\n",
	})
	g.Commit("new rates", map[string]string{
		"src/rates.ts":       rates("0.25", "0.15"),
		"src/fees.ts":        fees("50", "2"),
		"test/rates.test.ts": "import { vat, duty } from \"../src/rates\";\n\njest.mock(\"../src/rates\");\n\nit(\"taxes, duty free\", () => {\n  expect(vat(100)).toBe(25);\n  expect(duty(100)).toBe(0);\n});\n",
		"test/fees.test.ts":  "import { card, wire } from \"../src/fees\";\n\njest.mock(\"../src/fees\", () => ({ ...jest.requireActual(\"../src/fees\"), wire: jest.fn(() => 0) }));\n\nit(\"charges cards, wires free\", () => {\n  expect(card(100)).toBe(2);\n  expect(wire(100)).toBe(0);\n});\n",
	})
	code, r, errs := jestGateJSON(t, g.Dir)
	jestKilledIn(t, "manual mocks", code, r, errs, 4, map[string]string{
		"src/rates.ts": "test/rates.test.ts > taxes, duty free",
		"src/fees.ts":  "test/fees.test.ts > charges cards, wires free",
	})
	for _, m := range r.Mutants {
		if strings.Contains(m.ID, "#duty") || strings.Contains(m.ID, "#wire") {
			t.Errorf("%s: a mutant of a function the mock replaces: %s", m.ID, m.Outcome)
		}
	}
	jestSkipped(t, "manual mocks", r, "src/rates.ts#duty", "no test executes it")
	jestSkipped(t, "manual mocks", r, "src/fees.ts#wire", "no test executes it")
}

// TestGateJestProjects: a jest.config.ts (jest reads it through ts-node) with two projects
// of different roots, transforms (ts-jest, @swc/jest), environments (node, jsdom), the same
// moduleNameMapper alias mapped to each project's own directory, and a setup file of one
// project that mocks a shared module the other project's test runs for real. Each
// project's module is credited to its own project's test, the shared one to the test that
// runs it: PASS, every mutant killed by a test of the right project.
func TestGateJestProjects(t *testing.T) {
	t.Parallel()
	round := func(fn string) string {
		return "export function round(n: number): number {\n  return Math." + fn + "(n);\n}\n"
	}
	const clockBase = "export function hour(ms: number): number {\n  return Math.floor(ms / 3600000);\n}\n"
	g := NewJestRepo(t, map[string]string{
		"package.json": `{"name":"projrepo","private":true,"devDependencies":{"jest":"29.7.0","ts-jest":"29.4.6","ts-node":"10.9.2","@swc/core":"1.16.22","@swc/jest":"0.2.39","jest-environment-jsdom":"29.7.0"}}`,
		"jest.config.ts": "import type { Config } from \"jest\";\n\nconst config: Config = {\n  projects: [\n    {\n      displayName: \"server\",\n      transform: { \"^.+\\\\.ts$\": [\"ts-jest\", { diagnostics: false }] },\n" +
			"      testEnvironment: \"node\",\n      roots: [\"<rootDir>/packages/server\"],\n      setupFiles: [\"<rootDir>/packages/server/setup.ts\"],\n      moduleNameMapper: { \"^@lib/(.*)$\": \"<rootDir>/packages/server/src/$1\" },\n    },\n" +
			"    {\n      displayName: \"web\",\n      transform: { \"^.+\\\\.(t|j)sx?$\": \"@swc/jest\" },\n      testEnvironment: \"jsdom\",\n      roots: [\"<rootDir>/packages/web\"],\n      moduleNameMapper: { \"^@lib/(.*)$\": \"<rootDir>/packages/web/src/$1\" },\n    },\n  ],\n};\n\nexport default config;\n",
		"packages/server/setup.ts":           "jest.mock(\"../shared/src/clock\");\n",
		"packages/server/src/round.ts":       round("round"),
		"packages/server/test/round.test.ts": "import { round } from \"@lib/round\";\nimport { hour } from \"../../shared/src/clock\";\n\nit(\"rounds on the server\", () => {\n  jest.mocked(hour).mockReturnValue(3);\n  expect(hour(0)).toBe(3);\n  expect(round(2.4)).toBe(2);\n});\n",
		"packages/web/src/round.ts":          round("round"),
		"packages/web/test/round.test.ts":    "import { round } from \"@lib/round\";\nimport { hour } from \"../../shared/src/clock\";\n\nit(\"rounds in the page\", () => {\n  expect(typeof window).toBe(\"object\");\n  expect(round(2.6)).toBe(3);\n  expect(hour(7200000)).toBe(2);\n});\n",
		"packages/shared/src/clock.ts":       clockBase,
	})
	g.Commit("floor on the server, ceil in the page, hours of the day", map[string]string{
		"packages/server/src/round.ts":       round("floor"),
		"packages/web/src/round.ts":          round("ceil"),
		"packages/shared/src/clock.ts":       "export function hour(ms: number): number {\n  return Math.floor(ms / 3600000) % 24;\n}\n",
		"packages/server/test/round.test.ts": "import { round } from \"@lib/round\";\nimport { hour } from \"../../shared/src/clock\";\n\nit(\"floors on the server\", () => {\n  jest.mocked(hour).mockReturnValue(3);\n  expect(hour(0)).toBe(3);\n  expect(round(2.6)).toBe(2);\n});\n",
		"packages/web/test/round.test.ts":    "import { round } from \"@lib/round\";\nimport { hour } from \"../../shared/src/clock\";\n\nit(\"ceils in the page\", () => {\n  expect(typeof window).toBe(\"object\");\n  expect(round(2.4)).toBe(3);\n  expect(hour(25.5 * 3600000)).toBe(1);\n});\n",
	})
	code, r, errs := jestGateJSON(t, g.Dir)
	jestKilledIn(t, "projects", code, r, errs, 5, map[string]string{
		"packages/server/src/round.ts": "packages/server/test/round.test.ts > floors on the server",
		"packages/web/src/round.ts":    "packages/web/test/round.test.ts > ceils in the page",
		"packages/shared/src/clock.ts": "packages/web/test/round.test.ts > ceils in the page",
	})
}
