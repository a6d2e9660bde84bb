package analyzer

import (
	"sort"
	"strings"
	"testing"
)

// TestHeldBy: a module-level function value a top-level variable holds without
// calling it (an object literal's method, a callback registered by a call in the
// initializer) runs only when that variable is used; one the module may run as it
// loads (an IIFE, an array method's callback, a statement's, a variable the module
// reads again) is held by nothing.
func TestHeldBy(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // "Qual=HeldBy" of the module-level function values
	}{
		{"a callback registered on a command",
			"import { Command } from 'commander';\nexport const init = new Command().name('init').action(async (opts) => { run(opts); });\n",
			[]string{"init.<arrow>=init"}},
		{"an object literal's methods and properties",
			"export const api = { get() { return 1; }, put: (x: number) => x };\n",
			[]string{"api.get=api", "api.put=api"}},
		{"a callback passed to a local function, inside an object argument",
			"import { make } from './make';\nexport const astro = make({ create: async () => {} });\n",
			[]string{"astro.create=astro"}},
		{"a callback zod keeps: refine",
			"import { z } from 'zod';\nexport const schema = z.string().refine((s) => s.length > 1);\n",
			[]string{"schema.<arrow>=schema"}},
		{"an array method's callback runs as the module loads",
			"export const table = [1, 2].map((n) => n * 2);\nexport const byName = Object.fromEntries(list.filter((x) => x).map((x) => [x, x]));\n",
			[]string{"byName.<arrow>=", "byName.<arrow>~2=", "table.<arrow>="}},
		{"a promise's callbacks, a timer's, new Promise's",
			"export const ready = load().then((x) => x);\nexport const p = new Promise((resolve) => resolve(1));\nexport const t = setTimeout(() => tick(), 5);\n",
			[]string{"p.<arrow>=", "ready.<arrow>=", "t.<arrow>="}},
		{"an IIFE",
			"export const value = (() => compute())();\n",
			[]string{"value.<arrow>="}},
		{"a statement's callback and export default's",
			"program.command('x').action(() => run());\nexport default define({ run() {} });\n",
			[]string{"default.run=", "program.command.action.<arrow>="}},
		{"a variable the module reads again keeps its functions run at load",
			"export const handlers = { a() { return 1; } };\nexport function call() { return handlers.a(); }\n",
			[]string{"handlers.a="}},
		{"export { x as y } is no read",
			"const hooks = { done() {} };\nexport { hooks as buildHooks };\n",
			[]string{"hooks.done=hooks"}},
		{"a variable of a function body is not top-level",
			"export function f() { const o = { m() {} }; return o; }\n",
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse("src/m.ts", []byte(tc.src))
			var got []string
			for _, fn := range f.Functions {
				if fn.Parent == nil && (fn.Kind == FuncProperty || fn.Kind == FuncExpression) {
					got = append(got, fn.Qual+"="+fn.HeldBy)
				}
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got  %v\nwant %v", got, tc.want)
			}
		})
	}
}
