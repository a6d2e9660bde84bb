package lab

import (
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/edit"
)

const contamSrc = "export function g(a: number) {\n  return a + 1;\n}\n"

const contamTest = `import { expect, it } from "vitest";
import { g } from "./contam";

it("adds one", () => {
  expect(g(1)).toBe(2);
  expect(Reflect.get(globalThis, "polluted")).toBeUndefined();
});
`

// TestContaminatingMutantReal: with the sample's vitest, a mutant that
// leaves a global behind would fail every later variant of its batch (an
// equivalent mutant among them: a false kill). The closing baseline fails,
// so nothing of the batch is used, and the outcomes are those of isolated
// runs: the equivalent mutant survives.
func TestContaminatingMutantReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/contam.ts": contamSrc, "src/contam.test.ts": contamTest})
	at := uint(strings.Index(contamSrc, "return a + 1;"))
	mutant := func(sub, text string) edit.Mutant {
		m, err := edit.NewMutant("test", sub, "src/contam.ts", []byte(contamSrc), []edit.Change{{Start: at, End: at + 13, Text: text}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ms := []edit.Mutant{
		mutant("polluter", `Reflect.set(globalThis, "polluted", 1); return a + 1;`),
		mutant("equivalent", "return a + 1 + 0;"),
		mutant("minus", "return a - 1;"),
	}
	outcomes := func(isolate bool, ms []edit.Mutant) string {
		res, _ := labRun(t, repo, "", Lab{Isolate: isolate, MarkerPrefix: "c"}, []string{"src/contam.test.ts"}, ms)
		return summarize(res)
	}
	want := "test:polluter=killed test:equivalent=survived test:minus=killed"
	if got := outcomes(false, ms); got != want {
		t.Errorf("batched:  %s\nwant      %s", got, want)
	}
	if got := outcomes(true, ms); got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
	// The control: without the polluter the batch decides the kill itself.
	if got, want := outcomes(false, ms[1:]), "test:equivalent=survived test:minus=killed/batched"; got != want {
		t.Errorf("without the polluter: %s\nwant %s", got, want)
	}
}
