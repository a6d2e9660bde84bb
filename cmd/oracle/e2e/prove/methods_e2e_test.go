package prove

// End-to-end tests of gen, apply and prove on class methods (issue 12), on
// the class-based sample testdata/services: an instance method with
// constructor-injected collaborators (PROJ-201), a static method (PROJ-202)
// and an arrow-function field (PROJ-203), under vitest 4 / Node 20 and
// vitest 5 / Node 22.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

var methodTickets = []string{"tickets/PROJ-201.yaml", "tickets/PROJ-202.yaml", "tickets/PROJ-203.yaml"}

var methodOracles = []string{
	"src/orders/__oracles__/OrderService.finalize.skip-quote.oracle.test.ts",
	"src/orders/__oracles__/OrderService.report.count-only.oracle.test.ts",
	"src/orders/__oracles__/OrderService.cancel.silent-cancel.oracle.test.ts",
}

// methodBreakings break src/orders/service.ts by hand; each must turn the
// named oracle red.
var methodBreakings = []struct {
	name, oracle, old, new string
}{
	{"finalize: guard deleted", methodOracles[0],
		"    if (!opts.skipQuote) {\n      quote = await this.pricing.quote(order);\n    }\n",
		"    quote = await this.pricing.quote(order);\n"},
	{"finalize: the write moved under the guard", methodOracles[0],
		"    const saved = await this.orders.updateRecord(orderId, { status: \"finalized\", total, quote });\n",
		"    const saved = opts.skipQuote ? order : await this.orders.updateRecord(orderId, { status: \"finalized\", total, quote });\n"},
	{"finalize: the inherited audit dropped when skipping", methodOracles[0],
		"    this.audit(`finalized ${orderId}`);\n",
		"    if (!opts.skipQuote) this.audit(`finalized ${orderId}`);\n"},
	{"report (static): guard deleted", methodOracles[1],
		"    if (!opts.countOnly) {\n      stats = computeStats(open);\n    }\n",
		"    stats = computeStats(open);\n"},
	{"cancel (arrow field): the mail always sent", methodOracles[2],
		"    if (!opts.silent) {\n      await this.mailer.send({ to: order.email, subject: `Order ${orderId} cancelled`, body: \"\" });\n    }\n",
		"    await this.mailer.send({ to: order.email, subject: `Order ${orderId} cancelled`, body: \"\" });\n"},
}

func TestMethodsGenEndToEnd(t *testing.T) {
	for _, tc := range Toolchains(t) {
		t.Run(tc.Name, func(t *testing.T) {
			dir := CopySample(t, "services", tc.NodeModules)
			for _, ticket := range methodTickets {
				if code, out, errs := Oracle(t, "gen", "--root", dir, filepath.Join(dir, ticket)); code != 0 {
					t.Fatalf("gen %s: exit %d\n%s%s", ticket, code, out, errs)
				}
			}
			got, err := os.ReadFile(filepath.Join(dir, methodOracles[0]))
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", filepath.Base(methodOracles[0]))
			if *update {
				os.WriteFile(golden, got, 0o644)
			}
			if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(got, want) {
				t.Errorf("generated oracle differs from %s (%v; rerun with -update after checking the change)", golden, err)
			}
			for _, want := range []string{`vi.spyOn(self["pricing"] as unknown as Record<"quote", Fn>, "quote")`,
				`vi.spyOn(self as unknown as Record<"audit", Fn>, "audit")`, "await self.finalize(...args);"} {
				if !bytes.Contains(got, []byte(want)) {
					t.Errorf("the oracle does not observe the receiver's collaborators as expected: no %s", want)
				}
			}

			runTSC(t, tc, dir)
			// One vitest run: the checkout as it is (copy 0) and each
			// breaking (copy i+1), side by side (runCopies).
			orig, _ := os.ReadFile(filepath.Join(dir, "src/orders/service.ts"))
			copies := []sampleCopy{{files: methodOracles}}
			for _, b := range methodBreakings {
				if !bytes.Contains(orig, []byte(b.old)) {
					t.Fatalf("%s: the sample no longer has the code this breaking edits:\n%s", b.name, b.old)
				}
				c := sampleCopy{edits: []fileEdit{{"src/orders/service.ts", b.old, b.new}}, files: []string{b.oracle}}
				if strings.HasPrefix(b.name, "finalize: guard deleted") {
					c.files = append(c.files, "test/controller.test.ts")
				}
				copies = append(copies, c)
			}
			results := runCopies(t, tc, dir, copies)
			if r := results[0]; r.NumPassedTests != 6 || r.NumFailedTests != 0 {
				t.Fatalf("the oracles do not pass on the correct implementation: %d passed, %d failed\n%s", r.NumPassedTests, r.NumFailedTests, r.Failures())
			}
			for i, b := range methodBreakings {
				t.Run(b.name, func(t *testing.T) {
					if r := only(results[i+1], b.oracle); r.NumFailedTests == 0 {
						t.Fatalf("the oracle stays green on a broken implementation (%d passed)", r.NumPassedTests)
					}
					if strings.HasPrefix(b.name, "finalize: guard deleted") {
						// The blindness: the controller test mocks the service module.
						if rr := only(results[i+1], "test/controller.test.ts"); rr.NumFailedTests != 0 || rr.NumPassedTests == 0 {
							t.Errorf("controller test: %d passed, %d failed: the sample no longer shows the blindness", rr.NumPassedTests, rr.NumFailedTests)
						}
					}
				})
			}
		})
	}
}

// TestMethodsApplyThenProve: with the guards deleted (prove fails on the
// implementation: a row of TestProveCases), apply writes exactly the
// sample's guards (method and arrow field), and prove passes again: after
// apply the checkout is the sample as it is, every file the same (its tree
// hashes the same as before the guards were deleted), on which the three
// tickets prove PASS: TestProveBatchedEqualsIsolated checks that (this test
// proved PROJ-201 and PROJ-203 again).
func TestMethodsApplyThenProve(t *testing.T) {
	dir := CopySample(t, "services", V4(t).NodeModules)
	sample := TreeHash(t, dir)
	service := filepath.Join(dir, "src/orders/service.ts")
	guarded, _ := os.ReadFile(service)
	unguarded := guarded
	for _, b := range []int{0, 4} {
		unguarded = bytes.Replace(unguarded, []byte(methodBreakings[b].old), []byte(methodBreakings[b].new), 1)
	}
	// prove FAILs on this code: TestProveCases' row "methods: guards deleted".
	os.WriteFile(service, unguarded, 0o644)
	for _, ticket := range []string{methodTickets[0], methodTickets[2]} {
		if code, out, errs := Oracle(t, "apply", "--root", dir, filepath.Join(dir, ticket)); code != 0 {
			t.Fatalf("apply %s: exit %d\n%s%s", ticket, code, out, errs)
		}
	}
	if now, _ := os.ReadFile(service); !bytes.Equal(now, guarded) {
		t.Fatalf("apply did not write the guards the sample has:\n%s", now)
	}
	if TreeHash(t, dir) != sample {
		t.Fatal("after apply, the checkout is not the sample as it is (whose tickets prove PASS)")
	}
}
