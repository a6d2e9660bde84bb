package gate

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
)

// TestTokenScopeMutants: from a file's two versions, the mutants of the
// function (or of the module's top-level code) that count: those on the
// code the change wrote; a whole construct's (block, object, array,
// return value, forced condition, removed call) only when the change wrote
// the construct.
func TestTokenScopeMutants(t *testing.T) {
	fn := func(body string) string {
		return "export function f(a: number, b: number[]): number {\n" + body + "\n}\n"
	}
	for _, tc := range []struct {
		name, base, head string
		module           bool
		want             []string // "Operator replacement: replaced text"
	}{
		{name: "a literal deep in blocks: the operator of its expression, no block",
			base: fn("  for (const x of b) {\n    if (x > 0) {\n      b.push(x * 1);\n    }\n  }\n  return a;"),
			head: fn("  for (const x of b) {\n    if (x > 0) {\n      b.push(x * 2);\n    }\n  }\n  return a;"),
			want: []string{"ArithmeticOperator /: *", "InlineConstant 3: 2"}},
		{name: "an added operand: its operator, not the old comparison, nor the whole condition",
			base: fn("  if (a < 0) {\n    return 0;\n  }\n  return a;"),
			head: fn("  if (Number.isNaN(a) || a < 0) {\n    return 0;\n  }\n  return a;"),
			want: []string{"ConditionalExpression false: Number.isNaN(a)", "LogicalOperator &&: ||"}},
		{name: "an operand added to a returned chain: its own mutant, not the chain forced",
			base: "export function f(a: number): boolean {\n  return a < 0;\n}\n",
			head: "export function f(a: number): boolean {\n  return Number.isNaN(a) || a < 0;\n}\n",
			want: []string{"ConditionalExpression false: Number.isNaN(a)", "LogicalOperator &&: ||"}},
		{name: "a returned chain written whole: forced too",
			base: "export function f(a: number): boolean {\n  return false;\n}\n",
			head: "export function f(a: number): boolean {\n  return Number.isNaN(a) || a < 0;\n}\n",
			want: []string{"ReturnValue undefined: Number.isNaN(a) || a < 0", "ConditionalExpression true: Number.isNaN(a) || a < 0", "ConditionalExpression false: Number.isNaN(a) || a < 0",
				"ConditionalExpression false: Number.isNaN(a)", "LogicalOperator &&: ||", "ConditionalExpression false: a < 0", "EqualityOperator <=: <", "EqualityOperator >=: <", "InlineConstant 1: 0"}},
		{name: "a number changed deep in an operand: not the operator around the call",
			base: "export function label(n: number): string {\n  return \"id-\" + String(n * 2);\n}\n",
			head: "export function label(n: number): string {\n  return \"id-\" + String(n * 3);\n}\n",
			want: []string{"ArithmeticOperator /: *", "InlineConstant 4: 3"}},
		{name: "a condition changed by a deletion only: the condition forced (nothing else is left to mutate)",
			base: "export function f(a: number, flag: boolean): number {\n  if (!flag) {\n    return 1;\n  }\n  return a;\n}\n",
			head: "export function f(a: number, flag: boolean): number {\n  if (flag) {\n    return 1;\n  }\n  return a;\n}\n",
			want: []string{"ConditionalExpression (true): (flag)", "ConditionalExpression (false): (flag)"}},
		{name: "a new if statement: its condition, block and return",
			base: fn("  return a;"),
			head: fn("  if (a < 0) {\n    return 0;\n  }\n  return a;"),
			want: []string{"ConditionalExpression (true): (a < 0)", "ConditionalExpression (false): (a < 0)", "EqualityOperator <=: <", "EqualityOperator >=: <",
				"InlineConstant 1: 0", "BlockStatement {}: {\n    return 0;\n  }", "ReturnValue undefined: 0", "InlineConstant 1: 0"}},
		{name: "a statement added to a block: its call, not the block nor the old call",
			base: fn("  b.push(1);\n  return a;"),
			head: fn("  b.push(1);\n  b.sort();\n  return a;"),
			want: []string{"CallStatementRemoval : b.sort();", "MethodExpression b: b.sort()"}},
		{name: "a call's argument changed: not the call's removal",
			base: fn("  b.push(a);\n  return a;"),
			head: fn("  b.push(a + 1);\n  return a;"),
			want: []string{"ArithmeticOperator -: +", "InlineConstant 0: 1"}},
		{name: "a call on a new receiver: its removal counts",
			base: fn("  Object.values(b).forEach((x) => a + x);\n  return a;"),
			head: fn("  b.forEach((x) => a + x);\n  return a;"),
			want: []string{"CallStatementRemoval : b.forEach((x) => a + x);"}},
		{name: "a new loop around kept braces: its block counts",
			base: fn("  b.forEach((x) => {\n    a += x;\n  });\n  return a;"),
			head: fn("  for (const x of b) {\n    a += x;\n  }\n  return a;"),
			want: []string{"BlockStatement {}: {\n    a += x;\n  }"}},
		{name: "a return value rewritten whole",
			base: fn("  return a;"),
			head: fn("  return b.length;"),
			want: []string{"ReturnValue undefined: b.length"}},
		{name: "a return value changed in part: not the return",
			base: fn("  return a + 1;"),
			head: fn("  return a + 2;"),
			want: []string{"ArithmeticOperator -: +", "InlineConstant 3: 2"}},
		{name: "an object property added: not the object",
			base: "export const L = { min: 1 };\n",
			head: "export const L = { min: 1, max: 10 * 3 };\n", module: true,
			want: []string{"InlineConstant 11: 10", "ArithmeticOperator /: *", "InlineConstant 4: 3"}},
		{name: "a new top-level object, a function's code apart",
			base: "export function g() {\n  return 1;\n}\n",
			head: "export const L = { max: 10 * 3 };\nexport function g() {\n  return 2 * 1;\n}\n", module: true,
			want: []string{"ObjectLiteral {}: { max: 10 * 3 }", "InlineConstant 11: 10", "ArithmeticOperator /: *", "InlineConstant 4: 3"}},
		{name: "a new import and re-export: no mutant of a module specifier",
			base: "export const a = 1;\n",
			head: "import { x } from \"./x\";\nexport { y } from \"./y\";\nexport const a = 1;\nexport const b = x + \"s\";\n", module: true,
			want: []string{"ArithmeticOperator -: +", "StringLiteral \"\": \"s\""}},
		{name: "a static block is a function of its own (C.<static>); the instance field's change is not in it",
			base: "export class C {\n  static s = 0;\n  f = 1 + 1;\n  static {\n    C.s = 1 + 1;\n  }\n}\n",
			head: "export class C {\n  static s = 0;\n  f = 1 + 2;\n  static {\n    C.s = 1 + 2;\n  }\n}\n",
			want: []string{"ArithmeticOperator -: +", "InlineConstant 3: 2"}},
		{name: "an arrow changed inside a chain: not the chain's later call dropped (hono 13a9481e)",
			base: "export function f(p: Record<string, string>): string {\n  return Object.entries(p).map(([k, v]) => k + v).filter(Boolean).join(', ');\n}\n",
			head: "export function f(p: Record<string, string>): string {\n  return Object.entries(p).map(([k, v]) => k + v + 1).filter(Boolean).join(', ');\n}\n",
			want: []string{"ArithmeticOperator -: +", "InlineConstant 0: 1"}},
		{name: "a call added to a chain: its drop counts",
			base: "export function f(b: number[]): number[] {\n  return b.map((x) => x);\n}\n",
			head: "export function f(b: number[]): number[] {\n  return b.map((x) => x).filter(Boolean);\n}\n",
			want: []string{"MethodExpression b.map((x) => x): b.map((x) => x).filter(Boolean)"}},
		{name: "a call changed under `?.` and `!`: not the chain's `?.` nor the `!`",
			base: "export function f(a: { ok(n: number): boolean } | undefined): boolean {\n  return !a?.ok(1);\n}\n",
			head: "export function f(a: { ok(n: number): boolean } | undefined): boolean {\n  return !a?.ok(2);\n}\n",
			want: []string{"InlineConstant 3: 2"}},
		{name: "a negated name changed: the negation's removal counts",
			base: "export function f(a: boolean, b: boolean): boolean {\n  return !a;\n}\n",
			head: "export function f(a: boolean, b: boolean): boolean {\n  return !b;\n}\n",
			want: []string{"BooleanLiteral b: !b"}},
		{name: "a regular expression changed: its Regex mutants, the whole literal each",
			base: fn("  return /\\d+/.test(String(a)) ? 1 : 0;"),
			head: fn("  return /^\\d+$/.test(String(a)) ? 1 : 0;"),
			want: []string{`Regex /\d+$/: /^\d+$/`, `Regex /^\D+$/: /^\d+$/`, `Regex /^\d$/: /^\d+$/`, `Regex /^\d+/: /^\d+$/`}},
		{name: "a regular expression on a changed line, itself unchanged: none",
			base: fn("  return /^\\d+$/.test(String(a)) ? 1 : 0;"),
			head: fn("  return /^\\d+$/.test(String(a)) ? 2 : 0;"),
			want: []string{"InlineConstant 3: 2"}},
		{name: "RegExp's pattern changed: its Regex mutants; its flags changed: the pattern's too",
			base: fn("  return new RegExp(\"^a\", \"g\").test(String(a)) || /^b$/.test(String(a)) ? 1 : 0;"),
			head: fn("  return new RegExp(\"^a$\", \"g\").test(String(a)) || /^b$/i.test(String(a)) ? 1 : 0;"),
			want: []string{`ConditionalExpression false: new RegExp("^a$", "g").test(String(a))`, `StringLiteral "": "^a$"`, `Regex "a$": "^a$"`, `Regex "^a": "^a$"`,
				`ConditionalExpression false: /^b$/i.test(String(a))`, `Regex /b$/i: /^b$/i`, `Regex /^b/i: /^b$/i`}},
		{name: "a condition rewritten whole",
			base: "export const d = a ? \";\" : \":\";\n",
			head: "export const d = b ? \";\" : \":\";\n", module: true,
			want: []string{"ConditionalExpression true: b", "ConditionalExpression false: b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.head)
			_, syn := analyzer.ParseSyntax("src/f.ts", src)
			changed := change.Diff("src/f.ts", []byte(tc.base), src)
			var j *job
			if tc.module {
				j, _ = moduleJob("src/f.ts", src, changed, analyzer.Parse("src/f.ts", src).Functions, Options{}, nil, nil)
				if j == nil {
					t.Fatal("no module target")
				}
			} else {
				file := analyzer.Parse("src/f.ts", src)
				j = &job{target: &Target{ID: "src/f.ts#f", File: "src/f.ts"}, fn: file.Functions[0], changed: changed}
			}
			all := jobMutants("src/f.ts", src, syn, j.fn, Arid{})
			got := []string{}
			for _, mu := range targetMutants("src/f.ts", src, syn, j, nil, Options{}) {
				m := mu.edit
				if mu.job != j || mu.index >= len(all) || !reflect.DeepEqual(all[mu.index], m) {
					t.Errorf("%s %s: index %d is not its place among the target's %d mutants", m.Operator, m.Replacement, mu.index, len(all))
				}
				got = append(got, fmt.Sprintf("%s %s: %s", m.Operator, m.Replacement, src[m.Original.Start.Offset:m.Original.End.Offset]))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("mutants\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestFieldsTarget: a class's <fields> is its instance initializers: a
// change in a method between them is not its, and its mutants are theirs
// (not the method's, the static field's, the arrow field's).
func TestFieldsTarget(t *testing.T) {
	base := "export class C {\n  static s = 1;\n  a = 1;\n  m() { return 2; }\n  f = () => 4;\n  #b = [3];\n}\n"
	for _, tc := range []struct {
		name, head string
		holds      bool
	}{
		{"a method between the fields", strings.Replace(base, "return 2", "return 5", 1), false},
		{"a private field's initializer", strings.Replace(base, "#b = [3]", "#b = [3, 6]", 1), true},
		{"the static field", strings.Replace(base, "static s = 1", "static s = 7", 1), false},
		{"the arrow field", strings.Replace(base, "() => 4", "() => 8", 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.head)
			var fields *analyzer.Function
			for _, fn := range analyzer.Parse("src/c.ts", src).Functions {
				if fn.Qual == "C."+FieldsTarget {
					fields = fn
				}
			}
			if fields == nil {
				t.Fatal("no C.<fields>")
			}
			changed := change.Diff("src/c.ts", []byte(base), src)
			if got := holds(changed, fields, "src/c.ts", src); got != tc.holds {
				t.Errorf("holds %v, want %v", got, tc.holds)
			}
			_, syn := analyzer.ParseSyntax("src/c.ts", src)
			var got []string
			for _, m := range jobMutants("src/c.ts", src, syn, fields, Arid{}) {
				got = append(got, fmt.Sprintf("%s %s", m.Operator, src[m.Original.Start.Offset:m.Original.End.Offset]))
			}
			want := []string{"InlineConstant 1", "ArrayDeclaration [3]", "InlineConstant 3"}
			if tc.holds {
				want = []string{"InlineConstant 1", "ArrayDeclaration [3, 6]", "InlineConstant 3", "InlineConstant 6"}
			}
			if !slices.Equal(got, want) {
				t.Errorf("mutants %q, want %q", got, want)
			}
		})
	}
}
