package operators

import "testing"

func TestBlockStatement(t *testing.T) {
	table(t, BlockStatement, []opCase{
		{"if (a) { b(); }", []string{"if (a) {}"}},
		{"if (a) { /* nothing */ } else { b(); }", []string{"if (a) { /* nothing */ } else {}"}},
		{"if (a) {}", nil},
	})
}
