package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// Optional are the sub-rules that are off by default; Options.Enable turns
// them on.
var Optional = []string{"vacuous-test/no-assertion"}

// CheckEnable refuses a name of Options.Enable that is not a rule off by
// default, naming the ones there are.
func CheckEnable(names []string) error {
	for _, n := range names {
		known := false
		for _, o := range Optional {
			known = known || n == o
		}
		if !known {
			var on []string
			for _, r := range Rules {
				on = append(on, r.Name)
			}
			return fmt.Errorf("--enable %q: not a rule that is off by default; those are: %s (on by default: %s)",
				n, strings.Join(Optional, ", "), strings.Join(on, ", "))
		}
	}
	return nil
}

// CannotAudit is the rule of the findings on test files audit cannot read:
// a syntax error, or a test written for jest (vitest does not run it as
// written). Such a file is left out: nothing it seems to run or stub counts.
const CannotAudit = "cannot-audit"

// auditable splits test files into those the rules can read and findings
// (CannotAudit) for the others, in order.
func auditable(root string, tests []string) (ok []string, out []Finding) {
	for _, t := range tests {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(t)))
		if err != nil {
			out = append(out, Finding{Rule: CannotAudit, Severity: Warning, File: t, Line: 1, Message: fmt.Sprintf("cannot audit: %v", err)})
			continue
		}
		if line, why := unreadable(t, src); why != "" {
			out = append(out, Finding{Rule: CannotAudit, Severity: Warning, File: t, Line: line, Message: "cannot audit: " + why})
			continue
		}
		ok = append(ok, t)
	}
	sort.Strings(ok)
	return ok, out
}

// unreadable says why a test file cannot be audited ("" when it can): a
// syntax error (esbuild's, as vitest's transform reports it), or jest's API:
// an import of @jest/globals, or a call of `jest.*` where the file binds no
// `jest` of its own (vitest has no such global: the file fails under it).
func unreadable(path string, src []byte) (int, string) {
	if err := edit.SyntaxCheck(path, src); err != nil {
		line := 1
		msg := strings.TrimPrefix(err.Error(), "esbuild: ")
		if _, err := fmt.Sscanf(msg, "line %d:", &line); err != nil {
			line = 1
		}
		return line, "syntax error: " + msg
	}
	f, syn := analyzer.ParseSyntax(path, src)
	if syn == nil {
		return 1, "cannot parse: " + f.Errors[0].Message
	}
	for _, im := range f.Imports {
		if im.Specifier == "@jest/globals" {
			return im.Line, "written for jest (it imports @jest/globals): vitest does not run it as written, so nothing it mocks or calls counts"
		}
	}
	bound := false
	for _, im := range f.Imports {
		bound = bound || im.Local == "jest"
	}
	for _, d := range f.Decls {
		bound = bound || d.Name == "jest"
	}
	if bound {
		return 0, ""
	}
	line := 0
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if line == 0 && strings.HasPrefix(syn.Callee(n), "jest.") {
			line = syn.Line(syn.Start(n))
		}
		return line == 0
	})
	if line > 0 {
		return line, "written for jest (it calls jest's API, which vitest does not define): vitest does not run it as written, so nothing it mocks or calls counts"
	}
	return 0, ""
}
