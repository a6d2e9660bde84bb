package operators

// BlockStatement empties a block that holds a statement: `{ ... }` → `{}`.
var BlockStatement = &Operator{Name: "BlockStatement", Verb: GateVerb, Kinds: []string{"statement_block"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		for ch := s.FirstChild(n); ch >= 0; ch = s.Next(ch) {
			if s.Named(ch) && s.Kind(ch) != "comment" {
				return []Mutation{replace(s.Start(n), s.End(n), "{}")}, nil
			}
		}
		return nil, nil
	},
	Owns: ownBraces} // the block's braces, and the keyword of its loop, branch or try
