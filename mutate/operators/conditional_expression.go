package operators

import (
	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// ConditionalExpression forces a condition: `if (a)` → `if (true)`,
// `if (false)` (also `while` and `do ... while`); `c ? x : y` → `true ? x : y`,
// `false ? x : y`. In a `||`/`&&` chain, as StrykerJS's operand-level
// mutants, every operand is forced to the value that drops it: an operand
// of `||` to `false` (`i === 0 || key !== prev` → `false || key !== prev`),
// of `&&` to `true`; the other value would force the whole chain, which the
// chain's own mutants do: a chain that is not such a condition, nor an
// operand of another chain, is forced `true` and `false` (in a `for`
// condition only `false`). In a `??` chain an operand is dropped by
// `undefined` (`opts.x ?? fallback` → `undefined ?? fallback`, the option
// ignored; → `opts.x ?? undefined`, the fallback lost); a `??` is not forced
// `true`/`false`: its value is no boolean.
var ConditionalExpression = &Operator{Name: "ConditionalExpression", Verb: GateVerb,
	Kinds: []string{"if_statement", "while_statement", "do_statement", "ternary_expression", "binary_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		if s.Kind(n) == "binary_expression" {
			return forceOperands(c, n), nil
		}
		cond := s.Child(n, "condition")
		if cond < 0 {
			return nil, nil
		}
		t, f := "(true)", "(false)" // a statement's condition is parenthesized
		if s.Kind(n) == "ternary_expression" {
			t, f = "true", "false"
		}
		return []Mutation{replace(s.Start(cond), s.End(cond), t), replace(s.Start(cond), s.End(cond), f)}, nil
	},
	Owns: ownCondition}

// ownCondition is ConditionalExpression's Owns: the `if`, `while`, `do` or
// `?` `:` of a condition forced (a deletion there makes it the change's:
// the smallest construct a deletion leaves to mutate); none for a whole
// `||`/`&&` chain forced (a return value, an argument): the condition is
// the construct, and an operand added to it is not writing it; that
// operand has mutants of its own.
func ownCondition(syn *analyzer.Syntax, n Node, m edit.Mutant) ([]change.Span, bool, bool) {
	p := syn.Parent(n)
	switch {
	case syn.Child(p, "condition") == n:
		var own []change.Span
		switch syn.Kind(p) {
		case "if_statement":
			own = ownTokens(syn, p, "if")
		case "while_statement", "do_statement":
			own = ownTokens(syn, p, "while", "do")
		case "ternary_expression":
			own = ownTokens(syn, p, "?", ":")
		}
		return own, own != nil, true
	case (m.Replacement == "true" || m.Replacement == "false") && logicalChain(syn, n) && !logicalChain(syn, outside(syn, n)):
		return []change.Span{}, false, true
	}
	return nil, false, false
}

// forceOperands is the operand-level mutants of the `||`/`&&`/`??`
// expression n:
// the whole chain forced when n is its top (not an operand of a chain, nor
// a condition already forced), then each operand that is not a link of the
// same chain (`a || b || c` is `(a || b) || c`: a, b and c are its
// operands) forced to the value that drops it.
func forceOperands(c *Context, n Node) []Mutation {
	s := c.Syn
	op := logicalOp(c, n)
	if op == "" {
		return nil
	}
	var out []Mutation
	top, parent := n, s.Parent(n)
	for s.Kind(parent) == "parenthesized_expression" {
		top, parent = parent, s.Parent(parent)
	}
	switch pk := s.Kind(parent); {
	case op == "??":
		// not forced: its value is no boolean
	case logicalOp(c, parent) != "":
		// an operand of a chain (or a link of this one): forced there
	case s.Child(parent, "condition") == top && (pk == "if_statement" || pk == "while_statement" || pk == "do_statement" || pk == "ternary_expression"):
		// forced as the condition
	case s.Child(parent, "condition") == top && pk == "for_statement":
		out = append(out, replace(s.Start(n), s.End(n), "false"))
	default:
		out = append(out, replace(s.Start(n), s.End(n), "true"), replace(s.Start(n), s.End(n), "false"))
	}
	drop := map[string]string{"||": "false", "&&": "true", "??": "undefined"}[op]
	for _, side := range []string{"left", "right"} {
		o := s.Child(n, side)
		if o < 0 || logicalOp(c, o) == op {
			continue // a link of the chain: its own operands are forced
		}
		out = append(out, replace(s.Start(o), s.End(o), drop))
	}
	return out
}

// logicalOp is the operator of n when n is a `||`, `&&` or `??`
// expression.
func logicalOp(c *Context, n Node) string {
	if c.Syn.Kind(n) != "binary_expression" {
		return ""
	}
	if op := operatorToken(c, n); op >= 0 {
		if t := c.Syn.Text(op); t == "||" || t == "&&" || t == "??" {
			return t
		}
	}
	return ""
}
