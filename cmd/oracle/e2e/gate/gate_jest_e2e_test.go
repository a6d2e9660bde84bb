package gate

import (
	"encoding/json"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// The gate on repositories tested with jest and ts-jest (testdata/jest linked): the same
// verdicts as on vitest, each mutant run alone in a fresh jest process.

// jestGate is what the jest tests read of gate --json: the verdict, and each mutant with
// its outcome, detail, killing test and why it ran alone.
type jestGate struct {
	Verdict, Reason string
	Targets         []struct {
		ID, Skipped string
		Tests       []string
	}
	Mutants []struct {
		ID, Outcome, Detail, KilledBy, KilledByTest, AloneWhy, Replacement string
		Line                                                               int
	}
}

// jestGateJSON runs gate --json on dir and reads it.
func jestGateJSON(t *testing.T, dir string) (int, jestGate, string) {
	t.Helper()
	code, out, errs := Oracle(t, "gate", "--json", "--root", dir)
	var r jestGate
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("gate --json (exit %d): %v\n%s\n%s", code, err, out, errs)
	}
	return code, r, errs
}

// jestPrice is src/price.ts: the base, and the change (a vip discount).
const (
	jestPriceBase   = "export function price(n: number, vip: boolean): number {\n  if (vip) {\n    return n * 0.9;\n  }\n  return n;\n}\n"
	jestPriceChange = "export function price(n: number, vip: boolean): number {\n  if (vip && n > 50) {\n    return n * 0.8;\n  }\n  return n;\n}\n"
)

// TestGateJestPins: a change its test pins (every changed token told apart) on jest is
// PASS, every mutant killed by the test that executed it, each run alone (the jest runner
// cannot batch).
func TestGateJestPins(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"src/price.ts":       jestPriceBase,
		"test/price.test.ts": "import { price } from \"../src/price\";\n\ndescribe(\"price\", () => {\n  it(\"discounts vips\", () => {\n    expect(price(100, true)).toBe(90);\n  });\n});\n",
	})
	g.Commit("vip discount over 50", map[string]string{
		"src/price.ts": jestPriceChange,
		"test/price.test.ts": "import { price } from \"../src/price\";\n\ndescribe(\"price\", () => {\n  it(\"discounts vips\", () => {\n    expect(price(100, true)).toBe(80);\n  });\n  it(\"charges others in full\", () => {\n    expect(price(100, false)).toBe(100);\n  });\n" +
			"  it(\"charges small vip orders in full\", () => {\n    expect(price(50, true)).toBe(50);\n    expect(price(51, true)).toBeCloseTo(40.8);\n  });\n});\n",
	})
	code, r, errs := jestGateJSON(t, g.Dir)
	if code != ExitOK || r.Verdict != "PASS" || len(r.Mutants) < 4 {
		t.Fatalf("exit %d %s %q, %d mutants\n%s", code, r.Verdict, r.Reason, len(r.Mutants), errs)
	}
	for _, m := range r.Mutants {
		if m.Outcome != "killed" || m.KilledBy != "test/price.test.ts" || !strings.HasPrefix(m.KilledByTest, "test/price.test.ts > price > ") || m.AloneWhy != "the test runner runs no batches" {
			t.Errorf("%s (%s, line %d): %s by %s %q, alone: %q: %s", m.ID, m.Replacement, m.Line, m.Outcome, m.KilledBy, m.KilledByTest, m.AloneWhy, m.Detail)
		}
	}
}

// TestGateJestWeakTest: a change no test tells apart (the test only checks an order the
// change does not touch) is FAIL, with the survivors named by file and line.
func TestGateJestWeakTest(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"src/price.ts":       jestPriceBase,
		"test/price.test.ts": "import { price } from \"../src/price\";\n\nit(\"charges others in full\", () => {\n  expect(price(100, false)).toBe(100);\n});\n",
	})
	g.Commit("vip discount over 50", map[string]string{"src/price.ts": jestPriceChange})
	code, r, errs := jestGateJSON(t, g.Dir)
	if code != ExitFail || r.Verdict != "FAIL" {
		t.Fatalf("exit %d %s %q\n%s", code, r.Verdict, r.Reason, errs)
	}
	survived := 0
	for _, m := range r.Mutants {
		switch m.Outcome {
		case "survived":
			survived++
		case "killed", "timeout":
			if m.Replacement != "true" && !strings.Contains(m.Replacement, "||") {
				t.Errorf("%s (%s) %s by %q: the test never prices a vip", m.ID, m.Replacement, m.Outcome, m.KilledByTest)
			}
		}
	}
	// The survivors by line in the text output are the document's (the text
	// is written from the same result whatever the runner: TestGateEndToEnd
	// reads it on vitest); a second gate here ran jest's baselines again for it.
	onLine2 := false
	for _, m := range r.Mutants {
		onLine2 = onLine2 || m.Outcome == "survived" && m.Line == 2 && strings.HasPrefix(m.ID, "src/price.ts#")
	}
	if survived == 0 || !onLine2 {
		t.Errorf("%d survivors, none on line 2 of src/price.ts (the changed condition): %+v", survived, r.Mutants)
	}
}

// TestGateJestMockedAway: a module its only test replaces whole with jest.mock (no
// factory: automocked) is reached by no test: SKIP, the mock named.
func TestGateJestMockedAway(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"src/tax.ts":         "export function tax(n: number): number {\n  return n * 0.2;\n}\n",
		"src/total.ts":       "import { tax } from \"./tax\";\n\nexport function total(n: number): number {\n  return n + tax(n);\n}\n",
		"test/total.test.ts": "import { total } from \"../src/total\";\nimport { tax } from \"../src/tax\";\n\njest.mock(\"../src/tax\");\n\nit(\"adds the tax\", () => {\n  jest.mocked(tax).mockReturnValue(5);\n  expect(total(100)).toBe(105);\n});\n",
	})
	g.Commit("tax rate", map[string]string{"src/tax.ts": "export function tax(n: number): number {\n  return n * 0.25;\n}\n"})
	code, r, errs := jestGateJSON(t, g.Dir)
	if code != ExitOK || r.Verdict != "SKIP" {
		t.Fatalf("exit %d %s %q\n%s", code, r.Verdict, r.Reason, errs)
	}
	want := `reached only through jest.mock("../src/tax") at test/total.test.ts:4`
	found := false
	for _, tg := range r.Targets {
		found = found || strings.Contains(tg.Skipped, want)
	}
	if !found || len(r.Mutants) != 0 {
		t.Errorf("the mock is not named (want %q): %+v, %d mutants; reason %q", want, r.Targets, len(r.Mutants), r.Reason)
	}
}

// TestGateJestSetupIsNoKill: a mutant that makes a beforeEach hook throw (the hook checks
// the configured rate) is an error, never a kill: the test's body never ran.
func TestGateJestSetupIsNoKill(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"src/rate.ts": "export function rate(): number {\n  return 0;\n}\n",
		"test/rate.test.ts": "import { rate } from \"../src/rate\";\n\ndescribe(\"rate\", () => {\n  beforeEach(() => {\n    if (rate() < 0.05) throw new Error(\"setup: no rate configured\");\n  });\n" +
			"  it(\"is a fraction\", () => {\n    expect(rate()).toBeLessThan(1);\n  });\n});\n",
	})
	// The revert (0) makes the hook throw.
	g.Commit("rate", map[string]string{"src/rate.ts": "export function rate(): number {\n  return 0.1;\n}\n"})
	code, r, errs := jestGateJSON(t, g.Dir)
	setup := 0
	for _, m := range r.Mutants {
		if m.Outcome == "killed" && strings.Contains(m.Detail, "setup: no rate configured") {
			t.Errorf("%s (%s) killed by the beforeEach hook: %s", m.ID, m.Replacement, m.Detail)
		}
		if m.Outcome == "error" && strings.Contains(m.Detail, "setup") {
			setup++
		}
	}
	if setup == 0 {
		t.Errorf("no mutant made the hook throw (exit %d %s %q): %+v\n%s", code, r.Verdict, r.Reason, r.Mutants, errs)
	}
}

// TestGateJestLoopIsTimeout: a mutant that makes a loop endless (n-- → n++) is a timeout,
// counted as detected, never a kill by a test nor an error. Each mutant runs alone on jest,
// its hits counted, so the counter stops the loop (mutate/lab TestCountedOnJestReal proves
// it under a limit no clock reaches); here the run's time limit comes from the baseline's
// time, and a loaded machine's jest start-up and ts-jest compile of the mutated file can
// pass it before the loop starts: then the clock's timeout, still a timeout.
func TestGateJestLoopIsTimeout(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"src/steps.ts":       "export function steps(n: number): number {\n  let s = 0;\n  while (n > 0) {\n    n -= 1;\n    s += 1;\n  }\n  return s;\n}\n",
		"test/steps.test.ts": "import { steps } from \"../src/steps\";\n\nit(\"counts down\", () => {\n  expect(steps(3)).toBe(3);\n});\n",
	})
	g.Commit("decrement", map[string]string{"src/steps.ts": "export function steps(n: number): number {\n  let s = 0;\n  while (n > 0) {\n    n--;\n    s += 1;\n  }\n  return s;\n}\n"})
	_, r, errs := jestGateJSON(t, g.Dir)
	loops := 0
	for _, m := range r.Mutants {
		if m.Replacement != "n++" {
			continue
		}
		loops++
		counted := strings.Contains(m.Detail, "oracle: hit limit reached: more than 10000000 loop iterations and calls in one test run alone")
		if m.Outcome != "timeout" || !counted && !strings.Contains(m.Detail, "timed out after") || m.KilledByTest != "" {
			t.Errorf("n++: %s by %q: %s", m.Outcome, m.KilledByTest, m.Detail)
		}
	}
	if loops != 1 {
		t.Errorf("no n++ mutant (%s %q): %+v\n%s", r.Verdict, r.Reason, r.Mutants, errs)
	}
}

// TestGateJestRedSuite: a related test that fails on the code as it is (the change broke
// it) makes the gate FAIL, attribution tests, naming the file and the failure; no mutant
// is judged.
func TestGateJestRedSuite(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"src/price.ts":       jestPriceBase,
		"test/price.test.ts": "import { price } from \"../src/price\";\n\nit(\"discounts vips\", () => {\n  expect(price(100, true)).toBe(90);\n});\n",
	})
	g.Commit("vip discount over 50", map[string]string{"src/price.ts": jestPriceChange})
	code, out, errs := Oracle(t, "gate", "--json", "--root", g.Dir)
	var r struct {
		Verdict, Reason, Attribution string
		Mutants                      []json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errs)
	}
	if code != ExitFail || r.Verdict != "FAIL" || r.Attribution != "tests" || !strings.Contains(r.Reason, "test/price.test.ts") || !strings.Contains(r.Reason, "Expected: 90, Received: 80") || len(r.Mutants) != 0 {
		t.Errorf("exit %d %s (%s): %q, %d mutants", code, r.Verdict, r.Attribution, r.Reason, len(r.Mutants))
	}
}
