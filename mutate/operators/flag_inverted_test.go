package operators

import "testing"

func TestFlagInverted(t *testing.T) {
	table(t, FlagInverted, []opCase{
		{"if (!opts.skip) enrichItem(a);", []string{"if (!(!opts.skip)) enrichItem(a);"}},
		{"const { skip: s = false } = opts;\n  return s;", []string{"const { skip: s = false } = opts;\n  return (!s);"}},
		// no read of the flag: the wrapped call goes under the flag
		{"const e = enrichItem(a);\n  return e;", []string{"let e;\n  if (opts.skip) {\n    e = enrichItem(a);\n  }\n  return e;"}},
	})
}
