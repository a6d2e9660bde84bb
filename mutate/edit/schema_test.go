package edit

import (
	"fmt"
	"strings"
	"testing"
)

// TestSchemaAlone: a change outside a function body, or in a body that
// starts with a directive, is not placed; the schema still holds the rest.
func TestSchemaAlone(t *testing.T) {
	orig := []byte("const limit = 3;\nexport function g(a: number) {\n  return a + limit;\n}\nexport function h() {\n  \"use strict\";\n  return 1;\n}\n")
	edit := func(old, new string) Mutant {
		i := strings.Index(string(orig), old)
		m, err := NewMutant("test", "", "y.ts", orig, []Change{{Start: uint(i), End: uint(i + len(old)), Text: new}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ms := []Mutant{edit("limit = 3", "limit = 4"), edit("a + limit", "a - limit"), edit("return 1", "return 2")}
	sc, err := BuildSchema("y.ts", orig, ms, []int{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sc.Placed) != "[2]" || sc.Alone[1] == "" || sc.Alone[3] == "" {
		t.Errorf("placed %v alone %v", sc.Placed, sc.Alone)
	}
	if !strings.Contains(string(sc.Source), `=== 2) {
  return a - limit;
} else {
  return a + limit;
}`) {
		t.Errorf("schema:\n%s", sc.Source)
	}
	if err := SyntaxCheck("z.ts", []byte("function (")); err == nil {
		t.Error("esbuild syntax check passes a broken file")
	}
}
