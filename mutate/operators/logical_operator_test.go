package operators

import "testing"

func TestLogicalOperator(t *testing.T) {
	table(t, LogicalOperator, []opCase{
		{"return a && b;", []string{"return a || b;"}},
		{"return a || b;", []string{"return a && b;"}},
		{"return a ?? b;", []string{"return a && b;"}},
		{"return (a && b) || !a;", []string{"return (a && b) && !a;", "return (a || b) || !a;"}},
		// `a ?? b && c` is not JavaScript: a `??` chain keeps its `??`
		{"return a ?? b ?? 1;", nil},
		{"return (a ?? b) ?? 1;", []string{"return (a ?? b) && 1;", "return (a && b) ?? 1;"}},
		{"return a === b;", nil},
	})
}
