package testsuite

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/change"
)

// Touched is one function a change touched.
type Touched struct {
	File     string
	Function *analyzer.Function
	EndLine  int // the line its declaration ends on
}

// ID is the function's id, file#Qual.
func (t Touched) ID() string { return t.File + "#" + t.Function.Qual }

// TouchedFunctions are the functions of files whose lines ch touched, in
// file and source order: every graph function no other function holds
// (top-level functions, class members and static blocks, namespace
// functions, and the functions of module-level code: object-literal methods,
// arrows passed to a call); a nested function is part of the function
// around it. They are the unit gate mutates and audit judges. Files that are not TypeScript or no longer exist are left
// out.
func TouchedFunctions(p *callgraph.Program, ch change.Change, files []string) []Touched {
	var out []Touched
	for _, file := range files {
		if _, ok := ch[file]; !ok {
			continue
		}
		if _, ok := analyzer.LangFor(file); !ok {
			continue
		}
		f, _ := p.Module(file)
		src, err := os.ReadFile(filepath.Join(p.Root(), filepath.FromSlash(file)))
		if f == nil || err != nil {
			continue
		}
		for _, fn := range f.Functions {
			if fn.Parent != nil || int(fn.EndByte) > len(src) {
				continue
			}
			end := fn.Line + bytes.Count(src[fn.StartByte:fn.EndByte], []byte("\n"))
			if ch.Touches(file, fn.Line, end) {
				out = append(out, Touched{File: file, Function: fn, EndLine: end})
			}
		}
	}
	return out
}
