package gate

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/operators"
)

// Arid says which calls are not worth a mutant: logging and tracing (see
// operators.Arid).
type Arid = operators.Arid

// Mutants builds the gate's mutants of the function fn of the file at path
// (src parsed as syn): the gate's operators of mutate/operators' registry,
// through operators.Gate.
func Mutants(path string, src []byte, syn *analyzer.Syntax, fn *analyzer.Function, arid Arid) []edit.Mutant {
	return operators.Gate(path, src, syn, fn, arid)
}

// newPrograms is the set by which two mutants that make the same program
// are one (operators.Programs): the first in the gate's order is kept.
func newPrograms() *operators.Programs { return operators.NewPrograms() }

// site is mutant m of syn's source as the token scope judges it
// (change.Counts): the code it replaces and, for a mutant of a whole
// construct, the construct's own tokens, which its operator says
// (operators.Site asks the registry's operator of m).
func site(syn *analyzer.Syntax, m edit.Mutant) change.Site { return operators.Site(syn, m) }

// reverts are the revert mutants of job j (operators.Revert: the base's
// code restored where the change wrote code no mutant of counted, the
// job's mutants on the change's code, stands for, and where it replaced a
// token; all, the change's tokens in the file; base, its base revision;
// importable, whether an import the revert restores still resolves: nil,
// every one does), and notes of those that could not be built.
func reverts(file string, src []byte, syn *analyzer.Syntax, j *job, all []change.Span, counted []edit.Mutant, base *change.Base, arid Arid, importable func(spec, name string) bool) ([]edit.Mutant, []string) {
	return operators.Revert.Reverts(&operators.Context{Path: file, Src: src, Syn: syn, Arid: arid, Fn: j.fn,
		Base: base, Changed: j.changed, AllChanged: all, Module: j.module, Read: j.read, Counted: counted, Importable: importable})
}

// importableFrom says whether file of the repository at root can import a
// name from a relative module at the head: the module is a file there
// (not deleted or renamed by the change) and, when the change touched it
// (bases), its head still exports the name (operators.DeletedExports). A
// package's or an alias's module is taken as importable.
func importableFrom(root, file string, bases change.Bases) func(spec, name string) bool {
	return func(spec, name string) bool {
		if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
			return true
		}
		p := path.Join(path.Dir(file), spec)
		stem := strings.TrimSuffix(p, path.Ext(p))
		for _, mod := range []string{p, p + ".ts", p + ".tsx", p + ".mts", p + ".cts", stem + ".ts", stem + ".tsx", p + ".js", p + ".jsx", p + ".mjs", p + ".cjs", p + "/index.ts", p + "/index.tsx", p + "/index.js"} {
			st, err := os.Stat(filepath.Join(root, filepath.FromSlash(mod)))
			if err != nil || st.IsDir() {
				continue
			}
			b := bases[mod]
			if b == nil || name == "*" {
				return true
			}
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(mod)))
			return err == nil && !slices.Contains(operators.DeletedExports(mod, src, b), name)
		}
		return false
	}
}
