package operators

import "github.com/oracle-ts/oracle/mutate/edit"

// PreserveRemoved replaces a preserved call with `(undefined)` (its
// arguments are not evaluated either); line breaks inside the call are kept
// inside the parentheses so that later lines do not move.
var PreserveRemoved = &Operator{Name: edit.PreserveRemoved, Verb: ProveVerb, Kinds: []string{"call_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		p := c.preserved[n]
		if p == nil {
			return nil, nil
		}
		return []Mutation{{Changes: []edit.Change{c.removeCall(n)}, Subject: preserveName(c.Fn, p, c.Preserves)}}, nil
	}}
