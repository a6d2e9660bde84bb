package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readers are the packages that may run vitest with its JSON reporter and
// read the report: the runner (one reading of it, jsonReport) and the lab
// above it (issue 28 item 2: one measurement path; audit measures through
// the lab's Measure, its mock-swap run through runner.RunTogether).
var readers = []string{"mutate/runner", "mutate/lab"}

// reportReading says what in a Go file reads vitest's JSON report: a
// struct field tagged with one of the report's keys, or a string asking
// vitest for the JSON reporter; "" when nothing does.
func reportReading(file *ast.File) string {
	found := ""
	ast.Inspect(file, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.Field:
			if n.Tag == nil {
				return true
			}
			tag, err := strconv.Unquote(n.Tag.Value)
			if err != nil {
				return true
			}
			for _, key := range []string{"testResults", "assertionResults", "numTotalTests"} {
				if strings.Contains(tag, `json:"`+key+`"`) || strings.Contains(tag, `json:"`+key+`,`) {
					found = "a struct of vitest's JSON report (a field tagged " + key + ")"
				}
			}
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err == nil && (strings.Contains(s, "--reporter=json") || s == "--reporter") {
				found = "vitest's JSON reporter asked for (" + strconv.Quote(s) + ")"
			}
		}
		return true
	})
	return found
}

// TestOneReportReader: no package but the runner and the lab runs vitest
// with its JSON reporter or declares the report's struct: every run's
// report is read once, one way (mutate/runner's read), whoever measures.
func TestOneReportReader(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch {
			case d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && rel != ".":
				return filepath.SkipDir
			}
			return nil
		}
		// cmd/oracle/e2e/ is the end-to-end tests' code (their shared helpers: not _test.go files).
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || strings.HasPrefix(rel, "cmd/oracle/e2e/") {
			return nil
		}
		for _, r := range readers {
			if filepath.ToSlash(filepath.Dir(rel)) == r {
				return nil
			}
		}
		file, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		if what := reportReading(file); what != "" {
			t.Errorf("%s: %s: only %s read vitest's JSON report (one measurement path: measure with lab.Measure, run test files together with runner.RunTogether)", rel, what, strings.Join(readers, " and "))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReportReading: the check sees a report struct and the reporter
// flag, and nothing else.
func TestReportReading(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"an anonymous report struct", "package p\nvar rep struct {\n\tTestResults []struct{} `json:\"testResults\"`\n}\n", true},
		{"a named struct with omitempty", "package p\ntype r struct {\n\tA []int `json:\"assertionResults,omitempty\"`\n}\n", true},
		{"the reporter flag", "package p\nvar args = []string{\"run\", \"--reporter=json\"}\n", true},
		{"the flag apart", "package p\nvar args = []string{\"--reporter\", \"json\"}\n", true},
		{"another JSON struct", "package p\ntype c struct {\n\tTag string `json:\"t\"`\n}\n", false},
		{"a mention in a comment", "package p\n// vitest --reporter=json writes testResults\nvar x = 1\n", false},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "p.go", tc.src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if got := reportReading(f) != ""; got != tc.want {
			t.Errorf("%s: reads the report %v, want %v", tc.name, got, tc.want)
		}
	}
}
