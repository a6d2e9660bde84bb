package operators

import (
	"fmt"

	"github.com/oracle-ts/oracle/mutate/edit"
)

// RedFirst replaces every read of the flag with `(undefined)`: the flag is
// never seen set, the implementation as it was before the guard. When the
// function never reads the flag it is the unmodified source, with a note
// (the guard is missing).
var RedFirst = &Operator{Name: edit.RedFirst, Verb: ProveVerb, Kinds: []string{Function},
	Mutate: func(c *Context, _ Node) ([]Mutation, error) {
		if refs := c.flagRefs(); len(refs) > 0 {
			return []Mutation{c.replaceRefs(refs, func(string) string { return "(undefined)" })}, nil
		}
		call, err := c.wrapNode()
		if err != nil {
			return nil, err
		}
		t := c.Scope.Target()
		at := c.Syn.Start(call)
		return []Mutation{{Changes: []edit.Change{{Start: at, End: at}},
			Note: fmt.Sprintf("%s never reads %s: the guard is missing (red-first is the unmodified source)", t.Fn.Name, t.Flag)}}, nil
	}}
