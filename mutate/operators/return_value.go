package operators

import (
	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// ReturnValue returns undefined instead: `return x` → `return undefined`.
var ReturnValue = &Operator{Name: "ReturnValue", Verb: GateVerb, Kinds: []string{"return_statement"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		e := s.FirstNamed(n)
		if e < 0 || s.Kind(e) == "comment" || s.Text(e) == "undefined" {
			return nil, nil
		}
		return []Mutation{replace(s.Start(e), s.End(e), "undefined")}, nil
	},
	// The `return` of the value replaced.
	Owns: func(syn *analyzer.Syntax, n Node, _ edit.Mutant) ([]change.Span, bool, bool) {
		p := syn.Parent(n)
		if syn.Kind(p) != "return_statement" {
			return nil, false, false
		}
		return ownTokens(syn, p, "return"), false, true
	}}
