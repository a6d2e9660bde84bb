package operators

import (
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// CallStatementRemoval removes a statement that is only a call, `await`ed
// or not (PIT's void method calls: the dropped write): `await save(order);`
// is deleted from its block. Where deleting would change the statements
// around it, it becomes the empty statement `;` instead: when it is the body
// of an `if`, `else`, loop or label (`if (verbose) log.push(msg);`: the next
// statement would become the body), and in code without semicolons when
// the statements before and after it would join (`a = b` then `[1].map(f)`
// is `a = b[1].map(f)`). Arid calls and dynamic `import()` are not removed.
var CallStatementRemoval = &Operator{Name: "CallStatementRemoval", Verb: GateVerb, Kinds: []string{"expression_statement"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		e := s.FirstNamed(n)
		if e >= 0 && s.Kind(e) == "await_expression" {
			e = s.FirstNamed(e)
		}
		if e < 0 || s.Kind(e) != "call_expression" {
			return nil, nil
		}
		if f := s.Child(e, "function"); f < 0 || s.Kind(f) == "import" || c.aridCall(e) {
			return nil, nil
		}
		text := ""
		switch s.Kind(s.Parent(n)) {
		case "statement_block", "program", "switch_case", "switch_default":
			if joins(c, n) {
				text = ";"
			}
		default:
			text = ";"
		}
		return []Mutation{replace(s.Start(n), s.End(n), text)}, nil
	},
	Owns: ownCall}

// ownCall is CallStatementRemoval's Owns: the callee (its receiver too:
// `list.forEach` of a new list) and the parentheses of the call removed.
func ownCall(syn *analyzer.Syntax, n Node, m edit.Mutant) ([]change.Span, bool, bool) {
	c := construct(syn, n, m, "expression_statement")
	if c < 0 {
		return nil, false, false
	}
	call := syn.FirstNamed(c)
	if call >= 0 && syn.Kind(call) == "await_expression" {
		call = syn.FirstNamed(call)
	}
	if call < 0 || syn.Kind(call) != "call_expression" {
		return nil, false, true
	}
	own := []change.Span{}
	if f := syn.Child(call, "function"); f >= 0 {
		own = append(own, nodeSpan(syn, f))
	}
	if a := syn.Child(call, "arguments"); a >= 0 {
		own = append(own, ownTokens(syn, a, "(", ")")...)
	}
	return own, false, true
}

// joins reports whether deleting statement n would let the statement before
// it run on into the one after it: the one before does not end with `;` or
// a block, and the one after starts with a token that continues an
// expression (`(`, `[`, a template, `+`, `-`, `/`, `<`, `.`).
func joins(c *Context, n Node) bool {
	s := c.Syn
	prev, next := Node(-1), Node(-1)
	for ch := s.FirstChild(s.Parent(n)); ch >= 0; ch = s.Next(ch) {
		if !s.Named(ch) || s.Kind(ch) == "comment" {
			continue
		}
		if ch == n {
			continue
		}
		if s.Start(ch) < s.Start(n) {
			prev = ch
		} else if next < 0 {
			next = ch
		}
	}
	if prev < 0 || next < 0 {
		return false
	}
	switch t := s.Text(prev); {
	case strings.HasSuffix(t, ";"):
		return false
	case strings.HasSuffix(t, "}"):
		switch s.Kind(prev) {
		case "statement_block", "if_statement", "for_statement", "for_in_statement", "while_statement", "try_statement",
			"switch_statement", "function_declaration", "generator_function_declaration", "class_declaration":
			return false
		}
	}
	return strings.ContainsAny(s.Text(next)[:1], "([`+-/<.")
}
