package prove

// End-to-end tests of `oracle gen` on the seed scenario (testdata/pipeline):
// the generated oracle is run with the sample's own vitest and tsc, under
// vitest 4 on Node 20 and vitest 5 on Node 22 (testdata/vitest5), and it fails
// on implementations broken by hand. They need the npm packages scripts/test
// installs; outside CI a missing install skips them.

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func runTSC(t *testing.T, tc Toolchain, dir string) {
	t.Helper()
	cmd := exec.Command(tc.Node, filepath.Join(dir, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc --noEmit: %v\n%s", err, out)
	}
}

// breakings are implementations of processItem broken by hand: each must
// turn the generated oracle red.
var breakings = []struct {
	name, old, new string
}{
	{"guard deleted",
		"  if (!opts.skip) {\n    patch.score = (await enrichItem(record, settings)).score;\n  }\n",
		"  patch.score = (await enrichItem(record, settings)).score;\n"},
	{"preserved write moved under the guard",
		"    patch.score = (await enrichItem(record, settings)).score;\n  }\n  const saved = await updateRecord(id, patch);\n",
		"    patch.score = (await enrichItem(record, settings)).score;\n  }\n  let saved = { ...record, ...patch } as Awaited<ReturnType<typeof updateRecord>>;\n  if (!opts.skip) saved = await updateRecord(id, patch);\n"},
	{"preserved write deleted",
		"  const saved = await updateRecord(id, patch);\n",
		"  const saved = { ...record, ...patch } as Awaited<ReturnType<typeof updateRecord>>;\n"},
	{"preserved call moved under the guard",
		"  const targets = selectTargets(record);\n",
		"  const targets = opts.skip ? [] : selectTargets(record);\n"},
}

const oracleFile = "src/server/__oracles__/processItem.skip-enrichment.oracle.test.ts"

func TestGenEndToEnd(t *testing.T) {
	for _, tc := range Toolchains(t) {
		t.Run(tc.Name, func(t *testing.T) {
			dir := CopySample(t, "pipeline", tc.NodeModules)
			code, out, errs := Oracle(t, "gen", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml"))
			if code != 0 {
				t.Fatalf("gen exit %d\n%s%s", code, out, errs)
			}
			got, err := os.ReadFile(filepath.Join(dir, oracleFile))
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", filepath.Base(oracleFile))
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				os.WriteFile(golden, got, 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/oracle -run TestGenEndToEnd -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("generated oracle differs from %s (rerun with -update after checking the change)", golden)
			}

			runTSC(t, tc, dir)
			// One vitest run: the checkout as it is (copy 0) and each
			// breaking (copy i+1), side by side (runCopies).
			index := filepath.Join(dir, "src/server/index.ts")
			orig, _ := os.ReadFile(index)
			copies := []sampleCopy{{files: []string{oracleFile}}}
			for _, b := range breakings {
				if !bytes.Contains(orig, []byte(b.old)) {
					t.Fatalf("%s: the sample no longer has the code this breaking edits:\n%s", b.name, b.old)
				}
				c := sampleCopy{edits: []fileEdit{{"src/server/index.ts", b.old, b.new}}, files: []string{oracleFile}}
				if b.name == "guard deleted" {
					c.files = append(c.files, "test/routes.test.ts")
				}
				copies = append(copies, c)
			}
			results := runCopies(t, tc, dir, copies)
			if r := results[0]; r.NumPassedTests != 2 || r.NumFailedTests != 0 {
				t.Fatalf("the oracle does not pass on the correct implementation: %d passed, %d failed\n%s", r.NumPassedTests, r.NumFailedTests, r.Failures())
			}
			for i, b := range breakings {
				t.Run(b.name, func(t *testing.T) {
					if r := only(results[i+1], oracleFile); r.NumFailedTests == 0 {
						t.Fatalf("the oracle stays green on a broken implementation (%d passed)", r.NumPassedTests)
					}
					if b.name == "guard deleted" {
						// The blindness the oracle exists to fix: the route test,
						// which stubs the whole pipeline module, stays green.
						if rr := only(results[i+1], "test/routes.test.ts"); rr.NumFailedTests != 0 || rr.NumPassedTests == 0 {
							t.Errorf("route test: %d passed, %d failed: the sample no longer shows the blindness", rr.NumPassedTests, rr.NumFailedTests)
						}
					}
				})
			}
		})
	}
}

// TestVitestFacts runs the sample's fact tests (testdata/pipeline/facts): each
// asserts one behaviour of vitest the strategies rely on (hoisted mock factory
// timing and resetModules, spies and module-load captures, node_modules
// exports, clearMocks order), under vitest 4 and 5; and the broken reference
// oracles fail the way the strategy choice predicts.
func TestVitestFacts(t *testing.T) {
	for _, tc := range Toolchains(t) {
		t.Run(tc.Name, func(t *testing.T) {
			dir := CopySample(t, "pipeline", tc.NodeModules)
			// One vitest run (it was one each): the facts and the broken
			// reference, read apart by file.
			const broken = "reference/processItem.all-hoisted.broken.test.ts"
			all := RunVitest(t, tc.Node, dir, "-c", "vitest.reference.config.ts", "facts/", broken)
			var facts VitestReport
			for _, f := range all.TestResults {
				if strings.Contains(filepath.ToSlash(f.Name), "/facts/") {
					facts.TestResults = append(facts.TestResults, f)
				}
			}
			if r := counted(facts); r.NumFailedTests != 0 || r.NumPassedTests < 10 {
				t.Fatalf("facts: %d passed, %d failed\n%s", r.NumPassedTests, r.NumFailedTests, r.Failures())
			}
			if r := only(all, broken); r.NumFailedTests == 0 || !strings.Contains(r.Failures(), "no such table") {
				t.Fatalf("a hoisted mock of the live helper's module must fail with \"no such table\":\n%s", r.Failures())
			}
		})
	}
}
