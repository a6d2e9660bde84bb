package gate

// The change's own code (issue 27 item 1, issue 26 items 4 and 5), end to
// end on repositories with a git history written here: mutants count on
// the code the change wrote, not on the blocks around it; top-level code
// is the target <file>#<module>, its mutants run at the module's load; a
// change of no code is SKIP. Every verdict below was checked by applying
// the mutant by hand and running vitest.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
	"github.com/oracle-ts/oracle/gate"
)

const clampTS = "export function clamp(value: number, lo: number, hi: number): number {\n  if (value < lo) {\n    return lo;\n  }\n  if (value > hi) {\n    return hi;\n  }\n  return value;\n}\n"

// A test that pins the floor only: every mutant of the upper bound survives.
const clampTestTS = "import { expect, it } from \"vitest\";\nimport { clamp } from \"../src/clamp\";\nit(\"clamps\", () => {\n  expect(clamp(-5, 0, 10)).toBe(0);\n});\n"

func TestGateTokenScope(t *testing.T) {
	nm := V4(t).NodeModules
	scale := "export function scale(items: number[]): number[] {\n  const out: number[] = [];\n  for (const it of items) {\n    if (it > 0) {\n      out.push(it * 1);\n    }\n  }\n  return out;\n}\n"
	parse := "export function parse(lines: string[]): number {\n  let total = 0;\n  try {\n    for (const l of lines) {\n      switch (l[0]) {\n        case \"#\": {\n          total += Number(l.slice(1));\n          break;\n        }\n        default:\n          total += 0;\n      }\n    }\n  } catch {\n    return -1;\n  }\n  return total;\n}\n"
	cases := []scopeCase{
		{name: "a literal two blocks deep, tested by .length only: its own mutant survives (was PASS 80 percent)",
			base: map[string]string{"src/scale.ts": scale,
				"test/scale.test.ts": "import { expect, it } from \"vitest\";\nimport { scale } from \"../src/scale\";\nit(\"keeps the positive items\", () => {\n  expect(scale([1, -2, 3]).length).toBe(2);\n});\n"},
			head: map[string]string{"src/scale.ts": strings.Replace(scale, "it * 1", "it * 2", 1)},
			code: 1, verdict: "FAIL", targets: []string{"src/scale.ts#scale"},
			mutants: []string{"src/scale.ts#scale ArithmeticOperator / survived", "src/scale.ts#scale InlineConstant 3 survived", "src/scale.ts#scale Revert 1 survived"}, byHand: true},
		{name: "a try/switch/for nest: the case block, loop and try bodies do not count (was PASS 83 percent)",
			base: map[string]string{"src/parse.ts": parse,
				"test/parse.test.ts": "import { expect, it } from \"vitest\";\nimport { parse } from \"../src/parse\";\nit(\"adds\", () => {\n  expect(parse([\"#1\", \"x\"])).toBeGreaterThan(0);\n  expect(parse([\"x\"])).toBe(0);\n});\n"},
			head: map[string]string{"src/parse.ts": strings.Replace(parse, "Number(l.slice(1));", "Number(l.slice(1)) * 10;", 1)},
			code: 1, verdict: "FAIL", targets: []string{"src/parse.ts#parse"},
			mutants: []string{"src/parse.ts#parse ArithmeticOperator / survived", "src/parse.ts#parse InlineConstant 11 survived"}},
		{name: "a new guard: its block, condition and return count",
			base: map[string]string{"src/clamp.ts": strings.Replace(clampTS, "  if (value < lo) {\n    return lo;\n  }\n", "", 1), "test/clamp.test.ts": clampTestTS},
			head: map[string]string{"src/clamp.ts": clampTS},
			code: 1, verdict: "FAIL", targets: []string{"src/clamp.ts#clamp"},
			mutants: []string{"src/clamp.ts#clamp ConditionalExpression (true) survived", "src/clamp.ts#clamp ConditionalExpression (false) killed",
				"src/clamp.ts#clamp EqualityOperator <= survived", "src/clamp.ts#clamp EqualityOperator >= killed", "src/clamp.ts#clamp BlockStatement {} killed", "src/clamp.ts#clamp ReturnValue undefined killed"}},
		{name: "a type-only edit inside a function (was PASS 100 percent from the blocks around it)",
			base: map[string]string{"src/clamp.ts": strings.Replace(clampTS, "  return value;", "  const v: number = value;\n  return v;", 1), "test/clamp.test.ts": clampTestTS},
			head: map[string]string{"src/clamp.ts": strings.Replace(clampTS, "  return value;", "  const v: number | undefined = value as number;\n  return v!;", 1)},
			code: 0, verdict: "SKIP", reason: "the change touches no code"},
		{name: "a trailing comment (was FAIL 33 percent)",
			base: map[string]string{"src/clamp.ts": clampTS, "test/clamp.test.ts": clampTestTS},
			head: map[string]string{"src/clamp.ts": strings.Replace(clampTS, "return hi;", "return hi; // the ceiling", 1)},
			code: 0, verdict: "SKIP", reason: "the change touches no code"},
		{name: "a widened parameter type (was PASS)",
			base: map[string]string{"src/clamp.ts": clampTS, "test/clamp.test.ts": clampTestTS},
			head: map[string]string{"src/clamp.ts": strings.Replace(clampTS, "hi: number)", "hi: number | bigint)", 1)},
			code: 0, verdict: "SKIP", reason: "the change touches no code"},
		{name: "a pure rename (was FAIL 36 percent)",
			base: map[string]string{"src/clamp.ts": clampTS, "test/clamp.test.ts": clampTestTS},
			head: map[string]string{"test/clamp.test.ts": strings.Replace(clampTestTS, "../src/clamp", "../src/limit", 1)},
			mv:   [2]string{"src/clamp.ts", "src/limit.ts"},
			code: 0, verdict: "SKIP", reason: "the change touches no code"},
		{name: "an added interface and re-formatting",
			base: map[string]string{"src/clamp.ts": clampTS, "test/clamp.test.ts": clampTestTS},
			head: map[string]string{"src/clamp.ts": "export interface Range { lo: number; hi: number }\n" + strings.ReplaceAll(strings.ReplaceAll(clampTS, ";\n", "\n"), "    ", "\t\t")},
			code: 0, verdict: "SKIP", reason: "the change touches no code"},
		{name: "a literal on a line a function shares: not the function's (was PASS 100 percent on its old code)",
			base: map[string]string{"src/one.ts": "export const a = 1; export function f(x: number) { return x + a; }\n",
				"test/one.test.ts": "import { expect, it } from \"vitest\";\nimport { f } from \"../src/one\";\nit(\"f\", () => {\n  expect(f(1)).toBe(4);\n});\n"},
			head: map[string]string{"src/one.ts": "export const a = 3; export function f(x: number) { return x + a; }\n"},
			code: 0, verdict: "PASS", targets: []string{"src/one.ts#<module>"},
			mutants: []string{"src/one.ts#<module> InlineConstant 4 killed", "src/one.ts#<module> Revert 1 killed"}},
		{name: "a top-level object: <module>, its mutants run at load (was SKIP)",
			base: map[string]string{"src/limits.ts": "export function within(n: number): boolean {\n  return n <= 100;\n}\n",
				"test/limits.test.ts": "import { expect, it } from \"vitest\";\nimport * as m from \"../src/limits\";\nit(\"has limits\", () => {\n  expect(m.within(5)).toBe(true);\n  expect((m as any).LIMITS?.max ?? 30).toBe(30);\n});\n"},
			head: map[string]string{"src/limits.ts": "export const LIMITS = { max: 10 * 3 };\nexport function within(n: number): boolean {\n  return n <= 100;\n}\n"},
			code: 0, verdict: "PASS", targets: []string{"src/limits.ts#<module>"}, // 3 of 4: the numbers are pinned, the object's absence is not
			mutants: []string{"src/limits.ts#<module> ObjectLiteral {} survived", "src/limits.ts#<module> InlineConstant 11 killed", "src/limits.ts#<module> ArithmeticOperator / killed", "src/limits.ts#<module> InlineConstant 4 killed"}, byHand: true},
		{name: "a top-level ternary: <module>, the added operands' mutants only (was SKIP)",
			base: map[string]string{"src/path.ts": "const cond = process.platform === \"win32\";\nexport const delimiter = \":\";\n",
				"test/path.test.ts": "import { expect, it } from \"vitest\";\nimport { delimiter } from \"../src/path\";\nit(\"has a delimiter\", () => {\n  expect(delimiter).toBe(\":\");\n});\n"},
			head: map[string]string{"src/path.ts": "const cond = process.platform === \"win32\";\nexport const delimiter = cond ? \";\" : \":\";\n"},
			code: 1, verdict: "FAIL", targets: []string{"src/path.ts#<module>"},
			mutants: []string{"src/path.ts#<module> ConditionalExpression true killed", "src/path.ts#<module> ConditionalExpression false survived", "src/path.ts#<module> StringLiteral \"\" survived"}, byHand: true},
		{name: "a kept block whose body became a nested if: its braces are not the change's (bench/trial26-27.md finding 7, ufo eb29945); the `return input` it replaced is restored (every replaced token's revert), killed by the /admin-dashboard case",
			base: map[string]string{"src/base.ts": "const isEmptyURL = (u: string) => !u || u === \"/\";\nconst hasProtocol = (u: string) => /^[a-z]+:/.test(u);\nconst withoutTrailingSlash = (u: string) => (u.endsWith(\"/\") ? u.slice(0, -1) : u);\nconst joinURL = (a: string, b: string) => a + (b.startsWith(\"/\") ? b : \"/\" + b);\n\nexport function withBase(input: string, base: string) {\n  if (isEmptyURL(base) || hasProtocol(input)) {\n    return input;\n  }\n  const _base = withoutTrailingSlash(base);\n  if (input.startsWith(_base)) {\n    return input;\n  }\n  return joinURL(_base, input);\n}\n\nexport function withoutBase(input: string, base: string) {\n  if (isEmptyURL(base)) {\n    return input;\n  }\n  const _base = withoutTrailingSlash(base);\n  if (!input.startsWith(_base)) {\n    return input;\n  }\n  const trimmed = input.slice(_base.length);\n  return trimmed[0] === \"/\" ? trimmed : \"/\" + trimmed;\n}\n",
				"test/base.test.ts": "import { expect, it } from \"vitest\";\nimport { withBase, withoutBase } from \"../src/base\";\nit(\"adds and removes the base\", () => {\n  expect(withBase(\"/admin/x\", \"/admin\")).toBe(\"/admin/x\");\n  expect(withBase(\"/x\", \"/admin\")).toBe(\"/admin/x\");\n  expect(withBase(\"/admin-dashboard\", \"/admin\")).toBe(\"/admin/admin-dashboard\");\n  expect(withoutBase(\"/admin/x\", \"/admin\")).toBe(\"/x\");\n  expect(withoutBase(\"/admin-x\", \"/admin\")).toBe(\"/admin-x\");\n});\n"},
			head: map[string]string{"src/base.ts": "const isEmptyURL = (u: string) => !u || u === \"/\";\nconst hasProtocol = (u: string) => /^[a-z]+:/.test(u);\nconst withoutTrailingSlash = (u: string) => (u.endsWith(\"/\") ? u.slice(0, -1) : u);\nconst joinURL = (a: string, b: string) => a + (b.startsWith(\"/\") ? b : \"/\" + b);\n\nexport function withBase(input: string, base: string) {\n  if (isEmptyURL(base) || hasProtocol(input)) {\n    return input;\n  }\n  const _base = withoutTrailingSlash(base);\n  if (input.startsWith(_base)) {\n    const nextChar = input[_base.length];\n    // Ensure '/admin-dashboard' is not considered as having base '/admin/'\n    if (!nextChar || nextChar === \"/\" || nextChar === \"?\") {\n      return input;\n    }\n  }\n  return joinURL(_base, input);\n}\n\nexport function withoutBase(input: string, base: string) {\n  if (isEmptyURL(base)) {\n    return input;\n  }\n  const _base = withoutTrailingSlash(base);\n  if (!input.startsWith(_base)) {\n    return input;\n  }\n  // Ensure '/admin-dashboard' is not considered as having base '/admin/'\n  const nextChar = input[_base.length];\n  if (nextChar && nextChar !== \"/\" && nextChar !== \"?\") {\n    return input;\n  }\n  const trimmed = input.slice(_base.length);\n  return trimmed[0] === \"/\" ? trimmed : \"/\" + trimmed;\n}\n"},
			code: 0, verdict: "PASS", targets: []string{"src/base.ts#withBase", "src/base.ts#withoutBase"},
			mutants: []string{"src/base.ts#withBase Revert return input killed", "src/base.ts#withBase ConditionalExpression (true) killed", "src/base.ts#withBase ConditionalExpression (false) killed", "src/base.ts#withBase ConditionalExpression false survived", "src/base.ts#withBase BooleanLiteral nextChar killed", "src/base.ts#withBase LogicalOperator && killed", "src/base.ts#withBase ConditionalExpression false killed", "src/base.ts#withBase EqualityOperator !== killed", "src/base.ts#withBase StringLiteral \"\" killed", "src/base.ts#withBase LogicalOperator && killed", "src/base.ts#withBase ConditionalExpression false survived", "src/base.ts#withBase EqualityOperator !== killed", "src/base.ts#withBase StringLiteral \"\" survived", "src/base.ts#withBase BlockStatement {} killed", "src/base.ts#withoutBase ConditionalExpression (true) killed", "src/base.ts#withoutBase ConditionalExpression (false) killed", "src/base.ts#withoutBase ConditionalExpression true survived", "src/base.ts#withoutBase LogicalOperator || killed", "src/base.ts#withoutBase ConditionalExpression true killed", "src/base.ts#withoutBase EqualityOperator === killed", "src/base.ts#withoutBase StringLiteral \"\" killed", "src/base.ts#withoutBase LogicalOperator || killed", "src/base.ts#withoutBase ConditionalExpression true survived", "src/base.ts#withoutBase EqualityOperator === killed", "src/base.ts#withoutBase StringLiteral \"\" survived", "src/base.ts#withoutBase BlockStatement {} killed", "src/base.ts#withoutBase ReturnValue undefined killed"}, byHand: true},
	}
	// The cases whose change the tests earn a verdict (PASS or FAIL, no
	// git mv) share a gate per verdict: their files are their own, and a
	// file's mutants and outcomes do not depend on the other files; the
	// verdict is per target file (SPEC "oracle gate": PASS when every target
	// file is at or above the threshold), so each case's verdict alone is
	// its file's score against the threshold, which the document gives; the
	// PASS gate's verdict is each of its cases'. (They were a gate each.)
	// The others (SKIP: no code touched; a rename) are a gate each.
	groups := map[string][]scopeCase{}
	var order []string
	for _, tc := range cases {
		key := tc.name
		if tc.mv[0] == "" && (tc.verdict == "PASS" || tc.verdict == "FAIL") {
			key = tc.verdict
		}
		if groups[key] == nil {
			order = append(order, key)
		}
		groups[key] = append(groups[key], tc)
	}
	for _, key := range order {
		group := groups[key]
		t.Run(key, func(t *testing.T) {
			dir, code, r, errs := scopeGate(t, nm, group)
			if len(group) == 1 {
				checkScope(t, dir, group[0], false, code, r, errs)
				return
			}
			if want := group[0].verdict; r.Verdict != want || code != GateExit[gate.Verdict(want)] {
				t.Errorf("%s cases: exit %d %s %q\n%s", want, code, r.Verdict, r.Reason, errs)
			}
			for _, tc := range group {
				t.Run(tc.name, func(t *testing.T) { checkScope(t, dir, tc, true, code, r, errs) })
			}
		})
	}
}

// scopeCase is a change of TestGateTokenScope and what the gate says of it.
type scopeCase struct {
	name       string
	base, head map[string]string
	mv         [2]string // a git mv in the change
	code       int
	verdict    string
	reason     string   // a substring
	targets    []string // the ids, in order
	mutants    []string // "target operator replacement outcome", in order
	byHand     bool     // apply each mutant by hand and run vitest: the same outcome
}

// scopeDoc is the part of gate --json TestGateTokenScope reads.
type scopeDoc struct {
	Verdict, Reason string
	Threshold       float64
	Files           []struct {
		File  string
		Score float64
		Total int
	}
	Targets []struct {
		ID, Skipped string
	}
	Mutants []struct {
		Target, File, MutatorName, Replacement, Outcome string
		Line, Column, EndLine, EndColumn                int
	}
}

// scopeGate commits the cases' bases, then their changes, in a new
// repository, and gates the change: the repository, the exit code, the
// document and the standard error.
func scopeGate(t *testing.T, nm string, cases []scopeCase) (string, int, scopeDoc, string) {
	t.Helper()
	g := Repo{T: t, Dir: t.TempDir()}
	if err := os.Symlink(nm, filepath.Join(g.Dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	g.Git("init", "-q")
	base := map[string]string{".gitignore": "node_modules\n", "package.json": `{"name":"scope","private":true,"type":"module"}`}
	head := map[string]string{}
	for _, tc := range cases {
		for f, s := range tc.base {
			if _, ok := base[f]; ok {
				t.Fatalf("%s: %s is another case's", tc.name, f)
			}
			base[f] = s
		}
		for f, s := range tc.head {
			head[f] = s
		}
	}
	g.Commit("base", base)
	for _, tc := range cases {
		if tc.mv[0] != "" {
			g.Git("mv", tc.mv[0], tc.mv[1])
		}
	}
	g.Commit("change", head)
	code, out, errs := Oracle(t, "gate", "--json", "--no-cache", "--root", g.Dir)
	var r scopeDoc
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("gate --json (exit %d): %v\n%s\n%s", code, err, out, errs)
	}
	return g.Dir, code, r, errs
}

// checkScope checks what the gate said of tc in r (exit code, document,
// standard error of the gate of the repository at dir). grouped: r is the
// gate of tc with other cases; tc's targets and mutants are those of its
// files, its verdict its file's score against the threshold.
func checkScope(t *testing.T, dir string, tc scopeCase, grouped bool, code int, r scopeDoc, errs string) {
	t.Helper()
	mine := func(file string) bool {
		if !grouped {
			return true
		}
		_, ok := tc.head[file]
		return ok
	}
	var targets, mutants []string
	for _, tg := range r.Targets {
		if file, _, _ := strings.Cut(tg.ID, "#"); mine(file) {
			targets = append(targets, tg.ID+tg.Skipped)
		}
	}
	var own []int // tc's mutants in r.Mutants
	for i, m := range r.Mutants {
		if mine(m.File) {
			own = append(own, i)
			mutants = append(mutants, fmt.Sprintf("%s %s %s %s", m.Target, m.MutatorName, m.Replacement, m.Outcome))
		}
	}
	verdict, reason := r.Verdict, r.Reason
	if grouped {
		// The case's verdict alone: its file's score against the threshold.
		verdict, reason = "", ""
		for _, f := range r.Files {
			if mine(f.File) {
				verdict = "PASS"
				if f.Total > 0 && f.Score < r.Threshold {
					verdict = "FAIL"
				}
			}
		}
		code = GateExit[gate.Verdict(verdict)]
	}
	if code != tc.code || verdict != tc.verdict || !strings.Contains(reason, tc.reason) {
		t.Errorf("exit %d %s %q, want exit %d %s %q (the gate: %s %q)\n%s", code, verdict, reason, tc.code, tc.verdict, tc.reason, r.Verdict, r.Reason, errs)
	}
	if !slices.Equal(targets, tc.targets) {
		t.Errorf("targets %q, want %q", targets, tc.targets)
	}
	if !slices.Equal(mutants, tc.mutants) {
		t.Errorf("mutants\n%s\nwant\n%s", strings.Join(mutants, "\n"), strings.Join(tc.mutants, "\n"))
	}
	if !tc.byHand {
		return
	}
	// Each mutant applied by hand (the sources are ASCII: columns are
	// bytes), the case's test files run with vitest: all of them in one
	// vitest run (byHand).
	var applied []handMutant
	for _, i := range own {
		m := r.Mutants[i]
		orig, err := os.ReadFile(filepath.Join(dir, m.File))
		if err != nil {
			t.Fatal(err)
		}
		offset := func(line, col int) int {
			off := 0
			for l := 1; l < line; l++ {
				off += strings.Index(string(orig[off:]), "\n") + 1
			}
			return off + col - 1
		}
		mutated := string(orig[:offset(m.Line, m.Column)]) + m.Replacement + string(orig[offset(m.EndLine, m.EndColumn):])
		applied = append(applied, handMutant{m.File, mutated})
	}
	var tests []string
	for f := range tc.base {
		if strings.HasPrefix(f, "test/") {
			tests = append(tests, f)
		}
	}
	for j, byHand := range byHand(t, dir, tests, applied) {
		if m := r.Mutants[own[j]]; byHand != m.Outcome {
			t.Errorf("%s %s %q: the gate says %s, by hand it is %s\n%s", m.Target, m.MutatorName, m.Replacement, m.Outcome, byHand, applied[j].src)
		}
	}
}

// handMutant is a mutant applied by hand: the file it mutates (slash path
// from the repository's root) and that file's mutated text.
type handMutant struct{ file, src string }

// byHand is what vitest says of each mutant applied by hand to the
// repository at dir (its src/ and the test files tests): "killed" when a
// test fails or none passes, else "survived". Mutant i is applied in a copy
// of src/ and the test files in dir/byhand/<i>/ (the tests import
// ../src/…), and one vitest run
// runs every copy's test files: vitest runs each test file in a module
// graph of its own, so copy i's files give what a run of the suite with
// mutant i applied gives, without a vitest start per mutant.
func byHand(t *testing.T, dir string, tests []string, ms []handMutant) []string {
	t.Helper()
	for i, m := range ms {
		copyDir := filepath.Join(dir, "byhand", fmt.Sprint(i))
		if err := os.CopyFS(filepath.Join(copyDir, "src"), os.DirFS(filepath.Join(dir, "src"))); err != nil {
			t.Fatal(err)
		}
		for _, f := range tests {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			WriteFiles(t, copyDir, map[string]string{f: string(b)})
		}
		if err := os.WriteFile(filepath.Join(copyDir, m.file), []byte(m.src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer os.RemoveAll(filepath.Join(dir, "byhand"))
	vr := RunVitest(t, V4(t).Node, dir, "byhand/")
	real, err := filepath.EvalSymlinks(dir) // vitest names files by their real path
	if err != nil {
		t.Fatal(err)
	}
	outcomes := make([]string, len(ms))
	for i := range ms {
		prefix := filepath.Join(real, "byhand", fmt.Sprint(i)) + string(filepath.Separator)
		failed, passed, files := false, 0, 0
		for _, f := range vr.TestResults {
			if !strings.HasPrefix(f.Name, prefix) {
				continue
			}
			files++
			failed = failed || f.Message != ""
			for _, a := range f.AssertionResults {
				failed = failed || a.Status == "failed"
				if a.Status == "passed" {
					passed++
				}
			}
		}
		if files == 0 {
			t.Fatalf("vitest ran no test file of %s\n%s", prefix, vr.Failures())
		}
		outcomes[i] = "killed"
		if !failed && passed > 0 {
			outcomes[i] = "survived"
		}
	}
	return outcomes
}

// TestGateNoCodeSkipsBeforeVitest (issue 42): a change of types and
// comments only SKIPs from the token diff, before vitest is asked anything:
// here vitest's config throws when it loads, which a gate that asked would
// report as an error (exit 3).
func TestGateNoCodeSkipsBeforeVitest(t *testing.T) {
	g := NewGateRepo(t, map[string]string{"src/clamp.ts": clampTS, "test/clamp.test.ts": clampTestTS,
		"vitest.config.ts": "throw new Error(\"oracle must not load this config\");\nexport default {};\n"})
	g.Commit("types", map[string]string{"src/clamp.ts": strings.Replace(strings.Replace(clampTS, "hi: number)", "hi: number | bigint)", 1), "return hi;", "return hi; // the ceiling", 1)})
	code, r, errs := GateJSON(t, g.Dir, "--no-cache")
	if code != 0 || r.Verdict != "SKIP" || !strings.Contains(r.Reason, "the change touches no code") {
		t.Fatalf("exit %d %s %q\n%s", code, r.Verdict, r.Reason, errs)
	}
	// The same config with a change of code: vitest is asked, and says why
	// it cannot run (the test bites: the config does throw).
	g.Commit("code", map[string]string{"src/clamp.ts": strings.Replace(clampTS, "return hi;", "return hi + 0;", 1)})
	if code, r, errs := GateJSON(t, g.Dir, "--no-cache"); code == 0 {
		t.Errorf("a code change under a config that throws: exit %d %s %q\n%s", code, r.Verdict, r.Reason, errs)
	}
}
