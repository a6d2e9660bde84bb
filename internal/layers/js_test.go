package layers

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// The lab's JavaScript lives in .mjs files (the batch harness:
// mutate/lab/harness.mjs, embedded), not in Go strings (issue 44, item 3):
// no string literal of mutate/lab's non-test Go files holds JavaScript code
// (one of jsTokens), but for the few snippets jsAllowed lists, by function,
// each at most jsSnippetBytes long.

// jsDir is the package the rule holds for.
const jsDir = "mutate/lab"

// jsTokens mark a string literal as JavaScript code: none is English prose.
var jsTokens = []string{"=>", "globalThis", "Reflect.", "import(", "===", "!==", ") {", "function (", "function(", "const ", "let ", "await "}

// jsAllowed are the functions ("Recv.Name" for a method) that may hold
// JavaScript literals, and how many: the harness's header (its CONFIG, and
// the test file's import with its literal specifier, which vite resolves
// once); the guard that keeps a probe's marker out of a vi.mock factory;
// the wrapper that counts a factory running.
var jsAllowed = map[string]int{
	"harness":             2,
	"Lab.measureTogether": 2,
	"wrapFactories":       2,
}

// jsSnippetBytes bounds an allowed literal: a snippet, not a program.
const jsSnippetBytes = 120

// jsLiterals returns, by enclosing function ("" outside any), the string
// literals of file that hold JavaScript code.
func jsLiterals(fset *token.FileSet, file *ast.File) map[string][]string {
	out := map[string][]string{}
	scan := func(fn string, n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, tok := range jsTokens {
				if strings.Contains(s, tok) {
					out[fn] = append(out[fn], fmt.Sprintf("%s: %.60q", fset.Position(lit.Pos()), s))
					if len(s) > jsSnippetBytes {
						out[fn][len(out[fn])-1] += fmt.Sprintf(" (%d bytes: over %d)", len(s), jsSnippetBytes)
					}
					break
				}
			}
			return true
		})
	}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			scan("", d)
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			typ := fd.Recv.List[0].Type
			if st, ok := typ.(*ast.StarExpr); ok {
				typ = st.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				name = id.Name + "." + name
			}
		}
		scan(name, fd)
	}
	return out
}

func TestNoJavaScriptInLabGo(t *testing.T) {
	fset := token.NewFileSet()
	found := map[string][]string{}
	for _, file := range parseDir(t, fset, jsDir) {
		for fn, lits := range jsLiterals(fset, file) {
			found[fn] = append(found[fn], lits...)
		}
	}
	for fn, lits := range found {
		long := false
		for _, l := range lits {
			long = long || strings.Contains(l, " bytes: over ")
		}
		if n, ok := jsAllowed[fn]; !ok || len(lits) > n || long {
			where := fn
			if where == "" {
				where = "a declaration outside any function"
			}
			t.Errorf("%s: JavaScript in Go strings in %s (%d, at most %d snippets of %d bytes allowed): write it in a .mjs file (go:embed) and pass it data\n\t%s",
				jsDir, where, len(lits), n, jsSnippetBytes, strings.Join(lits, "\n\t"))
		}
	}
	for fn := range jsAllowed {
		if len(found[fn]) == 0 {
			t.Errorf("%s: %s holds no JavaScript any more (or was renamed): drop it from jsAllowed", jsDir, fn)
		}
	}
}

// TestJavaScriptLiterals: the check sees JavaScript in a literal, in a
// function or outside one, and not prose or a comment.
func TestJavaScriptLiterals(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"an arrow in a function", "package p\nfunc h() string { return `const f = () => 1;` }\n", "h"},
		{"a method", "package p\ntype L struct{}\nfunc (l *L) h() string { return \"if (x === 1) { y() }\" }\n", "L.h"},
		{"a package-level string", "package p\nconst js = \"globalThis.x = 1\"\n", ""},
		{"prose", "package p\nconst why = \"no schema switch in this function shape; run alone\"\n", "-"},
		{"a comment", "package p\n// const f = () => 1;\nvar x = 1\n", "-"},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", tc.src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		got := "-"
		for fn := range jsLiterals(fset, f) {
			got = fn
		}
		if got != tc.want {
			t.Errorf("%s: found in %q, want %q", tc.name, got, tc.want)
		}
	}
}
