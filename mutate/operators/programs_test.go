package operators

import "testing"

// TestPrograms: programs are the same by their tokens, whitespace and
// comments aside; the text of strings and templates counts.
func TestPrograms(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"if (a) {}", "if (a) {  }", true},
		{"if (a) {}", "if (a) {\n  // why\n}", true},
		{"f(a, b);", "f( a,b );", true},
		{"f(a, b);", "f(b, a);", false},
		{`f("a b");`, `f("ab");`, false},
		{"f(`a ${b} c`);", "f(`a ${b}  c`);", false},
		{"f(`a ${b} c`);", "f(`a ${ b } c`);", true},
		{"return a+ +b;", "return a++b;", false},
		{"x = /a b/;", "x = /ab/;", false},
	} {
		p := NewPrograms()
		p.Add("x.ts", []byte(tc.a))
		if again := !p.Add("x.ts", []byte(tc.b)); again != tc.same {
			t.Errorf("%q and %q: same %v, want %v", tc.a, tc.b, again, tc.same)
		}
		if !p.Add("y.ts", []byte(tc.a)) {
			t.Errorf("%q: another file's program is another program", tc.a)
		}
	}
}
