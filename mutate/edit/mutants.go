package edit

import (
	"strings"
)

// Mutant is one mutated copy of a file, made by one operator (the
// operators are mutate/operators').
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
