package edit

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/oracle-ts/oracle/analyzer"
)

// The edit core: text changes and the mutant they make, whatever operator
// chose them. Operators (mutate/operators: conditional-skip's and the
// gate's) decide what to change from the tree; the core applies the changes,
// refuses overlapping ones with an error, and describes the result in terms
// of the original source (Span) and of the mutated one (Site).

// Change replaces Src[Start:End] with Text. Start == End inserts.
type Change struct {
	Start, End uint
	Text       string
	// Site is the changed code within Text, relative to Start; zero means
	// all of Text (a marker or indentation around it is not the change).
	Site [2]uint
}

// Apply applies changes to src and returns the result and, for each change
// in order of position, the range its site occupies in the result. Changes
// that overlap (or insert twice at one offset), or that lie outside src, are
// an error: which one wins would be a guess.
func Apply(src []byte, chs []Change) ([]byte, [][2]uint, error) {
	chs = slices.Clone(chs)
	slices.SortStableFunc(chs, func(a, b Change) int { return int(a.Start) - int(b.Start) })
	size := len(src)
	for _, ch := range chs {
		size += len(ch.Text)
	}
	var out bytes.Buffer
	out.Grow(size) // the file once, not grown by doubling (a 60 KB file's 12,000 mutants)
	var sites [][2]uint
	pos := uint(0)
	for i, ch := range chs {
		if ch.End < ch.Start || ch.End > uint(len(src)) {
			return nil, nil, fmt.Errorf("change %d-%d lies outside the source (%d bytes)", ch.Start, ch.End, len(src))
		}
		if i > 0 && (ch.Start < pos || ch.Start == chs[i-1].Start) {
			p := chs[i-1]
			return nil, nil, fmt.Errorf("changes %d-%d and %d-%d overlap", p.Start, p.End, ch.Start, ch.End)
		}
		out.Write(src[pos:ch.Start])
		base := uint(out.Len())
		site := ch.Site
		if site == [2]uint{} {
			site = [2]uint{0, uint(len(ch.Text))}
		}
		sites = append(sites, [2]uint{base + site[0], base + site[1]})
		out.WriteString(ch.Text)
		pos = ch.End
	}
	out.Write(src[pos:])
	return out.Bytes(), sites, nil
}

// Operator names the kind of change a mutant makes. Names follow the
// SPEC's run names for conditional-skip and the mutation-testing-report-
// schema's mutatorName for the gate's operators.
type Operator string

// conditional-skip's operator set (SPEC "oracle prove").
const (
	RedFirst                Operator = "red-first"
	FlagInverted            Operator = "flag-inverted"
	FlagAlwaysSet           Operator = "flag-always-set"
	PreserveRemoved         Operator = "preserve-removed"
	PreserveMovedUnderGuard Operator = "preserve-moved-under-guard"
)

// Pos is a position in a source: 1-based line and column (in bytes) and the
// 0-based byte offset.
type Pos struct {
	Line, Column int
	Offset       uint
}

// Span is a range of a source, end exclusive.
type Span struct{ Start, End Pos }

// PosAt is the position of offset off in src.
func PosAt(src []byte, off uint) Pos {
	off = min(off, uint(len(src)))
	line := bytes.Count(src[:off], []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return Pos{Line: line, Column: col, Offset: off}
}

// UTF16Column is the 1-based column of byte offset off in src, counted in
// UTF-16 code units as JavaScript (and the mutation report viewer) counts.
func UTF16Column(src []byte, off uint) int {
	off = min(off, uint(len(src)))
	lineStart := bytes.LastIndexByte(src[:off], '\n') + 1
	return analyzer.UTF16Len(src[lineStart:off]) + 1
}

// SpanOf is the span of src[start:end].
func SpanOf(src []byte, start, end uint) Span {
	return Span{Start: PosAt(src, start), End: PosAt(src, end)}
}

// NewMutant applies chs to the original source orig of path and describes
// the result: the (first) change's original span and replacement, the sites
// in the mutated source, and the diff. It does not parse: an operator checks
// that its mutant parses. The mutant keeps orig, not a copy (the mutants of
// a file share it): the caller does not change it afterwards.
func NewMutant(op Operator, subject, path string, orig []byte, chs []Change) (Mutant, error) {
	src, sites, err := Apply(orig, chs)
	if err != nil {
		return Mutant{}, fmt.Errorf("mutant %s of %s: %w", op, path, err)
	}
	name := string(op)
	if subject != "" {
		name += ":" + subject
	}
	m := Mutant{Name: name, Operator: op, Subject: subject, Path: path, Sites: sites,
		Diff: Diff(path, orig, src), orig: orig, changes: slices.Clone(chs)}
	if len(chs) > 0 {
		first := slices.MinFunc(chs, func(a, b Change) int { return int(a.Start) - int(b.Start) })
		m.Original = SpanOf(orig, first.Start, first.End)
		m.Replacement = first.Text
	}
	if len(sites) > 0 {
		m.Site = sites[0]
		m.Line = bytes.Count(src[:m.Site[0]], []byte("\n")) + 1
	}
	return m, nil
}
