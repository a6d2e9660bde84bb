package operators

import "testing"

func TestPreserveMovedUnderGuard(t *testing.T) {
	table(t, PreserveMovedUnderGuard, []opCase{
		{"await save(a);", []string{"if (!opts.skip) {\n    await save(a);\n  }"}},
		{"const x = save(a);\n  return x;", []string{"let x;\n  if (!opts.skip) {\n    x = save(a);\n  }\n  return x;"}},
		// where the guard edit is refused: the call alone under the flag
		{"return b(save(a));", []string{"return b((!opts.skip ? save(a) : undefined));"}},
		{"enrichItem(a);", nil},
	})
}
