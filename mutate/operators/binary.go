package operators

import "github.com/oracle-ts/oracle/mutate/edit"

// binaryOperator is an operator that replaces the operator token of a
// binary expression: with maps a token to its replacements, in order.
func binaryOperator(name string, with map[string][]string) *Operator {
	return &Operator{Name: edit.Operator(name), Verb: GateVerb, Kinds: []string{"binary_expression"},
		Mutate: func(c *Context, n Node) ([]Mutation, error) {
			op := operatorToken(c, n)
			if op < 0 {
				return nil, nil
			}
			var out []Mutation
			for _, w := range with[c.Syn.Text(op)] {
				out = append(out, replace(c.Syn.Start(op), c.Syn.End(op), w))
			}
			return out, nil
		}}
}

// operatorToken is the operator child of a binary expression.
func operatorToken(c *Context, n Node) Node {
	for ch := c.Syn.FirstChild(n); ch >= 0; ch = c.Syn.Next(ch) {
		if c.Syn.Field(ch) == "operator" {
			return ch
		}
	}
	return -1
}
