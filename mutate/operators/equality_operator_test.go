package operators

import "testing"

func TestEqualityOperator(t *testing.T) {
	table(t, EqualityOperator, []opCase{
		{"return a >= 1;", []string{"return a > 1;", "return a < 1;"}},
		{"return a > 1;", []string{"return a >= 1;", "return a <= 1;"}},
		{"return a <= 1;", []string{"return a < 1;", "return a > 1;"}},
		{"return a < 1;", []string{"return a <= 1;", "return a >= 1;"}},
		{"return a === b;", []string{"return a !== b;"}},
		{"return a !== b;", []string{"return a === b;"}},
		{"return a == b || a != 1;", []string{"return a != b || a != 1;", "return a == b || a == 1;"}},
		{"return a + b && a;", nil},
	})
}
