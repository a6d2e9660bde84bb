package operators

// CallStatementRemoval removes a statement that is only a call, `await`ed
// or not (PIT's void method calls: the dropped write): `await save(order);`
// is deleted from its block, and where the statement is the body of an `if`,
// `else`, loop or label (`if (verbose) log.push(msg);`) it becomes the empty
// statement `;`, so that the next statement does not become the body. Arid
// calls and dynamic `import()` are not removed.
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
		text := ""
		switch s.Kind(s.Parent(n)) {
		case "statement_block", "program", "switch_case", "switch_default":
		default:
			text = ";"
		}
		return []Mutation{replace(s.Start(n), s.End(n), text)}, nil
	}}
