package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAttribute: a joint run's report, phases and reached file split into
// the results of its files: each file classified from its own tests (two
// files with a test of the same name: one fails in beforeEach, an error,
// the other passes), its own markers, its own time plus the run's time
// outside the files; a file missing from the report or left out (typecheck)
// gets no result; and what no file owns (an unhandled error, a marker of no
// file, a non-zero exit with every file green) attributes nothing.
func TestAttribute(t *testing.T) {
	dir := t.TempDir()
	a, b, c, d := filepath.Join(dir, "a.test.ts"), filepath.Join(dir, "b.test.ts"), filepath.Join(dir, "c.test.ts"), filepath.Join(dir, "d.test.ts")
	report := fmt.Sprintf(`{"numTotalTests":3,"success":false,"testResults":[
 {"name":%q,"status":"passed","message":"","assertionResults":[{"fullName":"s t","title":"t","ancestorTitles":["s"],"status":"passed","failureMessages":[]}]},
 {"name":%q,"status":"failed","message":"","assertionResults":[{"fullName":"s t","title":"t","ancestorTitles":["s"],"status":"failed","failureMessages":["TypeError: db is down"]},{"fullName":"s u","title":"u","ancestorTitles":["s"],"status":"failed","failureMessages":["TypeError: db is down"]}]}]}`, a, b)
	phases := func(unhandled string) []byte {
		return []byte(fmt.Sprintf(`{"tests":[{"name":"s t","state":"pass","phase":"","file":%q},{"name":"s t","state":"fail","phase":"setup","file":%q},{"name":"s u","state":"fail","phase":"setup","file":%q}],
 "unhandled":[%s],"files":[{"file":%q,"ms":100},{"file":%q,"ms":300}]}`, a, b, b, unhandled, a, b))
	}
	n := 0
	ev := func(lines []string, unhandled string, exit int) jointEvidence {
		n++
		reached := filepath.Join(dir, fmt.Sprint("reached", n))
		os.WriteFile(reached, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		return jointEvidence{files: []string{"a.test.ts", "b.test.ts", "c.test.ts", "d.test.ts"}, abs: []string{a, b, c, d}, refused: []string{d},
			report: []byte(report), phases: phases(unhandled), reached: reached, exit: exit, wall: time.Second}
	}
	marks := []string{a + "\tm-1", b + "\tm-2", a + "\tm-3", a + "\tm-1"}
	got := attribute(ev(marks, "", 1))
	if len(got) != 2 {
		t.Fatalf("results for %d files, want a and b only: %+v", len(got), got)
	}
	ra, rb := got["a.test.ts"], got["b.test.ts"]
	facts := func(r Result) string {
		var b strings.Builder
		fmt.Fprintf(&b, "failed=%v executed=%d", r.failedAnything(), r.Executed())
		for _, tc := range r.Tests {
			fmt.Fprintf(&b, " [%s %s %s %q]", tc.Name, tc.Status, tc.Phase, tc.Failure)
		}
		return b.String()
	}
	if f := facts(ra); f != `failed=false executed=1 [s t passed  ""]` || strings.Join(ra.Markers, ",") != "m-1,m-3" || ra.Duration != 700*time.Millisecond {
		t.Errorf("a: %s %v %s, want its one test passed, [m-1 m-3], 700ms (its 100ms and the 600ms of the run outside the files)", f, ra.Markers, ra.Duration)
	}
	if f := facts(rb); f != `failed=true executed=2 [s t failed setup "TypeError: db is down"] [s u failed setup "TypeError: db is down"]` ||
		strings.Join(rb.Markers, ",") != "m-2" || rb.Duration != 900*time.Millisecond {
		t.Errorf("b: %s %v %s, want both tests failed in setup, [m-2], 900ms", f, rb.Markers, rb.Duration)
	}
	for name, e := range map[string]jointEvidence{
		"unhandled error":        ev(marks, `"Error: floating"`, 1),
		"marker of no file":      ev(append(marks, "?\tm-4"), "", 1),
		"plain marker":           ev(append(marks, "m-4"), "", 1),
		"marker of another file": ev(append(marks, filepath.Join(dir, "e.test.ts")+"\tm-4"), "", 1),
	} {
		if got := attribute(e); got != nil {
			t.Errorf("%s: %d results, want none", name, len(got))
		}
	}
	green := ev(marks[:1], "", 1)
	green.report = []byte(strings.Replace(report[:strings.Index(report, `,
 {"name":`)]+"]}", `"success":false`, `"success":true`, 1))
	if got := attribute(green); got != nil {
		t.Errorf("exit 1 with every file green: %d results, want none", len(got))
	}
	green.exit = 0
	if got := attribute(green); len(got) != 1 || got["a.test.ts"].failedAnything() || got["a.test.ts"].Executed() != 1 {
		t.Errorf("exit 0, every file green: %+v, want a passed", got)
	}
}
