package runner

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

var exitRE = regexp.MustCompile(`exit=-?\d+ `)

// TestJestRunJointAgreesWithAlone runs four test files on real jest (ts-jest) in one joint
// run of the long-lived jest, and each alone: every file's result is the same (its tests,
// phases and failures, a file that does not load, the markers of the code it entered and
// only those), and each file's time is its own, not the run's.
func TestJestRunJointAgreesWithAlone(t *testing.T) {
	t.Parallel()
	root := jestRepo(t, map[string]string{
		"src/price.ts": "export function price(n: number): number {\n  " + FileMarkersStatement("m1", "m2") + "\n  return n * 2;\n}\nexport function label(): number {\n  " + FileMarkersStatement("m3") + "\n  return 1;\n}\n",
		"test/a.test.ts": `import { price } from "../src/price";
describe("price", () => {
  it("doubles", () => { expect(price(2)).toBe(4); });
});
`,
		"test/b.test.ts": `import { label } from "../src/price";
it("labels", () => { expect(label()).toBe(2); });
it("passes", () => { expect(1).toBe(1); });
describe("hooked", () => {
  beforeEach(() => { throw new Error("setup boom"); });
  it("never", () => { expect(1).toBe(1); });
});
`,
		"test/c.test.ts": "import { price } from \"../src/price\";\nthrow new Error(\"top-level boom \" + price(1));\n",
		"test/d.test.ts": "it(\"reaches nothing\", () => { expect(2).toBe(2); });\n",
	})
	files := []string{"test/a.test.ts", "test/b.test.ts", "test/c.test.ts", "test/d.test.ts"}
	ll := NewJestLongLived()
	defer ll.Close()
	spec := Spec{Dir: root, Timeout: 5 * time.Minute, Coverage: true}
	joint, err := ll.RunJoint(context.Background(), spec, files)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for f := range joint {
		keys = append(keys, f)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, files) {
		t.Fatalf("the joint run attributed %q, want every file", keys)
	}
	for _, f := range files {
		s := spec
		s.TestFile = f
		alone, err := ll.Run(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		// (A joint run's exit code is the run's: a file's own failures say it failed.)
		if got, want := exitRE.ReplaceAllString(summary(joint[f]), ""), exitRE.ReplaceAllString(summary(alone), ""); got != want {
			t.Errorf("%s: joint\n%s\nalone\n%s", f, got, want)
		}
	}
	if got := strings.Join(joint["test/a.test.ts"].Markers, " ") + "|" + strings.Join(joint["test/b.test.ts"].Markers, " ") + "|" + strings.Join(joint["test/d.test.ts"].Markers, " "); got != "m1 m2|m3|" {
		t.Errorf("markers a|b|d %q, want m1 m2|m3|", got)
	}
	if !joint["test/c.test.ts"].FileFailed || !strings.Contains(summary(joint["test/b.test.ts"]), "labels failed body") || !strings.Contains(summary(joint["test/b.test.ts"]), "hooked never failed setup") {
		t.Errorf("the runs do not show what the files are for:\n%s\n%s", summary(joint["test/b.test.ts"]), summary(joint["test/c.test.ts"]))
	}
	var sum time.Duration
	for _, f := range files {
		sum += joint[f].Duration
	}
	if d := joint["test/d.test.ts"].Duration; d <= 0 || sum <= 0 || d == joint["test/a.test.ts"].Duration && d == joint["test/b.test.ts"].Duration {
		t.Errorf("the files' times %v: each its own share of the run", []time.Duration{joint[files[0]].Duration, joint[files[1]].Duration, joint[files[2]].Duration, joint[files[3]].Duration})
	}
}
