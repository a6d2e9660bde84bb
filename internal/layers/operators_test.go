package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/operators"
)

// An operator owns its shape (issue 44, item 4): what a mutant stands for
// (the tokens it owns: a block's braces, a forced condition's `if`) is its
// operator's to say (operators.Operator.Owns, asked through the registry
// by the mutant's operator), and the revert is an operator of its own
// (operators.Revert). No code outside mutate/operators decides by an
// operator's name written as a literal.

// operatorNameComparisons are the places in file that compare against one
// of names written as a string literal (`m.Operator == "BlockStatement"`,
// `case "ReturnValue":`, a literal converted: `edit.Operator("Regex")`),
// each as its source text.
func operatorNameComparisons(fset *token.FileSet, file *ast.File, src []byte, names map[string]bool) []string {
	named := func(e ast.Expr) bool {
		for {
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
				continue
			case *ast.CallExpr: // a conversion
				if len(x.Args) == 1 {
					e = x.Args[0]
					continue
				}
			}
			break
		}
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return false
		}
		s, err := strconv.Unquote(lit.Value)
		return err == nil && names[s]
	}
	var out []string
	ast.Inspect(file, func(n ast.Node) bool {
		var operands []ast.Expr
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				operands = []ast.Expr{n.X, n.Y}
			}
		case *ast.CaseClause:
			operands = n.List
		}
		for _, e := range operands {
			if named(e) {
				out = append(out, string(src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset]))
			}
		}
		return true
	})
	return out
}

// registryNames are the names of the registry's operators.
func registryNames() map[string]bool {
	names := map[string]bool{}
	for _, o := range operators.Registry {
		names[string(o.Name)] = true
	}
	return names
}

// TestNoOperatorNameLiterals: no Go file outside mutate/operators (tests
// excepted) compares against the name of an operator of the registry.
func TestNoOperatorNameLiterals(t *testing.T) {
	names := registryNames()
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "mutate/operators" || d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		file, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			return err
		}
		for _, c := range operatorNameComparisons(fset, file, src, names) {
			t.Errorf("%s: compares against an operator's name (%s): ask the operator (operators.Named, its Owns; operators.Site)", rel, c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOperatorNameComparisons: the check sees a comparison or a case
// against a registry name, converted or not, and nothing else.
func TestOperatorNameComparisons(t *testing.T) {
	names := registryNames()
	for _, tc := range []struct {
		name, body string
		want       bool
	}{
		{"the gate's old shape", `if m.Operator == "BlockStatement" || m.Operator == "ObjectLiteral" { return }`, true},
		{"not equal", `if "ReturnValue" != m.Operator { return }`, true},
		{"converted", `if m.Operator == edit.Operator("Regex") { return }`, true},
		{"a case", `switch m.Operator { case "ConditionalExpression": }`, true},
		{"the revert", `if m.Operator == "Revert" { return }`, true},
		{"a prove operator", `if r.Operator == "red-first" { return }`, true},
		{"the registry's value", `if m.Operator == operators.Regex.Name { return }`, false},
		{"another string", `if k == "statement_block" { return }`, false},
		{"a name not compared", `f("BlockStatement")`, false},
	} {
		src := []byte("package p\nfunc f() {\n\t" + tc.body + "\n}\n")
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := len(operatorNameComparisons(fset, f, src, names)) > 0; got != tc.want {
			t.Errorf("%s: compares a name %v, want %v", tc.name, got, tc.want)
		}
	}
}
