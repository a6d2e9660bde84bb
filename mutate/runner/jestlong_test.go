package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// summary is what a run established, without its times: what the long-lived jest run must
// say as the fresh one does.
func summary(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "timedOut=%v fileFailed=%v exit=%d reached=%v markers=%q in=%q outside=%q hits=%d/%d noReport=%v\n",
		r.TimedOut, r.FileFailed, r.ExitCode, r.Reached, r.Markers, r.ReachedIn, r.ReachedOutside, r.HitLimit, r.HitsOver, r.NoReport)
	if r.FileMessage != "" {
		fmt.Fprintf(&b, "file: %s\n", strings.SplitN(r.FileMessage, "\n", 2)[0])
	}
	for _, t := range r.Tests {
		fmt.Fprintf(&b, "%s %s %s %d %s\n", t.Name, t.Status, t.Phase, t.Line, strings.SplitN(t.Failure, "\n", 2)[0])
	}
	return b.String()
}

// TestJestLongLivedAgreesWithFresh runs one sequence of runs twice on real jest (ts-jest):
// once with a fresh jest process per run (JestRunner), once in one long-lived process
// (JestLongLived), the files rewritten between runs as the lab writes mutants and restores
// the original. Every run says the same: the tests, their phases and failures, the
// markers, a file that does not load, a mutant that changes a type the test file's type
// check reads (and, restored, no longer does: ts-jest's in-memory copy refreshed), -t, a
// loop stopped by the time-out and the run after it. The long-lived runner serves every
// run itself (no fallback), from one process but for the restart after the loop.
func TestJestLongLivedAgreesWithFresh(t *testing.T) {
	t.Parallel()
	orig := "export function price(n: number): number {\n  " + RanMarkerStatement("m1") + "\n  return n * 2;\n}\nexport function label() {\n  return 1;\n}\nexport function spin(): void {\n" + endless + "}\n"
	root := jestRepo(t, map[string]string{
		"src/price.ts": orig,
		"test/price.test.ts": `import { price, label } from "../src/price";
describe("price", () => {
  it("doubles", () => { expect(price(2)).toBe(4); });
  it("labels", () => { const l: number = label(); expect(l).toBe(1); });
});
`,
		"test/load.test.ts": "import { price } from \"../src/price\";\nthrow new Error(\"top-level boom \" + price(1));\n",
		"test/spin.test.ts": "import { spin } from \"../src/price\";\ntest(\"spins\", () => { spin(); });\n",
	})
	fresh := NewJest()
	steps := []struct {
		name string
		src  string // src/price.ts before the run ("": as it is)
		spec Spec
	}{
		{"the original", "", Spec{TestFile: "test/price.test.ts", ReachedMarker: "m1"}},
		{"a mutant its test kills", strings.Replace(orig, "n * 2", "n * 3", 1), Spec{TestFile: "test/price.test.ts", ReachedMarker: "m1"}},
		{"a mutant that changes label's type", strings.Replace(orig, "return 1;", "return \"1\";", 1), Spec{TestFile: "test/price.test.ts", ReachedMarker: "m1"}},
		{"the original restored", orig, Spec{TestFile: "test/price.test.ts", ReachedMarker: "m1"}},
		{"one test", "", Spec{TestFile: "test/price.test.ts", TestName: "price doubles"}},
		{"a file that does not load", "", Spec{TestFile: "test/load.test.ts", ReachedMarker: "m1"}},
		{"a loop", "", Spec{TestFile: "test/spin.test.ts", Timeout: 20 * time.Second, Once: true}},
		{"after the loop", strings.Replace(orig, "n * 2", "n + 2", 1), Spec{TestFile: "test/price.test.ts", ReachedMarker: "m1"}},
	}
	run := func(r Runner) []string {
		if err := os.WriteFile(filepath.Join(root, "src/price.ts"), []byte(orig), 0o644); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, st := range steps {
			if st.src != "" {
				src := []byte(st.src)
				if st.src != orig {
					src = fresh.PrepareMutant("src/price.ts", src)
				}
				if err := os.WriteFile(filepath.Join(root, "src/price.ts"), src, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := st.spec
			s.Dir = root
			if s.Timeout == 0 {
				s.Timeout = 5 * time.Minute
			}
			res, err := r.Run(context.Background(), s)
			if err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			out = append(out, summary(res))
		}
		return out
	}
	want := run(fresh)
	ll := NewJestLongLived()
	var fallbacks []string
	ll.OnFallback = func(s Spec, reason string) { fallbacks = append(fallbacks, s.TestFile+": "+reason) }
	got := run(ll)
	starts := len(ll.procs)
	ll.Close()
	for i, st := range steps {
		if got[i] != want[i] {
			t.Errorf("%s: long-lived\n%s\nfresh\n%s", st.name, got[i], want[i])
		}
	}
	if len(fallbacks) > 0 || starts != 1 {
		t.Errorf("fallbacks %q, processes %d", fallbacks, starts)
	}
	if !strings.Contains(want[1], "price doubles failed") || !strings.Contains(want[2], "fileFailed=true") || !strings.Contains(want[3], "price labels passed") || !strings.Contains(want[6], "timedOut=true") {
		t.Errorf("the fresh runs do not show what the sequence is for:\n%s", strings.Join(want, "\n"))
	}
}

// TestJestLongLivedRunsTheFileAsItIsNow: a test file's first run in a long-lived jest whose
// earlier runs were another file's runs the module it imports as it is on disk now. ts-jest's
// type checker read that module in an earlier run (its program holds every file of the
// tsconfig) through a readFile it memoizes for its life: the mutant written since was not
// run at all, and the mutant survived where a fresh jest kills it (a long-lived gate's
// mutants of a second module: SKIP-free but wrong outcomes).
func TestJestLongLivedRunsTheFileAsItIsNow(t *testing.T) {
	t.Parallel()
	price := "export function price(n: number): number {\n  return n * 2;\n}\n"
	label := "export function label(n: number): string {\n  return n > 1 ? \"items\" : \"item\";\n}\n"
	root := jestRepo(t, map[string]string{
		"src/price.ts":       price,
		"src/label.ts":       label,
		"test/price.test.ts": "import { price } from \"../src/price\";\nit(\"doubles\", () => { expect(price(2)).toBe(4); });\n",
		"test/label.test.ts": "import { label } from \"../src/label\";\nit(\"names one\", () => { expect(label(1)).toBe(\"item\"); });\n",
	})
	ll := NewJestLongLived()
	defer ll.Close()
	write := func(rel, src string) {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(f string) string {
		r, err := ll.Run(context.Background(), Spec{Dir: root, Timeout: 5 * time.Minute, TestFile: f})
		if err != nil {
			t.Fatal(err)
		}
		return summary(r)
	}
	run("test/label.test.ts")
	write("src/label.ts", string(ll.PrepareMutant("src/label.ts", []byte(strings.Replace(label, "n > 1", "true", 1)))))
	if got := run("test/label.test.ts"); !strings.Contains(got, "names one failed") {
		t.Fatalf("label's mutant:\n%s", got)
	}
	write("src/label.ts", label)
	write("src/price.ts", string(ll.PrepareMutant("src/price.ts", []byte(strings.Replace(price, "n * 2", "n * 3", 1)))))
	if got := run("test/price.test.ts"); !strings.Contains(got, "doubles failed body 2 Error: expect(received).toBe(expected) // Object.is equality: Expected: 4, Received: 6") {
		t.Errorf("price's mutant, price's test's first run in the process:\n%s", got)
	}
}
