package operators

// OptionalChaining makes an optional property access plain: `a?.b` → `a.b`.
var OptionalChaining = &Operator{Name: "OptionalChaining", Verb: GateVerb, Kinds: []string{"member_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		if !optionalChain(c, n) {
			return nil, nil
		}
		obj, prop := s.Child(n, "object"), s.Child(n, "property")
		if obj < 0 || prop < 0 {
			return nil, nil
		}
		return []Mutation{replace(s.Start(n), s.End(n), s.Text(obj)+"."+s.Text(prop))}, nil
	}}

// optionalChain reports whether member expression n is written with `?.`.
func optionalChain(c *Context, n Node) bool {
	for ch := c.Syn.FirstChild(n); ch >= 0; ch = c.Syn.Next(ch) {
		if k := c.Syn.Kind(ch); k == "optional_chain" || k == "?." {
			return true
		}
	}
	return false
}
