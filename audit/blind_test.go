package audit

import (
	"context"
	"github.com/oracle-ts/oracle/internal/testenv"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	return testenv.WriteTree(t, "", files)
}

// TestBlindFunction: a table of finding / no finding.
func TestBlindFunction(t *testing.T) {
	lib := map[string]string{
		"src/pipeline.ts": "import { save } from './repo';\nexport async function process(id: number) { await save(id); }\nexport function other() { return 1; }\n",
		"src/repo.ts":     "export async function save(id: number) { return id; }\n",
		"src/routes.ts":   "import { process } from './pipeline';\nexport async function handle(id: string) { return process(Number(id)); }\n",
	}
	with := func(files map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range lib {
			out[k] = v
		}
		for k, v := range files {
			out[k] = v
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		test  string
		blind []string // "file:line fn" of the blind-function findings about src/pipeline.ts#process
	}{
		{"a route test that mocks the module: blind, naming the vi.mock",
			"import { vi, it, expect } from 'vitest';\nimport { handle } from '../src/routes';\nvi.mock('../src/pipeline', () => ({ process: vi.fn() }));\nit('x', async () => { await handle('1'); });\n",
			[]string{"src/pipeline.ts:2 process: no test runs it un-stubbed; reached only through vi.mock by test/a.test.ts (test/a.test.ts:3)"}},
		{"a test that calls it: not blind",
			"import { it } from 'vitest';\nimport { handle } from '../src/routes';\nit('x', async () => { await handle('1'); });\n",
			nil},
		{"a partial mock that keeps it call-through: not blind",
			"import { vi, it } from 'vitest';\nimport { handle } from '../src/routes';\nvi.mock('../src/pipeline', async (importOriginal) => { const mod = await importOriginal<typeof import('../src/pipeline')>(); return { ...mod, process: vi.fn(mod.process) }; });\nit('x', async () => { await handle('1'); });\n",
			nil},
		{"a partial mock that stubs it: blind",
			"import { vi, it } from 'vitest';\nimport { handle } from '../src/routes';\nvi.mock('../src/pipeline', async (importOriginal) => ({ ...(await importOriginal()), process: vi.fn() }));\nit('x', async () => { await handle('1'); });\n",
			[]string{"src/pipeline.ts:2 process: no test runs it un-stubbed; reached only through vi.mock by test/a.test.ts (test/a.test.ts:3)"}},
		{"a spyOn stub of the export: blind",
			"import { vi, it } from 'vitest';\nimport * as pipeline from '../src/pipeline';\nimport { handle } from '../src/routes';\nit('x', async () => { vi.spyOn(pipeline, 'process').mockResolvedValue(undefined); await handle('1'); });\n",
			[]string{"src/pipeline.ts:2 process: no test runs it un-stubbed; reached only through vi.mock by test/a.test.ts (test/a.test.ts:4)"}},
		{"a spy that only observes: not blind",
			"import { vi, it, expect } from 'vitest';\nimport * as pipeline from '../src/pipeline';\nimport { handle } from '../src/routes';\nit('x', async () => { const s = vi.spyOn(pipeline, 'process'); await handle('1'); expect(s).toHaveBeenCalled(); });\n",
			nil},
		{"a mock of a module on the way: blind",
			"import { vi, it } from 'vitest';\nimport { handle } from '../src/routes';\nvi.mock('../src/routes', () => ({ handle: vi.fn() }));\nit('x', async () => { await handle('1'); });\n",
			[]string{"src/pipeline.ts:2 process: no test runs it un-stubbed; reached only through vi.mock by test/a.test.ts (test/a.test.ts:3)"}},
		{"a dynamic import taking it: not blind",
			"import { it } from 'vitest';\nit('x', async () => { const { process } = await import('../src/pipeline'); await process(1); });\n",
			nil},
		{"no test at all: blind",
			"import { it } from 'vitest';\nit('x', () => {});\n",
			[]string{"src/pipeline.ts:2 process: no test runs it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeRepo(t, with(map[string]string{"test/a.test.ts": tc.test}))
			rep, err := Audit(context.Background(), root, Options{Tests: []string{"test/a.test.ts"}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				if f.Rule == "blind-function" && strings.Contains(f.Message, "process:") {
					got = append(got, f.File+":"+strconv.Itoa(f.Line)+" "+f.Message)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.blind, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.blind, "\n"))
			}
		})
	}
}

// TestBlindMethods: a class's methods run when a test imports the class
// or runs code that constructs one (a factory, a subclass's constructor):
// the instance's method calls go through variables and interfaces the graph
// does not follow, so they are not reported blind (false positives on
// google-gemini/gemini-cli); a class nothing constructs stays blind.
func TestBlindMethods(t *testing.T) {
	lib := map[string]string{
		"src/session.ts": "export interface Channel {\n  subscribe(): number;\n}\nexport class Protocol {\n  constructor(private n: number) {}\n  subscribe() { return this.n; }\n}\nexport class Session {\n  private p: Channel;\n  constructor() {\n    this.p = new Protocol(1);\n  }\n  open() { return this.p.subscribe(); }\n}\n",
		"src/derived.ts": "export class Base {\n  hello() { return 0; }\n}\nexport class Derived extends Base {\n  close() { return 1; }\n}\n",
		"src/cache.ts":   "export class Cache {\n  constructor() {}\n  set(k: string) { return k; }\n}\nexport function createCache(): Cache { return new Cache(); }\n",
		"src/unused.ts":  "export class Unused {\n  run() { return 1; }\n}\n",
	}
	for _, tc := range []struct {
		name, test string
		blind      []string // the blind methods (Qual)
	}{
		{"a class constructed by code the test runs, used through an interface: its methods run",
			"import { it } from 'vitest';\nimport { Session } from '../src/session';\nit('x', () => { new Session().open(); });\n",
			[]string{"Base.hello", "Cache.set", "Derived.close", "Unused.run", "createCache"}},
		{"a subclass imported: the base's methods run",
			"import { it } from 'vitest';\nimport { Derived } from '../src/derived';\nit('x', () => { new Derived().close(); });\n",
			[]string{"Cache.set", "Protocol.subscribe", "Session.open", "Unused.run", "createCache"}},
		{"a factory that constructs: the class's methods run",
			"import { it } from 'vitest';\nimport { createCache } from '../src/cache';\nit('x', () => { createCache().set('a'); });\n",
			[]string{"Base.hello", "Derived.close", "Protocol.subscribe", "Session.open", "Unused.run"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := blindWith(t, lib, tc.test, nil); strings.Join(got, " ") != strings.Join(tc.blind, " ") {
				t.Errorf("blind: %v\nwant   %v", got, tc.blind)
			}
		})
	}
}

// TestIgnoreComment: `// oracle-audit-ignore blind-function: reason` on the
// line before silences the finding, which stays in the report with the reason.
func TestIgnoreComment(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"src/a.ts":       "// oracle-audit-ignore blind-function: exercised by the e2e suite\nexport function f() {}\nexport function g() {}\n",
		"test/a.test.ts": "import { it, expect } from 'vitest';\nit('x', () => { expect(Math.max(1, 2)).toBe(2); });\n",
	})
	rep, err := Audit(context.Background(), root, Options{Tests: []string{"test/a.test.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 2 || rep.Findings[0].Ignored != "exercised by the e2e suite" || rep.Findings[1].Ignored != "" {
		t.Fatalf("%+v", rep.Findings)
	}
}

// TestSetupFileMocks: a vi.mock in a vitest setup file applies to every
// test: the function it stubs is blind, the setup file's line named.
func TestSetupFileMocks(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"src/a.ts":       "export function f() { return 1; }\n",
		"test/setup.ts":  "import { vi } from 'vitest';\nvi.mock('../src/a', () => ({ f: vi.fn() }));\n",
		"test/a.test.ts": "import { it, expect } from 'vitest';\nimport { f } from '../src/a';\nit('x', () => { expect(f()).toBe(1); });\n",
	})
	rep, err := Audit(context.Background(), root, Options{Tests: []string{"test/a.test.ts"}, SetupFiles: []string{"test/setup.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 || !strings.Contains(rep.Findings[0].Message, "f: no test runs it un-stubbed; reached only through vi.mock by test/a.test.ts (test/setup.ts:2)") {
		t.Fatalf("%+v", rep.Findings)
	}
	// Without the setup file, the test runs it.
	rep, _ = Audit(context.Background(), root, Options{Tests: []string{"test/a.test.ts"}})
	for _, f := range rep.Findings {
		if f.Rule == "blind-function" && f.File == "src/a.ts" {
			t.Errorf("blind without the setup file: %s", f.Message)
		}
	}
}

// TestBlindModuleLevelFunctions: the functions of module-level code (an
// object literal's methods, an arrow passed to a call) are judged when what
// binds them is exported: run when a test takes the binding (or loads the
// module), blind when only a mock reaches them or nothing does.
func TestBlindModuleLevelFunctions(t *testing.T) {
	lib := map[string]string{
		"src/define.ts": "export const defineCommand = <T>(c: T): T => c;\nexport const wrap = <F>(f: F): F => f;\n",
		"src/cmd.ts":    "import { defineCommand } from './define';\nimport { save } from './repo';\nexport default defineCommand({\n  meta: { name: 'x' },\n  async run(ctx: { n: number }) { return save(ctx.n); },\n});\n",
		"src/repo.ts":   "export function save(n: number) { return n; }\n",
		"src/fee.ts":    "import { wrap } from './define';\nexport const fee = wrap((n: number) => n * 2);\nconst hidden = { m() { return 1; } };\n",
	}
	for _, tc := range []struct {
		name, test string
		blind      []string // the blind functions (Qual) of src/cmd.ts and src/fee.ts
	}{
		{"a test that runs the command through cmd.run: not blind",
			"import { it } from 'vitest';\nimport cmd from '../src/cmd';\nit('x', async () => { await cmd.run({ n: 1 }); });\n",
			[]string{"fee.<arrow>"}},
		{"a test that mocks the command's module: blind, naming the vi.mock",
			"import { it, vi } from 'vitest';\nimport cmd from '../src/cmd';\nimport { fee } from '../src/fee';\nvi.mock('../src/cmd', () => ({ default: { run: vi.fn() } }));\nit('x', async () => { await cmd.run({ n: 1 }); fee(1); });\n",
			[]string{"default.run"}},
		{"no test: both blind",
			"import { it } from 'vitest';\nit('x', () => {});\n",
			[]string{"default.run", "fee.<arrow>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keep := func(f string) bool { return f == "src/cmd.ts" || f == "src/fee.ts" }
			if got := blindWith(t, lib, tc.test, keep); strings.Join(got, " ") != strings.Join(tc.blind, " ") {
				t.Errorf("blind: %v\nwant   %v", got, tc.blind)
			}
		})
	}
}

// TestBlindHeldByAVariable: a callback a top-level variable registers without
// calling it (commander's `.action(cb)`) runs only when a test uses that variable:
// a test that loads its module for another export does not run it, nor what only
// it calls (static reach, no run measured).
func TestBlindHeldByAVariable(t *testing.T) {
	lib := map[string]string{
		"src/cli.ts": "import { Command } from 'commander';\nexport const run = new Command().name('run').action(async () => { report(); });\nexport function report() { return 1; }\nexport function parseArgs(a: string[]) { return a.length; }\nexport const doubled = [1, 2].map((n) => n * 2);\n",
	}
	for _, tc := range []struct {
		name, test string
		blind      []string
	}{
		{"a test of another export: the action and what only it calls are blind",
			"import { it, expect } from 'vitest';\nimport { parseArgs } from '../src/cli';\nit('x', () => { expect(parseArgs(['a'])).toBe(1); });\n",
			[]string{"report", "run.<arrow>"}},
		{"a test that takes the command: neither is blind",
			"import { it } from 'vitest';\nimport { run, parseArgs } from '../src/cli';\nit('x', async () => { parseArgs([]); await run.parseAsync([]); });\n",
			nil},
		{"a test that reads the command of the namespace: neither is blind",
			"import { it } from 'vitest';\nimport * as cli from '../src/cli';\nit('x', async () => { await cli.run.parseAsync([]); });\n",
			[]string{"parseArgs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := blindWith(t, lib, tc.test, nil); strings.Join(got, " ") != strings.Join(tc.blind, " ") {
				t.Errorf("blind: %v\nwant   %v", got, tc.blind)
			}
		})
	}
}

// blindWith audits lib with test/a.test.ts (test) statically and returns the
// blind functions (Qual, sorted) of the files keep accepts (nil: all).
func blindWith(t *testing.T, lib map[string]string, test string, keep func(file string) bool) []string {
	t.Helper()
	files := map[string]string{"test/a.test.ts": test}
	for k, v := range lib {
		files[k] = v
	}
	rep, err := Audit(context.Background(), writeRepo(t, files), Options{Tests: []string{"test/a.test.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		if f.Rule == "blind-function" && (keep == nil || keep(f.File)) {
			got = append(got, strings.SplitN(f.Message, ":", 2)[0])
		}
	}
	sort.Strings(got)
	return got
}
