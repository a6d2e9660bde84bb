package edit

import "github.com/oracle-ts/oracle/analyzer"

// HitFunc is the function a counted body calls for each hit (countHits): a
// schema declares its own (hitHelper); a mutant run alone is given one to
// declare (MarkCounted's decl: runner.HitCounter).
const HitFunc = hitFunc

// MarkCounted is MarkReached(m, stmt) (no marker when stmt is "") with the
// hits of the function body that holds m's change counted as a schema
// counts them (countHits: on entry, on entry to every function nested in
// it, each iteration of every loop in it) by calls of HitFunc, and decl,
// HitFunc's declaration, appended: so a mutant run alone that loops stops
// by counting, not by a clock (SPEC "Runs and kills"). The body is the one
// a schema would switch (functionBody). counted is false, and the source
// MarkReached's, when no function body holds the change (module code, a
// default parameter), the body starts with a directive, or the counted
// source would not parse.
func MarkCounted(m Mutant, stmt, decl string) (src []byte, counted bool, err error) {
	plain := func() ([]byte, bool, error) {
		if stmt == "" {
			return m.Source(), false, nil
		}
		out, err := MarkReached(m, stmt)
		return out, false, err
	}
	mut := m.Source()
	f, s := analyzer.ParseSyntax(m.Path, mut)
	if s == nil {
		return plain()
	}
	marks := map[uint]string{}
	if stmt != "" {
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
	start, end := changedRange(m.orig, mut)
	end = uint(len(mut)) - (uint(len(m.orig)) - end) // the same range in mut
	out, ok := countBody(m.Path, s, len(f.Errors), start, end, marks, decl)
	if !ok {
		return plain()
	}
	return out, true, nil
}

// CountedOriginal is the original source of m's file with the function
// body MarkCounted counts in m counted the same way, and decl appended: the
// original code's hits, measured in the runs of a mutant whose counter
// stopped it (the limit is derived from them). false when MarkCounted would
// count nothing.
func CountedOriginal(m Mutant, decl string) ([]byte, bool) {
	f, s := analyzer.ParseSyntax(m.Path, m.orig)
	if s == nil {
		return nil, false
	}
	start, end := changedRange(m.orig, m.Source())
	return countBody(m.Path, s, len(f.Errors), start, end, nil, decl)
}

// countBody is src (parsed as s, with errs parse errors) with the function
// body a schema would switch for a change of [start, end) counted, the
// marks (text by offset) inserted, and decl appended; false when no body
// holds the change, it starts with a directive, a mark lies outside it
// where no statement can take it, or the result has more parse errors.
func countBody(path string, s *analyzer.Syntax, errs int, start, end uint, marks map[uint]string, decl string) ([]byte, bool) {
	src := s.Src()
	n := functionBody(s, start, end)
	if n < 0 || directive(s, n) {
		return nil, false
	}
	bs, be := bodyRange(s, n)
	inside, chs := map[uint]string{}, []Change(nil)
	for at, text := range marks {
		if bs <= at && at <= be {
			inside[at] = text
		} else {
			chs = append(chs, Change{Start: at, End: at, Text: text})
		}
	}
	body, err := countHitsMarked(s, src, bs, be, isBlock(s, n), true, inside)
	if err != nil {
		return nil, false
	}
	if !isBlock(s, n) {
		body = "(" + hitFunc + "(), " + body + ")"
	}
	chs = append(chs, Change{Start: bs, End: be, Text: body}, Change{Start: uint(len(src)), End: uint(len(src)), Text: "\n" + decl + "\n"})
	out, _, err := Apply(src, chs)
	if err != nil {
		return nil, false
	}
	if g := analyzer.Parse(path, out); len(g.Errors) > errs {
		return nil, false
	}
	return out, true
}
