package edit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	txt "github.com/oracle-ts/oracle/internal/text"
)

// Guard writes the guard of an operation into t.Src: the statement that
// contains the wrapped call runs only when the flag is not set. def is the
// operation's `default:` (a JSON literal; nil when absent). It returns the
// new source and whether it differs; when the call is already guarded it
// returns t.Src unchanged. A *Refusal says why the edit cannot be made
// safely; other errors are internal or bad input.
func Guard(t Target, wrap *analyzer.Call, def json.RawMessage) (out []byte, changed bool, err error) {
	c, err := newCtx(t)
	if err != nil {
		return nil, false, err
	}
	call, err := c.callNode(wrap)
	if err != nil {
		return nil, false, err
	}
	if c.guardedBy(call) >= 0 {
		return t.Src, false, nil
	}
	st, err := c.locate(call, wrap.Text)
	if err != nil {
		return nil, false, err
	}
	init := hoist{}
	if def != nil {
		var buf bytes.Buffer
		if err := json.Compact(&buf, def); err != nil {
			return nil, false, fmt.Errorf("default of the operation is not a JSON value: %v", err)
		}
		init = hoist{ok: true, value: buf.String()}
	}
	ch, ok := c.mergedGuard(st)
	if !ok {
		ch, err = c.guardChange(st, "!"+c.flagExpr, init, wrap.Text)
		if err != nil {
			return nil, false, err
		}
	}
	out, _ = apply(t.Src, []change{ch})
	if err := c.checkParses(out, "the guard"); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// site is where a call sits, for an edit of its statement.
type site struct {
	call node
	stmt node // the expression statement or the declaration
	decl node // the variable declarator when the call is its initializer, else noNode
}

// locate finds the statement a guard can wrap around call, or refuses.
func (c *ctx) locate(call node, text string) (site, error) {
	s := c.s
	n := call
	for {
		p := s.Parent(n)
		f := s.Field(n)
		switch s.Kind(p) {
		case "parenthesized_expression", "await_expression", "as_expression", "satisfies_expression",
			"non_null_expression", "type_assertion":
			n = p
			continue
		case "unary_expression":
			if s.HasToken(p, "void") {
				n = p
				continue
			}
		case "member_expression", "subscript_expression":
			if f == "object" {
				n = p
				continue
			}
		case "assignment_expression", "augmented_assignment_expression":
			if f == "right" {
				n = p
				continue
			}
		case "expression_statement":
			if err := c.inBlock(p, call, text); err != nil {
				return site{}, err
			}
			return site{call: call, stmt: p, decl: noNode}, nil
		case "variable_declarator":
			if f != "value" {
				break
			}
			decl := s.Parent(p)
			if k := s.Kind(decl); k != "lexical_declaration" && k != "variable_declaration" {
				break
			}
			count := 0
			for d := s.FirstChild(decl); d >= 0; d = s.Next(d) {
				if s.Kind(d) == "variable_declarator" {
					count++
				}
			}
			if count != 1 {
				return site{}, &Refusal{Line: c.line(call), Reason: fmt.Sprintf(
					"%s is called in a declaration of %d variables at line %d; the guard edit supports a declaration of one variable: split it",
					text, count, c.line(decl))}
			}
			if err := c.inBlock(decl, call, text); err != nil {
				return site{}, err
			}
			return site{call: call, stmt: decl, decl: p}, nil
		}
		return site{}, &Refusal{Line: c.line(call), Reason: fmt.Sprintf(
			"%s is called %s at line %d; the guard edit supports a call that is a statement or a declaration's initializer",
			text, c.describe(call, n), c.line(call))}
	}
}

// inBlock refuses a statement that is not directly in a { } block or a case.
func (c *ctx) inBlock(stmt, call node, text string) error {
	switch p := c.s.Parent(stmt); c.s.Kind(p) {
	case "statement_block", "switch_case", "switch_default":
		return nil
	case "if_statement":
		// `if (a) call();`: the guard merges into the condition (mergedGuard).
		if c.s.Field(stmt) == "consequence" && c.s.Child(p, "alternative") < 0 {
			return nil
		}
	}
	return &Refusal{Line: c.line(call), Reason: fmt.Sprintf(
		"%s is called in a statement that is not in a { } block at line %d; add braces around it first",
		text, c.line(stmt))}
}

// describe says where call (reached up to n) is nested, for a refusal:
// "inside `return ...`", "in an argument of `log(...)`".
func (c *ctx) describe(call, n node) string {
	s := c.s
	p := s.Parent(n)
	if s.Kind(p) == "arguments" {
		return fmt.Sprintf("in an argument of `%s(...)`", txt.OneLine(s.Text(s.Child(s.Parent(p), "function")), 40))
	}
	// The enclosing statement.
	st := p
	for st >= 0 && !strings.HasSuffix(s.Kind(st), "_statement") && !strings.HasSuffix(s.Kind(st), "declaration") {
		st = s.Parent(st)
	}
	switch k := s.Kind(st); k {
	case "return_statement", "throw_statement":
		return fmt.Sprintf("inside `%s ...`", strings.TrimSuffix(k, "_statement"))
	case "if_statement", "while_statement", "do_statement", "switch_statement", "for_statement", "for_in_statement":
		kw := strings.TrimSuffix(k, "_statement")
		kw = strings.TrimSuffix(kw, "_in")
		if kw == "do" {
			kw = "while"
		}
		return fmt.Sprintf("in the head of `%s (...)`", kw)
	}
	return fmt.Sprintf("inside the larger expression `%s`", txt.OneLine(s.Text(p), 40))
}

// mergedGuard: when the wrapped statement is the only statement of an
// enclosing `if` with no else (and binds nothing used later), the guard is
// merged into its condition, `if (x && !<flag>)`, rather than nested (what
// unicorn/no-lonely-if and similar lint rules want).
func (c *ctx) mergedGuard(st site) (change, bool) {
	s := c.s
	if st.decl >= 0 && c.bindingUsed(st.decl) {
		return change{}, false
	}
	p := s.Parent(st.stmt)
	if s.Kind(p) == "statement_block" {
		for ch := s.FirstChild(p); ch >= 0; ch = s.Next(ch) {
			if s.Named(ch) && s.Kind(ch) != "comment" && ch != st.stmt {
				return change{}, false
			}
		}
		p = s.Parent(p)
	}
	if s.Kind(p) != "if_statement" || s.Child(p, "alternative") >= 0 || !c.inFunction(p) {
		return change{}, false
	}
	cond := s.Child(p, "condition") // a parenthesized_expression
	inner := s.FirstNamed(cond)
	if inner < 0 {
		return change{}, false
	}
	text := s.Text(inner)
	switch s.Kind(inner) {
	case "binary_expression":
		if !s.HasToken(inner, "&&") && (s.HasToken(inner, "||") || s.HasToken(inner, "??")) {
			text = "(" + text + ")"
		}
	case "ternary_expression", "assignment_expression", "sequence_expression", "augmented_assignment_expression", "yield_expression":
		text = "(" + text + ")"
	}
	return change{start: s.Start(inner), end: s.End(inner), text: text + " && !" + c.flagExpr}, true
}

// inFunction reports whether n lies within the function's body.
func (c *ctx) inFunction(n node) bool {
	return c.s.Start(n) >= c.s.Start(c.body) && c.s.End(n) <= c.s.End(c.body)
}

// hoist is what a bound result is declared with before the guard: ok false
// refuses a used binding; value "" declares it without a value.
type hoist struct {
	ok    bool
	value string
}

// guardChange puts st's statement under `if (<cond>) { }`.
func (c *ctx) guardChange(st site, cond string, init hoist, text string) (change, error) {
	s := c.s
	start, end := s.Start(st.stmt), s.End(st.stmt)
	// A comment after the statement on its last line goes with it.
	trail := ""
	if nx := s.Next(st.stmt); s.Kind(nx) == "comment" {
		gap := c.src[end:s.Start(nx)]
		if len(bytes.TrimLeft(gap, " \t")) == 0 {
			trail = string(c.src[end:s.End(nx)])
		}
	}
	ind := lineIndent(c.src, start)
	lits := c.literalRanges(st.stmt)
	open := "if (" + cond + ") {" + c.nl + ind + c.unit
	closing := c.nl + ind + "}"
	if st.decl < 0 || !c.bindingUsed(st.decl) {
		body := c.reindent(start, end, lits) + trail
		return change{start: start, end: end + uint(len(trail)), text: open + body + closing}, nil
	}
	name := s.Child(st.decl, "name")
	if !init.ok {
		ref := c.firstUse(st.decl)
		return change{}, &Refusal{Line: c.line(st.call), Reason: fmt.Sprintf(
			"the result of %s is bound to `%s` and used at line %d; give `default:` in the operation",
			text, txt.OneLine(s.Text(name), 40), c.line(ref))}
	}
	kw := "let"
	if k := s.Child(st.stmt, "kind"); s.Text(k) == "var" || s.Kind(st.stmt) == "variable_declaration" {
		kw = "var"
	} else if s.Text(k) != "const" && s.Text(k) != "let" {
		return change{}, &Refusal{Line: c.line(st.call), Reason: fmt.Sprintf(
			"the result of %s is bound by `%s` at line %d; the guard edit supports const, let and var",
			text, s.Text(k), c.line(st.stmt))}
	}
	semi := ""
	if c.src[end-1] == ';' {
		semi = ";"
	}
	typ := s.Text(s.Child(st.decl, "type"))
	if init.value == "null" && typ != "" && !strings.Contains(typ, "null") && !strings.Contains(typ, "any") && !strings.Contains(typ, "unknown") {
		// `default: null` on `const e: number = ...`: the declared type must
		// admit the default (`let e: number | null = null`).
		typ += " | null"
	}
	head := kw + " " + s.Text(name) + typ
	if init.value != "" {
		head += " = " + init.value
	}
	val := s.Child(st.decl, "value")
	assign := s.Text(name) + " = " + c.reindent(s.Start(val), s.End(val), lits)
	if s.Kind(name) == "object_pattern" {
		assign = "(" + assign + ")"
	}
	txt := head + semi + c.nl + ind + open + assign + semi + trail + closing
	return change{start: start, end: end + uint(len(trail)), text: txt}, nil
}

// references returns the identifiers in the function body that read one of
// the names a declarator binds (its own names excluded).
func (c *ctx) references(decl node) []node {
	s := c.s
	name := s.Child(decl, "name")
	names := map[string]bool{}
	for _, n := range s.PatternNames(name) {
		names[s.Text(n)] = true
	}
	var out []node
	s.Walk(c.body, func(n node) bool {
		if n == name {
			return false
		}
		switch s.Kind(n) {
		case "identifier", "shorthand_property_identifier":
			if names[s.Text(n)] {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

func (c *ctx) bindingUsed(decl node) bool { return len(c.references(decl)) > 0 }

// firstUse is the first reference after the declaration, else the first.
func (c *ctx) firstUse(decl node) node {
	refs := c.references(decl)
	for _, r := range refs {
		if c.s.Start(r) >= c.s.End(decl) {
			return r
		}
	}
	return refs[0]
}
