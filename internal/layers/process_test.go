package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// processStarts are the programs the production code of the files starts
// with exec.Command or exec.CommandContext: the literal name ("git"), or
// "?" for one given otherwise (node's path, a variable).
func processStarts(fset *token.FileSet, files []*ast.File) []string {
	var out []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Command" && sel.Sel.Name != "CommandContext" {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "exec" {
				return true
			}
			arg := 0
			if sel.Sel.Name == "CommandContext" {
				arg = 1
			}
			prog := "?"
			if len(call.Args) > arg {
				if lit, ok := call.Args[arg].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					prog, _ = strconv.Unquote(lit.Value)
				}
			}
			out = append(out, fset.Position(call.Pos()).String()+" "+prog)
			return true
		})
	}
	return out
}

// TestNodeStartedInOnePlace (issue 44, "one process layer"): node is started
// only by internal/nodeproc (a process group of its own, killed whole when
// its context ends); the rest of the production code starts git and nothing
// else (the end-to-end tests' helpers build and run binaries of their own).
func TestNodeStartedInOnePlace(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range productDirs(t) {
		if dir == "internal/nodeproc" || dir == "bench" || strings.HasPrefix(dir, "bench/") || strings.HasPrefix(dir, "cmd/oracle/e2e/") {
			continue
		}
		for _, s := range processStarts(fset, parseDir(t, fset, dir)) {
			if !strings.HasSuffix(s, " git") {
				t.Errorf("%s: starts a program outside internal/nodeproc (node is started there; the rest starts git only)", s)
			}
		}
	}
}

// TestProcessStarts: the check sees exec.Command and exec.CommandContext,
// names a literal program and calls any other "?".
func TestProcessStarts(t *testing.T) {
	src := `package p
import "os/exec"
func f(ctx any, node string) {
	exec.Command("git", "status")
	exec.CommandContext(ctx, node, "-e", "1")
	exec.CommandContext(ctx, "node", "x")
	other.Command("node")
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join("p", "p.go"), src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(processStarts(fset, []*ast.File{f}), "|")
	if want := "p/p.go:4:2 git|p/p.go:5:2 ?|p/p.go:6:2 node"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
