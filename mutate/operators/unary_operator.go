package operators

// UnaryOperator swaps a sign: `-n` → `+n`, `+n` → `-n`.
var UnaryOperator = &Operator{Name: "UnaryOperator", Verb: GateVerb, Kinds: []string{"unary_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		arg := s.Child(n, "argument")
		switch {
		case arg < 0 || s.HasToken(n, "!"):
		case s.HasToken(n, "-"):
			return []Mutation{replace(s.Start(n), s.End(n), "+"+s.Text(arg))}, nil
		case s.HasToken(n, "+"):
			return []Mutation{replace(s.Start(n), s.End(n), "-"+s.Text(arg))}, nil
		}
		return nil, nil
	}}
