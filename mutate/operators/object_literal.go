package operators

// ObjectLiteral empties an object literal: `{ k: 1 }` → `{}`.
var ObjectLiteral = &Operator{Name: "ObjectLiteral", Verb: GateVerb, Kinds: []string{"object"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		if c.Syn.FirstNamed(n) < 0 {
			return nil, nil
		}
		return []Mutation{replace(c.Syn.Start(n), c.Syn.End(n), "{}")}, nil
	},
	Owns: ownBraces} // the object's braces
