package testsuite

import (
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/change"
)

// TestTouchedFunctionsEveryBody: a change inside any body that runs makes
// that body the target (issue 26), never the function around a nested one.
func TestTouchedFunctionsEveryBody(t *testing.T) {
	src := `export default defineCommand({
  meta: { name: "x" },
  async run(ctx) {
    const inner = () => go(ctx);
    return inner();
  },
});
export const fee = wrap((n) => n * 2);
export const handlers = { add() { return 1; }, del: (x) => x };
app.get("/x", (c) => c);
export namespace Geo {
  export function dist() { return 1; }
}
export class Limits {
  static max = 0;
  static {
    Limits.max = 1;
  }
  get area() { return 2; }
}
`
	for _, tc := range []struct {
		name  string
		lines [2]int
		want  string
	}{
		{"defineCommand's run, through its nested arrow", [2]int{4, 4}, "src/a.ts#default.run"},
		{"an arrow given to a call", [2]int{8, 8}, "src/a.ts#fee.<arrow>"},
		{"object literal methods on one line", [2]int{9, 9}, "src/a.ts#handlers.add src/a.ts#handlers.del"},
		{"a router callback", [2]int{10, 10}, "src/a.ts#app.get.<arrow>"},
		{"a namespace function", [2]int{12, 12}, "src/a.ts#Geo.dist"},
		{"a static block", [2]int{17, 17}, "src/a.ts#Limits.<static>"},
		{"a getter", [2]int{19, 19}, "src/a.ts#Limits.area"},
		{"outside any body", [2]int{2, 2}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := callgraph.NewProgram(writeTree(t, map[string]string{"src/a.ts": src}))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			var ids []string
			for _, tg := range TouchedFunctions(p, change.Change{"src/a.ts": {tc.lines}}, []string{"src/a.ts"}) {
				ids = append(ids, tg.ID())
			}
			if got := strings.Join(ids, " "); got != tc.want {
				t.Errorf("targets %q, want %q", got, tc.want)
			}
		})
	}
}
