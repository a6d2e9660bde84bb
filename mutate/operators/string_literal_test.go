package operators

import "testing"

func TestStringLiteral(t *testing.T) {
	table(t, StringLiteral, []opCase{
		{`return "x";`, []string{`return "";`}},
		{`return a + 'yz';`, []string{`return a + "";`}},
		{`return "" + a;`, nil},
		{"return `t${a}`;", nil},
	})
}
