package audit

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// TestMockDrift: a table of finding / no finding; the first is the seed's
// case (the real action returns { success, details: { passed } }, the mock
// returns { passed }, the consumer reads .passed).
func TestMockDrift(t *testing.T) {
	action := "export async function runChecks(id: number) {\n  const passed = id > 0;\n  return { success: true, details: { passed } };\n}\n" +
		"export function version() {\n  return { major: 1 };\n}\n" +
		"export function opaque() {\n  return external();\n}\n" +
		"export function helped() {\n  return build(1);\n}\nfunction build(n: number) { return { total: n, items: [] }; }\n" +
		"export interface Report { count: number; revenue: number }\nexport function typed(): Promise<Report> {\n  return external();\n}\n" +
		"import type { Base } from \"some-pkg\";\nexport interface Rich extends Base { own: number }\nexport function rich(): Rich {\n  return external();\n}\n" +
		"export function later() {\n  return fetch(\"x\").then((r) => r.json());\n}\n" +
		"export function chained() {\n  return runChecks(1);\n}\n" +
		"export function label(): string {\n  return String(external());\n}\n" +
		"export function host() {\n  const context = make();\n  return { context, kind: 1 };\n}\n" +
		"export type Ctx = { run<T>(f: () => T): T; label?: string };\nexport function open(): Ctx | undefined {\n  return make();\n}\n" +
		"export type Loose = { [key: string]: unknown };\nexport function loose(): Loose | undefined {\n  return make();\n}\n"
	for _, tc := range []struct {
		name, mock string
		want       []string // "rule:line"
	}{
		{"the seed's drift: { passed } for { success, details: { passed } }",
			`vi.mock("../src/action", () => ({ runChecks: vi.fn().mockResolvedValue({ passed: true }) }));`,
			[]string{"mock-drift/shape:3"}},
		{"the real shape", `vi.mock("../src/action", () => ({ runChecks: vi.fn().mockResolvedValue({ success: true, details: { passed: false } }) }));`, nil},
		{"a part of the real shape", `vi.mock("../src/action", () => ({ runChecks: vi.fn().mockResolvedValue({ success: false }) }));`, nil},
		{"an export the module does not have", `vi.mock("../src/action", () => ({ runCheck: vi.fn() }));`, []string{"mock-drift/unknown-export:3"}},
		{"resolved where the real function is sync", `vi.mock("../src/action", () => ({ version: vi.fn().mockResolvedValue({ major: 2 }) }));`, []string{"mock-drift/async:3"}},
		{"plain where the real function is async", `vi.mock("../src/action", () => ({ runChecks: vi.fn().mockReturnValue({ success: true }) }));`, []string{"mock-drift/async:3"}},
		{"an implementation", `vi.mock("../src/action", () => ({ version: vi.fn(() => ({ minor: 1 })) }));`, []string{"mock-drift/shape:3"}},
		{"through a local helper", `vi.mock("../src/action", () => ({ helped: vi.fn().mockReturnValue({ sum: 1 }) }));`, []string{"mock-drift/shape:3"}},
		{"through a local helper, the real shape", `vi.mock("../src/action", () => ({ helped: vi.fn().mockReturnValue({ total: 1 }) }));`, nil},
		{"the declared return type", `vi.mock("../src/action", () => ({ typed: vi.fn().mockResolvedValue({ cnt: 1 }) }));`, []string{"mock-drift/shape:3"}},
		{"a Promise-returning function is async", `vi.mock("../src/action", () => ({ typed: vi.fn().mockReturnValue({ count: 1 }) }));`, []string{"mock-drift/async:3"}},
		{"the real value cannot be read: nothing said", `vi.mock("../src/action", () => ({ opaque: vi.fn().mockReturnValue({ z: 1 }) }));`, nil},
		// issue 20 item 1: every way a test sets what a mock returns
		{"vi.mocked(f).mockReturnValue", "vi.mock(\"../src/action\");\nvi.mocked(version).mockReturnValue({ content: 1 });", []string{"mock-drift/shape:4"}},
		{"vi.mocked(f).mockReturnValue, the real shape", "vi.mock(\"../src/action\");\nvi.mocked(version).mockReturnValue({ major: 3 });", nil},
		{"mockReturnValueOnce chained", `vi.mocked(version).mockReturnValueOnce({ major: 1 }).mockReturnValueOnce({ content: 1 });`, []string{"mock-drift/shape:3"}},
		{"mockResolvedValueOnce", `vi.mocked(runChecks).mockResolvedValueOnce({ passed: true });`, []string{"mock-drift/shape:3"}},
		{"mockImplementation", `vi.mocked(version).mockImplementation(() => ({ minor: 2 }));`, []string{"mock-drift/shape:3"}},
		{"a cast to Mock", `(version as unknown as Mock).mockReturnValue({ content: 1 });`, []string{"mock-drift/shape:3"}},
		{"a vi.fn() a factory places", "const mockVersion = vi.fn();\nvi.mock(\"../src/action\", () => ({ version: mockVersion }));\nmockVersion.mockReturnValue({ content: 1 });", []string{"mock-drift/shape:5"}},
		{"a vi.hoisted mock behind a forward", "const mocks = vi.hoisted(() => ({ version: vi.fn() }));\nvi.mock(\"../src/action\", () => ({ version: (...a: unknown[]) => mocks.version(...a) }));\nmocks.version.mockReturnValue({ content: 1 });", []string{"mock-drift/shape:5"}},
		{"vi.spyOn on a namespace import", `vi.spyOn(action, "version").mockReturnValue({ content: 1 });`, []string{"mock-drift/shape:3"}},
		{"a namespace taken by await import", "it(\"x\", async () => {\n  const m = await import(\"../src/action\");\n  vi.mocked(m.version).mockResolvedValue({ major: 1 });\n});", []string{"mock-drift/async:5"}},
		{"names taken by await import", "it(\"x\", async () => {\n  const { version: v } = await import(\"../src/action\");\n  vi.mocked(v).mockReturnValue({ content: 1 });\n});", []string{"mock-drift/shape:5"}},
		{"a vi.fn() of no export", `const other = vi.fn(); other.mockReturnValue({ content: 1 });`, nil},
		{"vitest.mock is vi.mock (issue 17)", `vitest.mock("../src/action", () => ({ runCheck: vi.fn() }));`, []string{"mock-drift/unknown-export:3"}},
		// item 2: async-ness for every value
		{"a string where the real function is async", `vi.mocked(runChecks).mockReturnValue("text" as any);`, []string{"mock-drift/async:3"}},
		{"mockResolvedValueOnce on a sync function", `vi.mocked(version).mockResolvedValueOnce({ major: 1 });`, []string{"mock-drift/async:3"}},
		{"a number implementation of an async function", `vi.mocked(runChecks).mockImplementation(() => 42 as any);`, []string{"mock-drift/async:3"}},
		{"a sync implementation returning a comparison for an async function", "vi.mocked(runChecks).mockImplementation((n: number) => {\n  return n === 1;\n});", []string{"mock-drift/async:3"}},
		{"an implementation returning a || chain says nothing", `vi.mocked(runChecks).mockImplementation((a: any, b: any) => a || b);`, nil},
		{"a string where the declared type is string", `vi.mocked(label).mockReturnValue("x");`, nil},
		{"a resolved string where the declared type is string", `vi.mocked(label).mockResolvedValue("x");`, []string{"mock-drift/async:3"}},
		{"Promise.resolve for an async function", `vi.mocked(runChecks).mockReturnValue(Promise.resolve({ success: true }));`, nil},
		{"undefined says nothing", `vi.mocked(runChecks).mockReturnValue(undefined);`, nil},
		// item 3: no false drift
		{"below a property whose real value is not a literal", `vi.mock("../src/action", () => ({ host: vi.fn(() => ({ context: { extensionPath: "/x" } })) }));`, nil},
		{"a property the real value does not have", `vi.mock("../src/action", () => ({ host: vi.fn(() => ({ contxt: { extensionPath: "/x" } })) }));`, []string{"mock-drift/shape:3"}},
		{"more than the declared interface: the value may be a subtype", `vi.mock("../src/action", () => ({ typed: vi.fn().mockResolvedValue({ count: 1, extra: 2 }) }));`, nil},
		{"the test's own plumbing in a factory", `vi.mock("../src/action", () => ({ __setMockImplementation: vi.fn() }));`, nil},
		{"an interface extending a package's interface", `vi.mock("../src/action", () => ({ rich: vi.fn().mockReturnValue({ own: 1, inherited: true }) }));`, nil},
		{"a promise returned without async: .then", `vi.mock("../src/action", () => ({ later: vi.fn().mockResolvedValue({ a: 1 }) }));`, nil},
		{"a promise returned without async: an async function's call", `vi.mock("../src/action", () => ({ chained: vi.fn().mockResolvedValue({ success: true }) }));`, nil},
		{"a plain value for a function returning an async call", `vi.mock("../src/action", () => ({ chained: vi.fn().mockReturnValue({ success: true }) }));`, []string{"mock-drift/async:3"}},
		// issue 29: a declared `T | undefined` where T is a type alias of an object type
		{"a type alias of an object type, or undefined: no member of it", `vi.mocked(open).mockReturnValue({ execute: vi.fn() } as any);`, []string{"mock-drift/shape:3"}},
		{"a type alias of an object type, or undefined: a member of it", `vi.mocked(open).mockReturnValue({ run: vi.fn() } as any);`, nil},
		{"a type alias with an index signature says nothing", `vi.mocked(loose).mockReturnValue({ execute: 1 });`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeRepo(t, map[string]string{
				"src/action.ts":  action,
				"test/a.test.ts": "import { vi, vitest, it, expect, type Mock } from 'vitest';\nimport { runChecks, version, label, open, loose } from '../src/action'; import * as action from '../src/action';\n" + tc.mock + "\nit('x', async () => { expect((await runChecks(1)).success).toBe(true); });\n",
			})
			rep, err := Audit(context.Background(), root, Options{Tests: []string{"test/a.test.ts"}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				if strings.HasPrefix(f.Rule, "mock-drift") {
					got = append(got, f.Rule+":"+strconv.Itoa(f.Line))
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %v, want %v", got, tc.want)
				for _, f := range rep.Findings {
					t.Log(f.Rule, f.Message)
				}
			}
		})
	}
}

// TestMockDriftWorkspacePackage (issue 20 item 4): a test of one package
// mocks a sibling workspace package that is not built (its exports name
// dist/): the mock is read against the package's sources.
func TestMockDriftWorkspacePackage(t *testing.T) {
	for _, tc := range []struct {
		name, mock string
		want       []string
	}{
		{"an export the sibling does not have", `vi.mock("@ws/lib", () => ({ loadd: vi.fn() }));`, []string{"mock-drift/unknown-export:3"}},
		{"the sibling's shape", `vi.mock("@ws/lib", () => ({ load: vi.fn().mockReturnValue({ content: "" }) }));`, []string{"mock-drift/shape:3"}},
		{"the sibling's real export", `vi.mock("@ws/lib", () => ({ load: vi.fn().mockReturnValue({ text: "" }) }));`, nil},
		{"a sibling with only a main in dist/", `vi.mock("@ws/old", () => ({ legacyy: vi.fn() }));`, []string{"mock-drift/unknown-export:3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeRepo(t, map[string]string{
				"package.json":               `{"private": true, "workspaces": ["packages/*"]}`,
				"packages/lib/package.json":  `{"name": "@ws/lib", "exports": {".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"}}}`,
				"packages/lib/tsconfig.json": `{"compilerOptions": {"outDir": "./dist", "rootDir": "./src"}}`,
				"packages/lib/src/index.ts":  "export function load() {\n  return { text: \"\" };\n}\n",
				"packages/app/package.json":  `{"name": "@ws/app"}`,
				"packages/old/package.json":  `{"name": "@ws/old", "main": "./dist/index.js"}`,
				"packages/old/src/index.ts":  "export function legacy() {\n  return 1;\n}\n",
				"packages/app/test/a.test.ts": "import { vi, it, expect } from 'vitest';\nimport { load } from '@ws/lib';\n" + tc.mock +
					"\nit('x', () => { expect(load().text).toBe(''); });\n",
			})
			rep, err := Audit(context.Background(), root, Options{Tests: []string{"packages/app/test/a.test.ts"}, Paths: []string{"packages/app"}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				if strings.HasPrefix(f.Rule, "mock-drift") {
					got = append(got, f.Rule+":"+strconv.Itoa(f.Line))
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestMockDriftMocksDir (issue 29): a vi.mock without a factory loads the
// __mocks__ file next to the module; the functions it exports are the
// mocks, read as a factory's are, and found on the vi.mock's line.
func TestMockDriftMocksDir(t *testing.T) {
	action := "export async function runChecks(id: number) {\n  return { success: true, details: { passed: id > 0 } };\n}\nexport function version() {\n  return { major: 1 };\n}\n"
	for _, tc := range []struct {
		name, mocks, mock string
		want              []string
	}{
		{"a shape the real function cannot return", "export function version() {\n  return { content: 1 };\n}\n", `vi.mock("../src/action");`, []string{"mock-drift/shape:3"}},
		{"the seed's drift in an arrow", "export const runChecks = async () => ({ passed: true });\n", `vi.mock("../src/action");`, []string{"mock-drift/shape:3"}},
		{"async where the real function is sync", "export async function version() {\n  return { major: 2 };\n}\n", `vi.mock("../src/action");`, []string{"mock-drift/async:3"}},
		{"an export the module does not have", "export function versions() {\n  return [];\n}\n", `vi.mock("../src/action");`, []string{"mock-drift/unknown-export:3"}},
		{"the real shapes", "export function version() {\n  return { major: 2 };\n}\nexport async function runChecks() {\n  return { success: false };\n}\n", `vi.mock("../src/action");`, nil},
		{"a factory: the __mocks__ file is not loaded", "export function version() {\n  return { content: 1 };\n}\n", `vi.mock("../src/action", () => ({ version: () => ({ major: 3 }) }));`, nil},
		{"spy: true: the real module", "export function version() {\n  return { content: 1 };\n}\n", `vi.mock("../src/action", { spy: true });`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeRepo(t, map[string]string{
				"src/action.ts":           action,
				"src/__mocks__/action.ts": tc.mocks,
				"test/a.test.ts":          "import { vi, it, expect } from 'vitest';\nimport { runChecks, version } from '../src/action';\n" + tc.mock + "\nit('x', async () => { expect(version()).toBeDefined(); });\n",
			})
			rep, err := Audit(context.Background(), root, Options{Tests: []string{"test/a.test.ts"}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				if strings.HasPrefix(f.Rule, "mock-drift") {
					got = append(got, f.Rule+":"+strconv.Itoa(f.Line))
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %v, want %v", got, tc.want)
				for _, f := range rep.Findings {
					t.Log(f.Rule, f.Message)
				}
			}
		})
	}
}
