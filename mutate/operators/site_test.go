package operators

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
)

// TestSite: each mutant's site, as the gate's token scope reads it: the
// code it replaces (an operator token's widened to the operands written
// plainly beside it, another's narrowed to what it edits) and the tokens
// its operator says it owns (Owns): a block's braces with the keyword of
// its branch, an object's or array's brackets, a removed call's callee and
// parentheses, the `return` of a replaced value, a forced condition's `if`
// (a deletion there is the change's), none for a whole `||` chain forced.
func TestSite(t *testing.T) {
	src := "async function f(a: number, b: boolean, xs: number[]) {\n" +
		"  if (b) {\n    await save(xs);\n  }\n" +
		"  const o = { k: [a] };\n" +
		"  g(a > 1 || b);\n" +
		"  return a * 2;\n}\n"
	f, syn := analyzer.ParseSyntax("x.ts", []byte(src))
	var got []string
	for _, m := range Gate("x.ts", []byte(src), syn, f.Functions[0], Arid{}) {
		s := Site(syn, m)
		line := fmt.Sprintf("%s %q: %q", m.Operator, src[s.Replaced.Start:s.Replaced.End], m.Replacement)
		if s.Own != nil {
			var own []string
			for _, o := range s.Own {
				own = append(own, src[o.Start:o.End])
			}
			line += fmt.Sprintf(" owns %q", own)
		}
		if s.Deletion {
			line += " (deletion)"
		}
		if s.Inner.End > s.Inner.Start {
			line += fmt.Sprintf(" inner %q", src[s.Inner.Start:s.Inner.End])
		}
		got = append(got, line)
	}
	want := []string{
		`BlockStatement "{\n  if (b) {\n    await save(xs);\n  }\n  const o = { k: [a] };\n  g(a > 1 || b);\n  return a * 2;\n}": "{}" owns ["{" "}"]`,
		`ConditionalExpression "(b)": "(true)" owns ["if"] (deletion) inner "b"`,
		`ConditionalExpression "(b)": "(false)" owns ["if"] (deletion) inner "b"`,
		`BlockStatement "{\n    await save(xs);\n  }": "{}" owns ["{" "}" "if"]`,
		`CallStatementRemoval "await save(xs);": "" owns ["save" "(" ")"]`,
		`ObjectLiteral "{ k: [a] }": "{}" owns ["{" "}"]`,
		`ArrayDeclaration "[a]": "[]" owns ["[" "]"]`,
		`CallStatementRemoval "g(a > 1 || b);": "" owns ["g" "(" ")"]`,
		`ConditionalExpression "a > 1 || b": "true" owns []`,
		`ConditionalExpression "a > 1 || b": "false" owns []`,
		`ConditionalExpression "a > 1": "false"`,
		`EqualityOperator "a > 1": ">="`,
		`EqualityOperator "a > 1": "<="`,
		`InlineConstant "1": "0"`,
		`LogicalOperator "a > 1 || b": "&&"`,
		`ConditionalExpression "b": "false"`,
		`ReturnValue "a * 2": "undefined" owns ["return"]`,
		`ArithmeticOperator "a * 2": "/"`,
		`InlineConstant "2": "3"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
