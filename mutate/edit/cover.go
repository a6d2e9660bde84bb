package edit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// Per-test coverage in a schema (the batch harness's per-test selection,
// lab/select.go): the original's branch of a switched body carries, before
// the statement that holds a mutant's change, a record that adds the
// statement's key (Schema.Cover) to globalThis[HitState].cov when the
// harness keeps that set (its opening baseline). A test that never reached
// the statement with the original code runs the variant exactly as the
// original: the variant's body is the original's until that statement.
//
// Only where that holds is a statement recorded: the statement is inside
// the switched body, holds the whole change, and no function or class
// inside it holds the change (an arrow's expression, a default parameter,
// a class field: code that runs later than the statement, maybe in another
// test, when the function is called). Every other mutant has no key: its
// variant runs every test.

// covRecord is the statement that records keys in the harness's set.
func covRecord(keys []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, " { const h = Reflect.get(globalThis, %q); if (h !== undefined && h !== null && h.cov) {", HitState)
	for _, k := range keys {
		fmt.Fprintf(&b, " h.cov.add(%d);", k)
	}
	b.WriteString(" } } ")
	return b.String()
}

// statementMark is where the original body [bs, be) of s records the change
// [start, end) (the start of the innermost statement directly in a block
// or a case that holds it), false when the change has no such statement
// (see above).
func statementMark(s *analyzer.Syntax, bs, be, start, end uint) (uint, bool) {
	st := blockStatementAt(s, start)
	if st < 0 || s.Start(st) < bs || s.End(st) > be || s.End(st) < end || s.Start(st) > start {
		return 0, false
	}
	// From the statement down to the smallest node holding the change: no
	// function or class on the way (the statement itself included).
	for n := st; n >= 0; {
		switch k := s.Kind(n); {
		case isFunctionLike(k), strings.Contains(k, "class"), k == "field_definition", k == "public_field_definition":
			return 0, false
		}
		next := analyzer.NoNode
		for ch := s.FirstChild(n); ch >= 0; ch = s.Next(ch) {
			if s.Start(ch) <= start && end <= s.End(ch) && (start < s.End(ch) || start == end && start == s.Start(ch)) {
				next = ch
				break
			}
		}
		n = next
	}
	return s.Start(st), true
}

// coverMarks are the records of the original body [bs, be) of s for the
// mutants ms (their ids): by offset, the record's text; and each recorded
// id's key (the first id recorded at its statement) in cover.
func coverMarks(s *analyzer.Syntax, orig []byte, bs, be uint, ms []Mutant, ids []int, cover map[int]int) map[uint]string {
	keys := map[uint][]int{}
	var offs []uint
	first := map[uint]int{}
	for k, m := range ms {
		start, end := changedRange(orig, m.Source())
		off, ok := statementMark(s, bs, be, start, end)
		if !ok {
			continue
		}
		if _, seen := first[off]; !seen {
			first[off] = ids[k]
			offs = append(offs, off)
			keys[off] = append(keys[off], ids[k])
		}
		cover[ids[k]] = first[off]
	}
	slices.Sort(offs)
	marks := map[uint]string{}
	for _, off := range offs {
		marks[off] = covRecord(keys[off])
	}
	return marks
}
