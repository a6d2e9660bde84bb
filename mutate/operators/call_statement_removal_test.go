package operators

import "testing"

func TestCallStatementRemoval(t *testing.T) {
	table(t, CallStatementRemoval, []opCase{
		{"save(a);\n  return a;", []string{"\n  return a;"}},
		{"await a.save(b);", []string{""}},
		// a brace-less body becomes the empty statement: `return xs;` stays
		// after the `if`, not its body (issue 18 item 3)
		{"if (a) xs.push(b);\n  return xs;", []string{"if (a) ;\n  return xs;"}},
		{"if (a) b(); else save(a);", []string{"if (a) ; else save(a);", "if (a) b(); else ;"}},
		{"for (const x of xs) save(x);", []string{"for (const x of xs) ;"}},
		{"while (a) save(a);", []string{"while (a) ;"}},
		{"switch (a) { case 1: save(a); }", []string{"switch (a) { case 1:  }"}},
		{"console.log(a);\n  await import(\"./m\");\n  a = save(b);\n  a.b;", nil},
	})
}
