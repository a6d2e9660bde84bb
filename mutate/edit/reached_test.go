package edit

import (
	"strings"
	"testing"
)

// TestMarkReachedBlock: a mutant that empties a block is marked inside the
// emptied block (reached when the block runs: a function's body when it is
// called, an if's when its branch is taken), not before the statement
// around it (a function declared at the top level is "reached" as the
// module loads); any other site before its statement.
func TestMarkReachedBlock(t *testing.T) {
	src := "export function f(a: number) {\n  if (a > 1) {\n    a++;\n  }\n  return a;\n}\n"
	for _, c := range []struct{ name, old, new, want string }{
		{"a function's body emptied", "{\n  if (a > 1) {\n    a++;\n  }\n  return a;\n}", "{}", "export function f(a: number) {hit(); }\n"},
		{"an if's block emptied", "{\n    a++;\n  }", "{}", "export function f(a: number) {\n  if (a > 1) {hit(); }\n  return a;\n}\n"},
		{"a statement", "a++;", "a--;", "export function f(a: number) {\n  if (a > 1) {\n    hit(); a--;\n  }\n  return a;\n}\n"},
	} {
		at := strings.Index(src, c.old)
		m, err := NewMutant("test", c.name, "a.ts", []byte(src), []Change{{Start: uint(at), End: uint(at + len(c.old)), Text: c.new}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := MarkReached(m, "hit()")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if string(got) != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}
