package operators

import (
	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// Owner is an operator's Owns: the tokens mutant m owns beside the code
// it replaces, when m stands for a construct (n is the outermost node of
// exactly that code): a block's, object's or array's brackets; the
// `return` of a replaced return value; the `if`, `while`, `do` or `?` `:`
// of a forced condition; the callee and parentheses of a removed call
// statement. deletion: a deletion in the construct makes it the change's
// (change.Site). ok false: m is no construct's mutant, its site is the
// code it edits (Site).
type Owner func(syn *analyzer.Syntax, n Node, m edit.Mutant) (own []change.Span, deletion, ok bool)

// byName is the registry by operator name.
var byName = func() map[edit.Operator]*Operator {
	out := map[edit.Operator]*Operator{}
	for _, o := range Registry {
		out[o.Name] = o
	}
	return out
}()

// Named is the registry's operator of that name, nil when none is.
func Named(name edit.Operator) *Operator { return byName[name] }

// Site is mutant m of syn's source as the token scope judges it
// (change.Counts): the code it replaces (an operator token's mutant
// replaces its expression: `it * 2` → `it / 2` is on the changed `2`) and,
// for a mutant of a whole construct, the construct's own tokens, which its
// operator says (Operator.Owns, asked by the mutant's operator).
func Site(syn *analyzer.Syntax, m edit.Mutant) change.Site {
	start, end := m.Original.Start.Offset, m.Original.End.Offset
	s := change.Site{Replaced: change.Span{Start: int(start), End: int(end)}}
	if syn == nil {
		return s
	}
	n := syn.Find(start, end, "")
	if n < 0 {
		return s
	}
	if o := Named(m.Operator); o != nil && o.Owns != nil {
		if own, deletion, ok := o.Owns(syn, n, m); ok {
			s.Own, s.Deletion = own, deletion
			if in := syn.NamedChildren(n); syn.Kind(n) == "parenthesized_expression" && len(in) == 1 {
				// a statement's condition: the parentheses are the statement's
				s.Inner = nodeSpan(syn, in[0])
			}
			return s
		}
	}
	p := syn.Parent(n)
	switch {
	case syn.Kind(p) == "binary_expression" && syn.Field(n) == "operator":
		// An operator's mutant is on the change's code when the operator or
		// an operand written plainly beside it is (`x * 1` → `x * 2` gets
		// `x / 2`), not when a changed token sits deep in an operand (a call,
		// a function: `"id-" + String(n * 3)`'s `+` is not the change's).
		s.Replaced = nodeSpan(syn, n)
		if l := syn.Child(p, "left"); l >= 0 && plainOperand(syn, l) {
			s.Replaced.Start = int(syn.Start(l))
		}
		if r := syn.Child(p, "right"); r >= 0 && plainOperand(syn, r) {
			s.Replaced.End = int(syn.End(r))
		}
	default:
		s.Replaced = edited(syn, n, m)
	}
	return s
}

// construct is the node of one of kinds that mutant m replaces whole: n
// (the outermost node of exactly m's code) or the node of the same range
// it is the only content of; NoNode when there is none.
func construct(syn *analyzer.Syntax, n Node, m edit.Mutant, kinds ...string) Node {
	start, end := m.Original.Start.Offset, m.Original.End.Offset
	for c := n; c >= 0 && syn.Start(c) == start && syn.End(c) == end; c = syn.FirstChild(c) {
		for _, k := range kinds {
			if syn.Kind(c) == k {
				return c
			}
		}
	}
	return analyzer.NoNode
}

// ownBraces is the Owns of the operators that empty a block or an object:
// its braces and, for the block of a new loop, branch or try, its keyword
// (`for (const k of keys) {` that replaced `forEach((_, k) => {` keeps its
// braces).
func ownBraces(syn *analyzer.Syntax, n Node, m edit.Mutant) ([]change.Span, bool, bool) {
	c := construct(syn, n, m, "statement_block", "object", "class_body")
	if c < 0 {
		return nil, false, false
	}
	own := ownTokens(syn, c, "{", "}")
	switch p := syn.Parent(c); syn.Kind(p) {
	case "if_statement", "for_statement", "for_in_statement", "while_statement", "do_statement", "else_clause",
		"try_statement", "catch_clause", "finally_clause", "labeled_statement":
		if k := syn.FirstChild(p); k >= 0 && !syn.Named(k) {
			own = append(own, nodeSpan(syn, k))
		}
	}
	return own, false, true
}

// nodeSpan is node n's bytes.
func nodeSpan(syn *analyzer.Syntax, n Node) change.Span {
	return change.Span{Start: int(syn.Start(n)), End: int(syn.End(n))}
}

// ownTokens are the spans of n's anonymous children of the given kinds
// (its braces, its `if`, its `return`).
func ownTokens(syn *analyzer.Syntax, n Node, kinds ...string) []change.Span {
	out := []change.Span{}
	for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
		for _, k := range kinds {
			if !syn.Named(c) && syn.Kind(c) == k {
				out = append(out, nodeSpan(syn, c))
			}
		}
	}
	return out
}

// edited is the part of n's code that mutant m changes: what is left of
// the replaced code between the longest prefix and suffix it shares with
// the replacement (`xs.map(f).filter(Boolean)` → `xs.map(f)` changes
// `.filter(Boolean)`, not the `.map(f)` whose arrow the change rewrote;
// `a?.b` → `a.b` changes the `?`; `!ok(x)` → `ok(x)` the `!`). A unary
// operator's mutant widens to an operand written plainly beside it, as a
// binary operator's does (`!a` → `!b` gets `b`). The whole of n when
// nothing of it is left (an insertion: `[]` → `["x"]`).
func edited(syn *analyzer.Syntax, n Node, m edit.Mutant) change.Span {
	start, end := int(m.Original.Start.Offset), int(m.Original.End.Offset)
	whole := change.Span{Start: start, End: end}
	if syn.Kind(n) == "unary_expression" {
		if a := syn.Child(n, "argument"); a >= 0 && plainOperand(syn, a) {
			return whole
		}
	}
	old, rep := syn.Src()[start:end], m.Replacement
	p := 0
	for p < len(old) && p < len(rep) && old[p] == rep[p] {
		p++
	}
	q := 0
	for q < len(old)-p && q < len(rep)-p && old[len(old)-1-q] == rep[len(rep)-1-q] {
		q++
	}
	if start+p >= end-q {
		return whole
	}
	return change.Span{Start: start + p, End: end - q}
}

// plainOperand reports whether operand n is written plainly: no call, no
// construction, no function, object or array literal, no template
// substitution in it (a name, a literal, a member, an arithmetic of those).
func plainOperand(syn *analyzer.Syntax, n Node) bool {
	plain := true
	syn.Walk(n, func(c Node) bool {
		switch syn.Kind(c) {
		case "call_expression", "new_expression", "arrow_function", "function_expression", "function",
			"object", "array", "template_substitution", "await_expression":
			plain = false
		}
		return plain
	})
	return plain
}

// logicalChain reports whether n is a `||`, `&&` or `??` expression.
func logicalChain(syn *analyzer.Syntax, n Node) bool {
	if n < 0 || syn.Kind(n) != "binary_expression" {
		return false
	}
	op := syn.Child(n, "operator")
	return op >= 0 && (syn.Text(op) == "||" || syn.Text(op) == "&&" || syn.Text(op) == "??")
}

// outside is the node n stands in, past the parentheses around it.
func outside(syn *analyzer.Syntax, n Node) Node {
	p := syn.Parent(n)
	for p >= 0 && syn.Kind(p) == "parenthesized_expression" {
		p = syn.Parent(p)
	}
	return p
}
