package analyzer

import "strings"

// Syntax is the concrete syntax tree of one file, read-only, for the tools
// that edit code by its structure (the guard edit of `oracle apply`, the
// mutants of `oracle prove`) and must never search the text.
//
// It is the tree the analyzer extracts the File from, so byte offsets agree
// with Function and Call ranges. The children of a few node kinds are not
// kept (comments, strings, numbers, regexes, type annotations, type
// arguments and parameters, object, union and function types): their text is
// read from the source.
type Syntax struct {
	t *tree
}

// Node is a node of a Syntax tree; NoNode stands for "none".
type Node int32

// NoNode is returned where there is no node.
const NoNode Node = -1

// ParseSyntax parses src as Parse does and also returns the syntax tree.
// The tree is nil only when tree-sitter returned none (File.Errors then says
// why).
func ParseSyntax(path string, src []byte) (*File, *Syntax) {
	p := NewParser()
	defer p.Close()
	f, t := p.parse(path, src)
	if t == nil {
		return f, nil
	}
	return f, &Syntax{t: t}
}

// Src is the source the tree was parsed from.
func (s *Syntax) Src() []byte { return s.t.src }

// Root is the program node.
func (s *Syntax) Root() Node {
	if len(s.t.nodes) == 0 {
		return NoNode
	}
	return 0
}

func (s *Syntax) ok(n Node) bool { return n >= 0 && int(n) < len(s.t.nodes) }

// Kind is the node's grammar kind ("call_expression", "if_statement", or
// the token itself for anonymous nodes: "(", "await", "?.").
func (s *Syntax) Kind(n Node) string {
	if !s.ok(n) {
		return ""
	}
	return s.t.nodes[n].kind
}

// Named reports whether n is a named node (not an anonymous token).
func (s *Syntax) Named(n Node) bool { return s.ok(n) && s.t.nodes[n].named }

// Field is the field name of n in its parent ("condition", "body"), or "".
func (s *Syntax) Field(n Node) string {
	if !s.ok(n) {
		return ""
	}
	return s.t.nodes[n].field
}

// Parent is n's parent, or NoNode for the root.
func (s *Syntax) Parent(n Node) Node {
	if !s.ok(n) {
		return NoNode
	}
	return Node(s.t.nodes[n].parent)
}

// FirstChild is n's first child (named or not), or NoNode.
func (s *Syntax) FirstChild(n Node) Node {
	if !s.ok(n) {
		return NoNode
	}
	return Node(s.t.nodes[n].first)
}

// Next is n's next sibling, or NoNode.
func (s *Syntax) Next(n Node) Node {
	if !s.ok(n) {
		return NoNode
	}
	return Node(s.t.nodes[n].next)
}

// Child is n's first child with the given field name, or NoNode.
func (s *Syntax) Child(n Node, field string) Node {
	if !s.ok(n) {
		return NoNode
	}
	return Node(s.t.child(int32(n), field))
}

// FirstNamed is n's first named child that is not a comment, or NoNode.
func (s *Syntax) FirstNamed(n Node) Node {
	if !s.ok(n) {
		return NoNode
	}
	return Node(s.t.firstNamed(int32(n)))
}

// NamedChildren are n's named children that are not comments, in order.
func (s *Syntax) NamedChildren(n Node) []Node {
	if !s.ok(n) {
		return nil
	}
	var out []Node
	for _, c := range s.t.namedChildren(int32(n)) {
		out = append(out, Node(c))
	}
	return out
}

// Callee is the callee of call expression n as written, whitespace removed
// ("vi.mock", "expect.soft", "vi.fn().mockReturnValue"); "" when n is not a
// call expression.
func (s *Syntax) Callee(n Node) string {
	if s.Kind(n) != "call_expression" {
		return ""
	}
	return strings.Join(strings.Fields(s.Text(s.Child(n, "function"))), "")
}

// HasToken reports whether n has the anonymous child token tok ("!", "?.").
func (s *Syntax) HasToken(n Node, tok string) bool {
	return s.ok(n) && s.t.hasToken(int32(n), tok)
}

// Start and End are n's byte range in Src.
func (s *Syntax) Start(n Node) uint {
	if !s.ok(n) {
		return 0
	}
	return uint(s.t.nodes[n].start)
}

// End is the end of n's byte range (exclusive).
func (s *Syntax) End(n Node) uint {
	if !s.ok(n) {
		return 0
	}
	return uint(s.t.nodes[n].end)
}

// Text is n's source text.
func (s *Syntax) Text(n Node) string {
	if !s.ok(n) {
		return ""
	}
	return s.t.text(int32(n))
}

// Line is the 1-based line of byte offset off.
func (s *Syntax) Line(off uint) int { return s.t.line(uint32(min(off, 1<<32-1))) }

// Unwrap skips parentheses, `as`, `satisfies`, `<T>x` and `x!` around an
// expression.
func (s *Syntax) Unwrap(n Node) Node {
	if !s.ok(n) {
		return NoNode
	}
	return Node(s.t.unwrap(int32(n)))
}

// Find returns the outermost node of the given kind ("" for any) whose
// range is exactly [start, end), or NoNode.
func (s *Syntax) Find(start, end uint, kind string) Node {
	nodes := s.t.nodes
	i := int32(0)
	if len(nodes) == 0 {
		return NoNode
	}
	// Descend through the nodes that contain the range.
	for i >= 0 {
		nd := &nodes[i]
		if uint(nd.start) == start && uint(nd.end) == end && (kind == "" || nd.kind == kind) {
			return Node(i)
		}
		next := int32(-1)
		for c := nd.first; c >= 0; c = nodes[c].next {
			if uint(nodes[c].start) <= start && end <= uint(nodes[c].end) {
				next = c
				break
			}
		}
		i = next
	}
	return NoNode
}

// Walk visits n and its descendants in source order; visit returns whether
// to descend into a node.
func (s *Syntax) Walk(n Node, visit func(Node) bool) {
	if !s.ok(n) {
		return
	}
	var rec func(i int32)
	rec = func(i int32) {
		if !visit(Node(i)) {
			return
		}
		for c := s.t.nodes[i].first; c >= 0; c = s.t.nodes[c].next {
			rec(c)
		}
	}
	rec(int32(n))
}

// PatternNames returns the identifier nodes a binding pattern binds (an
// identifier binds itself; object and array patterns, defaults and rest
// elements bind their names).
func (s *Syntax) PatternNames(n Node) []Node {
	if !s.ok(n) {
		return nil
	}
	x := &extraction{tree: s.t}
	var out []Node
	for _, i := range x.patternNames(int32(n)) {
		out = append(out, Node(i))
	}
	return out
}

// FunctionNode returns the function-like node (declaration, arrow, function
// expression) whose body is fn's body, or NoNode.
func (s *Syntax) FunctionNode(fn *Function) Node {
	if fn == nil {
		return NoNode
	}
	b := s.Find(fn.BodyStartByte, fn.BodyEndByte, "")
	for b >= 0 && s.Field(b) != "body" {
		// Find returns the outermost node with the range: step down to the
		// one that is a function's body.
		c := s.FirstChild(b)
		for c >= 0 && (s.Start(c) != fn.BodyStartByte || s.End(c) != fn.BodyEndByte) {
			c = s.Next(c)
		}
		b = c
	}
	if b < 0 {
		return NoNode
	}
	if p := s.Parent(b); isFunctionLike(s.Kind(p)) {
		return p
	}
	return NoNode
}
