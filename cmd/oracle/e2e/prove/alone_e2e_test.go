package prove

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// TestGateAloneWhy: gate --json says, per mutant that ran alone, why
// (aloneWhy), and --timings counts them per reason; a mutant a batch
// decided says nothing. The document without --timings carries the
// reasons too (they are the same from run to run).
func TestGateAloneWhy(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(V4(t).NodeModules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=gate@test", "-c", "user.name=gate", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	WriteFiles(t, dir, map[string]string{
		".gitignore":   "node_modules\n",
		"package.json": `{"name":"shop","private":true,"type":"module"}`,
		"src/price.ts": "export function discount(total: number): number {\n  return total;\n}\n",
		"test/price.test.ts": "import { expect, it } from \"vitest\";\nimport { discount } from \"../src/price\";\n" +
			"it(\"discounts from 100\", () => {\n  expect(discount(99)).toBe(99);\n  expect(discount(100)).toBe(90);\n  expect(discount(200)).toBe(180);\n});\n",
	})
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "base")
	WriteFiles(t, dir, map[string]string{"src/price.ts": "export function discount(total: number): number {\n  if (total >= 100) {\n    return total * 0.9;\n  }\n  return total;\n}\n"})
	git("commit", "-qam", "discount")
	type doc struct {
		Mutants []struct {
			Outcome, AloneWhy string
		}
		Timings *struct {
			RanAlone int            `json:"ranAlone"`
			AloneWhy map[string]int `json:"aloneWhy"`
		}
	}
	gate := func(extra ...string) doc {
		t.Helper()
		_, out, errs := Oracle(t, append([]string{"gate", "--json", "--no-cache", "--root", dir}, extra...)...)
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Mutants) < 2 {
			t.Fatalf("gate %v: %v\n%s\n%s", extra, err, out, errs)
		}
		return d
	}
	iso := gate("--isolate", "--timings")
	for _, m := range iso.Mutants {
		if m.AloneWhy != "isolate" {
			t.Errorf("--isolate: a mutant's aloneWhy %q", m.AloneWhy)
		}
	}
	if iso.Timings == nil || iso.Timings.AloneWhy["isolate"] != len(iso.Mutants) || len(iso.Timings.AloneWhy) != 1 || iso.Timings.RanAlone != len(iso.Mutants) {
		t.Errorf("--isolate --timings: %+v for %d mutants", iso.Timings, len(iso.Mutants))
	}
	batched := gate()
	if batched.Timings != nil {
		t.Errorf("timings without --timings: %+v", batched.Timings)
	}
	for _, m := range batched.Mutants {
		// Every mutant here is a kill or a survivor its batch decides.
		if m.AloneWhy != "" {
			t.Errorf("batched: a %s mutant ran alone: %q", m.Outcome, m.AloneWhy)
		}
	}
	if again := gate("--isolate"); again.Timings != nil || len(again.Mutants) != len(iso.Mutants) || again.Mutants[0].AloneWhy != "isolate" {
		t.Errorf("--isolate without --timings: %+v", again)
	}
}

// TestProveOrdersBatched: on testdata/orders (a function that loads a
// module with `await import()` through a path alias, records written
// through sql.js, in-place spies in the fixture and the oracle) prove's
// batch decides every mutant, and the document is --isolate's, run for run;
// --isolate says why each ran alone ("isolate", counted under --timings).
// The same on the code broken so that mutants survive (a survivor passes
// its batch and runs alone, where it is confirmed).
func TestProveOrdersBatched(t *testing.T) {
	dir := CopySample(t, "orders", V4(t).NodeModules)
	checkout := filepath.Join(dir, "src/orders/checkout.ts")
	orig, err := os.ReadFile(checkout)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		edits [][2]string
	}{
		{"as it is", nil},
		// The order also written by a helper after the event: removing the
		// direct write, or moving it under the guard, survives.
		{"written twice", [][2]string{
			{`  await recordEvent(id, "paid");`, `  await recordEvent(id, "paid");` + "\n  await touch(id);"},
			{"export interface CheckoutResult {", "async function touch(id: number): Promise<void> {\n  await updateOrder(id, {});\n}\n\nexport interface CheckoutResult {"},
		}},
	}
	for _, c := range cases {
		src := orig
		for _, e := range c.edits {
			if !bytes.Contains(src, []byte(e[0])) {
				t.Fatalf("%s: checkout.ts has no %q", c.name, e[0])
			}
			src = bytes.Replace(src, []byte(e[0]), []byte(e[1]), 1)
		}
		if err := os.WriteFile(checkout, src, 0o644); err != nil {
			t.Fatal(err)
		}
		batched, tb := proveDocOf(t, dir, "tickets/PROJ-310.yaml")
		isolated, ti := proveDocOf(t, dir, "tickets/PROJ-310.yaml", "--isolate")
		if batched != isolated {
			t.Errorf("%s: batched differs from isolated:\n%s\n--- isolated:\n%s", c.name, batched, isolated)
		}
		if c.edits != nil && !strings.Contains(batched, `"survived"`) {
			t.Errorf("%s: no mutant survived:\n%s", c.name, batched)
		}
		if why, _ := ti["alone_why"].(map[string]any); ti["ran_alone"] != ti["mutants"] || len(why) != 1 || why["isolate"] != ti["mutants"] {
			t.Errorf("%s: --isolate: %v ran alone of %v, reasons %v", c.name, ti["ran_alone"], ti["mutants"], ti["alone_why"])
		}
		if c.edits == nil && (tb["batched"] != 11.0 || tb["ran_alone"] != 0.0) {
			t.Errorf("%s: the batch decided %v of 11 mutants, %v ran alone: %v", c.name, tb["batched"], tb["ran_alone"], tb["alone_why"])
		}
	}
}
