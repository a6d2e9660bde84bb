package edit

import (
	"fmt"
	"strings"
	"testing"
)

// TestMarkCoverage: a marker before the statement that holds each span,
// inside a { } block that is the span itself, one marker for the mutants of
// one statement, none for a site outside any block; lines never move.
func TestMarkCoverage(t *testing.T) {
	src := "export function f(a: number) {\n  if (a > 1) {\n    return a + 1;\n  }\n  return a && a - 1;\n}\nexport const g = (a: number) => a * 2;\n"
	span := func(s string) [2]uint {
		i := strings.Index(src, s)
		if i < 0 {
			t.Fatalf("%q not in the source", s)
		}
		return [2]uint{uint(i), uint(i + len(s))}
	}
	spans := [][2]uint{
		span("a + 1"),                     // 0: before `return a + 1`
		span("{\n    return a + 1;\n  }"), // 1: the if's block: inside it
		span("a && a - 1"),                // 2: before the last return
		span("a - 1"),                     // 3: the same statement as 2
		span("a * 2"),                     // 4: an arrow's expression body: no marker
		span("a > 1"),                     // 5: before the if
	}
	var sites []Site
	for k, sp := range spans {
		sites = append(sites, Site{Span: sp, ID: fmt.Sprint(k)})
	}
	out, marked, err := MarkCoverage("x.ts", []byte(src), sites, func(ids []string) string { return "M([" + strings.Join(ids, ",") + "])" })
	if err != nil {
		t.Fatal(err)
	}
	var covered []bool
	for _, s := range sites {
		covered = append(covered, marked[s.ID])
	}
	want := "export function f(a: number) {\n   M([5]); if (a > 1) { M([1]); \n     M([0]); return a + 1;\n  }\n   M([2,3]); return a && a - 1;\n}\nexport const g = (a: number) => a * 2;\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if fmt.Sprint(covered) != "[true true true true false true]" {
		t.Errorf("covered %v", covered)
	}
	if _, _, err := MarkCoverage("x.ts", []byte(src), sites[:1], func([]string) string { return "a\nb" }); err == nil {
		t.Error("a marker of two lines was accepted")
	}
}

// TestInstrumentEntries: an entry marker as the first statement of a block
// body, around an arrow's expression body, before a coverage marker at the
// same place; the result parses and keeps its lines.
func TestInstrumentEntries(t *testing.T) {
	src := "export function f(a: number) {\n  return a + 1;\n}\nexport const g = (a: number) => ({ a });\nclass C { m() {} }\n"
	body := func(s string) [2]uint {
		i := strings.Index(src, s)
		if i < 0 {
			t.Fatalf("%q not in the source", s)
		}
		return [2]uint{uint(i), uint(i + len(s))}
	}
	entries := []Entry{{body("{\n  return a + 1;\n}"), "E(0)"}, {body("({ a })"), "E(1)"}, {body("{}"), "E(2)"}}
	sites := []Site{{body("{\n  return a + 1;\n}"), "0"}}
	out, covered, err := Instrument("x.ts", []byte(src), sites, func(ids []string) string { return "M(" + ids[0] + ")" }, entries)
	if err != nil {
		t.Fatal(err)
	}
	want := "export function f(a: number) { E(0);  M(0); \n  return a + 1;\n}\nexport const g = (a: number) => ((() => { E(1); })(), ({ a }));\nclass C { m() { E(2); } }\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if !covered["0"] {
		t.Error("the body span got no coverage marker")
	}
	if _, _, err := Instrument("x.ts", []byte(src), nil, nil, []Entry{{[2]uint{0, 9999}, "E()"}}); err == nil {
		t.Error("a body outside the source was accepted")
	}
	// A module's load: an empty range is a statement there.
	mod := "import { x } from \"./x\";\nexport const L = { max: x * 3 };\n"
	at := uint(strings.Index(mod, "export"))
	out, _, err = Instrument("m.ts", []byte(mod), nil, nil, []Entry{{[2]uint{0, 0}, "E(0)"}, {[2]uint{at, at}, "E(1)"}})
	want = "E(0); import { x } from \"./x\";\nE(1); export const L = { max: x * 3 };\n"
	if err != nil || string(out) != want {
		t.Errorf("module entry: %v\n%s\nwant\n%s", err, out, want)
	}
}
