package operators

import "testing"

func TestOptionalChaining(t *testing.T) {
	table(t, OptionalChaining, []opCase{
		{"return a?.b;", []string{"return a.b;"}},
		{"return a.b?.c.d;", []string{"return a.b.c.d;"}},
		{"return a?.b?.c;", []string{"return a?.b.c;", "return a.b?.c;"}},
		{"return a.b.c;", nil},
	})
}
