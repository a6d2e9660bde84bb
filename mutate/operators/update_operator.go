package operators

import "strings"

// UpdateOperator swaps `++` and `--`: `i++` → `i--`.
var UpdateOperator = &Operator{Name: "UpdateOperator", Verb: GateVerb, Kinds: []string{"update_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		t := s.Text(n)
		switch {
		case strings.Contains(t, "++"):
			return []Mutation{replace(s.Start(n), s.End(n), strings.Replace(t, "++", "--", 1))}, nil
		case strings.Contains(t, "--"):
			return []Mutation{replace(s.Start(n), s.End(n), strings.Replace(t, "--", "++", 1))}, nil
		}
		return nil, nil
	}}
