package audit

// End-to-end test of the gate's targets: every body that runs is one (issue
// 26). Each row changes one line inside a function that is no declaration of
// its own (an arrow passed to a call, an object literal's method, a namespace
// member, a getter, a static block, ...), and the gate must give the verdict
// the tests earn, never SKIP "the change touches no function". Each FAIL's
// survivor was applied by hand and vitest run on it: the tests pass. (The
// rows were a gate each; they are two gates now, the PASS rows' changes and
// the FAIL rows': each row's target, mutants, survivors and verdict, its
// file's score, are read from its group's document.)

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
	"github.com/oracle-ts/oracle/gate"
)

func TestGateTargetsEveryBody(t *testing.T) {
	nm := V4(t).NodeModules
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=gate@test", "-c", "user.name=gate", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	commit := func(msg string, files map[string]string) {
		t.Helper()
		WriteFiles(t, dir, files)
		git("add", "-A")
		git("commit", "-qm", msg)
	}
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	base := map[string]string{
		".gitignore":   "node_modules\n",
		"package.json": `{"name":"bodies","private":true,"type":"module"}`,
		// Small stand-ins for the libraries the shapes come from.
		"src/lib.ts": "export const wrap = <F>(f: F): F => f;\n" +
			"export const defineCommand = <T>(c: T): T => c;\n" +
			"export const defineEventHandler = <F>(f: F): F => f;\n" +
			"export function createSelector<A, B, R>(a: (s: number) => A, b: (s: number) => B, r: (a: A, b: B) => R): (s: number) => R {\n  return (s) => r(a(s), b(s));\n}\n" +
			"export const routes: Record<string, (q: number) => number> = {};\n" +
			"export const app = { get(path: string, h: (q: number) => number) { routes[path] = h; } };\n" +
			"const procedure = { input: (_schema: string) => ({ query: <F>(f: F): F => f }) };\n" +
			"export const t = { procedure };\n",
		"README.md": "bodies\n",
	}
	type row struct {
		name          string
		file          string // the changed production file
		before, after string // its content before and after the change
		test          string // test/<name>.test.ts
		target        string // the gate's target id
		verdict       string
		survivor      string // a FAIL's survivor, "MutatorName@line": applied by hand, vitest passes
	}
	const imp = "import { expect, it } from \"vitest\";\n"
	rows := []row{
		{name: "wrapped arrow", file: "src/fee.ts",
			before: "import { wrap } from \"./lib\";\nexport const fee = wrap((n: number) => n * 2);\n",
			after:  "import { wrap } from \"./lib\";\nexport const fee = wrap((n: number) => n * 3);\n",
			test:   imp + "import { fee } from \"../src/fee\";\nit(\"fee\", () => {\n  expect(fee(2)).toBe(6);\n});\n",
			target: "src/fee.ts#fee.<arrow>", verdict: "PASS"},
		{name: "defineCommand run", file: "src/cmd.ts",
			before: "import { defineCommand } from \"./lib\";\nexport default defineCommand({\n  meta: { name: \"sign\" },\n  async run(ctx: { n: number }) {\n    return ctx.n > 0 ? \"pos\" : \"neg\";\n  },\n});\n",
			after:  "import { defineCommand } from \"./lib\";\nexport default defineCommand({\n  meta: { name: \"sign\" },\n  async run(ctx: { n: number }) {\n    return ctx.n >= 0 ? \"pos\" : \"neg\";\n  },\n});\n",
			// Weak: 0 is never tried, `ctx.n > 0` survives.
			test:   imp + "import cmd from \"../src/cmd\";\nit(\"runs\", async () => {\n  expect(await cmd.run({ n: 5 })).toBe(\"pos\");\n  expect(await cmd.run({ n: -5 })).toBe(\"neg\");\n});\n",
			target: "src/cmd.ts#default.run", verdict: "FAIL", survivor: "EqualityOperator@5"},
		{name: "object literal arrow property", file: "src/handlers.ts",
			before: "export const handlers = {\n  add(a: number, b: number) {\n    return a + b;\n  },\n  del: (x: number) => x - 1,\n};\n",
			after:  "export const handlers = {\n  add(a: number, b: number) {\n    return a + b;\n  },\n  del: (x: number) => x - 2,\n};\n",
			test:   imp + "import { handlers } from \"../src/handlers\";\nit(\"del\", () => {\n  expect(handlers.del(5)).toBe(3);\n  expect(handlers.add(1, 2)).toBe(3);\n});\n",
			target: "src/handlers.ts#handlers.del", verdict: "PASS"},
		{name: "nested object method", file: "src/nested.ts",
			before: "export const api = { v1: { users: { count(n: number) {\n    return n + 1;\n  } } } };\n",
			after:  "export const api = { v1: { users: { count(n: number) {\n    return n + 10;\n  } } } };\n",
			// Weak: only a lower bound is checked.
			test:   imp + "import { api } from \"../src/nested\";\nit(\"counts\", () => {\n  expect(api.v1.users.count(1)).toBeGreaterThan(-100);\n});\n",
			target: "src/nested.ts#api.v1.users.count", verdict: "FAIL", survivor: "ArithmeticOperator@2"},
		{name: "router callback", file: "src/server.ts",
			before: "import { app } from \"./lib\";\napp.get(\"/double\", (q) => q * 2);\n",
			after:  "import { app } from \"./lib\";\napp.get(\"/double\", (q) => q * 2 + 1);\n",
			test:   imp + "import \"../src/server\";\nimport { routes } from \"../src/lib\";\nit(\"routes\", () => {\n  expect(routes[\"/double\"](3)).toBe(7);\n});\n",
			target: "src/server.ts#app.get.<arrow>", verdict: "PASS"},
		{name: "tRPC procedure", file: "src/router.ts",
			before: "import { t } from \"./lib\";\nexport const appRouter = {\n  greet: t.procedure.input(\"name\").query(({ input }: { input: string }) => \"hi \" + input),\n};\n",
			after:  "import { t } from \"./lib\";\nexport const appRouter = {\n  greet: t.procedure.input(\"name\").query(({ input }: { input: string }) => \"hello \" + input),\n};\n",
			// Weak: the greeting's text is not checked.
			test:   imp + "import { appRouter } from \"../src/router\";\nit(\"greets\", () => {\n  expect(appRouter.greet({ input: \"bo\" })).toContain(\"bo\");\n});\n",
			target: "src/router.ts#appRouter.greet.<arrow>", verdict: "FAIL", survivor: "StringLiteral@3"},
		{name: "selector's last arrow", file: "src/select.ts",
			before: "import { createSelector } from \"./lib\";\nexport const total = createSelector(\n  (s) => s + 1,\n  (s) => s * 2,\n  (a, b) => a + b,\n);\n",
			after:  "import { createSelector } from \"./lib\";\nexport const total = createSelector(\n  (s) => s + 1,\n  (s) => s * 2,\n  (a, b) => a - b,\n);\n",
			test:   imp + "import { total } from \"../src/select\";\nit(\"totals\", () => {\n  expect(total(3)).toBe(-2);\n});\n",
			target: "src/select.ts#total.<arrow>~3", verdict: "PASS"},
		{name: "default event handler", file: "src/handler.ts",
			before: "import { defineEventHandler } from \"./lib\";\nexport default defineEventHandler(async (e: { n: number }) => {\n  return { ok: true, n: e.n };\n});\n",
			after:  "import { defineEventHandler } from \"./lib\";\nexport default defineEventHandler(async (e: { n: number }) => {\n  if (e.n < 0) return { ok: false, n: 0 };\n  return { ok: true, n: e.n };\n});\n",
			test:   imp + "import handler from \"../src/handler\";\nit(\"handles\", async () => {\n  expect(await handler({ n: 2 })).toEqual({ ok: true, n: 2 });\n  expect(await handler({ n: -1 })).toEqual({ ok: false, n: 0 });\n  expect(await handler({ n: 0 })).toEqual({ ok: true, n: 0 });\n});\n",
			target: "src/handler.ts#default.<arrow>", verdict: "PASS"},
		{name: "namespace member", file: "src/geo.ts",
			before: "export namespace Geo {\n  export namespace Flat {\n    export function dist(a: number, b: number): number {\n      return Math.abs(a - b);\n    }\n  }\n}\n",
			after:  "export namespace Geo {\n  export namespace Flat {\n    export function dist(a: number, b: number): number {\n      return a > b ? a - b : b - a;\n    }\n  }\n}\n",
			// Weak: a > b is never equal, `>=` survives; a < b is never tried.
			test:   imp + "import { Geo } from \"../src/geo\";\nit(\"dist\", () => {\n  expect(Geo.Flat.dist(5, 2)).toBe(3);\n});\n",
			target: "src/geo.ts#Geo.Flat.dist", verdict: "FAIL", survivor: "EqualityOperator@4"},
		{name: "getter", file: "src/box.ts",
			before: "export class Box {\n  constructor(public w: number, public h: number) {}\n  get area(): number {\n    return this.w * this.h;\n  }\n}\n",
			after:  "export class Box {\n  constructor(public w: number, public h: number) {}\n  get area(): number {\n    return this.w * this.h * 1;\n  }\n}\n",
			test:   imp + "import { Box } from \"../src/box\";\nit(\"area\", () => {\n  expect(new Box(2, 3).area).toBe(6);\n});\n",
			target: "src/box.ts#Box.area", verdict: "FAIL", survivor: "ArithmeticOperator@4"},
		{name: "static block", file: "src/limits.ts",
			before: "export class Limits {\n  static max = 0;\n  static {\n    Limits.max = 10;\n  }\n}\n",
			after:  "export class Limits {\n  static max = 0;\n  static {\n    Limits.max = 10 * 3;\n  }\n}\n",
			test:   imp + "import { Limits } from \"../src/limits\";\nit(\"max\", () => {\n  expect(Limits.max).toBe(30);\n});\n",
			target: "src/limits.ts#Limits.<static>", verdict: "PASS"},
		// (An `accessor` field holding an arrow is the field's function too,
		// Class.name, as the analyzer tests check; vite 8 does not lower
		// `accessor` and Node does not run it, so no vitest here can load it.)
		{name: "class field holding an arrow", file: "src/inc.ts",
			before: "export class Inc {\n  step = 1;\n  inc = (n: number) => n + this.step;\n}\n",
			after:  "export class Inc {\n  step = 1;\n  inc = (n: number) => (n > 100 ? n : n + this.step);\n}\n",
			// Weak: 100 is never tried, `n > 100` survives as `n >= 100`.
			test:   imp + "import { Inc } from \"../src/inc\";\nit(\"inc\", () => {\n  expect(new Inc().inc(1)).toBe(2);\n  expect(new Inc().inc(500)).toBe(500);\n});\n",
			target: "src/inc.ts#Inc.inc", verdict: "FAIL", survivor: "EqualityOperator@3"},
		{name: "instance field initializers: Class.<fields>, run at construction (was SKIP)", file: "src/counter.ts",
			before: "export class Counter {\n  count = 0;\n  inc(): number {\n    this.count++;\n    return this.count;\n  }\n}\n",
			after:  "export class Counter {\n  count = 10;\n  inc(): number {\n    this.count++;\n    return this.count;\n  }\n}\n",
			test:   imp + "import { Counter } from \"../src/counter\";\nit(\"counts from ten\", () => {\n  expect(new Counter().inc()).toBe(11);\n});\n",
			target: "src/counter.ts#Counter.<fields>", verdict: "PASS"},
		{name: "a private field's initializer, weakly tested", file: "src/stepper.ts",
			before: "export class Stepper {\n  n = 0;\n  #step = 1;\n  next(): number {\n    this.n += this.#step;\n    return this.n;\n  }\n}\n",
			after:  "export class Stepper {\n  n = 0;\n  #step = 2;\n  next(): number {\n    this.n += this.#step;\n    return this.n;\n  }\n}\n",
			// Weak: any step above zero passes, 2 → 3 survives.
			test:   imp + "import { Stepper } from \"../src/stepper\";\nit(\"steps\", () => {\n  expect(new Stepper().next()).toBeGreaterThan(0);\n});\n",
			target: "src/stepper.ts#Stepper.<fields>", verdict: "FAIL", survivor: "InlineConstant@3"},
		{name: "setter", file: "src/temp.ts",
			before: "export class Temp {\n  c = 0;\n  set f(v: number) {\n    this.c = v;\n  }\n}\n",
			after:  "export class Temp {\n  c = 0;\n  set f(v: number) {\n    this.c = ((v - 32) * 5) / 9;\n  }\n}\n",
			test:   imp + "import { Temp } from \"../src/temp\";\nit(\"converts\", () => {\n  const t = new Temp();\n  t.f = 212;\n  expect(t.c).toBe(100);\n});\n",
			target: "src/temp.ts#Temp.f=", verdict: "PASS"},
	}
	for _, r := range rows {
		base[r.file] = r.before
		base["test/"+strings.TrimSuffix(filepath.Base(r.file), ".ts")+".test.ts"] = r.test
	}
	commit("base", base)
	// Two gates, not one per row: the rows the tests earn a PASS, changed
	// in one commit, then the FAIL rows in the next. The gate's verdict is
	// per target file (SPEC "oracle gate": PASS when every target file is
	// at or above the threshold), each row's file is its own, and its
	// mutants and their outcomes are the same whatever else the commit
	// changed (mutants on the code the change wrote in that file, run
	// against that file's related tests): so each row's verdict alone is its
	// file's score against the threshold (100), which the document gives
	// (files), and the PASS gate's verdict is each of its rows' too.
	for _, verdict := range []string{"PASS", "FAIL"} {
		var group []row
		change := map[string]string{}
		for _, r := range rows {
			if r.verdict == verdict {
				group = append(group, r)
				change[r.file] = r.after
			}
		}
		commit(verdict+" rows", change)
		code, out, errs := Oracle(t, "gate", "--json", "--threshold", "100", "--root", dir)
		var res struct {
			GateResult
			Files []struct {
				File            string
				Score           float64
				Detected, Total int
			}
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("gate --json (exit %d): %v\n%s\n%s", code, err, out, errs)
		}
		if res.Verdict != verdict || code != GateExit[gate.Verdict(verdict)] {
			t.Errorf("%s rows: verdict %s %q (exit %d)\n%s", verdict, res.Verdict, res.Reason, code, errs)
		}
		if len(res.Targets) != len(group) {
			t.Errorf("%s rows: %d targets, want one per row (%d): %+v", verdict, len(res.Targets), len(group), res.Targets)
		}
		for _, r := range group {
			t.Run(r.name, func(t *testing.T) {
				var ids []string
				for _, tg := range res.Targets {
					if strings.HasPrefix(tg.ID, r.file+"#") {
						ids = append(ids, tg.ID)
					}
				}
				if len(ids) != 1 || ids[0] != r.target {
					t.Errorf("targets %v, want [%s]", ids, r.target)
				}
				// The row's verdict alone: its file's score against the
				// threshold, 100.
				got, mutants := "", 0
				for _, f := range res.Files {
					if f.File == r.file {
						got = "PASS"
						if f.Total > 0 && f.Score < 100 {
							got = "FAIL"
						}
					}
				}
				var survivors []string
				for _, m := range res.Mutants {
					if m.File != r.file {
						continue
					}
					mutants++
					if m.Target != r.target {
						t.Errorf("mutant %s at line %d has target %s", m.MutatorName, m.Line, m.Target)
					}
					if m.Outcome == "survived" {
						survivors = append(survivors, fmt.Sprintf("%s@%d", m.MutatorName, m.Line))
					}
				}
				if got != r.verdict || mutants == 0 {
					t.Errorf("verdict %s (its file's score; the gate's %s %q, exit %d), want %s\n%+v\n%s", got, res.Verdict, res.Reason, code, r.verdict, res.Mutants, errs)
				}
				if (len(survivors) > 0) != (r.survivor != "") || r.survivor != "" && !slices.Contains(survivors, r.survivor) {
					t.Errorf("survivors %v, want %q among them", survivors, r.survivor)
				}
			})
		}
	}
}

// TestAuditJudgesModuleLevelFunctions: audit measures the methods and arrows
// of exported module-level code like any exported function: a
// `defineCommand({ run() {} })` a test runs through `cmd.run(...)` is not
// blind; one a test loads without running it is, measured.
func TestAuditJudgesModuleLevelFunctions(t *testing.T) {
	nm := V4(t).NodeModules
	dir := t.TempDir()
	WriteFiles(t, dir, map[string]string{
		"package.json":       `{"name":"cli","private":true,"type":"module"}`,
		"src/define.ts":      "export const defineCommand = <T>(c: T): T => c;\n",
		"src/init.ts":        "import { defineCommand } from \"./define\";\nexport default defineCommand({\n  meta: { name: \"init\" },\n  async run(ctx: { dir: string }) {\n    return \"init \" + ctx.dir;\n  },\n});\n",
		"src/build.ts":       "import { defineCommand } from \"./define\";\nexport default defineCommand({\n  meta: { name: \"build\" },\n  async run(ctx: { dir: string }) {\n    return \"build \" + ctx.dir;\n  },\n});\n",
		"test/init.test.ts":  "import { expect, it } from \"vitest\";\nimport init from \"../src/init\";\nit(\"inits\", async () => {\n  expect(await init.run({ dir: \"a\" })).toBe(\"init a\");\n});\n",
		"test/build.test.ts": "import { expect, it } from \"vitest\";\nimport build from \"../src/build\";\nit(\"names\", () => {\n  expect(build.meta.name).toBe(\"build\");\n});\n",
	})
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	r := auditJSON(t, dir)
	var blind []string
	for _, f := range r.Findings {
		if f.Rule == "blind-function" {
			blind = append(blind, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Message))
		}
	}
	if len(blind) != 1 || !strings.HasPrefix(blind[0], "src/build.ts:4 default.run: no test executes it (measured)") {
		t.Errorf("blind-function findings: %q, want src/build.ts's default.run only (measured)", blind)
	}
	if r.Timings.Runs == 0 {
		t.Errorf("nothing was measured: %+v", r.Timings)
	}
}
