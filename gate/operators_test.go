package gate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
)

func mutantsOf(t *testing.T, src string, arid Arid) []string {
	t.Helper()
	f, syn := analyzer.ParseSyntax("x.ts", []byte(src))
	var out []string
	for _, m := range Mutants("x.ts", []byte(src), syn, f.Functions[0], arid) {
		out = append(out, fmt.Sprintf("%s %d:%d %q", m.Operator, m.Original.Start.Line, m.Original.Start.Column, m.Replacement))
	}
	return out
}

// TestOperators: input -> mutants, one example per operator (the README's
// table), the arid code left alone.
func TestOperators(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"equality and boundary", "function f(a: number) {\n  return a >= 1;\n}\n", []string{
			`BlockStatement 1:23 "{}"`, `ReturnValue 2:10 "undefined"`, `EqualityOperator 2:12 ">"`, `EqualityOperator 2:12 "<"`}},
		{"logical and boolean", "function f(a: boolean, b: boolean) {\n  const c = a && !b;\n  return true;\n}\n", []string{
			`BlockStatement 1:36 "{}"`, `LogicalOperator 2:15 "||"`, `BooleanLiteral 2:18 "b"`, `ReturnValue 3:10 "undefined"`, `BooleanLiteral 3:10 "false"`}},
		{"arithmetic and update", "function f(a: number) {\n  let i = a * 2;\n  i++;\n}\n", []string{
			`BlockStatement 1:23 "{}"`, `ArithmeticOperator 2:13 "/"`, `UpdateOperator 3:3 "i--"`}},
		{"conditional, block, string, call statement", "async function f(a: boolean) {\n  if (a) {\n    await save(\"x\");\n  }\n}\n", []string{
			`BlockStatement 1:30 "{}"`, `ConditionalExpression 2:6 "(true)"`, `ConditionalExpression 2:6 "(false)"`, `BlockStatement 2:10 "{}"`,
			`CallStatementRemoval 3:5 ""`, `StringLiteral 3:16 "\"\""`}},
		{"arid: logging is not mutated", "function f(a: number) {\n  console.log(\"a\", a > 1);\n  logger.info(\"b\");\n}\n", []string{
			`BlockStatement 1:23 "{}"`, `CallStatementRemoval 3:3 ""`, `StringLiteral 3:15 "\"\""`}},
		{"arid: a configured logger", "function f(a: number) {\n  logger.info(\"b\", a > 1);\n  return a;\n}\n", nil},
		{"oracle-disable-next-line", "function f(a: number) {\n  // oracle-disable-next-line\n  return a + 1;\n}\n", []string{
			`BlockStatement 1:23 "{}"`}},
		{"unary, optional chaining, object, method expression", "function f(a: { b?: { c: string } }, n: number) {\n  const o = { k: -n };\n  return a.b?.c.toUpperCase();\n}\n", []string{
			`BlockStatement 1:49 "{}"`, `ObjectLiteral 2:13 "{}"`, `UnaryOperator 2:18 "+n"`, `ReturnValue 3:10 "undefined"`,
			`OptionalChaining 3:10 "a.b.c"`, `MethodExpression 3:17 "toLowerCase"`}},
		{"a dropped method call", "function f(xs: number[]) {\n  return xs.filter((x) => x > 0);\n}\n", []string{
			`BlockStatement 1:26 "{}"`, `ReturnValue 2:10 "undefined"`, `MethodExpression 2:10 "xs"`,
			`EqualityOperator 2:29 ">="`, `EqualityOperator 2:29 "<="`}},
		{"array", "function f() {\n  return [1, 2];\n}\n", []string{`BlockStatement 1:14 "{}"`, `ReturnValue 2:10 "undefined"`, `ArrayDeclaration 2:10 "[]"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arid := Arid{}
			if strings.Contains(tc.name, "configured") {
				arid.Loggers = []string{"logger"}
			}
			got := mutantsOf(t, tc.src, arid)
			if tc.want == nil {
				for _, g := range got {
					if strings.Contains(g, "EqualityOperator") || strings.Contains(g, "2:") && !strings.HasPrefix(g, "BlockStatement") {
						t.Errorf("an arid call was mutated: %s", g)
					}
				}
				return
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
