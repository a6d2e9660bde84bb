package testsuite

import (
	"fmt"
	"github.com/oracle-ts/oracle/internal/testenv"
	"slices"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/callgraph"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	return testenv.WriteTree(t, "", files)
}

func load(t *testing.T, files map[string]string, tests, setup []string) *Suite {
	t.Helper()
	p, err := callgraph.NewProgram(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	s, err := New(p, Options{Tests: tests, SetupFiles: setup})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// orders is the seed case's shape: a route test mocks the orders barrel
// through a path alias; the barrel re-exports finalizeOrder from checkout.
var orders = map[string]string{
	"tsconfig.json":          `{"compilerOptions":{"baseUrl":".","paths":{"@app/*":["src/*"]}}}`,
	"src/orders/checkout.ts": "export function finalizeOrder(id: number) { return id; }\n",
	"src/orders/cart.ts":     "export function addItem(id: number) { return id; }\n",
	"src/orders/index.ts":    "export { finalizeOrder } from './checkout';\nexport * from './cart';\n",
	"src/routes.ts":          "import { finalizeOrder } from '@app/orders';\nexport function route(id: number) { return finalizeOrder(id); }\n",
	"test/routes.test.ts": "import { vi, it } from 'vitest';\nimport { route } from '../src/routes';\n\n" +
		"vi.mock('@app/orders', () => ({ finalizeOrder: vi.fn() }));\nit('routes', () => { route(1); });\n",
	"test/checkout.test.ts": "import { it } from 'vitest';\nimport { finalizeOrder } from '../src/orders/checkout';\nit('finalizes', () => { finalizeOrder(1); });\n",
}

// TestCandidatesStopAtTheMockedBarrel: a whole-module mock stops the walk
// at the barrel it replaces, whatever path led there (an alias here); a
// test that imports the defining module directly still loads it.
func TestCandidatesStopAtTheMockedBarrel(t *testing.T) {
	s := load(t, orders, []string{"test/routes.test.ts"}, nil)
	if c := s.Candidates("src/orders/checkout.ts"); len(c) != 0 {
		t.Errorf("the route test counts as loading checkout.ts through the barrel it mocks: %v", c)
	}
	if c := s.Candidates("src/routes.ts"); fmt.Sprint(c) != "[test/routes.test.ts]" {
		t.Errorf("routes.ts candidates %v", c)
	}
	want := `reached only through vi.mock("@app/orders") at test/routes.test.ts:4, which re-exports it from src/orders/checkout.ts`
	if got := s.Explain("src/orders/checkout.ts"); got != want {
		t.Errorf("explain:\n got  %s\n want %s", got, want)
	}
	if got := s.Explain("src/orders/cart.ts"); !strings.Contains(got, `vi.mock("@app/orders") at test/routes.test.ts:4, which re-exports it from src/orders/cart.ts`) {
		t.Errorf("explain (export *): %s", got)
	}
	s = load(t, orders, []string{"test/checkout.test.ts", "test/routes.test.ts"}, nil)
	if c := s.Candidates("src/orders/checkout.ts"); fmt.Sprint(c) != "[test/checkout.test.ts]" {
		t.Errorf("with a direct test: %v", c)
	}
}

// TestCandidatesAreSound: whatever does not stop the walk keeps the module
// a candidate: a function passed as a value (never called by name), a
// partial mock (the real module loads), vi.doMock (static imports load the
// real module), a dynamic import; and a setup file's mock stops it for
// every test.
func TestCandidatesAreSound(t *testing.T) {
	lib := map[string]string{
		"src/purry.ts": "export function purry(fn: (...a: unknown[]) => unknown, args: unknown[]) { return fn(...args); }\n",
		"src/chunk.ts": "import { purry } from './purry';\nexport function chunk(...args: unknown[]) { return purry(chunkImplementation, args); }\nfunction chunkImplementation(a: unknown[]) { return [a]; }\n",
		"src/index.ts": "export * from './chunk';\n",
	}
	for _, tc := range []struct {
		name, test string
		setup      string
		want       string // candidates of src/chunk.ts
	}{
		{"passed as a value", "import { chunk } from '../src';\nit('x', () => chunk([1]));\n", "", "[test/a.test.ts]"},
		{"partial mock", "import { vi } from 'vitest';\nimport { chunk } from '../src';\nvi.mock('../src/chunk', async (importOriginal) => ({ ...(await importOriginal()) }));\n", "", "[test/a.test.ts]"},
		{"partial mock, parameter named orig", "import { vi } from 'vitest';\nimport { chunk } from '../src';\nvi.mock('../src/chunk', async (orig) => ({ ...(await orig()) }));\n", "", "[test/a.test.ts]"},
		{"partial mock, typed io bound to a name", "import { vi } from 'vitest';\nimport { chunk } from '../src';\nvi.mock('../src/chunk', async (io) => { const m = await io<typeof import('../src/chunk')>(); return { ...m, x: vi.fn() }; });\n", "", "[test/a.test.ts]"},
		{"partial mock, vi.importActual spread", "import { vi } from 'vitest';\nimport { chunk } from '../src';\nvi.mock('../src/index', async () => ({ ...(await vi.importActual<typeof import('../src/index')>('../src/index')), x: vi.fn() }));\n", "", "[test/a.test.ts]"},
		{"spy option (the originals run)", "import { vi } from 'vitest';\nimport { chunk } from '../src';\nvi.mock('../src/chunk', { spy: true });\n", "", "[test/a.test.ts]"},
		{"whole mock naming importOriginal", "import { vi } from 'vitest';\nimport { chunk } from '../src';\nvi.mock('../src/chunk', (importOriginal) => ({ chunk: vi.fn() }));\n", "", "[]"},
		{"doMock", "import { vi } from 'vitest';\nimport { chunk } from '../src';\nvi.doMock('../src/chunk', () => ({}));\n", "", "[test/a.test.ts]"},
		{"dynamic import", "it('x', async () => { const m = await import('../src/index'); });\n", "", "[test/a.test.ts]"},
		{"type-only import", "import type { chunk } from '../src';\n", "", "[]"},
		{"require", "const { chunk } = require('../src');\n", "", "[test/a.test.ts]"},
		{"require of packages and fixtures only (a test file vitest lists in node_modules): not a candidate", "const test = require('tape');\nconst data = require('./fixtures/a.json');\ntest('x', (t) => t.end());\n", "", "[]"},
		{"a computed require", "const name = '../src';\nconst m = require(name);\n", "", "[test/a.test.ts]"},
		{"import.meta.glob", "it('x', () => { const ms = import.meta.glob('../src/*.ts'); });\n", "", "[test/a.test.ts]"},
		{"require(, import( and import.meta.glob in strings and comments", "// require('../src'), import(name)\n/* import.meta.glob('../src/*') */\nit('x', () => { const s = \"require(x) import(y)\"; const t = `yarn pack; require(${s}); import(${s})`; expect(s + t).toBeTruthy(); });\n", "", "[]"},
		{"a computed import()", "const name = 'chunk';\nit('x', async () => { await import(`../src/${name}`); });\n", "", "[test/a.test.ts]"},
		{"whole-module mock", "import { vi } from 'vitest';\nimport { chunk } from '../src';\nvi.mock('../src/chunk');\n", "", "[]"},
		{"setup file's mock", "import { chunk } from '../src';\n", "import { vi } from 'vitest';\nvi.mock('../src/index', () => ({}));\n", "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"test/a.test.ts": tc.test}
			for k, v := range lib {
				files[k] = v
			}
			var setup []string
			if tc.setup != "" {
				files["test/setup.ts"] = tc.setup
				setup = []string{"test/setup.ts"}
			}
			s := load(t, files, []string{"test/a.test.ts"}, setup)
			if got := fmt.Sprint(s.Candidates("src/chunk.ts")); got != tc.want && !(tc.want == "[]" && got == "[]") {
				t.Errorf("candidates %s, want %s", got, tc.want)
			}
		})
	}
}

// TestProductionAndProblems: test code is not production (test directories,
// a shared helper that imports vitest, fixtures, type tests, declaration
// files, generated oracles); a test file that does not parse, one written
// for jest, and a type test are problems that run nothing.
func TestProductionAndProblems(t *testing.T) {
	files := map[string]string{
		"src/a.ts":                         "export function a() { return 1; }\n",
		"src/lib/util.ts":                  "export function u() { return 2; }\n",
		"src/a.test-d.ts":                  "import { expectTypeOf } from 'vitest';\n",
		"src/types.d.ts":                   "declare const x: number;\n",
		"src/__testfixtures__/input.ts":    "export const x = 1;\n",
		"src/__oracles__/a.oracle.test.ts": "import { it } from 'vitest';\n",
		"src/kit/render.ts":                "import { vi } from 'vitest';\nexport function render() { return vi.fn(); }\n",
		"test/helpers.ts":                  "export function h() { return 3; }\n",
		"test/ok.test.ts":                  "import { it } from 'vitest';\nimport { a } from '../src/a';\nit('a', () => a());\n",
		"test/broken.test.ts":              "import { it } from 'vitest';\nit('a', () => {\n",
		"test/jest.test.js":                "const { a } = require('../src/a');\n\njest.mock('../src/lib/util');\ntest('a', () => a());\n",
		"test/types.test-d.ts":             "import { expectTypeOf } from 'vitest';\n",
	}
	tests := []string{"test/broken.test.ts", "test/jest.test.js", "test/ok.test.ts", "test/types.test-d.ts"}
	s := load(t, files, tests, nil)
	if got := fmt.Sprint(s.Production); got != "[src/a.ts src/lib/util.ts]" {
		t.Errorf("production %s", got)
	}
	if got := fmt.Sprint(s.Tests); got != "[test/ok.test.ts]" {
		t.Errorf("tests %s", got)
	}
	var got []string
	for _, p := range s.Problems {
		got = append(got, fmt.Sprintf("%s:%d %s", p.File, p.Line, p.Reason))
	}
	want := []string{
		"test/broken.test.ts:3 cannot audit: syntax error: line 3: Unexpected end of file",
		"test/jest.test.js:3 cannot audit: written for jest (it calls jest's API",
		"test/types.test-d.ts:1 a type test: it type-checks, and runs nothing",
	}
	if len(got) != len(want) {
		t.Fatalf("problems %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d: %q, want %q...", i, got[i], want[i])
		}
	}
	if !slices.Contains(s.Candidates("src/a.ts"), "test/ok.test.ts") {
		t.Error("the runnable test is not a candidate of what it imports")
	}
}
