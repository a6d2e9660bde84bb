package operators

import "testing"

func TestArrayDeclaration(t *testing.T) {
	table(t, ArrayDeclaration, []opCase{
		{"return [1, 2];", []string{"return [];"}},
		{"const [x] = [[a]];", []string{"const [x] = [];", "const [x] = [[]];"}},
		{"return [];", nil},
	})
}
