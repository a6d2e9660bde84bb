package operators

import "testing"

func TestMethodExpression(t *testing.T) {
	table(t, MethodExpression, []opCase{
		{"return a.toUpperCase();", []string{"return a.toLowerCase();"}},
		{"return a.toLocaleLowerCase();", []string{"return a.toLocaleUpperCase();"}},
		{"return a.startsWith(b) && xs.some(Boolean);", []string{"return a.endsWith(b) && xs.some(Boolean);", "return a.startsWith(b) && xs.every(Boolean);"}},
		{"return Math.min(a, b);", []string{"return Math.max(a, b);"}},
		{"return xs.filter((x) => x > 0);", []string{"return xs;"}},
		{"return xs.slice(1).sort();", []string{"return xs.slice(1);", "return xs.sort();"}},
		{"return a?.trim();", nil},
		{"return a.push(b) + trim(a);", nil},
		// Math's rounding
		{"return Math.floor(a) + Math.ceil(b);", []string{"return Math.ceil(a) + Math.ceil(b);", "return Math.floor(a) + Math.floor(b);"}},
		{"return Math.round(a * 100);", []string{"return Math.floor(a * 100);", "return Math.ceil(a * 100);"}},
		{"return Math.trunc(a);", []string{"return Math.ceil(a);"}},
		{"return a.floor() + Math.abs(b);", nil},
		// Date setters
		{"a.setDate(1); a.setUTCDate(2); a.setTime(3);", []string{"a.setTime(1); a.setUTCDate(2); a.setTime(3);",
			"a.setDate(1); a.setTime(2); a.setTime(3);", "a.setDate(1); a.setUTCDate(2); a.setDate(3);"}},
		{"a.setHours(1); a.setUTCSeconds(2);", []string{"a.setMinutes(1); a.setUTCSeconds(2);", "a.setHours(1); a.setUTCMilliseconds(2);"}},
	})
}
