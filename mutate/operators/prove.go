package operators

import (
	"fmt"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// Prove builds conditional-skip's mutants of t (SPEC "oracle prove"):
// red-first, flag-inverted and flag-always-set of the function, then, for
// each preserved call in order, preserve-removed and
// preserve-moved-under-guard. wrap is the wrapped call (used when the
// function never reads the flag). A mutant that edit.Acceptance refuses is
// an error naming it: prove's mutants are made to parse.
func Prove(t edit.Target, wrap *analyzer.Call, preserves []*analyzer.Call) ([]edit.Mutant, error) {
	sc, err := edit.NewScope(t)
	if err != nil {
		return nil, err
	}
	c := &Context{Path: t.Path, Src: t.Src, Syn: sc.Syntax(), Scope: sc, Fn: t.Fn, Wrap: wrap, Preserves: preserves,
		preserved: map[Node]*analyzer.Call{}}
	accept := edit.Accepting(t.Path, t.Src)
	defer accept.Close()
	var out []edit.Mutant
	visit := func(n Node, kind string) error {
		for _, op := range Of(ProveVerb) {
			if !op.Visits(kind) {
				continue
			}
			ms, err := op.Mutate(c, n)
			if err != nil {
				return err
			}
			for _, mu := range ms {
				m, err := edit.NewMutant(op.Name, mu.Subject, t.Path, t.Src, mu.Changes)
				if err != nil {
					return err
				}
				if err := accept.Check(m.Source()); err != nil {
					return fmt.Errorf("mutant %s of %s#%s does not parse (%v): not written", m.Name, t.Path, t.Fn.Name, err)
				}
				m.Note = mu.Note
				out = append(out, m)
			}
		}
		return nil
	}
	// The nodes visited, in order: the function, then each preserved call.
	if err := visit(sc.Body(), Function); err != nil {
		return nil, err
	}
	for _, p := range preserves {
		n, err := sc.CallNode(p)
		if err != nil {
			return nil, err
		}
		c.preserved[n] = p
		if err := visit(n, "call_expression"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// preserveName is the call as written, with its occurrence when another
// preserved call has the same text.
func preserveName(fn *analyzer.Function, p *analyzer.Call, all []*analyzer.Call) string {
	dup := false
	for _, q := range all {
		if q != p && q.Text == p.Text {
			dup = true
		}
	}
	if !dup {
		return p.Text
	}
	n := 0
	for i := range fn.Calls {
		if fn.Calls[i].Text == p.Text {
			n++
		}
		if fn.Calls[i].StartByte == p.StartByte {
			break
		}
	}
	return fmt.Sprintf("%s (occurrence %d)", p.Text, n)
}
