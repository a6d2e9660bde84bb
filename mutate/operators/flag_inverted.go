package operators

import "github.com/oracle-ts/oracle/mutate/edit"

// FlagInverted replaces every read of the flag with `(!<read>)`. When the
// function never reads the flag, it puts the wrapped call under
// `if (<flag>)` instead.
var FlagInverted = &Operator{Name: edit.FlagInverted, Verb: ProveVerb, Kinds: []string{Function},
	Mutate: func(c *Context, _ Node) ([]Mutation, error) {
		if refs := c.flagRefs(); len(refs) > 0 {
			return []Mutation{c.replaceRefs(refs, func(text string) string { return "(!" + text + ")" })}, nil
		}
		call, err := c.wrapNode()
		if err != nil {
			return nil, err
		}
		ch, err := c.Scope.UnderCondition(call, c.Wrap.Text, c.Scope.FlagExpr())
		if err != nil {
			return nil, err
		}
		return []Mutation{{Changes: []edit.Change{ch}}}, nil
	}}
