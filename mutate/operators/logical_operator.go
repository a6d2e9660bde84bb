package operators

// LogicalOperator swaps `&&` and `||`, and `??` for `&&`. A `??` next to
// another `??` without parentheses (`a ?? b ?? c`) is left alone: JavaScript
// does not allow `??` and `&&` mixed so.
var LogicalOperator = &Operator{Name: "LogicalOperator", Verb: GateVerb, Kinds: []string{"binary_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		if op := operatorToken(c, n); op >= 0 && c.Syn.Text(op) == "??" && nextToNullish(c, n) {
			return nil, nil
		}
		return logical.Mutate(c, n)
	}}

var logical = binaryOperator("LogicalOperator", map[string][]string{
	"&&": {"||"}, "||": {"&&"}, "??": {"&&"},
})

// nextToNullish reports whether binary expression n has a `??` expression
// as an operand, or is one of a `??` expression's, without parentheses.
func nextToNullish(c *Context, n Node) bool {
	s := c.Syn
	nullish := func(m Node) bool {
		op := Node(-1)
		if s.Kind(m) == "binary_expression" {
			op = operatorToken(c, m)
		}
		return op >= 0 && s.Text(op) == "??"
	}
	return nullish(s.Child(n, "left")) || nullish(s.Child(n, "right")) || nullish(s.Parent(n))
}
