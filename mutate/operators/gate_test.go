package operators

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
)

func gateMutants(t *testing.T, src string, arid Arid) []string {
	t.Helper()
	f, syn := analyzer.ParseSyntax("x.ts", []byte(src))
	var out []string
	for _, m := range Gate("x.ts", []byte(src), syn, f.Functions[0], arid) {
		out = append(out, fmt.Sprintf("%s %d:%d %q", m.Operator, m.Original.Start.Line, m.Original.Start.Column, m.Replacement))
	}
	return out
}

// TestGate: the gate's driver over whole functions: every operator of the
// gate's set, in source order (by start, the longer change first, the
// registry's order within a node), the arid code left alone.
func TestGate(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		arid      Arid
		want      []string
	}{
		{"equality and boundary", "function f(a: number) {\n  return a >= 1;\n}\n", Arid{}, []string{
			`BlockStatement 1:23 "{}"`, `ReturnValue 2:10 "undefined"`, `EqualityOperator 2:12 ">"`, `EqualityOperator 2:12 "<"`, `InlineConstant 2:15 "0"`}},
		{"logical and boolean", "function f(a: boolean, b: boolean) {\n  const c = a && !b;\n  return true;\n}\n", Arid{}, []string{
			`BlockStatement 1:36 "{}"`, `ConditionalExpression 2:13 "true"`, `ConditionalExpression 2:13 "false"`, `ConditionalExpression 2:13 "true"`,
			`LogicalOperator 2:15 "||"`, `ConditionalExpression 2:18 "true"`, `BooleanLiteral 2:18 "b"`, `ReturnValue 3:10 "undefined"`, `BooleanLiteral 3:10 "false"`}},
		{"arithmetic and update", "function f(a: number) {\n  let i = a * 2;\n  i++;\n}\n", Arid{}, []string{
			`BlockStatement 1:23 "{}"`, `ArithmeticOperator 2:13 "/"`, `InlineConstant 2:15 "3"`, `UpdateOperator 3:3 "i--"`}},
		{"conditional, block, string, call statement", "async function f(a: boolean) {\n  if (a) {\n    await save(\"x\");\n  }\n}\n", Arid{}, []string{
			`BlockStatement 1:30 "{}"`, `ConditionalExpression 2:6 "(true)"`, `ConditionalExpression 2:6 "(false)"`, `BlockStatement 2:10 "{}"`,
			`CallStatementRemoval 3:5 ""`, `StringLiteral 3:16 "\"\""`}},
		{"a brace-less body: the call becomes the empty statement", "function f(verbose: boolean, msg: string, log: string[]) {\n  if (verbose) log.push(msg);\n  return log;\n}\n", Arid{}, []string{
			`BlockStatement 1:58 "{}"`, `ConditionalExpression 2:6 "(true)"`, `ConditionalExpression 2:6 "(false)"`,
			`CallStatementRemoval 2:16 ";"`, `ReturnValue 3:10 "undefined"`}},
		{"a parameter's default value (vueuse e9fe32c9a), before the body", "function f(a: number, b = false, c: number = a * 2) {\n  return b;\n}\n", Arid{}, []string{
			`BooleanLiteral 1:27 "true"`, `ArithmeticOperator 1:48 "/"`, `InlineConstant 1:50 "3"`, `BlockStatement 1:53 "{}"`, `ReturnValue 2:10 "undefined"`}},
		{"arid: console is never mutated", "function f(a: number) {\n  console.log(\"a\", a > 1);\n  logger.info(\"b\");\n}\n", Arid{}, []string{
			`BlockStatement 1:23 "{}"`, `CallStatementRemoval 3:3 ""`, `StringLiteral 3:15 "\"\""`}},
		{"arid: a configured logger", "function f(a: number) {\n  logger.info(\"b\", a > 1);\n  return a;\n}\n", Arid{Loggers: []string{"logger"}}, []string{
			`BlockStatement 1:23 "{}"`, `ReturnValue 3:10 "undefined"`}},
		{"arid: a configured logger object called as a whole", "function f(a: number) {\n  log(\"b\", a > 1);\n  log.x(a - 1);\n}\n", Arid{Loggers: []string{"log"}}, []string{
			`BlockStatement 1:23 "{}"`}},
		{"oracle-disable-next-line", "function f(a: number) {\n  // oracle-disable-next-line\n  return a + 1;\n}\n", Arid{}, []string{
			`BlockStatement 1:23 "{}"`}},
		{"type-only code", "function f(a: Array<1 | 2>) {\n  const b: \"x\" | \"y\" = g<\"z\">(a as any);\n}\n", Arid{}, []string{
			`BlockStatement 1:29 "{}"`}},
		{"types inside expressions: as, satisfies, angle-bracket assertions, local types", "function f(a: unknown) {\n  const b = [a].filter(Boolean) as string[];\n  const c = a as \"x\";\n  const d = { k: 1 } satisfies { k: 1 | 2 };\n  type L = \"p\" | true;\n  interface I { m: \"q\" }\n  return [b, c, d];\n}\n", Arid{}, []string{
			`BlockStatement 1:24 "{}"`, `MethodExpression 2:13 "[a]"`, `ArrayDeclaration 2:13 "[]"`, `ObjectLiteral 4:13 "{}"`,
			`InlineConstant 4:18 "0"`, `ReturnValue 7:10 "undefined"`, `ArrayDeclaration 7:10 "[]"`}},
		{"unary, optional chaining, object, method expression", "function f(a: { b?: { c: string } }, n: number) {\n  const o = { k: -n };\n  return a.b?.c.toUpperCase();\n}\n", Arid{}, []string{
			`BlockStatement 1:49 "{}"`, `ObjectLiteral 2:13 "{}"`, `UnaryOperator 2:18 "+n"`, `ReturnValue 3:10 "undefined"`,
			`OptionalChaining 3:10 "a.b.c"`, `MethodExpression 3:17 "toLowerCase"`}},
		{"a dropped method call", "function f(xs: number[]) {\n  return xs.filter((x) => x > 0);\n}\n", Arid{}, []string{
			`BlockStatement 1:26 "{}"`, `ReturnValue 2:10 "undefined"`, `MethodExpression 2:10 "xs"`,
			`EqualityOperator 2:29 ">="`, `EqualityOperator 2:29 "<="`, `InlineConstant 2:31 "1"`}},
		{"a condition already forced is not a mutant", "function f(a: number) {\n  while (true) a--;\n}\n", Arid{}, []string{
			`BlockStatement 1:23 "{}"`, `ConditionalExpression 2:9 "(false)"`, `BooleanLiteral 2:10 "false"`, `UpdateOperator 2:16 "a++"`}},
		{"a replacement does not run into the word before it", "function f(a: boolean) {\n  return!a;\n}\n", Arid{}, []string{
			`BlockStatement 1:24 "{}"`, `ReturnValue 2:9 " undefined"`, `BooleanLiteral 2:9 " a"`}},
		{"array", "function f() {\n  return [1, 2];\n}\n", Arid{}, []string{`BlockStatement 1:14 "{}"`, `ReturnValue 2:10 "undefined"`, `ArrayDeclaration 2:10 "[]"`,
			`InlineConstant 2:11 "0"`, `InlineConstant 2:14 "3"`}},
		// what a change writes gets mutants of its own (issue 27): an added
		// operand dropped, a number, a rounding function
		{"an added operand, a number, Math's rounding", "function f(value: number, lo: number, price: number, qty: number) {\n  if (Number.isNaN(value) || value < lo) return lo;\n  return Math.floor(price * qty * 1.2);\n}\n", Arid{}, []string{
			`BlockStatement 1:67 "{}"`, `ConditionalExpression 2:6 "(true)"`, `ConditionalExpression 2:6 "(false)"`,
			`ConditionalExpression 2:7 "false"`, `LogicalOperator 2:27 "&&"`, `ConditionalExpression 2:30 "false"`, `EqualityOperator 2:36 "<="`, `EqualityOperator 2:36 ">="`,
			`ReturnValue 2:49 "undefined"`, `ReturnValue 3:10 "undefined"`, `MethodExpression 3:15 "ceil"`, `ArithmeticOperator 3:27 "/"`, `ArithmeticOperator 3:33 "/"`,
			`InlineConstant 3:35 "1"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := gateMutants(t, tc.src, tc.arid)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestRegistry: every operator has a name, a verb and kinds, or is the
// gate's Revert (no kinds: the change's, not a node's), names are unique,
// each is Named by its name, and each verb's set is the SPEC's.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range Registry {
		walks := len(o.Kinds) > 0 && o.Mutate != nil && o.Reverts == nil
		reverts := o == Revert && len(o.Kinds) == 0 && o.Mutate == nil && o.Reverts != nil
		if o.Name == "" || o.Verb == "" || walks == reverts || seen[string(o.Name)] || Named(o.Name) != o {
			t.Errorf("operator %+v", o)
		}
		seen[string(o.Name)] = true
	}
	if Named("NoSuchOperator") != nil {
		t.Error("Named: an operator of no registered name")
	}
	names := func(v Verb) string {
		var s []string
		for _, o := range Of(v) {
			s = append(s, string(o.Name))
		}
		return strings.Join(s, " ")
	}
	if got := names(ProveVerb); got != "red-first flag-inverted flag-always-set preserve-removed preserve-moved-under-guard" {
		t.Errorf("prove: %s", got)
	}
	if got := names(GateVerb); got != "EqualityOperator LogicalOperator ArithmeticOperator BooleanLiteral UnaryOperator "+
		"OptionalChaining MethodExpression ObjectLiteral UpdateOperator ConditionalExpression BlockStatement StringLiteral "+
		"InlineConstant ArrayDeclaration CallStatementRemoval ReturnValue Regex Revert" {
		t.Errorf("gate: %s", got)
	}
}
