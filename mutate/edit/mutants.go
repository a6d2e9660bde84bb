package edit

import (
	"fmt"
	"strings"
)

// Mutant is one mutation of a file, made by one operator (the operators
// are mutate/operators'). It holds its changes and the file's original
// source, which every mutant of the file shares (never copied, never
// written): its memory is its change's, not its file's (issue 42: a copy of
// the file per mutant was 720 MB for 12,000 mutants of a 60 KB file).
// Source makes the mutated file when asked.
type Mutant struct {
	// Name as the SPEC names runs: the operator, and ":<subject>" when it
	// has one ("red-first", "preserve-removed:<call>"). For display and
	// reports only: code reads Operator and Subject.
	Name     string
	Operator Operator
	Subject  string // what the operator applied to (the preserved call), or ""
	Path     string // the file's path, as in Target
	Line     int    // 1-based line of the (first) mutated site in Source()
	Diff     string // unified diff from the original
	// Original is the span of the original source the (first) change
	// replaced, and Replacement its new text: the mutant as a single edit of
	// the file the user has (schemata and reports are built from them).
	Original    Span
	Replacement string
	// Site is the byte range in Source() of the (first) changed code; Sites
	// lists every changed range (red-first changes every flag reference).
	Site  [2]uint
	Sites [][2]uint
	// Note explains a mutant that is not a change (red-first of a function
	// that never reads the flag: the guard is missing).
	Note string

	orig    []byte   // the original source, shared by the file's mutants
	changes []Change // the changes to orig (Apply's)
}

// Source is the whole mutated file, made afresh on each call (the caller
// may keep or change it): the original source with the mutant's changes.
func (m Mutant) Source() []byte {
	out, _, err := Apply(m.orig, m.changes)
	if err != nil {
		panic(fmt.Sprintf("mutant %s of %s: %v", m.Name, m.Path, err)) // NewMutant applied them
	}
	return out
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
