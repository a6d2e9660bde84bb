package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/audit"
	"github.com/oracle-ts/oracle/gate"
	"github.com/oracle-ts/oracle/mutate/lab"
)

func resultsSample() (*gate.Result, []audit.Finding) {
	res := &gate.Result{Verdict: gate.FAIL, Reason: "src/shipping.ts scores 50% (1/2), below the threshold 90", Threshold: 90, Score: 50, Detected: 1, Total: 2,
		Scope: gate.ScopeLines, Changed: map[string][][2]int{"src/shipping.ts": {{3, 4}}},
		Files: []gate.FileScore{{File: "src/shipping.ts", Score: 50, Detected: 1, Total: 2}},
		Targets: []gate.Target{{ID: "src/shipping.ts#ship", File: "src/shipping.ts", Line: 2, Tests: []string{"test/shipping.test.ts"}},
			{ID: "src/shipping.ts#label", File: "src/shipping.ts", Line: 12, Skipped: "no test executes it: reached only through vi.mock(\"../src/shipping\") at test/routes.test.ts:3"}},
		Mutants: []gate.Mutant{
			{ID: "src/shipping.ts#ship#1", Target: "src/shipping.ts#ship", File: "src/shipping.ts", Line: 4, Column: 7, EndLine: 4, EndColumn: 17,
				Operator: "EqualityOperator", Replacement: "total >= 50", Decision: lab.Decision{Outcome: "survived"}, Diff: "@@ -4 +4 @@\n-  if (total > 50) {\n+  if (total >= 50) {\n"},
			{ID: "src/shipping.ts#ship#2", Target: "src/shipping.ts#ship", File: "src/shipping.ts", Line: 4, Column: 7, EndLine: 4, EndColumn: 17,
				Operator: "ConditionalExpression", Replacement: "false", Decision: lab.Decision{Outcome: "killed", KilledBy: "test/shipping.test.ts"}},
			{ID: "src/shipping.ts#ship#3", Target: "src/shipping.ts#ship", File: "src/shipping.ts", Line: 3, Column: 3, EndLine: 3, EndColumn: 18,
				Operator: "StringLiteral", Replacement: "`a|b`", Decision: lab.Decision{Outcome: "no-coverage"}, Diff: "-x\n+y\n"},
		}}
	findings := []audit.Finding{
		{Rule: "blind-function", Severity: audit.Error, File: "src/orders.ts", Line: 8, Message: "finalize: no test executes it (measured)", Related: []audit.Location{{File: "test/routes.test.ts", Line: 3}}},
		{Rule: "mock-drift/shape", Severity: audit.Warning, File: "test/consumer.test.ts", Line: 5, Message: "the mock returns { passed } | where the code returns { success, details: { passed } }"},
		{Rule: "vacuous-test/constant-assertion", Severity: "info", File: "test/a.test.ts", Line: 9, Message: "expect(true).toBe(true) among real assertions"},
		{Rule: "vacuous-test/only", Severity: audit.Error, File: "test/b.test.ts", Line: 2, Message: "a committed .only", Ignored: "kept while the flaky suite is fixed"},
	}
	return res, findings
}

// TestSARIFValid: the gate's survivors, uncovered mutants, untested targets
// and a red suite, and audit's findings (every severity, related places, an
// in-source suppression), are SARIF 2.1.0 logs that validate against the
// schema; each result where it belongs, at the level the verdict gives.
func TestSARIFValid(t *testing.T) {
	validator := sample(t, "node/validate-sarif.mjs")
	needTool(t, sample(t, "node/node_modules/ajv-draft-04/package.json"))
	res, findings := resultsSample()
	red := &gate.Result{Verdict: gate.FAIL, Attribution: gate.AttributionTests, Reason: "test/shipping.test.ts fails on the unmutated code: expected 1 to be 2",
		Tests: map[string][]gate.TestCase{"test/shipping.test.ts": nil}}
	// --untested fail, on files whose paths a uri percent-encodes.
	odd := "src/my shop/prix (€).ts"
	untested := &gate.Result{Verdict: gate.FAIL, Attribution: gate.AttributionUntested, Reason: "src/my shop/prix (€).ts#label is executed by no test (--untested fail)",
		Targets: []gate.Target{{ID: odd + "#label", File: odd, Line: 3, Skipped: "no test executes it: no test file imports it"},
			{ID: odd + "#cut", File: odd, Line: 9, Skipped: "cannot be measured: its candidate test/a.test.ts fails on the code as it is, and the same way at the base"}},
		Mutants: []gate.Mutant{{ID: odd + "#ship#1", Target: odd + "#ship", File: odd, Line: 4, Column: 7, Operator: "EqualityOperator", Replacement: "a", Decision: lab.Decision{Outcome: "survived"}}}}
	dir := t.TempDir()
	var logs []string
	for name, make := range map[string]func() ([]byte, error){
		"gate":     func() ([]byte, error) { return gateSARIF(res) },
		"red":      func() ([]byte, error) { return gateSARIF(red) },
		"untested": func() ([]byte, error) { return gateSARIF(untested) },
		"audit":    func() ([]byte, error) { return auditSARIF(findings) },
		"empty":    func() ([]byte, error) { return auditSARIF(nil) },
	} {
		b, err := make()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".sarif")
		os.WriteFile(p, b, 0o644)
		logs = append(logs, p)
	}
	if out, err := exec.Command("node", append([]string{validator}, logs...)...).CombinedOutput(); err != nil {
		t.Fatalf("SARIF that does not validate: %v\n%s", err, out)
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID, Level string
				Message       struct{ Text string }
				Locations     []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
				Suppressions []struct{ Kind, Justification string }
			}
		}
	}
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name+".sarif"))
		doc.Runs = nil
		if err := json.Unmarshal(b, &doc); err != nil || len(doc.Runs) != 1 {
			t.Fatalf("%s: %v\n%s", name, err, b)
		}
		var rows []string
		for _, r := range doc.Runs[0].Results {
			l := r.Locations[0].PhysicalLocation
			row := r.RuleID + " " + r.Level + " " + l.ArtifactLocation.URI + ":" + itoa(l.Region.StartLine) + ":" + itoa(l.Region.StartColumn)
			if len(r.Suppressions) > 0 {
				row += " suppressed: " + r.Suppressions[0].Justification
			}
			rows = append(rows, row)
		}
		return strings.Join(rows, "\n")
	}
	if got, want := read("gate"), "gate/survived error src/shipping.ts:4:7\ngate/no-coverage error src/shipping.ts:3:3\ngate/untested note src/shipping.ts:12:0"; got != want {
		t.Errorf("gate results:\n%s\nwant:\n%s", got, want)
	}
	if got, want := read("untested"), "gate/survived error src/my%20shop/prix%20%28%E2%82%AC%29.ts:4:7\ngate/untested error src/my%20shop/prix%20%28%E2%82%AC%29.ts:3:0\ngate/untested note src/my%20shop/prix%20%28%E2%82%AC%29.ts:9:0"; got != want {
		t.Errorf("--untested fail:\n%s\nwant:\n%s", got, want)
	}
	if got, want := read("red"), "gate/red-tests error test/shipping.test.ts:1:0"; got != want {
		t.Errorf("a red suite:\n%s\nwant:\n%s", got, want)
	}
	if got, want := read("audit"), "blind-function error src/orders.ts:8:0\nmock-drift/shape warning test/consumer.test.ts:5:0\nvacuous-test/constant-assertion note test/a.test.ts:9:0\nvacuous-test/only error test/b.test.ts:2:0 suppressed: kept while the flaky suite is fixed"; got != want {
		t.Errorf("audit results:\n%s\nwant:\n%s", got, want)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestSummaryMarkdown: the gate's summary has its verdict line, the files'
// scores, every survivor (and uncovered mutant) as a table row with a link
// to its line on GitHub and its diff, and the targets not mutation-tested
// with why; table cells escape what would break the table. audit's lists
// the findings that count, errors first.
func TestSummaryMarkdown(t *testing.T) {
	res, findings := resultsSample()
	t.Setenv("GITHUB_SERVER_URL", "https://github.com")
	t.Setenv("GITHUB_REPOSITORY", "acme/shop")
	t.Setenv("GITHUB_SHA", "abc123")
	md := string(gateSummary(res))
	for _, want := range []string{
		"### oracle gate FAIL 50% (1/2) on 2 changed lines threshold 90\n\nsrc/shipping.ts scores 50% (1/2), below the threshold 90\n",
		"| src/shipping.ts | 50% | 1 | 2 | 0 |\n",
		"#### Survivors (2)\n",
		"| [src/shipping.ts:4:7](https://github.com/acme/shop/blob/abc123/src/shipping.ts#L4) | survived | EqualityOperator `total >= 50` | `src/shipping.ts#ship` |\n",
		"| no-coverage | StringLiteral `` `a\\|b` `` |",
		"<details><summary>src/shipping.ts:4:7 EqualityOperator</summary>\n\n```diff\n@@ -4 +4 @@\n-  if (total > 50) {\n+  if (total >= 50) {\n```\n",
		"#### Not mutation-tested (1)\n\n- [`src/shipping.ts#label`](https://github.com/acme/shop/blob/abc123/src/shipping.ts#L12) (line 12): no test executes it",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the gate's summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "ConditionalExpression") {
		t.Errorf("a killed mutant in the summary:\n%s", md)
	}
	md = string(auditSummary(findings))
	for _, want := range []string{
		"### oracle audit: 1 error(s), 1 warning(s), 1 ignored\n",
		"| error | blind-function | [src/orders.ts:8](https://github.com/acme/shop/blob/abc123/src/orders.ts#L8) | finalize: no test executes it (measured) |\n| warning | mock-drift/shape |",
		`the mock returns { passed } \| where`,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("audit's summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "committed .only") {
		t.Errorf("an ignored finding in the summary:\n%s", md)
	}
	// A path with a space (or a parenthesis) is percent-encoded in the link.
	odd := &gate.Result{Verdict: gate.FAIL, Mutants: []gate.Mutant{{File: "src/my shop/prix (€).ts", Line: 4, Column: 7, Operator: "EqualityOperator", Decision: lab.Decision{Outcome: "survived"}}}}
	if md, want := string(gateSummary(odd)), "[src/my shop/prix (€).ts:4:7](https://github.com/acme/shop/blob/abc123/src/my%20shop/prix%20%28%E2%82%AC%29.ts#L4)"; !strings.Contains(md, want) {
		t.Errorf("the summary's link is not %q:\n%s", want, md)
	}
	t.Setenv("GITHUB_SHA", "")
	if md := string(gateSummary(res)); strings.Contains(md, "](") {
		t.Errorf("links without GitHub's variables:\n%s", md)
	}
}

// TestSummaryCapped: GitHub drops a step summary over 1 MiB: a summary
// that would pass it (thousands of survivors with their diffs, or of
// findings) is cut under it, between rows and blocks (every fence and
// <details> closed), with a closing line that says how many are listed
// and where they all are.
func TestSummaryCapped(t *testing.T) {
	diff := "@@ -4 +4 @@\n-" + strings.Repeat("x", 150) + "\n+" + strings.Repeat("y", 150) + "\n"
	res := &gate.Result{Verdict: gate.FAIL, Threshold: 70, Total: 5000}
	var findings []audit.Finding
	for i := range 5000 {
		res.Mutants = append(res.Mutants, gate.Mutant{File: "src/a.ts", Line: i + 1, Column: 3, Operator: "EqualityOperator", Replacement: "a >= b", Target: "src/a.ts#f", Decision: lab.Decision{Outcome: "survived"}, Diff: diff})
	}
	for i := range 20000 {
		findings = append(findings, audit.Finding{Rule: "blind-function", Severity: audit.Error, File: "src/a.ts", Line: i + 1, Message: strings.Repeat("no test executes it ", 5)})
	}
	for name, md := range map[string]string{"gate": string(gateSummary(res)), "audit": string(auditSummary(findings))} {
		if len(md) >= 1<<20 {
			t.Errorf("%s: a summary of %d bytes, GitHub's limit is %d", name, len(md), 1<<20)
		}
		if !strings.Contains(md, "> **This summary is cut here** (") || !strings.HasSuffix(md, "the SARIF log (`--sarif`), the HTML page (`--html`) and `--json` list them all.\n") {
			t.Errorf("%s: no closing line:\n%s", name, md[max(0, len(md)-400):])
		}
		if strings.Count(md, "```")%2 != 0 || strings.Count(md, "<details>") != strings.Count(md, "</details>") {
			t.Errorf("%s: cut inside a block:\n%s", name, md[max(0, len(md)-400):])
		}
	}
	if md := string(gateSummary(res)); !regexp.MustCompile(`\(\d+ of 5000 survivors in the table, \d+ with their diff\)`).MatchString(md) {
		t.Errorf("the gate's closing line does not count the survivors:\n%s", md[len(md)-400:])
	}
	if small := string(gateSummary(&gate.Result{Verdict: gate.PASS, Threshold: 70})); strings.Contains(small, "cut here") {
		t.Errorf("a small summary cut:\n%s", small)
	}
}
