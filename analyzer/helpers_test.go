package analyzer

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Compact, comparable projections of the model.

func projImports(f *File) []string {
	var out []string
	for _, im := range f.Imports {
		s := fmt.Sprintf("%s %s=%s %q L%d", im.Kind, im.Local, im.Imported, im.Specifier, im.Line)
		if im.TypeOnly {
			s += " type"
		}
		out = append(out, s)
	}
	return out
}

func projExports(f *File) []string {
	var out []string
	for _, ex := range f.Exports {
		s := fmt.Sprintf("%s %s=%s", ex.Kind, ex.Name, ex.Local)
		if ex.Specifier != "" {
			s += fmt.Sprintf(" %q", ex.Specifier)
		}
		s += fmt.Sprintf(" L%d", ex.Line)
		if ex.TypeOnly {
			s += " type"
		}
		out = append(out, s)
	}
	return out
}

func projDecls(f *File) []string {
	var out []string
	for _, d := range f.Decls {
		s := fmt.Sprintf("%s %s L%d", d.Kind, d.Name, d.Line)
		if d.Function != nil {
			s += " fn=" + d.Function.Name
		}
		out = append(out, s)
	}
	return out
}

func projParams(ps []Param) string {
	var parts []string
	for _, p := range ps {
		s := p.Name
		if s == "" {
			s = "{" + strings.Join(p.Bound, ",") + "}"
		} else if len(p.Bound) != 1 || p.Bound[0] != p.Name {
			s += "!bound=" + strings.Join(p.Bound, ",")
		}
		if p.Rest {
			s = "..." + s
		}
		if p.Optional {
			s += "?"
		}
		parts = append(parts, s)
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func projFunctions(f *File) []string {
	var out []string
	for _, fn := range f.Functions {
		if fn.Kind != FuncTop {
			continue
		}
		s := fmt.Sprintf("%s %d:%d", fn.Name, fn.Line, fn.Column)
		if fn.Exported {
			s += " exported"
		}
		if fn.Default {
			s += " default"
		}
		if fn.Async {
			s += " async"
		}
		s += " " + projParams(fn.Params)
		out = append(out, s)
	}
	return out
}

// projValue writes a Value as `root.a().b[]`, `new(X).m` or `(X)` (a root of type X).
func projValue(v *Value) string {
	s := v.Root
	if v.Root == "" {
		s = "(" + v.Type + ")"
	}
	for _, st := range v.Steps {
		switch st.Kind {
		case StepMember:
			s += "." + st.Name
		case StepCall:
			s += "(" + strings.Join(st.TypeArgs, ",") + ")"
		case StepIndex:
			s += "[]"
		}
	}
	return s
}

func projCall(c Call) string {
	s := fmt.Sprintf("%d:%d %s %s", c.Line, c.Column, c.Text, c.Callee.Kind)
	if c.Callee.Root != "" {
		s += " root=" + c.Callee.Root
	}
	if len(c.Callee.Path) > 0 {
		s += " path=[" + strings.Join(c.Callee.Path, " ") + "]"
	}
	if v := c.Callee.Chain; v != nil {
		s += " chain=" + projValue(v)
		if v.Root == "this" {
			s += " class=" + c.Callee.ThisClass
		}
	}
	if c.Callee.Specifier != "" {
		s += fmt.Sprintf(" spec=%q", c.Callee.Specifier)
	}
	if b := c.Callee.Binding; b.Kind != "" {
		s += " bind=" + string(b.Kind)
		if b.Detail != "" {
			s += fmt.Sprintf("(%s@%d)", b.Detail, b.Line)
		}
		if b.Specifier != "" {
			s += fmt.Sprintf(" %q", b.Specifier)
		}
		if b.Imported != "" {
			s += "." + b.Imported
		}
	}
	if c.Callee.Kind == CalleeThis {
		s += " class=" + c.Callee.ThisClass
		if c.Callee.ThisStatic {
			s += " static"
		}
	}
	if b := c.Callee.Binding; b.Function != "" {
		s += " fn=" + b.Function
	}
	if c.New {
		s += " new"
	}
	if c.Nested {
		s += " nested"
	}
	return s
}

// projCalls lists the calls of every top-level function, prefixed by the
// function's name when the file has more than one.
func projCalls(f *File) []string {
	var top []*Function
	for _, fn := range f.Functions {
		if fn.Kind == FuncTop {
			top = append(top, fn)
		}
	}
	var out []string
	for _, fn := range top {
		for _, c := range fn.Calls {
			s := projCall(c)
			if len(top) > 1 {
				s = fn.Name + ": " + s
			}
			out = append(out, s)
		}
	}
	return out
}

// projAllCalls lists the calls of every function (nested functions and
// members included), each prefixed by the function's Qual.
func projAllCalls(f *File) []string {
	var out []string
	for _, fn := range f.Functions {
		for _, c := range fn.Calls {
			out = append(out, fn.Qual+": "+projCall(c))
		}
	}
	return out
}

func projErrors(f *File) []string {
	var out []string
	for _, e := range f.Errors {
		out = append(out, fmt.Sprintf("%d:%d %s", e.Line, e.Column, e.Message))
	}
	return out
}

// check compares a projection, printing both sides in full on mismatch.
func check(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got: %s\nwant: %s", what, fmtList(got), fmtList(want))
	}
}

func fmtList(l []string) string {
	if len(l) == 0 {
		return "(none)"
	}
	return "\n\t" + strings.Join(l, "\n\t")
}

func parseTS(t *testing.T, src string) *File {
	t.Helper()
	return Parse("src/x.ts", []byte(src))
}

func noErrors(t *testing.T, f *File) {
	t.Helper()
	if len(f.Errors) > 0 {
		t.Errorf("unexpected parse errors: %s", fmtList(projErrors(f)))
	}
}
