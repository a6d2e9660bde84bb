package operators

import "github.com/oracle-ts/oracle/mutate/edit"

// PreserveMovedUnderGuard puts a preserved call's statement under the guard
// exactly as edit.Guard would (a used binding hoisted without a value);
// where Guard would refuse, the call alone becomes
// `(!<flag> ? <call> : undefined)`.
var PreserveMovedUnderGuard = &Operator{Name: edit.PreserveMovedUnderGuard, Verb: ProveVerb, Kinds: []string{"call_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		p := c.preserved[n]
		if p == nil {
			return nil, nil
		}
		ch, err := c.Scope.UnderCondition(n, p.Text, "!"+c.Scope.FlagExpr())
		if err != nil {
			return nil, err
		}
		return []Mutation{{Changes: []edit.Change{ch}, Subject: preserveName(c.Fn, p, c.Preserves)}}, nil
	}}
