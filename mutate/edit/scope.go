package edit

import (
	"errors"

	"github.com/oracle-ts/oracle/analyzer"
)

// Scope is a Target parsed for the operators (mutate/operators): the
// syntax, the function's body, and the flag as the guard reads it. It gives
// the operators what they share with the guard, so that a mutant that
// moves a call under the flag is written exactly as Guard would write it.
type Scope struct{ c *ctx }

// NewScope parses t (its function must have the flag's parameter).
func NewScope(t Target) (*Scope, error) {
	c, err := newCtx(t)
	if err != nil {
		return nil, err
	}
	return &Scope{c: c}, nil
}

// Target is what the scope was made from.
func (s *Scope) Target() Target { return s.c.t }

// Syntax is the tree of the target's source.
func (s *Scope) Syntax() *analyzer.Syntax { return s.c.s }

// Body is the body of the target's function.
func (s *Scope) Body() analyzer.Node { return s.c.body }

// FlagExpr is the flag as the guard reads it: `opts.skip`, or `opts?.skip`
// when the parameter is optional and has no default value.
func (s *Scope) FlagExpr() string { return s.c.flagExpr }

// IsFlagPath reports whether expression n reads the flag's parameter
// followed by props exactly (`opts.a.b`, `opts?.a["b"]`, `(opts).a!.b`).
func (s *Scope) IsFlagPath(n analyzer.Node, props []string) bool { return s.c.isFlagPath(n, props) }

// CallNode is the call expression of call, which must lie in the body.
func (s *Scope) CallNode(call *analyzer.Call) (analyzer.Node, error) { return s.c.callNode(call) }

// Newline is the file's line ending.
func (s *Scope) Newline() string { return s.c.nl }

// ASISafe prefixes text, which replaces n, with `;` when it starts with `(`
// and n starts a statement that follows one without a `;`: in code written
// without semicolons, `a = 1\n(undefined)` would call 1.
func (s *Scope) ASISafe(n analyzer.Node, text string) string { return s.c.asiSafe(n, text) }

// UnderCondition puts the statement of call (whose callee is written text)
// under `if (<cond>) { }` as the guard does (a used binding hoisted without
// a value), or, where the guard edit is refused, the call alone under
// `(<cond> ? <call> : undefined)`.
func (s *Scope) UnderCondition(call analyzer.Node, text, cond string) (Change, error) {
	c := s.c
	st, err := c.locate(call, text)
	if err == nil {
		var ch change
		ch, err = c.guardChange(st, cond, hoist{ok: true}, text)
		if err == nil {
			return toCore([]change{ch})[0], nil
		}
	}
	var ref *Refusal
	if !errors.As(err, &ref) {
		return Change{}, err
	}
	return Change{Start: c.s.Start(call), End: c.s.End(call),
		Text: c.asiSafe(call, "("+cond+" ? "+c.s.Text(call)+" : undefined)")}, nil
}
