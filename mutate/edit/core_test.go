package edit

import (
	"strings"
	"testing"
)

// TestApply: changes apply in order of position whatever order they come
// in; overlapping ones, two insertions at one offset and ranges outside the
// source are errors, never a panic or a guess.
func TestApply(t *testing.T) {
	src := []byte("abcdef")
	out, sites, err := Apply(src, []Change{{Start: 4, End: 5, Text: "EE"}, {Start: 0, End: 1, Text: "A"}})
	if err != nil || string(out) != "AbcdEEf" {
		t.Fatalf("got %q, %v", out, err)
	}
	if sites[0] != [2]uint{0, 1} || sites[1] != [2]uint{4, 6} {
		t.Errorf("sites %v", sites)
	}
	for name, chs := range map[string][]Change{
		"overlap":     {{Start: 1, End: 3, Text: "x"}, {Start: 2, End: 4, Text: "y"}},
		"same insert": {{Start: 2, End: 2, Text: "x"}, {Start: 2, End: 2, Text: "y"}},
		"outside":     {{Start: 5, End: 9, Text: "x"}},
		"end < start": {{Start: 3, End: 2, Text: "x"}},
		"nested":      {{Start: 0, End: 6, Text: "x"}, {Start: 2, End: 3, Text: "y"}},
	} {
		if _, _, err := Apply(src, chs); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if out, _, err := Apply(src, []Change{{Start: 1, End: 2, Text: "x"}, {Start: 2, End: 2, Text: "y"}}); err != nil || string(out) != "axycdef" {
		t.Errorf("adjacent: %q %v", out, err)
	}
}

// TestNewMutant: the mutant is described in the original source (span and
// replacement) and in the mutated one (site, line), with its typed operator.
func TestNewMutant(t *testing.T) {
	orig := []byte("function f(a) {\n  save(a);\n  return a;\n}\n")
	start := uint(strings.Index(string(orig), "save(a)"))
	m, err := NewMutant(PreserveRemoved, "save", "x.ts", orig, []Change{{Start: start, End: start + 7, Text: "(undefined)"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "preserve-removed:save" || m.Operator != PreserveRemoved || m.Subject != "save" {
		t.Errorf("name %q operator %q subject %q", m.Name, m.Operator, m.Subject)
	}
	want := Span{Start: Pos{Line: 2, Column: 3, Offset: start}, End: Pos{Line: 2, Column: 10, Offset: start + 7}}
	if m.Original != want || m.Replacement != "(undefined)" || m.Line != 2 {
		t.Errorf("original %+v replacement %q line %d", m.Original, m.Replacement, m.Line)
	}
	if string(m.Source()[m.Site[0]:m.Site[1]]) != "(undefined)" || !strings.Contains(m.Diff, "+  (undefined);") {
		t.Errorf("site %v diff\n%s", m.Site, m.Diff)
	}
	if _, err := NewMutant(FlagInverted, "", "x.ts", orig, []Change{{Start: 1, End: 3}, {Start: 2, End: 4}}); err == nil {
		t.Error("overlapping changes: no error")
	}
}
