package edit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// MarkReached returns m.Source with stmt (one line of JavaScript, e.g.
// `globalThis.__oracleReached?.("red-first");`) inserted right before each
// statement that holds a mutated site, in the same block, on the same line:
// it runs iff control reaches that statement, and no line moves. The
// statement is the innermost one that is a direct child of a { } block or
// of a `case` (as the analyzer's Call.StatementStartByte): a site in a
// braceless `if (x) f(flag)` or in an arrow's expression body is marked
// before the enclosing block statement, which may run without reaching the
// site itself. A `;` is added when stmt has none.
func MarkReached(m Mutant, stmt string) ([]byte, error) {
	stmt = strings.TrimSpace(stmt)
	if stmt == "" || strings.ContainsAny(stmt, "\r\n") {
		return nil, fmt.Errorf("reached marker must be one line of JavaScript, got %q", stmt)
	}
	if !strings.HasSuffix(stmt, ";") {
		stmt += ";"
	}
	f, s := analyzer.ParseSyntax(m.Path, m.Source)
	if s == nil {
		return nil, fmt.Errorf("cannot parse mutant %s: %s", m.Name, f.Errors[0].Message)
	}
	sites := m.Sites
	if len(sites) == 0 {
		sites = [][2]uint{m.Site}
	}
	var at []uint
	for _, st := range sites {
		n := blockStatementAt(s, st[0])
		if n < 0 {
			return nil, fmt.Errorf("mutant %s: no statement holds the site at byte %d", m.Name, st[0])
		}
		if !slices.Contains(at, s.Start(n)) {
			at = append(at, s.Start(n))
		}
	}
	var chs []change
	for _, a := range at {
		chs = append(chs, change{start: a, end: a, text: stmt + " "})
	}
	out, _, err := Apply(m.Source, toCore(chs))
	if err != nil {
		return nil, fmt.Errorf("mutant %s: reached marker: %w", m.Name, err)
	}
	if g := analyzer.Parse(m.Path, out); len(g.Errors) > len(f.Errors) {
		return nil, fmt.Errorf("mutant %s with the reached marker does not parse (line %d: %s)", m.Name, g.Errors[0].Line, g.Errors[0].Message)
	}
	return out, nil
}

// blockStatementAt is the innermost node holding offset off that is a
// statement directly in a block or a case.
func blockStatementAt(s *analyzer.Syntax, off uint) analyzer.Node {
	best := analyzer.NoNode
	n := s.Root()
	for n >= 0 {
		next := analyzer.NoNode
		for ch := s.FirstChild(n); ch >= 0; ch = s.Next(ch) {
			if s.Start(ch) <= off && off < s.End(ch) {
				next = ch
				break
			}
		}
		if next < 0 {
			break
		}
		switch pk := s.Kind(n); {
		case pk == "statement_block" && s.Named(next) && s.Kind(next) != "comment",
			(pk == "switch_case" || pk == "switch_default") && s.Field(next) == "body":
			best = next
		}
		n = next
	}
	return best
}
