package operators

import (
	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// ArrayDeclaration empties an array literal: `[1, 2]` → `[]`.
var ArrayDeclaration = &Operator{Name: "ArrayDeclaration", Verb: GateVerb, Kinds: []string{"array"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		if c.Syn.FirstNamed(n) < 0 {
			return nil, nil
		}
		return []Mutation{replace(c.Syn.Start(n), c.Syn.End(n), "[]")}, nil
	},
	// The array's brackets.
	Owns: func(syn *analyzer.Syntax, n Node, m edit.Mutant) ([]change.Span, bool, bool) {
		c := construct(syn, n, m, "array")
		if c < 0 {
			return nil, false, false
		}
		return ownTokens(syn, c, "[", "]"), false, true
	}}
