package analyzer

import (
	"fmt"
	"strings"
	"testing"
)

// TestTestStructure: the suites, tests and hooks of a test file with their
// callee, modifiers, title, line and enclosing suite, and its assertions
// with the block they are in.
func TestTestStructure(t *testing.T) {
	src := `import { describe, it, expect, beforeEach } from "vitest";
function check(x: number) { expect(x).toBe(1); }
describe("orders", () => {
  beforeEach(() => { expect(db.ready).toBe(true); });
  it("saves", async () => {
    expect(await save(1)).toEqual({ id: 1 });
    check(2);
  });
  describe.skip("later", () => {
    it.todo("ships");
  });
  it.each([[1], [2]])("row %i", (n) => {
    expect(1).toBe(1);
    expect(n);
  });
});
xit("old 'one'", () => {});
test.concurrent.only(` + "`t`" + `, () => { assert.equal(f(), 1); });
bench("fast", () => { f(); });
`
	_, syn := ParseSyntax("a.test.ts", []byte(src))
	tf := TestStructure(syn)
	var blocks []string
	for _, b := range tf.Blocks {
		blocks = append(blocks, fmt.Sprintf("%s %s %v %q @%d in %d body=%v", b.Kind, b.Callee, b.Modifiers, b.Title, b.Line, b.Parent, b.Body >= 0))
	}
	want := []string{
		`suite describe [] "orders" @3 in -1 body=true`,
		`hook beforeEach [] "" @4 in 0 body=true`,
		`test it [] "saves" @5 in 0 body=true`,
		`suite describe.skip [skip] "later" @9 in 0 body=true`,
		`test it.todo [todo] "ships" @10 in 3 body=false`,
		`test it.each [each] "row %i" @12 in 0 body=true`,
		`test xit [skip] "old 'one'" @17 in -1 body=true`,
		`test test.concurrent.only [concurrent only] "t" @18 in -1 body=true`,
	}
	if strings.Join(blocks, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%s\nwant\n%s", strings.Join(blocks, "\n"), strings.Join(want, "\n"))
	}
	var asserts []string
	for _, a := range tf.Assertions {
		asserts = append(asserts, fmt.Sprintf("%s@%d in %d const=%v matcher=%v", a.Kind, a.Line, a.Block, a.Constant, a.Matcher))
	}
	wantA := []string{
		"expect@2 in -1 const=false matcher=true", // the helper's own
		"expect@4 in 1 const=false matcher=true",
		"expect@6 in 2 const=false matcher=true",
		"helper@7 in 2 const=false matcher=true",
		"expect@13 in 5 const=true matcher=true",
		"expect@14 in 5 const=false matcher=false",
		"assert@18 in 7 const=false matcher=true",
	}
	if strings.Join(asserts, "\n") != strings.Join(wantA, "\n") {
		t.Errorf("assertions:\n%s\nwant\n%s", strings.Join(asserts, "\n"), strings.Join(wantA, "\n"))
	}
	if !tf.Helpers["check"] || len(tf.Helpers) != 1 {
		t.Errorf("helpers %v", tf.Helpers)
	}
}
