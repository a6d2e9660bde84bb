package operators

// StringLiteral empties a string literal: `"x"` → `""`.
var StringLiteral = &Operator{Name: "StringLiteral", Verb: GateVerb, Kinds: []string{"string"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		if len(c.Syn.Text(n)) <= 2 {
			return nil, nil
		}
		return []Mutation{replace(c.Syn.Start(n), c.Syn.End(n), `""`)}, nil
	}}
