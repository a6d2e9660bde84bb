package operators

import "testing"

func TestArithmeticOperator(t *testing.T) {
	table(t, ArithmeticOperator, []opCase{
		{"return a + b;", []string{"return a - b;"}},
		{"return a - b;", []string{"return a + b;"}},
		{"return a * 2;", []string{"return a / 2;"}},
		{"return a / 2;", []string{"return a * 2;"}},
		{"return a % 2;", []string{"return a * 2;"}},
		{"let i = a * 2 + 1;", []string{"let i = a * 2 - 1;", "let i = a / 2 + 1;"}},
		{"return a ** 2 << 1;", nil},
	})
}
