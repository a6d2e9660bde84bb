package operators

// ConditionalExpression forces a condition: `if (a)` → `if (true)`,
// `if (false)` (also `while` and `do ... while`); `c ? x : y` → `true ? x : y`,
// `false ? x : y`.
var ConditionalExpression = &Operator{Name: "ConditionalExpression", Verb: GateVerb,
	Kinds: []string{"if_statement", "while_statement", "do_statement", "ternary_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		cond := s.Child(n, "condition")
		if cond < 0 {
			return nil, nil
		}
		t, f := "(true)", "(false)" // a statement's condition is parenthesized
		if s.Kind(n) == "ternary_expression" {
			t, f = "true", "false"
		}
		return []Mutation{replace(s.Start(cond), s.End(cond), t), replace(s.Start(cond), s.End(cond), f)}, nil
	}}
