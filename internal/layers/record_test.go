package layers

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The "done when" of one mutant record (issue 28, item 1), kept from
// regressing: the gate's lab stage and the lab's entry stay short (their
// steps are named functions of their own), no function outside the
// parsers (analyzer, callgraph) grows past 100 lines (issue 28's
// acceptance: bench/ and cmd/ too), and no verb compares an outcome as text (the lab's typed Outcome and its methods do; strings only at the
// JSON and report edges).

// funcs parses the non-test Go files of the package in dir (from the
// module root) and returns each function's length in lines, by name
// ("Recv.Name" for a method).
func funcs(t *testing.T, dir string) map[string]int {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string]int{}
	for _, file := range parseDir(t, fset, dir) {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				typ := fd.Recv.List[0].Type
				if st, ok := typ.(*ast.StarExpr); ok {
					typ = st.X
				}
				switch g := typ.(type) { // a generic type's receiver: T[K] or T[K, V]
				case *ast.IndexExpr:
					typ = g.X
				case *ast.IndexListExpr:
					typ = g.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					name = id.Name + "." + name
				}
			}
			// The longest of the same name (init may be declared many times).
			out[name] = max(out[name], fset.Position(fd.End()).Line-fset.Position(fd.Pos()).Line+1)
		}
	}
	return out
}

// parseDir parses the non-test Go files of the package in dir (from the
// module root).
func parseDir(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("%s: no Go files (%v)", dir, err)
	}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

func TestFunctionLengths(t *testing.T) {
	for _, c := range []struct{ dir, fn string }{{"gate", "execute"}, {"mutate/lab", "Lab.ExecuteJobs"}} {
		n, ok := funcs(t, c.dir)[c.fn]
		switch {
		case !ok:
			t.Errorf("%s: no function %s (renamed? keep this test on the lab stage and the lab's entry)", c.dir, c.fn)
		case n >= 80:
			t.Errorf("%s: %s is %d lines, want under 80: name its steps", c.dir, c.fn, n)
		}
	}
	for _, dir := range productDirs(t) {
		for fn, n := range funcs(t, dir) {
			if n > 100 {
				t.Errorf("%s: %s is %d lines, want at most 100: split it into named stages", dir, fn, n)
			}
		}
	}
}

// productDirs are the module's directories (from the module root) that hold
// non-test Go files, bench/ included, leaving out the parsers (analyzer,
// callgraph: a tree walk is one long switch) and testdata, node_modules and
// dot-directories.
func productDirs(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	var dirs []string
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch {
			case rel == ".":
				return nil
			case rel == "analyzer", rel == "callgraph", d.Name() == "testdata", d.Name() == "node_modules", strings.HasPrefix(d.Name(), "."):
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") {
			if dir := path.Dir(rel); !seen[dir] {
				seen[dir] = true
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no Go directories under the module root (%v)", err)
	}
	return dirs
}

// outcomeText are the outcomes of a mutant as text (lab.Outcome's values;
// "passed" and "failed" are vitest's statuses too, which its JSON reports).
var outcomeText = map[string]bool{"killed": true, "survived": true, "timeout": true, "no-coverage": true}

func TestNoOutcomeStrings(t *testing.T) {
	for _, dir := range []string{"gate", "mutate", "audit", "cmd/oracle"} {
		fset := token.NewFileSet()
		files, _ := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			file, err := parser.ParseFile(fset, f, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			outcome := func(e ast.Expr) bool {
				lit, ok := e.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return false
				}
				s, err := strconv.Unquote(lit.Value)
				return err == nil && outcomeText[s]
			}
			ast.Inspect(file, func(n ast.Node) bool {
				var lits []ast.Expr
				switch n := n.(type) {
				case *ast.BinaryExpr:
					if n.Op == token.EQL || n.Op == token.NEQ {
						lits = []ast.Expr{n.X, n.Y}
					}
				case *ast.CaseClause:
					lits = n.List
				}
				for _, e := range lits {
					if outcome(e) {
						t.Errorf("%s: compares an outcome as text (%s): use the lab's typed Outcome", fset.Position(e.Pos()), src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset])
					}
				}
				return true
			})
		}
	}
}

// TestNoParallelSlices: in the gate and the lab no slice, array or map is
// indexed by the index of another slice (issue 28, item 1): what belongs to
// one element (a variant's tests and notes, a mutant's span and marker)
// is one record, not the same place in several lists. Checked where the
// types are known without the imports: the loop's index ranges over a
// slice or an array (range, or i < len(X)), and the indexed value is
// another variable or field.
func TestNoParallelSlices(t *testing.T) {
	for _, dir := range []string{"gate", "mutate/lab"} {
		fset := token.NewFileSet()
		files := parseDir(t, fset, dir)
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: noImports{}, Error: func(error) {}} // the imports' types stay unknown
		conf.Check(dir, fset, files, info)
		for _, f := range files {
			for _, p := range parallelIndexes(f, info) {
				t.Errorf("%s: %s", fset.Position(p.at), p.what)
			}
		}
	}
}

type noImports struct{}

func (noImports) Import(path string) (*types.Package, error) {
	return nil, fmt.Errorf("%s: not imported", path)
}

type parallelIndex struct {
	at   token.Pos
	what string
}

// parallelIndexes are the expressions y[i] of f whose i is the index of a
// loop over a slice or array x (for i, ... := range x, or for i := ...;
// i < len(x); ...), where y is not x.
func parallelIndexes(f *ast.File, info *types.Info) []parallelIndex {
	listy := func(e ast.Expr) bool {
		switch u := info.TypeOf(e).(type) {
		case nil:
			return false
		case *types.Pointer:
			_, ok := u.Elem().Underlying().(*types.Array)
			return ok
		default:
			switch u.Underlying().(type) {
			case *types.Slice, *types.Array:
				return true
			}
		}
		return false
	}
	var out []parallelIndex
	ast.Inspect(f, func(n ast.Node) bool {
		var key *ast.Ident
		var over ast.Expr
		var body *ast.BlockStmt
		switch s := n.(type) {
		case *ast.RangeStmt:
			key, _ = s.Key.(*ast.Ident)
			over, body = s.X, s.Body
		case *ast.ForStmt:
			if c, ok := s.Cond.(*ast.BinaryExpr); ok && (c.Op == token.LSS || c.Op == token.LEQ) {
				if call, ok := c.Y.(*ast.CallExpr); ok && len(call.Args) == 1 {
					if fn, ok := call.Fun.(*ast.Ident); ok && fn.Name == "len" {
						key, _ = c.X.(*ast.Ident)
						over, body = call.Args[0], s.Body
					}
				}
			}
		}
		if key == nil || key.Name == "_" || !listy(over) {
			return true
		}
		obj := info.ObjectOf(key)
		ast.Inspect(body, func(m ast.Node) bool {
			ix, ok := m.(*ast.IndexExpr)
			if !ok {
				return true
			}
			if id, ok := ix.Index.(*ast.Ident); ok && obj != nil && info.ObjectOf(id) == obj && types.ExprString(ix.X) != types.ExprString(over) {
				out = append(out, parallelIndex{ix.Pos(), fmt.Sprintf("%s indexed by %s, the index of %s: pair them in one record", types.ExprString(ix.X), id.Name, types.ExprString(over))})
			}
			return true
		})
		return true
	})
	return out
}
