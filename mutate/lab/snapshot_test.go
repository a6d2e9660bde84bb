package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A function whose tests check its output with toMatchSnapshot (file
// snapshots, as vercel/ai's stream-text.test.ts does 21 times).
const snapSrc = `export function label(n: number): { text: string; big: boolean } {
  return { text: "n=" + n, big: n > 10 };
}
`

const snapTest = `import { describe, expect, it } from "vitest";
import { label } from "./label";

describe("label", () => {
  it("labels a number", () => {
    expect(label(12)).toMatchSnapshot();
  });
  it("is an object", () => {
    expect(typeof label(1)).toBe("object");
  });
});
`

const snapFile = "// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html\n\n" +
	"exports[`label > labels a number 1`] = `\n{\n  \"big\": true,\n  \"text\": \"n=12\",\n}\n`;\n"

// TestSnapshotBatchReal: a mutant only a file snapshot kills is killed in
// its batch, as alone. The batch harness is a test file of its own, whose
// tests vitest names under the variant's describe title: without the
// harness's snapshot file (the test file's entries, once per variant, under
// the variant's name) every toMatchSnapshot of the batch was a new
// snapshot, written and passed, and such a mutant passed every batch
// (vercel/ai c6d57f3902: 17 of the 23 mutants sent alone from
// stream-text.test.ts's batch were killed alone, by its snapshots). The
// checkout's snapshot file is left as it was, and the harness's is gone.
func TestSnapshotBatchReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/label.ts": snapSrc, "src/label.test.ts": snapTest})
	if err := os.MkdirAll(filepath.Join(repo, "src", "__snapshots__"), 0o755); err != nil {
		t.Fatal(err)
	}
	snapPath := filepath.Join(repo, "src", "__snapshots__", "label.test.ts.snap")
	if err := os.WriteFile(snapPath, []byte(snapFile), 0o644); err != nil {
		t.Fatal(err)
	}
	ms := textMutants(t, "src/label.ts", snapSrc, [][3]string{
		{"text", `"n=" + n`, `"n=" - n`},
		{"big", `n > 10`, `n >= 10`}, // equivalent for 12: survives
		{"bigfalse", `n > 10`, `false`},
	})
	run := func(l Lab) *Result {
		l.Coverage = true
		res, _ := labRun(t, repo, "", l, []string{"src/label.test.ts"}, ms)
		return res
	}
	isolated := run(Lab{Isolate: true})
	if got, want := outcomesOnly(isolated), "test:text=killed test:big=survived test:bigfalse=killed"; got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
	batched := run(Lab{})
	if got, want := summarize(batched), "test:text=killed/batched test:big=survived/batched test:bigfalse=killed/batched"; got != want {
		t.Errorf("batched: %s\nwant     %s", got, want)
	}
	if b, _ := os.ReadFile(snapPath); string(b) != snapFile {
		t.Errorf("the checkout's snapshot file changed:\n%s", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(snapPath))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), HarnessPrefix) {
			t.Errorf("left in the checkout: %s", e.Name())
		}
	}
}
