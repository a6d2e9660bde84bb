package operators

import "testing"

func TestRedFirst(t *testing.T) {
	table(t, RedFirst, []opCase{
		{"if (!opts.skip) enrichItem(a);", []string{"if (!(undefined)) enrichItem(a);"}},
		{"const { skip } = opts;\n  if (!skip) enrichItem({ skip });", []string{"const { skip } = opts;\n  if (!(undefined)) enrichItem({ skip: (undefined) });"}},
		{"opts.skip = true;\n  return opts?.skip || opts[\"skip\"];", []string{"opts.skip = true;\n  return (undefined) || (undefined);"}},
		// no read of the flag: the unmodified source (the guard is missing)
		{"enrichItem(a);", []string{"enrichItem(a);"}},
	})
}
