package operators

import "testing"

func TestUnaryOperator(t *testing.T) {
	table(t, UnaryOperator, []opCase{
		{"return -a;", []string{"return +a;"}},
		{"return +a;", []string{"return -a;"}},
		{"const o = { k: -(a + b) };", []string{"const o = { k: +(a + b) };"}},
		{"return !a || typeof b || ~a;", nil},
	})
}
