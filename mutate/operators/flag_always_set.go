package operators

import "github.com/oracle-ts/oracle/mutate/edit"

// FlagAlwaysSet replaces every read of the flag with `true`. When the
// function never reads the flag, it removes the wrapped call instead (as
// preserve-removed does).
var FlagAlwaysSet = &Operator{Name: edit.FlagAlwaysSet, Verb: ProveVerb, Kinds: []string{Function},
	Mutate: func(c *Context, _ Node) ([]Mutation, error) {
		if refs := c.flagRefs(); len(refs) > 0 {
			return []Mutation{c.replaceRefs(refs, func(string) string { return "true" })}, nil
		}
		call, err := c.wrapNode()
		if err != nil {
			return nil, err
		}
		return []Mutation{{Changes: []edit.Change{c.removeCall(call)}}}, nil
	}}
