package operators

import "testing"

func TestConditionalExpression(t *testing.T) {
	table(t, ConditionalExpression, []opCase{
		{"if (a) b();", []string{"if (true) b();", "if (false) b();"}},
		{"while (a > 1) a--;", []string{"while (true) a--;", "while (false) a--;"}},
		{"do { a--; } while (a);", []string{"do { a--; } while (true);", "do { a--; } while (false);"}},
		{"return a ? 1 : 2;", []string{"return true ? 1 : 2;", "return false ? 1 : 2;"}},
		{"for (;a;) break;", nil},
		// operand level: in a condition, each operand dropped
		{"if (Number.isNaN(a) || a < b) return;", []string{"if (true) return;", "if (false) return;",
			"if (false || a < b) return;", "if (Number.isNaN(a) || false) return;"}},
		{"if (a && b) return;", []string{"if (true) return;", "if (false) return;", "if (true && b) return;", "if (a && true) return;"}},
		// a chain of one operator: its operands, not its links (in tree order: the
		// gate's driver sorts them by place)
		{"return a === 0 || b !== a || xs;", []string{"return true;", "return false;",
			"return a === 0 || b !== a || false;", "return false || b !== a || xs;", "return a === 0 || false || xs;"}},
		// mixed and parenthesized chains: an inner chain is an operand, then its own operands
		{"return a || b && (xs || opts);", []string{"return true;", "return false;", "return false || b && (xs || opts);", "return a || false;",
			"return a || true && (xs || opts);", "return a || b && true;", "return a || b && (false || opts);", "return a || b && (xs || false);"}},
		{"return a ? (a && b) : b;", []string{"return true ? (a && b) : b;", "return false ? (a && b) : b;",
			"return a ? (true) : b;", "return a ? (false) : b;", "return a ? (true && b) : b;", "return a ? (a && true) : b;"}},
		{"for (; a && b;) break;", []string{"for (; false;) break;", "for (; true && b;) break;", "for (; a && true;) break;"}},
		{"while ((a || b)) a--;", []string{"while (true) a--;", "while (false) a--;", "while ((false || b)) a--;", "while ((a || false)) a--;"}},
		// `??`: an operand dropped by undefined, the whole not forced; other binary expressions nothing
		{"return (a ?? b) + 1;", []string{"return (undefined ?? b) + 1;", "return (a ?? undefined) + 1;"}},
		{"return a ?? b ?? xs;", []string{"return a ?? b ?? undefined;", "return undefined ?? b ?? xs;", "return a ?? undefined ?? xs;"}},
		{"if ((a ?? b) || xs) return;", []string{"if (true) return;", "if (false) return;", "if (false || xs) return;", "if ((a ?? b) || false) return;",
			"if ((undefined ?? b) || xs) return;", "if ((a ?? undefined) || xs) return;"}},
		{"return a + b * 2;", nil},
	})
}
