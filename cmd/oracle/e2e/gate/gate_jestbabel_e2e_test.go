package gate

import (
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// The jest twins on babel-jest (issue 45: a jest + babel sample): jest's default
// transform, the repository's babel.config.js (TypeScript stripped, modules to CommonJS),
// no ts-jest and no type check. The same verdicts as on ts-jest and on vitest.

// jestBabel are the files of a babel-jest repository: its package.json (jest's config,
// no preset: babel-jest transforms) and babel.config.js.
var jestBabel = map[string]string{
	"package.json":    `{"name":"babelrepo","private":true,"devDependencies":{"jest":"29.7.0","@babel/core":"7.29.13","@babel/preset-typescript":"7.28.5","@babel/plugin-transform-modules-commonjs":"7.29.14"},"jest":{"testEnvironment":"node"}}`,
	"babel.config.js": "module.exports = {\n  presets: [\"@babel/preset-typescript\"],\n  plugins: [\"@babel/plugin-transform-modules-commonjs\"],\n};\n",
}

// TestGateJestBabelPins: TestGateJestPins on babel-jest: PASS, every mutant killed alone
// by the test that executed it; and the weak test's twin, FAIL with its survivors.
func TestGateJestBabelPins(t *testing.T) {
	t.Parallel()
	pins := "import { price } from \"../src/price\";\n\ndescribe(\"price\", () => {\n  it(\"discounts vips\", () => {\n    expect(price(100, true)).toBe(80);\n  });\n  it(\"charges others in full\", () => {\n    expect(price(100, false)).toBe(100);\n  });\n" +
		"  it(\"charges small vip orders in full\", () => {\n    expect(price(50, true)).toBe(50);\n    expect(price(51, true)).toBeCloseTo(40.8);\n  });\n});\n"
	g := NewJestRepo(t, MergeFiles(jestBabel, map[string]string{
		"src/price.ts":       jestPriceBase,
		"test/price.test.ts": "import { price } from \"../src/price\";\n\nit(\"discounts vips\", () => {\n  expect(price(100, true)).toBe(90);\n});\n",
	}))
	g.Commit("vip discount over 50", map[string]string{"src/price.ts": jestPriceChange, "test/price.test.ts": pins})
	code, r, errs := jestGateJSON(t, g.Dir)
	if code != ExitOK || r.Verdict != "PASS" || len(r.Mutants) < 4 {
		t.Fatalf("exit %d %s %q, %d mutants\n%s", code, r.Verdict, r.Reason, len(r.Mutants), errs)
	}
	for _, m := range r.Mutants {
		if m.Outcome != "killed" || !strings.HasPrefix(m.KilledByTest, "test/price.test.ts > price > ") || m.AloneWhy != "the test runner runs no batches" {
			t.Errorf("%s (%s): %s by %q, alone: %q: %s", m.ID, m.Replacement, m.Outcome, m.KilledByTest, m.AloneWhy, m.Detail)
		}
	}
	g.Commit("a weak test", map[string]string{"test/price.test.ts": "import { price } from \"../src/price\";\n\nit(\"charges others in full\", () => {\n  expect(price(100, false)).toBe(100);\n});\n"})
	g.Commit("vip discount over 60", map[string]string{"src/price.ts": strings.Replace(jestPriceChange, "n > 50", "n > 60", 1)})
	code, r, errs = jestGateJSON(t, g.Dir)
	survived := 0
	for _, m := range r.Mutants {
		if m.Outcome == "survived" {
			survived++
		}
	}
	if code != ExitFail || r.Verdict != "FAIL" || survived == 0 {
		t.Errorf("weak test: exit %d %s %q, %d survived: %+v\n%s", code, r.Verdict, r.Reason, survived, r.Mutants, errs)
	}
}
