package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
)

// Measure's sample: four functions, one called only inside a vi.mock
// factory.
const measureSrc = `export function inc(x: number) {
  return x + 1;
}
export function dbl(x: number) {
  return x * 2;
}
export function conf() {
  return "url";
}
export function unused() {
  return 0;
}
`

// The factory of mb's vi.mock: it calls conf while it builds the stand-in.
const measureFactory = `async () => {
  const { conf } = await import("./measure");
  const url = conf();
  return { other: () => url };
}`

var measureTests = map[string]string{
	// Enters inc; passes.
	"src/ma.test.ts": `import { expect, it } from "vitest";
import { inc } from "./measure";

it("inc", () => {
  expect(inc(1)).toBe(2);
});
`,
	// Enters dbl, and conf only inside its factory; one test fails.
	"src/mb.test.ts": `import { expect, it, vi } from "vitest";
import { dbl } from "./measure";
import { other } from "./other";

vi.mock("./other", ` + measureFactory + `);

it("dbl", () => {
  expect(dbl(2)).toBe(4);
  expect(other()).toBe("url");
});
it("dbl wrong", () => {
  expect(dbl(2)).toBe(5);
});
`,
	// Throws while it loads: it measures nothing.
	"src/mc.test.ts": `import { it } from "vitest";
import { unused } from "./measure";

throw new Error("boom at load");
it("never", () => unused());
`,
	"src/other.ts": "export function other() {\n  return \"real\";\n}\n",
}

// TestMeasureReal: the lab's Measure runs the test files once, together,
// and says which entered each probe (inc by ma, dbl by mb; conf, called
// only while mb's vi.mock factory builds its stand-in, by none when the
// factory is given, by mb when it is not; unused by none), which could not
// run (mc, with its first error) and which do not pass (mb, a note), and
// leaves the sandbox's files as they were.
func TestMeasureReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	files := map[string]string{"src/measure.ts": measureSrc}
	for f, body := range measureTests {
		files[f] = body
	}
	repo := pipelineCopy(t, "pipeline", files)
	tests := []string{"src/ma.test.ts", "src/mb.test.ts", "src/mc.test.ts"}
	span := func(fn string) Probe {
		start := strings.Index(measureSrc, fn)
		open := start + strings.Index(measureSrc[start:], "{")
		end := open + strings.Index(measureSrc[open:], "\n}") + 2
		return Probe{Path: "src/measure.ts", Body: [2]uint{uint(open), uint(end)}}
	}
	probes := []Probe{span("function inc"), span("function dbl"), span("function conf"), span("function unused")}
	mb := measureTests["src/mb.test.ts"]
	at := uint(strings.Index(mb, measureFactory))
	factories := map[string][][2]uint{"src/mb.test.ts": {{at, at + uint(len(measureFactory))}}}
	const rest = ` unrunnable map[src/mc.test.ts:boom at load] notes [src/mb.test.ts does not pass on the code as it is (dbl wrong: AssertionError: expected 4 to be 5 // Object.is equality): what it ran before it stopped counts as run] runs 1`
	for _, tc := range []struct {
		name      string
		factories map[string][][2]uint
		want      string
	}{
		{"the factory given", factories, "entered [[src/ma.test.ts] [src/mb.test.ts] [] []]" + rest},
		{"no factory given", nil, "entered [[src/ma.test.ts] [src/mb.test.ts] [src/mb.test.ts] []]" + rest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb, err := sandbox.New(repo, sandbox.Options{TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Close()
			r := runner.NewLongLived()
			defer r.Close()
			l := &Lab{Root: sb.Root, Files: sb, Runner: r, MarkerPrefix: "m", Factories: tc.factories}
			m, err := l.Measure(context.Background(), tests, probes)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("entered %v unrunnable %v notes %v runs %d", enteredBy(m.EnteredBy, probes), m.Unrunnable, m.Notes, m.Runs)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			for _, f := range []string{"src/measure.ts", "src/mb.test.ts"} {
				b, err := os.ReadFile(filepath.Join(sb.Root, f))
				if err != nil || string(b) != files[f] {
					t.Errorf("%s is not restored (%v):\n%s", f, err, b)
				}
			}
		})
	}
}
