package operators

import (
	"fmt"
	"slices"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
)

// TestRevert: the revert operator reads the change from its context (the
// base revision, the target's changed tokens, the other operators'
// mutants on them) and restores the base's code where a token was
// replaced; with no base revision it makes none. (The gate's TestReverts
// has the cases.)
func TestRevert(t *testing.T) {
	base := "export function f(a: number) {\n  return a * 1;\n}\n"
	head := []byte("export function f(a: number) {\n  return a * 2;\n}\n")
	f, syn := analyzer.ParseSyntax("src/f.ts", head)
	changed, b := change.DiffBase("src/f.ts", []byte(base), head)
	c := &Context{Path: "src/f.ts", Src: head, Syn: syn, Fn: f.Functions[0], Base: b, Changed: changed, AllChanged: changed}
	c.Counted = Gate("src/f.ts", head, syn, f.Functions[0], Arid{})
	ms, notes := Revert.Reverts(c)
	var got []string
	for _, m := range ms {
		got = append(got, fmt.Sprintf("%s %d: %s => %s", m.Operator, m.Original.Start.Line, head[m.Original.Start.Offset:m.Original.End.Offset], m.Replacement))
	}
	if want := []string{"Revert 2: 2 => 1"}; !slices.Equal(got, want) || len(notes) > 0 {
		t.Errorf("reverts %q (notes %q), want %q", got, notes, want)
	}
	c.Base = nil
	if ms, _ := Revert.Reverts(c); len(ms) > 0 {
		t.Errorf("no base revision: %d reverts", len(ms))
	}
}

// TestRevertGoneImport: a revert that would restore an import the head
// cannot satisfy (pathe a48a600: `./path`, a module the change deleted; a
// name its module no longer exports, renamed there) is not built, and a
// note says why; importable, it is.
func TestRevertGoneImport(t *testing.T) {
	base := "import * as path from \"./path\";\nexport function f() {\n  return path.sep;\n}\n"
	head := []byte("export function f() {\n  return \"/\";\n}\n")
	for _, tc := range []struct {
		name       string
		importable bool
		want       []string
		notes      []string
	}{
		{"not importable", false, nil, []string{"src/f.ts:2: no revert mutant of the change there: it uses path, imported from ./path, which no longer exports it (the change renamed, moved or deleted it: restored, a failed import, not a test's verdict)"}},
		{"importable", true, []string{"Revert 2: \"/\" => path.sep"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, syn := analyzer.ParseSyntax("src/f.ts", head)
			changed, b := change.DiffBase("src/f.ts", []byte(base), head)
			var asked []string
			c := &Context{Path: "src/f.ts", Src: head, Syn: syn, Fn: f.Functions[0], Base: b, Changed: changed, AllChanged: changed,
				Importable: func(spec, name string) bool { asked = append(asked, spec+" "+name); return tc.importable }}
			c.Counted = Gate("src/f.ts", head, syn, f.Functions[0], Arid{})
			ms, notes := Revert.Reverts(c)
			var got []string
			for _, m := range ms {
				got = append(got, fmt.Sprintf("%s %d: %s => %s", m.Operator, m.Original.Start.Line, head[m.Original.Start.Offset:m.Original.End.Offset], m.Replacement))
			}
			if !slices.Equal(got, tc.want) || !slices.Equal(notes, tc.notes) || !slices.Equal(asked, []string{"./path *"}) {
				t.Errorf("reverts %q notes %q (asked %q), want %q notes %q", got, notes, asked, tc.want, tc.notes)
			}
		})
	}
}
