package operators

// BooleanLiteral flips `true` and `false`, and drops a negation: `!b` → `b`.
var BooleanLiteral = &Operator{Name: "BooleanLiteral", Verb: GateVerb, Kinds: []string{"true", "false", "unary_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		switch s.Kind(n) {
		case "true":
			return []Mutation{replace(s.Start(n), s.End(n), "false")}, nil
		case "false":
			return []Mutation{replace(s.Start(n), s.End(n), "true")}, nil
		}
		if arg := s.Child(n, "argument"); arg >= 0 && s.HasToken(n, "!") {
			return []Mutation{replace(s.Start(n), s.End(n), s.Text(arg))}, nil
		}
		return nil, nil
	}}
