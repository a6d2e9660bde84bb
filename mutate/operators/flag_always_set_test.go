package operators

import "testing"

func TestFlagAlwaysSet(t *testing.T) {
	table(t, FlagAlwaysSet, []opCase{
		{"if (!opts.skip) enrichItem(a);", []string{"if (!true) enrichItem(a);"}},
		{"if (opts.skip) return;\n  enrichItem(a);", []string{"if (true) return;\n  enrichItem(a);"}},
		// no read of the flag: the wrapped call is removed, its lines kept
		{"enrichItem(a,\n    b);", []string{"(undefined\n);"}},
	})
}
