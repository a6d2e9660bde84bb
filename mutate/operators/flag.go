package operators

import (
	"strings"

	"github.com/oracle-ts/oracle/mutate/edit"
)

// flagRef is one read of the flag.
type flagRef struct {
	n         Node
	shorthand bool // `{ skip }` in an object literal
}

// flagRefs lists the reads of the flag in the function body, in source
// order (see mutate/edit's package documentation for what counts): what
// red-first, flag-inverted and flag-always-set replace.
func (c *Context) flagRefs() []flagRef {
	if c.refsDone {
		return c.refs
	}
	c.refsDone = true
	s := c.Syn
	body := c.Scope.Body()
	flag := c.Scope.Target().Flag
	props := flag.Props
	locals := map[string]uint{} // destructured local name → where its declarator ends
	// Destructuring of the flag's parent: `const { skip } = opts`.
	if len(props) > 0 {
		leaf := props[len(props)-1]
		s.Walk(body, func(n Node) bool {
			if s.Kind(n) != "variable_declarator" || s.Kind(s.Child(n, "name")) != "object_pattern" ||
				!c.Scope.IsFlagPath(s.Child(n, "value"), props[:len(props)-1]) {
				return true
			}
			for e := s.FirstChild(s.Child(n, "name")); e >= 0; e = s.Next(e) {
				if local := c.patternLocal(e, leaf); local != "" {
					locals[local] = s.End(n)
				}
			}
			return true
		})
	}
	s.Walk(body, func(n Node) bool {
		switch s.Kind(n) {
		case "member_expression", "subscript_expression":
			if c.Scope.IsFlagPath(n, props) && c.isRead(n) {
				c.refs = append(c.refs, flagRef{n: n})
				return false
			}
		case "identifier":
			name := s.Text(n)
			if len(props) == 0 && name == flag.Param && c.isRead(n) && !c.isDeclared(n) {
				c.refs = append(c.refs, flagRef{n: n})
			} else if end, ok := locals[name]; ok && s.Start(n) >= end && c.isRead(n) && !c.isDeclared(n) {
				c.refs = append(c.refs, flagRef{n: n})
			}
		case "shorthand_property_identifier":
			name := s.Text(n)
			if len(props) == 0 && name == flag.Param {
				c.refs = append(c.refs, flagRef{n: n, shorthand: true})
			} else if end, ok := locals[name]; ok && s.Start(n) >= end {
				c.refs = append(c.refs, flagRef{n: n, shorthand: true})
			}
		}
		return true
	})
	return c.refs
}

// patternLocal returns the local name an element of an object pattern binds
// for property leaf, or "".
func (c *Context) patternLocal(e Node, leaf string) string {
	s := c.Syn
	switch s.Kind(e) {
	case "shorthand_property_identifier_pattern":
		if s.Text(e) == leaf {
			return leaf
		}
	case "object_assignment_pattern": // { skip = false }
		if l := s.Child(e, "left"); s.Text(l) == leaf {
			return leaf
		}
	case "pair_pattern": // { skip: local } / { skip: local = false }
		k := s.Child(e, "key")
		key := s.Text(k)
		if v, ok := stringLiteral(key); ok {
			key = v
		}
		if key != leaf {
			return ""
		}
		v := s.Child(e, "value")
		if s.Kind(v) == "assignment_pattern" {
			v = s.Child(v, "left")
		}
		if s.Kind(v) == "identifier" {
			return s.Text(v)
		}
	}
	return ""
}

// isRead reports whether expression n is read, not written: not the target
// of an assignment or of ++/--.
func (c *Context) isRead(n Node) bool {
	s := c.Syn
	for {
		p := s.Parent(n)
		switch s.Kind(p) {
		case "parenthesized_expression", "non_null_expression":
			n = p
			continue
		case "assignment_expression", "augmented_assignment_expression":
			return s.Field(n) != "left"
		case "update_expression":
			return false
		}
		return true
	}
}

// isDeclared reports whether identifier n is a name being declared: a
// declarator's or parameter's name, a pattern element, a function's name.
func (c *Context) isDeclared(n Node) bool {
	s := c.Syn
	p := s.Parent(n)
	switch f := s.Field(n); s.Kind(p) {
	case "variable_declarator", "function_declaration", "function_expression", "class_declaration":
		return f == "name"
	case "required_parameter", "optional_parameter":
		return f == "pattern"
	case "arrow_function":
		return f == "parameter"
	case "pair_pattern", "object_assignment_pattern", "assignment_pattern", "array_pattern", "rest_pattern":
		return f != "right" && f != "key"
	}
	return false
}

// replaceRefs is the mutation that replaces every flag read with repl(read)
// (a shorthand `{ skip }` becomes `{ skip: <replacement> }`).
func (c *Context) replaceRefs(refs []flagRef, repl func(text string) string) Mutation {
	s := c.Syn
	var m Mutation
	for _, r := range refs {
		text := s.Text(r.n)
		with := repl(text)
		if r.shorthand {
			with = text + ": " + with
		}
		m.Changes = append(m.Changes, edit.Change{Start: s.Start(r.n), End: s.End(r.n), Text: c.Scope.ASISafe(r.n, with)})
	}
	return m
}

// removeCall replaces a call with `(undefined)`, keeping its line breaks.
func (c *Context) removeCall(call Node) edit.Change {
	s := c.Syn
	nls := strings.Repeat(c.Scope.Newline(), strings.Count(s.Text(call), "\n"))
	return edit.Change{Start: s.Start(call), End: s.End(call), Text: c.Scope.ASISafe(call, "(undefined"+nls+")")}
}

// wrapNode is the wrapped call's expression.
func (c *Context) wrapNode() (Node, error) { return c.Scope.CallNode(c.Wrap) }

// stringLiteral decodes a simple quoted string literal (no escapes).
func stringLiteral(s string) (string, bool) {
	if len(s) < 2 || (s[0] != '"' && s[0] != '\'') || s[len(s)-1] != s[0] || strings.ContainsRune(s, '\\') {
		return "", false
	}
	return s[1 : len(s)-1], true
}
