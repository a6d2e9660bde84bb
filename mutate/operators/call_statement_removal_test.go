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
		// code without semicolons: deleting would join the statements around it
		// (the `;` on the next line ends the call's statement)
		{"a = b\n  save(a)\n  ;[1].map(save)", []string{"a = b\n  ;[1].map(save)", "a = b\n  save(a)\n  ;"}},
		{"a = b\n  save(a)\n  return a", []string{"a = b\n  \n  return a"}},
		{"save(a)\n  ;(b as any).x = 1", []string{"(b as any).x = 1"}},
		{"switch (a) { case 1: save(a); }", []string{"switch (a) { case 1:  }"}},
		{"console.log(a);\n  await import(\"./m\");\n  a = save(b);\n  a.b;", nil},
	})
}
