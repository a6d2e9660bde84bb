package lab

import (
	"context"
	"github.com/oracle-ts/oracle/internal/testenv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/internal/samplecopy"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
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
	nm, _ := filepath.Abs("../../testdata/pipeline/node_modules")
	if _, err := os.Stat(filepath.Join(nm, "vitest", "package.json")); err != nil {
		testenv.Missing(t, "testdata/pipeline has no vitest: scripts/test installs it")
	}
	repo := t.TempDir()
	if err := samplecopy.Copy("../../testdata/pipeline", repo, nm); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(repo, "src/contam.ts"), []byte(contamSrc), 0o644)
	os.WriteFile(filepath.Join(repo, "src/contam.test.ts"), []byte(contamTest), 0o644)
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
		sb, err := sandbox.New(repo, sandbox.Options{TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer sb.Close()
		r := runner.NewLongLived()
		defer r.Close()
		l := &Lab{Root: sb.Root, Files: sb, Runner: r, Isolate: isolate, MarkerPrefix: "c"}
		res, err := l.Execute(context.Background(), []string{"src/contam.test.ts"}, ms)
		if err != nil {
			t.Fatal(err)
		}
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
