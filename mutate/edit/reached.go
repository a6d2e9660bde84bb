package edit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// MarkReached returns m.Source() with stmt (one line of JavaScript, e.g.
// `globalThis.__oracleReached?.("red-first");`) inserted right before each
// statement that holds a mutated site, in the same block, on the same line:
// it runs iff control reaches that statement, and no line moves. The
// statement is the innermost one that is a direct child of a { } block or
// of a `case` (as the analyzer's Call.StatementStartByte): a site in a
// braceless `if (x) f(flag)` or in an arrow's expression body is marked
// before the enclosing block statement, which may run without reaching the
// site itself. A site that is a whole { } block (a body emptied to {}) is
// marked inside the block. A `;` is added when stmt has none.
func MarkReached(m Mutant, stmt string) ([]byte, error) {
	stmt, err := markerStmt(stmt)
	if err != nil {
		return nil, err
	}
	src := m.Source()
	f, s := analyzer.ParseSyntax(m.Path, src)
	if s == nil {
		return nil, fmt.Errorf("cannot parse mutant %s: %s", m.Name, f.Errors[0].Message)
	}
	at, err := reachedAt(m, s)
	if err != nil {
		return nil, err
	}
	var chs []change
	for _, a := range at {
		chs = append(chs, change{start: a, end: a, text: stmt + " "})
	}
	out, _, err := Apply(src, toCore(chs))
	if err != nil {
		return nil, fmt.Errorf("mutant %s: reached marker: %w", m.Name, err)
	}
	if g := analyzer.Parse(m.Path, out); len(g.Errors) > len(f.Errors) {
		return nil, fmt.Errorf("mutant %s with the reached marker does not parse (line %d: %s)", m.Name, g.Errors[0].Line, g.Errors[0].Message)
	}
	return out, nil
}

// markerStmt is stmt as MarkReached inserts it: one line, ending in `;`.
func markerStmt(stmt string) (string, error) {
	stmt = strings.TrimSpace(stmt)
	if stmt == "" || strings.ContainsAny(stmt, "\r\n") {
		return "", fmt.Errorf("reached marker must be one line of JavaScript, got %q", stmt)
	}
	if !strings.HasSuffix(stmt, ";") {
		stmt += ";"
	}
	return stmt, nil
}

// reachedAt is where MarkReached inserts its statement in m.Source(),
// parsed as s: before each statement that holds a site, inside a site that
// is a whole block.
func reachedAt(m Mutant, s *analyzer.Syntax) ([]uint, error) {
	sites := m.Sites
	if len(sites) == 0 {
		sites = [][2]uint{m.Site}
	}
	var at []uint
	for _, st := range sites {
		if b := s.Find(st[0], st[1], "statement_block"); b >= 0 && s.Start(b) == st[0] && s.End(b) == st[1] {
			// A whole block (a body emptied to {}): marked inside it, so it
			// counts as reached only when the block runs (as MarkCoverage),
			// not when the statement around it does (a function declared at
			// the top level would be "reached" as the module loads).
			if !slices.Contains(at, st[0]+1) {
				at = append(at, st[0]+1)
			}
			continue
		}
		n := blockStatementAt(s, st[0])
		if n < 0 {
			return nil, fmt.Errorf("mutant %s: no statement holds the site at byte %d", m.Name, st[0])
		}
		if !slices.Contains(at, s.Start(n)) {
			at = append(at, s.Start(n))
		}
	}
	return at, nil
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

// A Site is a mutant's place for MarkCoverage and Instrument: its span (a
// byte range of the original source) and its id (distinct), which the
// coverage marker before the statement holding the span records.
type Site struct {
	Span [2]uint
	ID   string
}

// An Entry is a function's body for Instrument: its byte range in the
// original source (a { } block, or an arrow's expression body; an empty
// range [p, p] is a module's load) and Stmt, one line of JavaScript that
// runs each time the function is entered.
type Entry struct {
	Body [2]uint
	Stmt string
}

// MarkCoverage returns orig, the original source of path, with a marker
// before each statement that holds one of sites (one per mutant):
// marker(ids) is one line of JavaScript that records the ids of every site
// that statement holds, in sites' order. A span that is a whole { } block
// (a removed body) is marked inside it, as its first statement, so that it
// counts as reached only when the block runs. The result runs exactly as
// orig does and keeps its lines; marked holds the ids of the sites that got
// a marker (a site outside any block, such as an arrow's expression body,
// gets none: the caller must treat it as reached by every test).
func MarkCoverage(path string, orig []byte, sites []Site, marker func(ids []string) string) (out []byte, marked map[string]bool, err error) {
	return Instrument(path, orig, sites, marker, nil)
}

// Instrument is MarkCoverage plus entry markers: each of entries gets its
// statement where it runs each time its function is entered. A block body
// gets it as its first statement; an expression body e becomes
// `((() => { stmt })(), e)`; a module's load gets it as a statement at p,
// between two top-level statements. Entry markers and coverage markers at
// one place run in that order. The result runs as orig does and keeps its
// lines.
func Instrument(path string, orig []byte, sites []Site, marker func(ids []string) string, entries []Entry) (out []byte, marked map[string]bool, err error) {
	f, s := analyzer.ParseSyntax(path, orig)
	if s == nil {
		return nil, nil, fmt.Errorf("cannot parse %s: %s", path, f.Errors[0].Message)
	}
	marked = map[string]bool{}
	at := map[uint][]string{} // insertion offset → the ids of the sites marked there
	var offs []uint
	for _, site := range sites {
		sp := site.Span
		off, ok := uint(0), false
		if b := s.Find(sp[0], sp[1], "statement_block"); b >= 0 && s.Start(b) == sp[0] && s.End(b) == sp[1] {
			off, ok = sp[0]+1, true
		} else if n := blockStatementAt(s, sp[0]); n >= 0 {
			off, ok = s.Start(n), true
		}
		if !ok {
			continue
		}
		if _, seen := at[off]; !seen {
			offs = append(offs, off)
		}
		at[off] = append(at[off], site.ID)
		marked[site.ID] = true
	}
	oneLine := func(what, stmt string) (string, error) {
		stmt = strings.TrimSpace(stmt)
		if stmt == "" || strings.ContainsAny(stmt, "\r\n") {
			return "", fmt.Errorf("%s marker must be one line of JavaScript, got %q", what, stmt)
		}
		if !strings.HasSuffix(stmt, ";") {
			stmt += ";"
		}
		return stmt, nil
	}
	texts := map[uint]string{} // insertion offset → what goes there
	var order []uint
	insert := func(off uint, text string) {
		if _, seen := texts[off]; !seen {
			order = append(order, off)
		}
		texts[off] += text
	}
	for _, e := range entries {
		b := e.Body
		if b[1] == b[0] && int(b[0]) <= len(orig) { // a module's load: a statement at b[0]
			stmt, err := oneLine("entry", e.Stmt)
			if err != nil {
				return nil, nil, err
			}
			insert(b[0], stmt+" ")
			continue
		}
		if b[1] <= b[0] || int(b[1]) > len(orig) {
			return nil, nil, fmt.Errorf("%s: function body %d-%d lies outside the source", path, b[0], b[1])
		}
		stmt, err := oneLine("entry", e.Stmt)
		if err != nil {
			return nil, nil, err
		}
		if orig[b[0]] == '{' {
			insert(b[0]+1, " "+stmt+" ")
		} else {
			insert(b[0], "((() => { "+stmt+" })(), ")
			insert(b[1], ")")
		}
	}
	for _, off := range offs {
		stmt, err := oneLine("coverage", marker(at[off]))
		if err != nil {
			return nil, nil, err
		}
		insert(off, " "+stmt+" ")
	}
	var chs []Change
	for _, off := range order {
		chs = append(chs, Change{Start: off, End: off, Text: texts[off]})
	}
	out, _, err = Apply(orig, chs)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: coverage markers: %w", path, err)
	}
	if g := analyzer.Parse(path, out); len(g.Errors) > len(f.Errors) {
		return nil, nil, fmt.Errorf("%s with coverage markers does not parse (line %d: %s)", path, g.Errors[0].Line, g.Errors[0].Message)
	}
	return out, marked, nil
}
