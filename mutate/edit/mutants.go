package edit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// Mutant is one mutated copy of a file, made by one operator.
type Mutant struct {
	// Name as the SPEC names runs: the operator, and ":<subject>" when it
	// has one ("red-first", "preserve-removed:<call>"). For display and
	// reports only: code reads Operator and Subject.
	Name     string
	Operator Operator
	Subject  string // what the operator applied to (the preserved call), or ""
	Path     string // the file's path, as in Target
	Source   []byte // the whole mutated file
	Line     int    // 1-based line of the (first) mutated site in Source
	Diff     string // unified diff from the original
	// Original is the span of the original source the (first) change
	// replaced, and Replacement its new text: the mutant as a single edit of
	// the file the user has (schemata and reports are built from them).
	Original    Span
	Replacement string
	// Site is the byte range in Source of the (first) changed code; Sites
	// lists every changed range (red-first changes every flag reference).
	Site  [2]uint
	Sites [][2]uint
	// Note explains a mutant that is not a change (red-first of a function
	// that never reads the flag: the guard is missing).
	Note string
}

// Mutants builds red-first, flag-inverted, flag-always-set and, for each
// preserved call, preserve-removed and preserve-moved-under-guard, in that
// order. wrap is the wrapped call (used when the function never reads the
// flag).
func Mutants(t Target, wrap *analyzer.Call, preserves []*analyzer.Call) ([]Mutant, error) {
	c, err := newCtx(t)
	if err != nil {
		return nil, err
	}
	var out []Mutant
	add := func(op Operator, subject, note string, chs []change) error {
		m, err := c.mutant(op, subject, note, chs)
		if err == nil {
			out = append(out, m)
		}
		return err
	}
	refs := c.flagRefs()
	if len(refs) > 0 {
		for _, k := range []struct {
			op   Operator
			with string
		}{{RedFirst, "undefined"}, {FlagInverted, "!"}, {FlagAlwaysSet, "true"}} {
			var chs []change
			for _, r := range refs {
				chs = append(chs, c.replaceRef(r, k.with))
			}
			if err := add(k.op, "", "", chs); err != nil {
				return nil, err
			}
		}
	} else {
		call, err := c.callNode(wrap)
		if err != nil {
			return nil, err
		}
		note := fmt.Sprintf("%s never reads %s: the guard is missing (red-first is the unmodified source)", t.Fn.Name, t.Flag)
		if err := add(RedFirst, "", note, []change{{start: c.s.Start(call), end: c.s.Start(call)}}); err != nil {
			return nil, err
		}
		inv, err := c.underCondition(call, wrap.Text, c.flagExpr)
		if err != nil {
			return nil, err
		}
		if err := add(FlagInverted, "", "", []change{inv}); err != nil {
			return nil, err
		}
		if err := add(FlagAlwaysSet, "", "", []change{c.remove(call)}); err != nil {
			return nil, err
		}
	}
	for _, p := range preserves {
		call, err := c.callNode(p)
		if err != nil {
			return nil, err
		}
		name := preserveName(t.Fn, p, preserves)
		if err := add(PreserveRemoved, name, "", []change{c.remove(call)}); err != nil {
			return nil, err
		}
		moved, err := c.underCondition(call, p.Text, "!"+c.flagExpr)
		if err != nil {
			return nil, err
		}
		if err := add(PreserveMovedUnderGuard, name, "", []change{moved}); err != nil {
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

// mutant applies chs and checks the result.
func (c *ctx) mutant(op Operator, subject, note string, chs []change) (Mutant, error) {
	m, err := NewMutant(op, subject, c.t.Path, c.src, toCore(chs))
	if err != nil {
		return Mutant{}, err
	}
	if err := c.checkParses(m.Source, "mutant "+m.Name); err != nil {
		return Mutant{}, err
	}
	m.Note = note
	return m, nil
}

// flagRef is one read of the flag.
type flagRef struct {
	n         node
	shorthand bool // `{ skip }` in an object literal
}

// flagRefs lists the reads of the flag in the function body, in source
// order (see the package documentation for what counts).
func (c *ctx) flagRefs() []flagRef {
	s := c.s
	var out []flagRef
	props := c.t.Flag.Props
	locals := map[string]uint{} // destructured local name → where its declarator ends
	// Destructuring of the flag's parent: `const { skip } = opts`.
	if len(props) > 0 {
		leaf := props[len(props)-1]
		s.Walk(c.body, func(n node) bool {
			if s.Kind(n) != "variable_declarator" || s.Kind(s.Child(n, "name")) != "object_pattern" ||
				!c.isFlagPath(s.Child(n, "value"), props[:len(props)-1]) {
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
	s.Walk(c.body, func(n node) bool {
		switch s.Kind(n) {
		case "member_expression", "subscript_expression":
			if c.isFlag(n) && c.isRead(n) {
				out = append(out, flagRef{n: n})
				return false
			}
		case "identifier":
			name := s.Text(n)
			if len(props) == 0 && name == c.t.Flag.Param && c.isRead(n) && !c.isDeclared(n) {
				out = append(out, flagRef{n: n})
			} else if end, ok := locals[name]; ok && s.Start(n) >= end && c.isRead(n) && !c.isDeclared(n) {
				out = append(out, flagRef{n: n})
			}
		case "shorthand_property_identifier":
			name := s.Text(n)
			if len(props) == 0 && name == c.t.Flag.Param {
				out = append(out, flagRef{n: n, shorthand: true})
			} else if end, ok := locals[name]; ok && s.Start(n) >= end {
				out = append(out, flagRef{n: n, shorthand: true})
			}
		}
		return true
	})
	return out
}

// patternLocal returns the local name an element of an object pattern binds
// for property leaf, or "".
func (c *ctx) patternLocal(e node, leaf string) string {
	s := c.s
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
func (c *ctx) isRead(n node) bool {
	s := c.s
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
func (c *ctx) isDeclared(n node) bool {
	s := c.s
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

// replaceRef replaces one flag read: with "!" by `(!<ref>)`, else by
// `(undefined)` / `true` (with = "undefined" / "true").
func (c *ctx) replaceRef(r flagRef, with string) change {
	s := c.s
	text := s.Text(r.n)
	var repl string
	switch with {
	case "!":
		repl = "(!" + text + ")"
	case "undefined":
		repl = "(undefined)"
	default:
		repl = with
	}
	if r.shorthand {
		repl = text + ": " + repl
	}
	return change{start: s.Start(r.n), end: s.End(r.n), text: c.asiSafe(r.n, repl)}
}

// remove replaces a call with `(undefined)`, keeping its line breaks.
func (c *ctx) remove(call node) change {
	txt := c.s.Text(call)
	nls := strings.Repeat(c.nl, strings.Count(txt, "\n"))
	return change{start: c.s.Start(call), end: c.s.End(call), text: c.asiSafe(call, "(undefined"+nls+")")}
}

// underCondition puts the statement of call under `if (<cond>) { }` as the
// guard does (a used binding hoisted without a value), or, where the guard
// edit is refused, the call alone under `(<cond> ? <call> : undefined)`.
func (c *ctx) underCondition(call node, text, cond string) (change, error) {
	st, err := c.locate(call, text)
	if err == nil {
		var ch change
		ch, err = c.guardChange(st, cond, hoist{ok: true}, text)
		if err == nil {
			return ch, nil
		}
	}
	var ref *Refusal
	if !errors.As(err, &ref) {
		return change{}, err
	}
	s := c.s
	return change{start: s.Start(call), end: s.End(call),
		text: c.asiSafe(call, "("+cond+" ? "+s.Text(call)+" : undefined)")}, nil
}

// asiSafe prefixes text, which replaces n, with `;` when it starts with `(`
// and n starts a statement that follows one without a `;`: in code written
// without semicolons, `a = 1\n(undefined)` would call 1.
func (c *ctx) asiSafe(n node, text string) string {
	s := c.s
	if !strings.HasPrefix(text, "(") {
		return text
	}
	st := n
	for st >= 0 && s.Kind(st) != "expression_statement" {
		p := s.Parent(st)
		if s.Start(p) != s.Start(n) {
			return text // n does not start the statement
		}
		st = p
	}
	switch s.Kind(s.Parent(st)) {
	case "statement_block", "switch_case", "switch_default", "program":
	default:
		return text
	}
	prev := s.Parent(st)
	for sib := s.FirstChild(prev); sib >= 0 && sib != st; sib = s.Next(sib) {
		if s.Named(sib) && s.Kind(sib) != "comment" {
			prev = sib
		}
	}
	if prev == s.Parent(st) || strings.HasSuffix(s.Text(prev), ";") || s.Kind(prev) == "statement_block" {
		return text
	}
	return ";" + text
}
