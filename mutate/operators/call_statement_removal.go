package operators

// CallStatementRemoval removes a statement that is only a call, `await`ed
// or not (PIT's void method calls: the dropped write): `await save(order);`
// is deleted. Arid calls and dynamic `import()` are not removed.
var CallStatementRemoval = &Operator{Name: "CallStatementRemoval", Verb: GateVerb, Kinds: []string{"expression_statement"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		e := s.FirstNamed(n)
		if e >= 0 && s.Kind(e) == "await_expression" {
			e = s.FirstNamed(e)
		}
		if e < 0 || s.Kind(e) != "call_expression" {
			return nil, nil
		}
		if f := s.Child(e, "function"); f < 0 || s.Kind(f) == "import" || c.aridCall(e) {
			return nil, nil
		}
		return []Mutation{replace(s.Start(n), s.End(n), "")}, nil
	}}
