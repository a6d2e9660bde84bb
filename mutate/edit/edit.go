package edit

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// Flag is the flag of an operation: a parameter and a chain of properties
// (`opts.skip` is {Param: "opts", Props: ["skip"]}; `skip` is {Param: "skip"}).
type Flag struct {
	Param string
	Props []string
}

// String is the flag as written in the manifest ("opts.skip").
func (f Flag) String() string {
	return strings.Join(append([]string{f.Param}, f.Props...), ".")
}

// Target is the function an operation edits.
type Target struct {
	// Path is the file's path: it picks the grammar (.tsx) and names the
	// diffs ("--- a/<Path>").
	Path string
	// Src is the file's source; Fn must come from parsing exactly Src.
	Src  []byte
	Fn   *analyzer.Function
	Flag Flag
}

// Refusal is the error of an edit that cannot be made safely. Reason says
// why and what to do, for the user.
type Refusal struct {
	Reason string
	Line   int // of the call concerned
}

func (r *Refusal) Error() string { return r.Reason }

func lines(cs []*analyzer.Call) string {
	var s []string
	for _, c := range cs {
		s = append(s, fmt.Sprint(c.Line))
	}
	return strings.Join(s, ", ")
}

type node = analyzer.Node

const noNode = analyzer.NoNode

// ctx is one target parsed, with what every edit needs.
type ctx struct {
	t        Target
	src      []byte
	s        *analyzer.Syntax
	nerrs    int  // parse errors of src
	fn       node // the function-like node
	body     node // its body
	flagExpr string
	nl, unit string
}

func newCtx(t Target) (*ctx, error) {
	if t.Fn == nil {
		return nil, fmt.Errorf("no function")
	}
	if t.Flag.Param == "" {
		return nil, fmt.Errorf("no flag")
	}
	if !slices.ContainsFunc(t.Fn.Params, func(p analyzer.Param) bool { return p.Name == t.Flag.Param }) {
		return nil, fmt.Errorf("%s has no parameter %s (the flag is %s)", t.Fn.Name, t.Flag.Param, t.Flag)
	}
	f, s := analyzer.ParseSyntax(t.Path, t.Src)
	if s == nil {
		return nil, fmt.Errorf("cannot parse %s: %s", t.Path, f.Errors[0].Message)
	}
	c := &ctx{t: t, src: t.Src, s: s, nerrs: len(f.Errors)}
	c.fn = s.FunctionNode(t.Fn)
	if c.fn < 0 {
		return nil, fmt.Errorf("function %s not found in %s at bytes %d-%d (was it parsed from this source?)",
			t.Fn.Name, t.Path, t.Fn.BodyStartByte, t.Fn.BodyEndByte)
	}
	c.body = s.Child(c.fn, "body")
	c.nl, c.unit = detectStyle(t.Src)
	c.flagExpr = c.flagExpression()
	return c, nil
}

// flagExpression is the flag as the guard reads it: `opts.skip`, or
// `opts?.skip` when the parameter is optional and has no default value.
func (c *ctx) flagExpression() string {
	var b strings.Builder
	b.WriteString(c.t.Flag.Param)
	opt := false
	for _, p := range c.t.Fn.Params {
		if p.Name == c.t.Flag.Param {
			opt = p.Optional && !c.paramHasDefault(p.Name)
		}
	}
	for i, p := range c.t.Flag.Props {
		if i == 0 && opt {
			b.WriteString("?.")
		} else {
			b.WriteString(".")
		}
		b.WriteString(p)
	}
	return b.String()
}

// paramHasDefault reports whether parameter name is declared with a
// default value (`opts = {}`).
func (c *ctx) paramHasDefault(name string) bool {
	s := c.s
	ps := s.Child(c.fn, "parameters")
	for p := s.FirstChild(ps); p >= 0; p = s.Next(p) {
		pat := s.Child(p, "pattern")
		if s.Kind(pat) == "identifier" && s.Text(pat) == name {
			return s.Child(p, "value") >= 0
		}
	}
	return false
}

// callNode is the call expression of call.
func (c *ctx) callNode(call *analyzer.Call) (node, error) {
	if call == nil {
		return noNode, fmt.Errorf("no call")
	}
	n := c.s.Find(call.StartByte, call.EndByte, "call_expression")
	if n < 0 || call.StartByte < c.s.Start(c.body) || call.EndByte > c.s.End(c.body) {
		return noNode, fmt.Errorf("call %s at line %d not found in the body of %s", call.Text, call.Line, c.t.Fn.Name)
	}
	return n, nil
}

// within reports whether a lies within b.
func (c *ctx) within(a, b node) bool {
	return c.s.Start(b) <= c.s.Start(a) && c.s.End(a) <= c.s.End(b)
}

// line is the 1-based line of n.
func (c *ctx) line(n node) int { return c.s.Line(c.s.Start(n)) }

// --- the flag, structurally ---

// isFlagPath reports whether expression n reads param.props exactly:
// `opts.a.b`, `opts?.a["b"]`, `(opts).a!.b`.
func (c *ctx) isFlagPath(n node, props []string) bool {
	s := c.s
	n = c.unwrap(n)
	if len(props) == 0 {
		return s.Kind(n) == "identifier" && s.Text(n) == c.t.Flag.Param
	}
	last := props[len(props)-1]
	switch s.Kind(n) {
	case "member_expression":
		p := s.Child(n, "property")
		if s.Kind(p) != "property_identifier" || s.Text(p) != last {
			return false
		}
	case "subscript_expression":
		if v, ok := stringLiteral(s.Text(s.Child(n, "index"))); !ok || v != last || s.Kind(s.Child(n, "index")) != "string" {
			return false
		}
	default:
		return false
	}
	return c.isFlagPath(s.Child(n, "object"), props[:len(props)-1])
}

// unwrap skips parentheses and `x!` (not `as`: a cast is a different
// expression to the reader, but harmless: it is skipped too).
func (c *ctx) unwrap(n node) node { return c.s.Unwrap(n) }

// isFlag reports whether n reads the flag.
func (c *ctx) isFlag(n node) bool { return c.isFlagPath(n, c.t.Flag.Props) }

// isNotFlag reports whether n says "the flag is not set": `!<flag>`,
// `<flag> !== true`, `<flag> != true` (either side), with any parentheses,
// or a conjunct of `&&` that does (`!config.repo && !opts.skip`: what
// eslint --fix makes of a nested guard).
func (c *ctx) isNotFlag(n node) bool {
	s := c.s
	n = c.unwrap(n)
	switch s.Kind(n) {
	case "unary_expression":
		return s.HasToken(n, "!") && c.isFlag(s.Child(n, "argument"))
	case "binary_expression":
		l, r := s.Child(n, "left"), s.Child(n, "right")
		switch {
		case s.HasToken(n, "&&"):
			return c.isNotFlag(l) || c.isNotFlag(r)
		case s.HasToken(n, "!==") || s.HasToken(n, "!="):
			return c.isFlag(l) && s.Text(c.unwrap(r)) == "true" || c.isFlag(r) && s.Text(c.unwrap(l)) == "true"
		}
	}
	return false
}

// isSetFlag reports whether n says "the flag is set": `<flag>`,
// `<flag> === true`, `<flag> == true` (either side), with any parentheses.
func (c *ctx) isSetFlag(n node) bool {
	s := c.s
	n = c.unwrap(n)
	if c.isFlag(n) {
		return true
	}
	if s.Kind(n) == "binary_expression" && (s.HasToken(n, "===") || s.HasToken(n, "==")) {
		l, r := s.Child(n, "left"), s.Child(n, "right")
		return c.isFlag(l) && s.Text(c.unwrap(r)) == "true" || c.isFlag(r) && s.Text(c.unwrap(l)) == "true"
	}
	return false
}

// guardedBy returns the statement that already guards n, within the
// function's body: n lies in the consequence of an `if` whose condition
// says the flag is not set (isNotFlag), or in the else of one that says it
// is set; or an earlier statement of an enclosing block leaves when the
// flag is set (`if (opts.skip) return;`, or throws).
func (c *ctx) guardedBy(n node) node {
	s := c.s
	for ; n >= 0 && n != c.body; n = s.Parent(n) {
		p := s.Parent(n)
		switch s.Kind(p) {
		case "if_statement":
			cond := s.Child(p, "condition")
			switch s.Field(n) {
			case "consequence":
				if c.isNotFlag(cond) {
					return p
				}
			case "alternative":
				if c.isSetFlag(cond) {
					return p
				}
			}
		case "else_clause":
			if ifs := s.Parent(p); s.Kind(ifs) == "if_statement" && c.isSetFlag(s.Child(ifs, "condition")) {
				return ifs
			}
		case "statement_block":
			for prev := s.FirstChild(p); prev >= 0 && prev != n; prev = s.Next(prev) {
				if c.leavesWhenSet(prev) {
					return prev
				}
			}
		}
	}
	return noNode
}

// leavesWhenSet reports whether statement st is `if (<flag set>) return
// ...;` (or throw, braces allowed) with no else.
func (c *ctx) leavesWhenSet(st node) bool {
	s := c.s
	if s.Kind(st) != "if_statement" || s.Child(st, "alternative") >= 0 || !c.isSetFlag(s.Child(st, "condition")) {
		return false
	}
	body := s.Child(st, "consequence")
	if s.Kind(body) == "statement_block" {
		var only node = noNode
		for ch := s.FirstChild(body); ch >= 0; ch = s.Next(ch) {
			if s.Named(ch) && s.Kind(ch) != "comment" {
				if only >= 0 {
					return false
				}
				only = ch
			}
		}
		body = only
	}
	k := s.Kind(body)
	return k == "return_statement" || k == "throw_statement"
}

// stringLiteral decodes a simple quoted string literal (no escapes).
func stringLiteral(s string) (string, bool) {
	if len(s) < 2 || (s[0] != '"' && s[0] != '\'') || s[len(s)-1] != s[0] || strings.ContainsRune(s, '\\') {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// --- text edits ---

// change replaces src[start:end] with text.
type change struct {
	start, end uint
	text       string
	site       [2]uint // the changed code within text, relative to start; zero: all of text
}

// toCore converts the operators' internal changes to the core's.
func toCore(chs []change) []Change {
	out := make([]Change, len(chs))
	for i, ch := range chs {
		out[i] = Change{Start: ch.start, End: ch.end, Text: ch.text, Site: ch.site}
	}
	return out
}

// apply is Apply for the guard's single change, which cannot overlap; on
// an error (none is possible) it returns src unchanged, which the caller's
// parse check then reports as no edit.
func apply(src []byte, chs []change) ([]byte, [][2]uint) {
	out, sites, err := Apply(src, toCore(chs))
	if err != nil {
		return src, nil
	}
	return out, sites
}

// checkParses reports an error when out has more parse errors than the
// source it was made from.
func (c *ctx) checkParses(out []byte, what string) error {
	f := analyzer.Parse(c.t.Path, out)
	if len(f.Errors) > c.nerrs {
		e := f.Errors[0]
		return fmt.Errorf("%s of %s#%s does not parse (line %d: %s): not written", what, c.t.Path, c.t.Fn.Name, e.Line, e.Message)
	}
	return nil
}

// detectStyle returns the file's line ending and indentation unit.
func detectStyle(src []byte) (nl, unit string) {
	crlf := bytes.Count(src, []byte("\r\n"))
	lf := bytes.Count(src, []byte("\n")) - crlf
	nl = "\n"
	if crlf > lf {
		nl = "\r\n"
	}
	tabs, spaces := 0, 0
	steps := map[int]int{}
	prev := -1
	for _, ln := range bytes.Split(src, []byte("\n")) {
		ln = bytes.TrimRight(ln, "\r")
		if len(bytes.TrimSpace(ln)) == 0 {
			continue
		}
		ws := len(ln) - len(bytes.TrimLeft(ln, " \t"))
		lead := ln[:ws]
		switch {
		case bytes.HasPrefix(lead, []byte("\t")):
			tabs++
			prev = -1
			continue
		case ws >= 2:
			spaces++
		}
		if bytes.ContainsRune(lead, '\t') {
			prev = -1
			continue
		}
		if prev >= 0 && ws > prev {
			steps[ws-prev]++
		}
		prev = ws
	}
	if tabs > spaces {
		return nl, "\t"
	}
	if steps[4] > steps[2] {
		return nl, "    "
	}
	return nl, "  "
}

// lineIndent is the leading whitespace of the line that holds offset off.
func lineIndent(src []byte, off uint) string {
	ls := bytes.LastIndexByte(src[:off], '\n') + 1
	i := ls
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[ls:i])
}

// literalRanges lists the string and template literals within n: their
// line breaks are content, never indentation.
func (c *ctx) literalRanges(n node) [][2]uint {
	var out [][2]uint
	c.s.Walk(n, func(m node) bool {
		switch c.s.Kind(m) {
		case "template_string", "string":
			out = append(out, [2]uint{c.s.Start(m), c.s.End(m)})
			return false
		}
		return true
	})
	return out
}

// reindent returns src[start:end] with one more indentation unit after every
// line break, except inside literals and on blank lines.
func (c *ctx) reindent(start, end uint, lits [][2]uint) string {
	var b strings.Builder
	for i := start; i < end; i++ {
		b.WriteByte(c.src[i])
		if c.src[i] != '\n' || i+1 >= end {
			continue
		}
		inLit := false
		for _, r := range lits {
			if r[0] <= i && i < r[1] {
				inLit = true
			}
		}
		if nx := c.src[i+1]; !inLit && nx != '\n' && nx != '\r' {
			b.WriteString(c.unit)
		}
	}
	return b.String()
}
