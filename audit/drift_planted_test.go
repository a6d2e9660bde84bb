package audit

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// plantedCase is one mock of a planted table: want lists the findings
// ("rule:line") a defect must give, nil for a correct mock.
type plantedCase struct {
	name, test string
	want       []string
}

// runPlanted audits each case's test file against files and compares the
// mock-drift findings; it returns the recall and precision over the
// table (a defect found, a finding on a correct mock).
func runPlanted(t *testing.T, files map[string]string, cases []plantedCase) (found, defects, right, findings int) {
	return runPlantedWith(t, Options{}, files, cases)
}

// runPlantedWith is runPlanted with opts (its Tests the case's test file).
func runPlantedWith(t *testing.T, opts Options, files map[string]string, cases []plantedCase) (found, defects, right, findings int) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			all := map[string]string{"test/a.test.ts": tc.test}
			for k, v := range files {
				all[k] = v
			}
			opts.Tests = []string{"test/a.test.ts"}
			rep, err := Audit(context.Background(), writeRepo(t, all), opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				if strings.HasPrefix(f.Rule, "mock-drift") {
					got = append(got, f.Rule+":"+strconv.Itoa(f.Line))
				}
			}
			if tc.want != nil {
				defects++
			}
			findings += len(got)
			if strings.Join(got, " ") == strings.Join(tc.want, " ") {
				right += len(got)
				if tc.want != nil {
					found++
				}
				return
			}
			t.Errorf("got %v, want %v", got, tc.want)
			for _, f := range rep.Findings {
				t.Log(f.Rule, f.Message)
			}
		})
	}
	t.Logf("recall %d/%d, precision %d/%d", found, defects, right, findings)
	return
}

// TestMockDriftAsyncForms (issue 41): the async-drift rule reads a sync
// value for an async function where a test writes it as `() => null`,
// as a const object of the file passed by name (`mockResolvedValue(FIXTURE)`,
// whose shape is read too), and as an implementation returning its
// argument (sync when the real function's parameter is declared a
// non-promise type), or a property of it (`(opts) => opts.raw`, the
// member's type in the parameter's type alias: shadcn-ui's transform).
// Planted defects and correct mocks.
func TestMockDriftAsyncForms(t *testing.T) {
	files, cases := asyncForms()
	runPlanted(t, files, cases)
}

// TestMockDriftJestSpellings (issue 45): the same table written for jest
// (jest.mock, jest.fn, jest.mocked; jest's globals, no vitest import) on a
// repository whose tests run on jest: the same findings, none more.
func TestMockDriftJestSpellings(t *testing.T) {
	files, cases := asyncForms()
	jest := strings.NewReplacer("import { vi, it, expect } from 'vitest';\n", "// jest's globals\n", "vi.mock(", "jest.mock(", "vi.fn(", "jest.fn(", "vi.mocked(", "jest.mocked(")
	for i := range cases {
		cases[i].test = jest.Replace(cases[i].test)
		if strings.Contains(cases[i].test, "vi.") || !strings.Contains(cases[i].test, "jest.") {
			t.Fatalf("%s: not written for jest: %s", cases[i].name, cases[i].test)
		}
	}
	if found, defects, right, findings := runPlantedWith(t, Options{Jest: "test"}, files, cases); found != defects || right != findings {
		t.Errorf("jest: recall %d/%d, precision %d/%d", found, defects, right, findings)
	}
}

// asyncForms is TestMockDriftAsyncForms's repository and table.
func asyncForms() (map[string]string, []plantedCase) {
	files := map[string]string{"src/api.ts": "export async function load(id: string) {\n  return { id };\n}\n" +
		"export async function resolvePath(p: string): Promise<string> {\n  return p;\n}\n" +
		"export function sync(id: string) {\n  return { id };\n}\n" +
		"export async function passAlong<T>(x: T): Promise<T> {\n  return x;\n}\n" +
		"export async function untyped(x) {\n  return x;\n}\n" +
		"export type Opts = { raw: string; nested: { path: string }; load: Promise<string> };\n" +
		"export async function transform(opts: Opts) {\n  return opts.raw;\n}\n"}
	head := "import { vi, it, expect } from 'vitest';\nimport { load, resolvePath, sync, passAlong, untyped } from '../src/api';\n"
	tail := "\nit('x', async () => { expect(await load('a')).toBeDefined(); });\n"
	fixtures := "const FIXTURE = { id: 'a' };\nconst USER = { name: 'a' } as const;\n"
	cases := []plantedCase{
		// defects
		{"vi.fn(() => null) for an async function", head + "vi.mock('../src/api', () => ({ load: vi.fn(() => null) }));" + tail, []string{"mock-drift/async:3"}},
		{"mockReturnValue(null) for an async function", head + "vi.mocked(load).mockReturnValue(null);" + tail, []string{"mock-drift/async:3"}},
		{"a const object by name for an async function", head + fixtures + "vi.mocked(load).mockReturnValue(FIXTURE);" + tail, []string{"mock-drift/async:5"}},
		{"a const object by name, resolved, of another shape", head + fixtures + "vi.mocked(load).mockResolvedValue(USER);" + tail, []string{"mock-drift/shape:5"}},
		{"a const object by name of another shape for a sync function", head + fixtures + "vi.mocked(sync).mockReturnValue(USER);" + tail, []string{"mock-drift/shape:5"}},
		{"an implementation returning a const by name", head + fixtures + "vi.mocked(load).mockImplementation(() => FIXTURE);" + tail, []string{"mock-drift/async:5"}},
		{"vi.fn((p) => p) where the parameter is a string", head + "vi.mock('../src/api', () => ({ resolvePath: vi.fn((p) => p) }));" + tail, []string{"mock-drift/async:3"}},
		{"mockImplementation returning its argument", head + "vi.mocked(resolvePath).mockImplementation((p: string) => p);" + tail, []string{"mock-drift/async:3"}},
		{"a function expression returning its argument", head + "vi.mock('../src/api', () => ({ load: vi.fn(function (x) {\n  return x;\n}) }));" + tail, []string{"mock-drift/async:3"}},
		{"an implementation returning a string property of its argument", head + "vi.mock('../src/api', () => ({ transform: vi.fn().mockImplementation((opts) => opts.raw) }));" + tail, []string{"mock-drift/async:3"}},
		{"an implementation returning a nested property of its argument", head + "vi.mock('../src/api', () => ({ transform: vi.fn((o) => o.nested.path) }));" + tail, []string{"mock-drift/async:3"}},
		// correct mocks
		{"returning a promise property of its argument", head + "vi.mock('../src/api', () => ({ transform: vi.fn((o) => o.load) }));" + tail, nil},
		{"returning a property its type does not declare", head + "vi.mock('../src/api', () => ({ transform: vi.fn((o) => o.other) }));" + tail, nil},
		{"a const object by name, resolved, the real shape", head + fixtures + "vi.mocked(load).mockResolvedValue(FIXTURE);" + tail, nil},
		{"a const object by name for a sync function", head + fixtures + "vi.mocked(sync).mockReturnValue(FIXTURE);" + tail, nil},
		{"null for a sync function", head + "vi.mocked(sync).mockImplementation(() => null);" + tail, nil},
		{"undefined says nothing", head + "vi.mocked(load).mockReturnValue(undefined);" + tail, nil},
		{"returning the argument of a generic parameter", head + "vi.mock('../src/api', () => ({ passAlong: vi.fn((x) => x) }));" + tail, nil},
		{"returning the argument of an untyped parameter", head + "vi.mock('../src/api', () => ({ untyped: vi.fn((x) => x) }));" + tail, nil},
		{"async, returning its argument", head + "vi.mock('../src/api', () => ({ resolvePath: vi.fn(async (p) => p) }));" + tail, nil},
		{"a const bound to a call", head + "const made = build();\nvi.mocked(load).mockReturnValue(made);" + tail, nil},
		{"a let", head + "let FX = { id: 'a' };\nFX = Promise.resolve(FX) as any;\nvi.mocked(load).mockReturnValue(FX);" + tail, nil},
		{"a name declared twice", head + "function f() {\n  const FX = Promise.resolve(1);\n  vi.mocked(load).mockReturnValue(FX as any);\n}\nconst FX = { id: 'a' };" + tail, nil},
	}
	return files, cases
}

// TestMockDriftZodTypes (issue 41, shadcn-ui): a parameter or a result
// declared as the type zod infers from a schema of the repository
// (`z.infer<typeof treeSchema>`, through a type alias, a schema imported
// or made by .extend/.pick of another) is a plain value, and so is what
// such a schema's .parse returns (.parseAsync: a promise); one that may
// hold a promise or anything (z.promise, an async transform, z.any) says
// nothing.
func TestMockDriftZodTypes(t *testing.T) {
	files := map[string]string{
		"src/schema.ts": "import { z } from 'zod';\nexport const baseSchema = z.object({ name: z.string(), meta: z.any() });\n" +
			"export const treeSchema = baseSchema.pick({ name: true });\nexport const configSchema = baseSchema.extend({ cwd: z.string() });\n" +
			"export const pendingSchema = z.promise(z.string());\nexport const loadedSchema = z.string().transform(async (s) => s);\nexport const anySchema = z.any();\n" +
			"export type Config = z.infer<typeof configSchema>;\n",
		"src/fonts.ts": "import { z } from 'zod';\nimport { treeSchema, pendingSchema, loadedSchema, anySchema, type Config } from './schema';\n" +
			"export async function massage(tree: z.infer<typeof treeSchema>, config: Config) {\n  return tree;\n}\n" +
			"export function readConfig(cwd: string): Config {\n  return { name: cwd, meta: 1, cwd };\n}\n" +
			"export async function pending(p: z.infer<typeof pendingSchema>) {\n  return p;\n}\n" +
			"export async function loaded(p: z.output<typeof loadedSchema>) {\n  return p;\n}\n" +
			"export async function anything(p: z.infer<typeof anySchema>) {\n  return p;\n}\n",
		"src/config.ts": "import { configSchema, pendingSchema } from './schema';\nfunction base() {\n  return { name: 'x', meta: 1, cwd: '.' };\n}\n" +
			"export function withDefaults(c?: object) {\n  if (!c) {\n    return base();\n  }\n  return configSchema.parse(c);\n}\n" +
			"export function checked(c: object) {\n  return configSchema.parseAsync(c);\n}\n" +
			"export function withBase(c?: object) {\n  const made = base();\n  if (!c) {\n    return made;\n  }\n  return configSchema.parse(c);\n}\n" +
			"export function pendingOf(c: object) {\n  return pendingSchema.parse(c);\n}\n",
	}
	cfg := "import { vi, it, expect } from 'vitest';\nimport { withDefaults, checked, pendingOf, withBase } from '../src/config';\n"
	head := "import { vi, it, expect } from 'vitest';\nimport { massage, readConfig, pending, loaded, anything } from '../src/fonts';\n"
	tail := "\nit('x', async () => { expect(await massage({ name: 'a' }, readConfig('.'))).toBeDefined(); });\n"
	cases := []plantedCase{
		// defects
		{"returning its argument, a schema's object", head + "vi.mock('../src/fonts', () => ({ massage: vi.fn().mockImplementation((tree) => tree) }));" + tail, []string{"mock-drift/async:3"}},
		{"a promise for a function returning a schema's type by alias", head + "vi.mocked(readConfig).mockResolvedValue({ name: 'a', meta: 1, cwd: '.' });" + tail, []string{"mock-drift/async:3"}},
		{"a promise for a function returning a schema's parse", cfg + "vi.mock('../src/config', () => ({ withDefaults: vi.fn(async (c) => c) }));" + tail, []string{"mock-drift/async:3"}},
		{"a promise for a function returning a const of its body", cfg + "vi.mock('../src/config', () => ({ withBase: vi.fn(async (c) => c) }));" + tail, []string{"mock-drift/async:3"}},
		// correct mocks
		{"a plain value for a schema's parse", cfg + "vi.mock('../src/config', () => ({ withDefaults: vi.fn(() => ({ name: 'a', meta: 1, cwd: '.' })) }));" + tail, nil},
		{"a promise for a schema's parseAsync", cfg + "vi.mocked(checked).mockResolvedValue({ name: 'a', meta: 1, cwd: '.' });" + tail, nil},
		{"a promise for a z.promise schema's parse", cfg + "vi.mocked(pendingOf).mockResolvedValue('a');" + tail, nil},
		{"the real function's promise", head + "vi.mocked(massage).mockResolvedValue({ name: 'a' });" + tail, nil},
		{"a plain config", head + "vi.mocked(readConfig).mockReturnValue({ name: 'a', meta: 1, cwd: '.' });" + tail, nil},
		{"returning its argument, a z.promise schema", head + "vi.mock('../src/fonts', () => ({ pending: vi.fn((p) => p) }));" + tail, nil},
		{"returning its argument, an async transform", head + "vi.mock('../src/fonts', () => ({ loaded: vi.fn((p) => p) }));" + tail, nil},
		{"returning its argument, z.any", head + "vi.mock('../src/fonts', () => ({ anything: vi.fn((p) => p) }));" + tail, nil},
	}
	runPlanted(t, files, cases)
}

// TestMockDriftMissingExport (issue 41): a whole-module vi.mock factory
// that leaves out an export the code under test calls (by name, through a
// namespace, the default) is a finding, even when the code tolerates the
// error vitest throws there; a factory that sets it, spreads, or keeps the
// original, or code that never calls it, is not; nor is a call in a
// function the test never runs (shadcn-ui: 68 findings, none of which a
// run reached; bench/mocks41.md).
func TestMockDriftMissingExport(t *testing.T) {
	files := map[string]string{
		"src/api.ts": "export async function fetchUser() {\n  return { id: 1 };\n}\nexport async function fetchOrders() {\n  return [];\n}\n" +
			"export default function client() {\n  return 1;\n}\nexport type Order = { id: number };\n",
		"src/service.ts": "import { fetchUser, fetchOrders } from './api';\n" +
			"export async function summary() {\n  try {\n    return await fetchOrders();\n  } catch {\n    return [];\n  }\n}\nexport function user() {\n  return fetchUser();\n}\n",
		"src/ns.ts":      "import * as api from './api';\nexport function orders() {\n  return api.fetchOrders();\n}\n",
		"src/def.ts":     "import client from './api';\nexport function c() {\n  try { return client(); } catch { return 0; }\n}\n",
		"src/typed.ts":   "import type { Order } from './api';\nimport { fetchUser } from './api';\nexport function u(o: Order) {\n  return fetchUser();\n}\n",
		"src/unused.ts":  "import { fetchUser, fetchOrders } from './api';\nexport function u() {\n  return fetchUser();\n}\nexport const keep = [fetchOrders].length;\n",
		"src/barrel.ts":  "export * from './api';\n",
		"src/cb.ts":      "import { fetchOrders } from './api';\nexport function later() {\n  return [1].map(() => {\n    try { return fetchOrders(); } catch { return 0; }\n  });\n}\n",
		"src/top.ts":     "import { fetchOrders } from './api';\nlet orders: unknown = [];\ntry { orders = fetchOrders(); } catch {}\nexport function ready() {\n  return orders;\n}\n",
		"src/viaBarr.ts": "import { fetchOrders } from './barrel';\nexport function o() {\n  return fetchOrders();\n}\n",
	}
	// each test calls the function it imports (the code runs)
	test := func(imp, mock string) string {
		fn := strings.TrimSpace(strings.Trim(strings.Fields(imp)[2], "{}"))
		return "import { vi, it, expect } from 'vitest';\n" + imp + "\n" + mock + "\nit('x', async () => { expect(await " + fn + "({} as any)).toBeDefined(); });\n"
	}
	cases := []plantedCase{
		// defects
		{"a named export the code calls", test("import { summary } from '../src/service';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn() }));"), []string{"mock-drift/missing-export:3"}},
		{"through a namespace import", test("import { orders } from '../src/ns';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn(), default: vi.fn() }));"), []string{"mock-drift/missing-export:3"}},
		{"the default export", test("import { c } from '../src/def';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn(), fetchOrders: vi.fn() }));"), []string{"mock-drift/missing-export:3"}},
		{"a factory with a block body", test("import { summary } from '../src/service';", "vi.mock('../src/api', () => {\n  const fetchUser = vi.fn();\n  return { fetchUser };\n});"), []string{"mock-drift/missing-export:3"}},
		{"in a callback of a function the test runs", test("import { later } from '../src/cb';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn() }));"), []string{"mock-drift/missing-export:3"}},
		{"in the module's own code", test("import { ready } from '../src/top';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn() }));"), []string{"mock-drift/missing-export:3"}},
		{"the module mocked through a barrel it re-exports", test("import { o } from '../src/viaBarr';", "vi.mock('../src/barrel', () => ({ fetchUser: vi.fn() }));"), []string{"mock-drift/missing-export:3"}},
		// correct mocks
		{"every export the code calls", test("import { summary } from '../src/service';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn(), fetchOrders: vi.fn() }));"), nil},
		{"a partial mock", test("import { summary } from '../src/service';", "vi.mock('../src/api', async (orig) => ({ ...(await orig()), fetchUser: vi.fn() }));"), nil},
		{"a spread", test("import { summary } from '../src/service';", "const rest = { fetchOrders: vi.fn() };\nvi.mock('../src/api', () => ({ ...rest, fetchUser: vi.fn() }));"), nil},
		{"a type-only import", test("import { u } from '../src/typed';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn() }));"), nil},
		{"an export referenced, not called", test("import { u } from '../src/unused';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn() }));"), nil},
		{"not loaded by the test", test("import { u } from '../src/typed';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn() }));"), nil},                        // src/service.ts calls fetchOrders; the test does not load it
		{"a call in a function the test never runs", test("import { user } from '../src/service';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn() }));"), nil}, // summary calls fetchOrders; the test runs user alone
		{"a call in a function the test never runs, another module", test("import { user } from '../src/service';\nimport { fetchUser } from '../src/api';", "vi.mock('../src/api', () => ({ fetchUser: vi.fn() }));\nvi.mocked(fetchUser).mockResolvedValue({ id: 2 });"), nil},
		{"vi.doMock", test("import { summary } from '../src/service';", "vi.doMock('../src/api', () => ({ fetchUser: vi.fn() }));"), nil},
	}
	runPlanted(t, files, cases)
}
