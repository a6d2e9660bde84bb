package analyzer

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSyntax(t *testing.T) {
	src := `import { g } from "./g";
export async function f(opts: { skip?: boolean } = {}) {
  const { a, b: [c, ...d] } = await g(opts.skip);
  return a;
}
export const h = (x?: number) => x;
`
	f, s := ParseSyntax("x.ts", []byte(src))
	if s == nil {
		t.Fatal("no tree")
	}
	if want := Parse("x.ts", []byte(src)); !reflect.DeepEqual(f, want) {
		t.Errorf("File differs from Parse:\n%+v\n%+v", f, want)
	}
	if string(s.Src()) != src || s.Kind(s.Root()) != "program" {
		t.Errorf("root %s", s.Kind(s.Root()))
	}
	fn := f.Functions[0]
	c := fn.Calls[0]
	n := s.Find(c.StartByte, c.EndByte, "call_expression")
	if s.Text(n) != "g(opts.skip)" || s.Kind(s.Parent(n)) != "await_expression" {
		t.Fatalf("Find: %q in %s", s.Text(n), s.Kind(s.Parent(n)))
	}
	if s.Find(c.StartByte, c.EndByte, "if_statement") != NoNode {
		t.Errorf("Find with the wrong kind found a node")
	}
	args := s.Child(n, "arguments")
	if s.Field(args) != "arguments" || s.Kind(s.FirstNamed(args)) != "member_expression" {
		t.Errorf("Child/FirstNamed")
	}
	if !s.HasToken(args, "(") || s.Named(s.FirstChild(args)) {
		t.Errorf("HasToken/Named")
	}
	if got := s.Line(c.StartByte); got != 3 {
		t.Errorf("Line %d", got)
	}
	fnode := s.FunctionNode(fn)
	if s.Kind(fnode) != "function_declaration" {
		t.Errorf("FunctionNode: %s", s.Kind(fnode))
	}
	if k := s.Kind(s.FunctionNode(f.Functions[1])); k != "arrow_function" {
		t.Errorf("FunctionNode of an arrow: %s", k)
	}
	// PatternNames of the destructuring.
	var names []string
	s.Walk(s.Child(fnode, "body"), func(m Node) bool {
		if s.Kind(m) == "variable_declarator" {
			for _, p := range s.PatternNames(s.Child(m, "name")) {
				names = append(names, s.Text(p))
			}
		}
		return true
	})
	if strings.Join(names, ",") != "a,c,d" {
		t.Errorf("PatternNames: %v", names)
	}
	// Walk in source order, pruning.
	var kinds []string
	s.Walk(s.Root(), func(m Node) bool {
		if s.Named(m) {
			kinds = append(kinds, s.Kind(m))
		}
		return s.Kind(m) == "program"
	})
	if strings.Join(kinds, ",") != "program,import_statement,export_statement,export_statement" {
		t.Errorf("Walk: %v", kinds)
	}
	if s.Unwrap(s.Parent(n)) != s.Parent(n) || s.Kind(NoNode) != "" || s.Parent(s.Root()) != NoNode {
		t.Errorf("Unwrap / NoNode")
	}
}

func TestParseSyntaxErrors(t *testing.T) {
	f, s := ParseSyntax("x.tsx", []byte("function f( {\n"))
	if s == nil || len(f.Errors) == 0 || f.Lang != LangTSX {
		t.Errorf("errors not reported: %+v", f)
	}
	// The grammar-gap repair keeps the offsets.
	src := "export type * from \"./m\";\nfunction f() { g(); }\n"
	f, s = ParseSyntax("x.ts", []byte(src))
	if len(f.Errors) != 0 || len(f.Functions) != 1 {
		t.Fatalf("%+v", f)
	}
	c := f.Functions[0].Calls[0]
	if s.Text(s.Find(c.StartByte, c.EndByte, "call_expression")) != "g()" {
		t.Errorf("repaired tree")
	}
}
