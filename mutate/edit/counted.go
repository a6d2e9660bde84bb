package edit

import (
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// HitFunc is the function a counted body calls for each hit (countHits): a
// schema declares its own (hitHelper); a mutant run alone is given one to
// declare (MarkCounted's decl: runner.HitCounter).
const HitFunc = hitFunc

// MarkCounted is MarkReached(m, stmt) (no marker when stmt is "") with the
// file's hits counted by calls of HitFunc, and decl, HitFunc's declaration,
// appended: so a mutant run alone that loops stops by counting, not by a
// clock (SPEC "Runs and kills"). Counted is every function's entry (but a
// body that starts with a directive) and every iteration of every loop,
// anywhere in the file (countHits over the whole of it): a loop in one
// function whose calls of another the mutant changed counts at least once
// a turn, as in a schema that switches both, whatever function holds the
// change. counted is false, and the source MarkReached's, when there is
// nothing to count (no function, no loop) or the counted source would not
// parse.
func MarkCounted(m Mutant, stmt, decl string) (src []byte, counted bool, err error) {
	mut := m.Source()
	f, s := analyzer.ParseSyntax(m.Path, mut)
	marks := map[uint]string{}
	if stmt != "" {
		if s == nil {
			out, err := MarkReached(m, stmt)
			return out, false, err
		}
		if stmt, err = markerStmt(stmt); err != nil {
			return nil, false, err
		}
		at, err := reachedAt(m, s)
		if err != nil {
			return nil, false, err
		}
		for _, a := range at {
			marks[a] = stmt + " "
		}
	}
	if s != nil {
		if out, ok := countFile(m.Path, s, len(f.Errors), marks, decl); ok {
			return out, true, nil
		}
	}
	if stmt == "" {
		return mut, false, nil
	}
	out, err := MarkReached(m, stmt)
	return out, false, err
}

// CountedOriginal is the original source of m's file counted as
// MarkCounted counts m, and decl appended: the original code's hits,
// measured in the runs of a mutant whose counter stopped it (the limit is
// derived from them). false when it would not parse.
func CountedOriginal(m Mutant, decl string) ([]byte, bool) {
	f, s := analyzer.ParseSyntax(m.Path, m.orig)
	if s == nil {
		return nil, false
	}
	return countFile(m.Path, s, len(f.Errors), nil, decl)
}

// countFile is src (parsed as s, with errs parse errors) with its hits
// counted (countHitsMarked over the whole file), the marks (text by
// offset) inserted, and decl appended; false when it has nothing to count
// or the result has more parse errors.
func countFile(path string, s *analyzer.Syntax, errs int, marks map[uint]string, decl string) ([]byte, bool) {
	src := s.Src()
	body, err := countHitsMarked(s, src, 0, uint(len(src)), false, true, marks)
	if err != nil || !strings.Contains(body, hitFunc+"(") {
		return nil, false // nothing to count: no function, no loop
	}
	out := []byte(body + "\n" + decl + "\n")
	if g := analyzer.Parse(path, out); len(g.Errors) > errs {
		return nil, false
	}
	return out, true
}
