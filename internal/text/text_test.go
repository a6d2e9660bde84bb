package text

import "testing"

func TestLines(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{FirstLine("  Error: boom \n  at x\n", 300), "Error: boom"},
		{FirstLine("ééééé", 3), "ééé..."},
		{FirstLine("", 3), ""},
		{OneLine("expect(\n    f(x),\n  )", 50), "expect( f(x), )"},
		{OneLine("abcdef", 4), "abc…"},
		{OneLine("abcd", 4), "abcd"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
