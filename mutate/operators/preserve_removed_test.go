package operators

import "testing"

func TestPreserveRemoved(t *testing.T) {
	table(t, PreserveRemoved, []opCase{
		{"const x = save(a);\n  if (!opts.skip) enrichItem(x);", []string{"const x = (undefined);\n  if (!opts.skip) enrichItem(x);"}},
		{"return save(save(a));", []string{"return (undefined);", "return save((undefined));"}},
		// code without semicolons: the `(` does not call the line before
		{"a = b\n  save(a)", []string{"a = b\n  ;(undefined)"}},
		// a call over several lines keeps its line breaks: later lines do not move
		{"save(a,\n    b);\n  return a;", []string{"(undefined\n);\n  return a;"}},
		{"enrichItem(a);", nil},
	})
}
