package edit

import (
	"fmt"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/syntaxcheck"
)

// Acceptance is the one rule for accepting a source mutated from an
// original, whoever made it (prove's and the gate's operators, a schema):
// the result must have no more tree-sitter parse errors than the original
// (the tree every edit and report is read from), and esbuild's parser, which
// vitest transforms the file with, must accept it.
//
// A mutant of an original without errors is first reparsed incrementally
// (analyzer.Edits): when tree-sitter finds no error there, it has no more
// than the original's none; otherwise the whole file is parsed and its
// errors counted, as for an original with errors. The original is parsed
// for these when a mutant is first checked whole (a gate's function whose
// mutants its windows accept needs no parse of its file; issue 42: a
// change of 400 functions parsed their files twice each). It holds C
// memory: Close it.
type Acceptance struct {
	path string
	w    *windows // window.go
}

// windows are what the checks keep: the original, its syntax tree (parsed
// when first needed) and its windows by span; the original's tree-sitter
// errors and incremental parser, made by the first whole check.
type windows struct {
	orig []byte
	syn  *analyzer.Syntax
	seen map[[2]uint]*window
	kids map[analyzer.Node]children // the children of the nodes searched (window.go)

	parsed bool
	before int // tree-sitter errors of the original
	edits  *analyzer.Edits
}

// Accepting is the rule for sources mutated from orig, the source of path.
func Accepting(path string, orig []byte) Acceptance { return AcceptingParsed(path, orig, nil) }

// AcceptingParsed is Accepting, with orig's syntax tree as
// analyzer.ParseSyntax(path, orig) gives it (nil, or one of another
// source: parsed when a window is first needed).
func AcceptingParsed(path string, orig []byte, syn *analyzer.Syntax) Acceptance {
	if syn != nil && (len(syn.Src()) != len(orig) || len(orig) > 0 && &syn.Src()[0] != &orig[0]) {
		syn = nil
	}
	return Acceptance{path: path, w: &windows{orig: orig, syn: syn, seen: map[[2]uint]*window{}, kids: map[analyzer.Node]children{}}}
}

// Close frees what the rule holds.
func (a Acceptance) Close() { a.w.edits.Close() }

// whole is the original's tree-sitter errors and incremental parser,
// made once.
func (w *windows) whole(path string) (int, *analyzer.Edits) {
	if !w.parsed {
		w.before, w.edits, w.parsed = len(analyzer.Parse(path, w.orig).Errors), analyzer.NewEdits(path, w.orig), true
	}
	return w.before, w.edits
}

// Check returns nil when out, a mutant of the original by an operator, is
// accepted, else which parser refused it and where ("line 3: ..." or
// "esbuild: line 3: ..."): in its window when it can (window.go), else as
// CheckWhole.
func (a Acceptance) Check(out []byte) error {
	if a.windowAccepts(out) {
		return nil
	}
	return a.CheckWhole(out)
}

// CheckWhole is Check on the whole file: for any source made from the
// original (a schema, a revert to the base's code).
func (a Acceptance) CheckWhole(out []byte) error {
	before, edits := a.w.whole(a.path)
	if !edits.Clean(out) {
		if f := analyzer.Parse(a.path, out); len(f.Errors) > before {
			e := f.Errors[0]
			return fmt.Errorf("line %d: %s", e.Line, e.Message)
		}
	}
	return syntaxcheck.Check(a.path, out)
}
