package operators

import "testing"

func TestReturnValue(t *testing.T) {
	table(t, ReturnValue, []opCase{
		{"return a;", []string{"return undefined;"}},
		{"return { k: a };", []string{"return undefined;"}},
		{"if (a) return; return undefined;", nil},
	})
}
