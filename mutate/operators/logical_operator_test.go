package operators

import "testing"

func TestLogicalOperator(t *testing.T) {
	table(t, LogicalOperator, []opCase{
		{"return a && b;", []string{"return a || b;"}},
		{"return a || b;", []string{"return a && b;"}},
		{"return a ?? b;", []string{"return a && b;"}},
		{"return (a && b) || !a;", []string{"return (a && b) && !a;", "return (a || b) || !a;"}},
		{"return a === b;", nil},
	})
}
