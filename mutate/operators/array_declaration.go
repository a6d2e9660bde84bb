package operators

// ArrayDeclaration empties an array literal: `[1, 2]` → `[]`.
var ArrayDeclaration = &Operator{Name: "ArrayDeclaration", Verb: GateVerb, Kinds: []string{"array"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		if c.Syn.FirstNamed(n) < 0 {
			return nil, nil
		}
		return []Mutation{replace(c.Syn.Start(n), c.Syn.End(n), "[]")}, nil
	}}
