package operators

import "testing"

func TestInlineConstant(t *testing.T) {
	table(t, InlineConstant, []opCase{
		{"return a * b * 1.2;", []string{"return a * b * 1;"}},
		{"return [0, 1, 2, 41];", []string{"return [1, 1, 2, 41];", "return [0, 0, 2, 41];", "return [0, 1, 3, 41];", "return [0, 1, 2, 42];"}},
		{"return [-1, -5, -2.5];", []string{"return [0, -5, -2.5];", "return [-1, -4, -2.5];", "return [-1, -5, 1];"}},
		{"return [1.0, 0.5, .5, 1e3, 2E-3];", []string{"return [0, 0.5, .5, 1e3, 2E-3];", "return [1.0, 1, .5, 1e3, 2E-3];",
			"return [1.0, 0.5, 1, 1e3, 2E-3];", "return [1.0, 0.5, .5, 1, 2E-3];", "return [1.0, 0.5, .5, 1e3, 1];"}},
		{"return [0x1F, 0b1, 0o7, 1_000, 10n, 1n];", []string{"return [32, 0b1, 0o7, 1_000, 10n, 1n];", "return [0x1F, 0, 0o7, 1_000, 10n, 1n];",
			"return [0x1F, 0b1, 8, 1_000, 10n, 1n];", "return [0x1F, 0b1, 0o7, 1001, 10n, 1n];", "return [0x1F, 0b1, 0o7, 1_000, 11n, 1n];",
			"return [0x1F, 0b1, 0o7, 1_000, 10n, 0n];"}},
		{"return 9007199254740993;", []string{"return 9007199254740994;"}},
		{"return xs[0] + { 3: a }[3];", []string{"return xs[1] + { 3: a }[3];", "return xs[0] + { 3: a }[4];"}},
		{"return a - 1;", []string{"return a - 0;"}},
		{`return "1" + a;`, nil},
		{"return 1.5.toFixed(2) + 2..toString() + (3).toString();", []string{"return (1).toFixed(2) + 2..toString() + (3).toString();",
			"return 1.5.toFixed(3) + 2..toString() + (3).toString();", "return 1.5.toFixed(2) + (1).toString() + (3).toString();",
			"return 1.5.toFixed(2) + 2..toString() + (4).toString();"}},
	})
}
