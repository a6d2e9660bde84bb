package operators

import "testing"

func TestObjectLiteral(t *testing.T) {
	table(t, ObjectLiteral, []opCase{
		{"return { k: 1 };", []string{"return {};"}},
		{"const o = { a, b: { c: 1 } };", []string{"const o = {};", "const o = { a, b: {} };"}},
		{"return {};", nil},
	})
}
