package operators

import "testing"

func TestMethodExpression(t *testing.T) {
	table(t, MethodExpression, []opCase{
		{"return a.toUpperCase();", []string{"return a.toLowerCase();"}},
		{"return a.startsWith(b) && xs.some(Boolean);", []string{"return a.endsWith(b) && xs.some(Boolean);", "return a.startsWith(b) && xs.every(Boolean);"}},
		{"return Math.min(a, b);", []string{"return Math.max(a, b);"}},
		{"return xs.filter((x) => x > 0);", []string{"return xs;"}},
		{"return xs.slice(1).sort();", []string{"return xs.slice(1);", "return xs.sort();"}},
		{"return a?.trim();", nil},
		{"return a.push(b) + trim(a);", nil},
	})
}
