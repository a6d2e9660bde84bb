package operators

import "testing"

func TestConditionalExpression(t *testing.T) {
	table(t, ConditionalExpression, []opCase{
		{"if (a) b();", []string{"if (true) b();", "if (false) b();"}},
		{"while (a > 1) a--;", []string{"while (true) a--;", "while (false) a--;"}},
		{"do { a--; } while (a);", []string{"do { a--; } while (true);", "do { a--; } while (false);"}},
		{"return a ? 1 : 2;", []string{"return true ? 1 : 2;", "return false ? 1 : 2;"}},
		{"for (;a;) break;", nil},
	})
}
