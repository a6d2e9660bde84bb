package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/operators"
)

// TestReverts: where the change wrote code no operator's mutant touches, a
// revert mutant restores the base's code there (a deleted statement put
// back, a replaced call, key or callee restored, each of several inserted
// statements removed), and a name the base's code needs that the change
// removed is restored with it; where a mutant of the change's own code
// exists, there is no revert.
func TestReverts(t *testing.T) {
	fn := func(body string) string {
		return "import { EmptyObject } from \"./empty\";\nexport function f(a: any, b: any) {\n" + body + "\n}\n"
	}
	for _, tc := range []struct {
		name, base, head string
		module           bool
		want             []string // "line: head text => restored text" (the blanks both share left out), then the file as reverted when it restores more
		notes            []string
	}{
		{name: "a statement deleted",
			base: fn("  a.x = b;\n  a.y = b;\n  return a;"),
			head: fn("  a.x = b;\n  return a;"),
			want: []string{"3: ; => ;\n  a.y = b;"}},
		{name: "a constructor replaced, the import the change removed restored",
			base: fn("  const o = new EmptyObject();\n  return o;"),
			head: strings.Replace(fn("  const o = Object.create(null);\n  return o;"), "import { EmptyObject } from \"./empty\";\n", "", 1),
			want: []string{"2: Object.create(null) => new EmptyObject() +import { EmptyObject } from \"./empty\";"}}, // every replaced token gets its revert (SPEC): a refactor's equivalent survives, as the SPEC accepts
		{name: "a constructor deleted from an expression, the import the change removed restored",
			base: fn("  const o = a ?? new EmptyObject();\n  return o;"),
			head: strings.Replace(fn("  const o = a;\n  return o;"), "import { EmptyObject } from \"./empty\";\n", "", 1),
			want: []string{"2: ; =>  ?? new EmptyObject(); +import { EmptyObject } from \"./empty\";"}},
		{name: "an argument's name swapped for another the function uses (vuejs/core be7ce314b): the old one restored",
			base: fn("  const c = a.child;\n  return g(a, b);"),
			head: fn("  const c = a.child;\n  return g(c, b);"),
			want: []string{"4: c => a"}},
		{name: "a name renamed everywhere: no revert (the old name is gone)",
			base: fn("  const c = a.child;\n  return g(c, b);"),
			head: fn("  const kid = a.child;\n  return g(kid, b);"),
			want: []string{}},
		{name: "a callee swapped for another the module still imports: the old one restored (issue 41: every replaced token)",
			base: "import { foo, bar } from \"./fns\";\nexport function f(a: any, b: any) {\n  return g(foo(a), b);\n}\n",
			head: "import { foo, bar } from \"./fns\";\nexport function f(a: any, b: any) {\n  return g(bar(a), b);\n}\n",
			want: []string{"3: bar => foo"}},
		{name: "a constructor replaced under `// oracle-disable-next-line`: no revert (a refactor the reviewer knows is equivalent)",
			base: fn("  const o = a ?? new Map();\n  return o;"),
			head: fn("  // oracle-disable-next-line\n  const o = a ?? Object.create(null);\n  return o;"),
			want: []string{}},
		{name: "a callee replaced in an argument",
			base: fn("  return g(foo(a), b);"),
			head: fn("  return g(bar(a), b);"),
			want: []string{"3: bar => foo"}},
		{name: "a loop's header replaced (defu 11ba022: for-in over inherited keys, now own keys): the old header restored",
			base: fn("  for (const key in a) {\n    b[key] = a[key];\n  }\n  return b;"),
			head: fn("  for (const key of Object.keys(a)) {\n    b[key] = a[key];\n  }\n  return b;"),
			want: []string{"3: of Object.keys(a) => in a"}},
		{name: "a type assertion and its parentheses added (defu 11ba022's `(o as Record<string, any>)[k]`): the same program, no revert",
			base: fn("  return a[b];"),
			head: fn("  return (a as Record<string, any>)[b];"),
			want: []string{}},
		{name: "a re-export's module specifier changed: no revert (no test pins a module specifier)",
			module: true,
			base:   "export { f } from \"./find-all\";\nexport const n = 1 + 1;\n",
			head:   "export { f } from \"./match\";\nexport const n = 1 + 2;\n",
			want:   []string{"2: 2 => 1"}}, // the literal's revert alone
		{name: "a local the change removed, its use replaced: its declaration restored with the revert (not a ReferenceError)",
			base: fn("  const c = a.child;\n  return g(c, b);"),
			head: fn("  return g(h(a), b);"),
			want: []string{"3: h(a) => c restored:\nimport { EmptyObject } from \"./empty\";\nexport function f(a: any, b: any) {\nconst c = a.child;\n\n  return g(c, b);\n}\n"}},
		{name: "a parameter the change removed, its use replaced: no revert (a ReferenceError), a note says why",
			base:  "export function f(a: any, b: any, c: any) {\n  return g(c, b);\n}\n",
			head:  "export function f(a: any, b: any) {\n  return g(h(a), b);\n}\n",
			want:  []string{"1: : any => : any, c: any"}, // the deleted parameter put back: a caller's third argument is its again
			notes: []string{"src/f.ts:2: no revert mutant of the change there: it uses c, which the change removed (restored, a ReferenceError, not a test's verdict)"}},
		{name: "a parameter the change added, read by its new code (class-validator b0d4a23): not removed alone (a ReferenceError), its uses have their own mutants",
			base: "export function f(a: any) {\n  return g(a);\n}\n",
			head: "export function f(a: any, opts?: any) {\n  return g(a, opts);\n}\n",
			want: []string{"2: , opts => "}},
		{name: "a parameter the change added that nothing reads: no revert (the same program, an equivalent mutant)",
			base: "export function f(a: any) {\n  return g(a);\n}\n",
			head: "export function f(a: any, opts?: any) {\n  return g(a);\n}\n",
			want: []string{}},
		{name: "a parameter property the change added (a field assigned): removed",
			base: "export class C {\n  constructor(a: any) {}\n}\n",
			head: "export class C {\n  constructor(a: any, private readonly db?: any) {}\n}\n",
			want: []string{"2: : any, private readonly db?: any => : any"}},
		{name: "a regular expression changed (hono eea9735f): the old one restored, beside its Regex mutants (`^`, `$` removed: nothing of the `|c`)",
			base: fn("  return /^(a|b)$/.test(a);"),
			head: fn("  return /^(a|b|c)$/.test(a);"),
			want: []string{"3: /^(a|b|c)$/ => /^(a|b)$/"}},
		{name: "a string's value changed: its revert beside its StringLiteral mutant (issue 41)",
			base: fn("  return g(a, \"x-id\");"),
			head: fn("  return g(a, \"x-request-id\");"),
			want: []string{"3: \"x-request-id\" => \"x-id\""}},
		{name: "a logging call deleted: arid, no revert",
			base: fn("  console.log(a);\n  await logger.info(b);\n  return a;"),
			head: fn("  return a;"),
			want: []string{}},
		{name: "a logging call inserted: arid, no revert",
			base: fn("  a.n = b;\n  return a;"),
			head: fn("  a.n = b;\n  logger.debug(a);\n  return a;"),
			want: []string{}},
		{name: "a name read through a new variable (es-toolkit 617056089): its declaration is not removed alone",
			base: fn("  return a[b];"),
			head: fn("  const k = b as string;\n  return a[k];"),
			want: []string{}},
		{name: "the same after a statement (es-toolkit 617056089 omitBy)",
			base: fn("  const key = a[0];\n  const value = b[key];\n  return value;"),
			head: fn("  const key = a[0];\n  const objectKey = key as string;\n  const value = b[objectKey];\n  return value;"),
			want: []string{}},
		{name: "a variable extracted (cookie-es 8597643's isObj): restored, the same value, no revert",
			base: fn("  const c = a.c;\n  const o = typeof a === \"object\" ? a : b;\n  return o;"),
			head: fn("  const isObj = typeof a === \"object\";\n  const c = a.c;\n  const o = isObj ? a : b;\n  return o;"),
			want: []string{}},
		{name: "a variable extracted from an expression of parameters the change renamed (cookie-es 8597643: _name → _a0): the same value, no revert",
			base: "export function f(x: any, b: any) {\n  const c = x.c;\n  const o = typeof x === \"object\" ? x : b;\n  return o;\n}\n",
			head: "export function f(a0: any, b: any) {\n  const isObj = typeof a0 === \"object\";\n  const c = a0.c;\n  const o = isObj ? a0 : b;\n  return o;\n}\n",
			want: []string{}},
		{name: "a variable inlined, its declaration deleted: restored, the same value, no revert",
			base: fn("  const isObj = typeof a === \"object\";\n  const c = a.c;\n  const o = isObj ? a : b;\n  return o;"),
			head: fn("  const c = a.c;\n  const o = typeof a === \"object\" ? a : b;\n  return o;"),
			want: []string{}},
		{name: "a call extracted into a variable: it may give another value where it is read, the revert kept",
			base: fn("  const c = a.c;\n  const o = a.next() ? a : b;\n  return o;"),
			head: fn("  const n = a.next();\n  const c = a.c;\n  const o = n ? a : b;\n  return o;"),
			want: []string{"5: n => a.next()"}},
		{name: "two statements inserted, one with a mutant: the other removed",
			base: fn("  return a;"),
			head: fn("  a.n = b;\n  a.m = b + 1;\n  return a;"),
			want: []string{"3: a.n = b; => "}},
		{name: "a literal changed: its revert beside its own mutants (issue 41: the old value is the one a test must tell apart)",
			base: fn("  return a * 1;"),
			head: fn("  return a * 2;"),
			want: []string{"3: 2 => 1"}},
		{name: "a number written otherwise, the same value: no revert",
			base: fn("  return a * 1.2;"),
			head: fn("  return a * 1.20;"),
			want: []string{}},
		{name: "an operator changed: its revert (the boundary mutant's program: the gate keeps one)",
			base: fn("  return a > b;"),
			head: fn("  return a >= b;"),
			want: []string{"3: >= => >"}},
		{name: "a condition changed by a deletion: forced true and false, no revert",
			base: fn("  if (!a) {\n    return 1;\n  }\n  return 2;"),
			head: fn("  if (a) {\n    return 1;\n  }\n  return 2;"),
			want: []string{}},
		{name: "a declaration the change deleted, restored with the code that uses it",
			base: "const K = 3;\nexport function f(a: number) {\n  return a + K;\n}\n",
			head: "export function f(a: number) {\n  return a;\n}\n",
			want: []string{"2: ; =>  + K; +const K = 3;"}},
		{name: "a top-level statement deleted: <module>, the statement put back", module: true,
			base: "export const names: string[] = [];\nnames.push(\"a\");\nnames.push(\"b\");\n",
			head: "export const names: string[] = [];\nnames.push(\"a\");\n",
			want: []string{"2: ; => ;\nnames.push(\"b\");"}},
		{name: "an unused declaration deleted: dead code, no revert", module: true,
			base: "import { x } from \"./x\";\nexport type T = string;\nconst OLD = (() => 1)() as unknown as number;\nexport const n = x + 1;\n",
			head: "import { x } from \"./x\";\nexport const n = x + 2;\n",
			want: []string{"2: 2 => 1"}}, // the literal's revert alone
		{name: "an import removed alone: no revert", module: true,
			base: "import { x } from \"./x\";\nexport const n = 1 + 1;\n",
			head: "export const n = 1 + 2;\n",
			want: []string{"1: 2 => 1"}}, // the literal's revert alone
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.head)
			_, syn := analyzer.ParseSyntax("src/f.ts", src)
			changed, base := change.DiffBase("src/f.ts", []byte(tc.base), src)
			file := analyzer.Parse("src/f.ts", src)
			var j *job
			if tc.module {
				if j, _ = moduleJob("src/f.ts", src, changed, file.Functions, Options{}, base, nil); j == nil {
					t.Fatal("no module target")
				}
			} else {
				j = &job{target: &Target{ID: "src/f.ts#f", File: "src/f.ts"}, fn: file.Functions[0], changed: changed}
			}
			var counted []edit.Mutant
			for _, mu := range targetMutants("src/f.ts", src, syn, j, nil, Options{}) {
				counted = append(counted, mu.edit)
			}
			ms, notes := reverts("src/f.ts", src, syn, j, changed, counted, base, Arid{Loggers: []string{"logger"}}, nil)
			got := []string{}
			for _, m := range ms {
				if m.Operator != operators.Revert.Name {
					t.Errorf("operator %s", m.Operator)
				}
				s := fmt.Sprintf("%d: %s => %s", m.Original.Start.Line, src[m.Original.Start.Offset:m.Original.End.Offset], m.Replacement)
				applied := string(src[:m.Original.Start.Offset]) + m.Replacement + string(src[m.Original.End.Offset:])
				switch {
				case applied == string(m.Source()):
				case strings.HasSuffix(string(m.Source()), applied):
					s += " +" + strings.TrimSpace(strings.TrimSuffix(string(m.Source()), applied))
				default:
					s += " restored:\n" + string(m.Source())
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("reverts\n%s\nwant\n%s\n(%q)", strings.Join(got, "\n"), strings.Join(tc.want, "\n"), got)
			}
			if !slices.Equal(notes, tc.notes) {
				t.Errorf("notes %q, want %q", notes, tc.notes)
			}
		})
	}
}

// TestImportableFrom: an import a revert restores resolves at the head
// when its relative module is a file there and, if the change touched it,
// still exports the name; a function renamed in its module (`total` →
// `sum`: restored, `total` would be undefined, its call a TypeError
// "kill") or a module deleted does not; a package's import is taken as
// importable.
func TestImportableFrom(t *testing.T) {
	root := t.TempDir()
	head := map[string]string{
		"src/sum.ts":  "export function sum(xs: number[]) {\n  return xs.length;\n}\nexport const kept = 1;\n",
		"src/util.ts": "export const u = 1;\n",
	}
	for f, body := range head {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, b := change.DiffBase("src/sum.ts", []byte("export function total(xs: number[]) {\n  return xs.length;\n}\nexport const kept = 1;\n"), []byte(head["src/sum.ts"]))
	importable := importableFrom(root, "src/mean.ts", change.Bases{"src/sum.ts": b})
	for _, tc := range []struct {
		spec, name string
		want       bool
	}{
		{"./sum", "total", false}, // renamed by the change
		{"./sum", "sum", true},
		{"./sum", "kept", true},
		{"./sum.js", "kept", true}, // a .js specifier of a .ts module
		{"./sum", "*", true},
		{"./util", "u", true},      // not in the change
		{"./path", "*", false},     // no such module: deleted
		{"node:path", "sep", true}, // a package's
	} {
		if got := importable(tc.spec, tc.name); got != tc.want {
			t.Errorf("importable(%q, %q) = %v, want %v", tc.spec, tc.name, got, tc.want)
		}
	}
}
