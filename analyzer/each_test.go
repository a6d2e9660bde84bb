package analyzer

import (
	"strings"
	"testing"
)

// TestEachCases: the cases of a .each table, each with the title vitest 4
// prints for it (the expected titles are vitest 4.1's own, from a run of
// this file with the JSON reporter).
func TestEachCases(t *testing.T) {
	src := `import { describe, expect, it, test } from "vitest";
it.each([[1, 2, 3], [-0, 0.5, 1e21], [1e-7, 2, 3]])("adds %i + %d = %s", (a, b, c) => { expect(a).toBeDefined(); });
test.each([{ a: 1, b: "x'y" }, { a: true, b: null }])("obj $a $b $c %#", ({ a }) => { expect(a).toBeDefined(); });
test.each` + "`" + `
  a    | b      | expected
  ${1} | ${"x"} | ${true}
  ${2} | ${"y"} | ${undefined}
` + "`" + `("returns $expected when $a and $b, case %$", ({ a }) => { expect(a).toBeDefined(); });
test.each(["a", "b"])("prim %s %o %j %f %%", (s) => { expect(s).toBeDefined(); });
describe.each([[true], [false]])("mode %s", (flag) => {
  it("works $0", () => { if (flag) expect(1).toBe(1); });
});
it.each([[1, 2]])("extra %s", (a, b) => { expect(a).toBe(1); });
it.each([["1.5abc", "  42x"]])("parse %f %i $0 $1 $2", (a, b) => { expect(a).toBeDefined(); });
it.each([[f(), 1]])("call %s", (a) => {});
it.each(rows)("not in place %s", (a) => {});
it.each([{ a: { b: 1 } }])("path $a.b", (a) => {});
`
	_, syn := ParseSyntax("each.test.ts", []byte(src))
	tf := TestStructure(syn)
	var got []string
	for _, b := range tf.Blocks {
		var titles []string
		for _, c := range b.Cases {
			titles = append(titles, c.Title)
		}
		got = append(got, b.Callee+": "+strings.Join(titles, " | "))
	}
	want := []string{
		"it.each: adds 1 + 2 = 3 | adds 0 + 0.5 = 1e+21 | adds 1 + 2 = 3",
		"test.each: obj 1 'x\\'y' undefined 0 | obj true null undefined 1",
		"test.each: returns true when 1 and 'x', case 1 | returns undefined when 2 and 'y', case 2",
		"test.each: prim a undefined undefined NaN % undefined | prim b undefined undefined NaN % undefined",
		"describe.each: mode true | mode false",
		"it: ",
		"it.each: extra 1",
		"it.each: parse 1.5 42 '1.5abc' '  42x' undefined",
		"it.each: ", // one case, its title not told by the source
		"it.each: ", // no case: the table is not in place
		"it.each: ", // a path into the row
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := []int{len(tf.Blocks[8].Cases), len(tf.Blocks[9].Cases), len(tf.Blocks[10].Cases)}; n[0] != 1 || n[1] != 0 || n[2] != 1 {
		t.Errorf("cases of the tables not formatted: %v", n)
	}
	if c := tf.Blocks[2].Cases[1]; c.Line != 7 || c.Args[0].Fields["expected"] < 0 {
		t.Errorf("the template table's second row: %+v", c)
	}
}
