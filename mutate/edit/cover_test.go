package edit

import (
	"fmt"
	"strings"
	"testing"
)

// TestSchemaCoverMarks: the original's branch records the statement of a
// change only where a test that never reached that statement runs the
// variant as the original (cover.go); every other mutant has no key.
func TestSchemaCoverMarks(t *testing.T) {
	const src = `export function f(xs: number[], n: number) {
  let t = 0;
  if (n > 2) t = n * 2;
  const ys = xs.map((x) => x + 1);
  function g(a = 1) { const z = a - 1; return z; }
  class C { k = 5; }
  const h = () => { return n % 3; };
  return t + ys.length + g() + new C().k + h();
}
`
	for _, c := range []struct {
		old, new string
		key      bool
	}{
		{"n > 2", "n >= 2", true},
		{"n * 2", "n / 2", true},  // the same statement: the same key
		{"x + 1", "x - 1", false}, // an arrow's expression: runs when called
		{"a = 1", "a = 2", false}, // a default parameter
		{"a - 1", "a + 1", true},  // a statement of a nested function's block
		{"k = 5", "k = 6", false}, // a class field
		{"n % 3", "n * 3", true},
	} {
		t.Run(c.old, func(t *testing.T) {
			var ms []Mutant
			var ids []int
			for _, e := range [][2]string{{"n > 2", "n >= 2"}, {c.old, c.new}} {
				at := strings.Index(src, e[0])
				m, err := NewMutant("test", e[0], "c.ts", []byte(src), []Change{{Start: uint(at), End: uint(at + len(e[0])), Text: e[1]}})
				if err != nil {
					t.Fatal(err)
				}
				ms, ids = append(ms, m), append(ids, len(ids)+1)
			}
			sc, err := BuildSchema("c.ts", []byte(src), ms, ids)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Cover[1] != 1 {
				t.Errorf("the if statement's mutant: key %d, want 1 (%v)", sc.Cover[1], sc.Cover)
			}
			k, ok := sc.Cover[2]
			if ok != c.key {
				t.Fatalf("%s: keyed %v, want %v (%v)", c.old, ok, c.key, sc.Cover)
			}
			same := c.old == "n > 2" || c.old == "n * 2"
			if ok && same != (k == 1) {
				t.Errorf("%s: key %d (the if statement's is 1)", c.old, k)
			}
			if ok && !strings.Contains(string(sc.Source), fmt.Sprintf("h.cov.add(%d);", k)) {
				t.Errorf("no record of key %d in\n%s", k, sc.Source)
			}
			if !ok && strings.Contains(string(sc.Source), "h.cov.add(2)") {
				t.Errorf("a record of an unkeyed mutant in\n%s", sc.Source)
			}
		})
	}
}
