package audit

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// staticSample is a sample where the measured audit finds 8 blind
// functions: two reached only through a vi.mock'd barrel, two imported by
// name and never read (by the test, by a module it loads), two of
// namespaces read only as `ns.name`, a class's method never called, and a
// function read but not called.
var staticSample = map[string]string{
	"src/orders/checkout.ts": "export function finalizeOrder(id: number) {\n  return id + 1;\n}\n",
	"src/orders/cart.ts":     "export function addItem(id: number) {\n  return id * 2;\n}\n",
	"src/orders/index.ts":    "export { finalizeOrder } from './checkout';\nexport * from './cart';\n",
	"src/routes.ts":          "import { finalizeOrder, addItem } from './orders';\nexport function route(id: number) {\n  return finalizeOrder(id) + addItem(id);\n}\n",
	"src/util.ts": "export function used(n: number) {\n  return n + 1;\n}\nexport function importedNeverReferenced(n: number) {\n  return n - 1;\n}\n" +
		"export function viaNamespaceUnused(n: number) {\n  return n * 3;\n}\nexport function referencedNotCalled(n: number) {\n  return n * 4;\n}\n",
	"src/ns.ts":      "export function nsUsed(n: number) {\n  return n + 10;\n}\nexport function nsUnused(n: number) {\n  return n - 10;\n}\n",
	"src/svc.ts":     "import { helperUsed, helperDead } from './helpers';\nimport * as u from './util';\nexport function svc(n: number) {\n  return helperUsed(n) + u.used(0);\n}\n",
	"src/helpers.ts": "export function helperUsed(n: number) {\n  return n + 100;\n}\nexport function helperDead(n: number) {\n  return n - 100;\n}\n",
	"src/klass.ts":   "export class Box {\n  open() {\n    return 1;\n  }\n  close() {\n    return 2;\n  }\n}\n",
	"test/routes.test.ts": "import { expect, it, vi } from 'vitest';\nimport { route } from '../src/routes';\n" +
		"vi.mock('../src/orders', () => ({ finalizeOrder: vi.fn(() => 1), addItem: vi.fn(() => 2) }));\nit('routes', () => {\n  expect(route(1)).toBe(3);\n});\n",
	"test/util.test.ts": "import { expect, it } from 'vitest';\nimport { used, importedNeverReferenced, referencedNotCalled } from '../src/util';\n" +
		"import * as ns from '../src/ns';\nimport { svc } from '../src/svc';\nimport { Box } from '../src/klass';\n" +
		"it('uses', () => {\n  expect(used(1)).toBe(2);\n  expect(typeof referencedNotCalled).toBe('function');\n  expect(ns.nsUsed(1)).toBe(11);\n  expect(svc(1)).toBe(102);\n  expect(new Box().open()).toBe(1);\n});\n",
}

// TestStaticBlindSample (issue 41): audit --static finds the blind
// functions the code alone shows soundly: a barrel's functions reached
// only through its vi.mock, an import never read (it takes no name), a
// namespace read only as `ns.name` (it takes those names). A method of a
// class the test constructs and a function the test reads without calling
// stay unreported: a reference may run them, and only the measured audit
// can tell. A namespace passed whole takes every name.
func TestStaticBlindSample(t *testing.T) {
	blind := func(t *testing.T, files map[string]string) []string {
		rep, err := Audit(context.Background(), writeRepo(t, files), Options{Tests: []string{"test/routes.test.ts", "test/util.test.ts"}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range rep.Findings {
			if f.Rule == "blind-function" {
				name, _, _ := strings.Cut(f.Message, ":")
				out = append(out, f.File+" "+name)
			}
		}
		slices.Sort(out)
		return out
	}
	want := "[src/helpers.ts helperDead src/ns.ts nsUnused src/orders/cart.ts addItem src/orders/checkout.ts finalizeOrder src/util.ts importedNeverReferenced src/util.ts viaNamespaceUnused]"
	if got := fmt.Sprint(blind(t, staticSample)); got != want {
		t.Errorf("static blind functions:\n got %s\nwant %s", got, want)
	}
	whole := map[string]string{}
	for k, v := range staticSample {
		whole[k] = v
	}
	whole["test/util.test.ts"] = strings.Replace(staticSample["test/util.test.ts"], "it('uses', () => {\n", "it('uses', () => {\n  expect(Object.keys(ns)).toHaveLength(2);\n", 1)
	whole["src/svc.ts"] = strings.Replace(staticSample["src/svc.ts"], "import { helperUsed, helperDead }", "import { helperUsed, helperDead as _hd }", 1) + "export const all = [_hd];\n"
	want = "[src/orders/cart.ts addItem src/orders/checkout.ts finalizeOrder src/util.ts importedNeverReferenced src/util.ts viaNamespaceUnused]"
	if got := fmt.Sprint(blind(t, whole)); got != want {
		t.Errorf("a namespace passed whole, a name read: static blind functions:\n got %s\nwant %s", got, want)
	}
}
