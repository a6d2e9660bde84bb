package operators

import "testing"

func TestCallStatementRemoval(t *testing.T) {
	table(t, CallStatementRemoval, []opCase{
		{"save(a);\n  return a;", []string{"\n  return a;"}},
		{"await a.save(b);", []string{""}},
		{"switch (a) { case 1: save(a); }", []string{"switch (a) { case 1:  }"}},
		{"console.log(a);\n  await import(\"./m\");\n  a = save(b);\n  a.b;", nil},
	})
}
