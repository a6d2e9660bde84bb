package operators

import "testing"

func TestBooleanLiteral(t *testing.T) {
	table(t, BooleanLiteral, []opCase{
		{"return true;", []string{"return false;"}},
		{"return false;", []string{"return true;"}},
		{"return !b;", []string{"return b;"}},
		{"const c = a && !b(true);", []string{"const c = a && b(true);", "const c = a && !b(false);"}},
		{"return -a + typeof b;", nil},
	})
}
