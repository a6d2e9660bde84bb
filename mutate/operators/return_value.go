package operators

// ReturnValue returns undefined instead: `return x` → `return undefined`.
var ReturnValue = &Operator{Name: "ReturnValue", Verb: GateVerb, Kinds: []string{"return_statement"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		e := s.FirstNamed(n)
		if e < 0 || s.Kind(e) == "comment" || s.Text(e) == "undefined" {
			return nil, nil
		}
		return []Mutation{replace(s.Start(e), s.End(e), "undefined")}, nil
	}}
