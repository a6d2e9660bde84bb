package operators

import (
	"os"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"

	"github.com/oracle-ts/oracle/mutate/edit"
)

// TestPrograms: programs are the same by their tokens, whitespace and
// comments aside; the text of strings and templates counts. A mutant of
// one change is read on the original's tokens, others parsed: both agree.
func TestPrograms(t *testing.T) {
	const orig = "function f(a: boolean, b: number, out: string[]) {\n  if (a) {\n    // why\n    out.push(`x ${b}`, \"y z\");\n  }\n  return b - -1;\n}\n"
	change := func(from, to, text string) edit.Change {
		t.Helper()
		i := indexOf(t, orig, from)
		return edit.Change{Start: uint(i), End: uint(i + len(to)), Text: text}
	}
	for _, tc := range []struct {
		name string
		a, b []edit.Change
		same bool
	}{
		{"a block of one call emptied, and the call removed", []edit.Change{change("{\n    //", "{\n    // why\n    out.push(`x ${b}`, \"y z\");\n  }", "{}")},
			[]edit.Change{change("out.push", "out.push(`x ${b}`, \"y z\");", "")}, true},
		{"the same text in other whitespace", []edit.Change{change("(a)", "(a)", "(true)")}, []edit.Change{change("(a)", "(a)", "( true )")}, true},
		{"other tokens", []edit.Change{change("(a)", "(a)", "(true)")}, []edit.Change{change("(a)", "(a)", "(false)")}, false},
		{"the whitespace of a string counts", []edit.Change{change("\"y z\"", "\"y z\"", "\"yz\"")}, []edit.Change{change("\"y z\"", "\"y z\"", "\"y  z\"")}, false},
		{"a template's too", []edit.Change{change("`x ${b}`", "`x ${b}`", "`x${b}`")}, []edit.Change{change("`x ${b}`", "`x ${b}`", "`x  ${b}`")}, false},
		{"- - is not --", []edit.Change{change("- -1", "- -1", "- -2")}, []edit.Change{change("- -1", "- -1", "--2")}, false},
		{"two changes, parsed", []edit.Change{change("(a)", "(a)", "(true)")},
			[]edit.Change{change("(a)", "(a)", "(true)"), change("b - -1", "b - -1", "b  -  -1")}, true},
	} {
		mut := func(chs []edit.Change) edit.Mutant {
			m, err := edit.NewMutant("X", "", "x.ts", []byte(orig), chs)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		for _, original := range []bool{true, false} {
			p := NewPrograms()
			if original {
				p.Original("x.ts", []byte(orig), nil)
			}
			p.Add(mut(tc.a))
			if again := !p.Add(mut(tc.b)); again != tc.same {
				t.Errorf("%s (original known %v): same %v, want %v", tc.name, original, again, tc.same)
			}
		}
	}
	// the original itself, and a mutant that changes no token
	p := NewPrograms()
	p.Original("x.ts", []byte(orig), nil)
	if m, _ := edit.NewMutant("X", "", "x.ts", []byte(orig), []edit.Change{change("(a)", "(a)", "( a )")}); p.Add(m) {
		t.Error("a mutant of the original's tokens is a new program")
	}
	if m, _ := edit.NewMutant("X", "", "y.ts", []byte(orig), []edit.Change{change("(a)", "(a)", "(true)")}); !p.Add(m) {
		t.Error("another file's program is another program")
	}
}

func indexOf(t *testing.T, s, sub string) int {
	t.Helper()
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	t.Fatalf("%q not in the source", sub)
	return -1
}

// TestProgramsAgree: a mutant's program read on its original's tokens is
// the program its own parse gives, for the gate's mutants of the samples'
// files (and every 40th npm source).
func TestProgramsAgree(t *testing.T) {
	n := 0
	for i, path := range corpus(t) {
		if strings.Contains(path, "node_modules") && i%40 != 0 {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(src) > 30000 {
			continue
		}
		f, syn := analyzer.ParseSyntax(path, src)
		if syn == nil || len(f.Errors) > 0 {
			continue
		}
		p := NewPrograms()
		p.Original(path, src, syn)
		for _, fn := range f.Functions {
			for _, m := range Gate(path, src, syn, fn, Arid{}) {
				fast, ok := p.onOriginal(m)
				if !ok {
					continue
				}
				n++
				if slow := key(m.Path, func(h *canonWriter) { h.raw(parsedCanon(m.Path, m.Source())) }); fast != slow {
					t.Errorf("%s: %s at %d:%d %q: read on the original, another program than its parse", path, m.Operator, m.Original.Start.Line, m.Original.Start.Column, m.Replacement)
				}
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d mutants compared", n)
	}
	t.Logf("%d mutants compared", n)
}
