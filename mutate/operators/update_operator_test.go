package operators

import "testing"

func TestUpdateOperator(t *testing.T) {
	table(t, UpdateOperator, []opCase{
		{"a++;", []string{"a--;"}},
		{"--a;", []string{"++a;"}},
		{"xs[a++] = b--;", []string{"xs[a--] = b--;", "xs[a++] = b++;"}},
		{"a += 1;", nil},
	})
}
