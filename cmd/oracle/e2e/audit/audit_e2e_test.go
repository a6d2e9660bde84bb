package audit

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

type auditResult struct {
	Schema  string `json:"schema"`
	Timings struct {
		Suite, Measure, Rules float64
		Runs                  int
	} `json:"timings"`
	Findings []struct {
		Rule, Severity, File, Message string
		Line                          int
		Related                       []struct {
			File string
			Line int
		}
	} `json:"findings"`
}

func auditJSON(t *testing.T, dir string) auditResult {
	t.Helper()
	code, out, errs := Oracle(t, "audit", "--json", "--timings", "--root", dir)
	var r auditResult
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || r.Schema != "oracle.audit/v1" {
		t.Fatalf("audit --json: exit %d %v\n%s\n%s", code, err, out, errs)
	}
	return r
}

// TestAuditFindsTheBlindMethodUntilItsOracle: on the class sample, the
// controller test mocks the service module, so OrderService.finalize is a
// blind function (the vi.mock line named) until oracle gen writes its
// oracle, which runs it; the test files come from the repository's own
// vitest (vitest list).
func TestAuditFindsTheBlindMethodUntilItsOracle(t *testing.T) {
	dir := CopySample(t, "services", V4(t).NodeModules)
	tmp := t.TempDir() // audit asks vitest: nothing of it may stay in $TMPDIR
	t.Setenv("TMPDIR", tmp)
	defer func() {
		if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
			t.Errorf("left in $TMPDIR by audit: %d entries (%s...)", len(entries), entries[0].Name())
		}
	}()
	blind := func(r auditResult) (string, bool) {
		for _, f := range r.Findings {
			if f.Rule == "blind-function" && f.File == "src/orders/service.ts" && strings.HasPrefix(f.Message, "OrderService.finalize:") {
				return f.Message, len(f.Related) == 1 && f.Related[0].File == "test/controller.test.ts" && f.Related[0].Line == 9
			}
		}
		return "", false
	}
	msg, ok := blind(auditJSON(t, dir))
	if !ok {
		t.Fatalf("OrderService.finalize is not reported blind with the controller test's vi.mock (got %q)", msg)
	}
	// Text output: grouped by rule, a closing line; warnings only: exit 0.
	code, out, _ := Oracle(t, "audit", "--root", dir)
	if code != 0 || !strings.HasPrefix(out, "blind-function (") || !strings.Contains(out, `OrderService.finalize: no test executes it (measured): reached only through vi.mock("../src/orders/service") at test/controller.test.ts:9`) || !strings.Contains(out, "\nAUDIT 0 error(s), ") {
		t.Errorf("text output: exit %d\n%s", code, out)
	}
	if code, out, errs := Oracle(t, "gen", "--root", dir, filepath.Join(dir, "tickets/PROJ-201.yaml")); code != 0 {
		t.Fatalf("gen: exit %d\n%s%s", code, out, errs)
	}
	if msg, _ := blind(auditJSON(t, dir)); msg != "" {
		t.Errorf("still blind after its oracle: %s", msg)
	}
}

// TestAuditPipelineSample: on the seed sample, processItem is NOT blind:
// besides the route test that stubs its module, test/repo.test.ts imports it
// dynamically and runs it against the real database. The route test's
// blindness shows on what only it reaches (drainOutbox).
func TestAuditPipelineSample(t *testing.T) {
	dir := CopySample(t, "pipeline", V4(t).NodeModules)
	r := auditJSON(t, dir)
	var drain bool
	for _, f := range r.Findings {
		if strings.HasPrefix(f.Message, "processItem:") {
			t.Errorf("processItem reported: %s", f.Message)
		}
		if strings.HasPrefix(f.Message, "drainOutbox:") && strings.Contains(f.Message, "test/routes.test.ts") {
			drain = true
		}
	}
	if !drain {
		t.Errorf("drainOutbox (reached only through the route test's mock) is not reported: %+v", r.Findings)
	}
	if r.Timings.Runs != 1 || r.Timings.Measure <= 0 || r.Timings.Suite <= 0 {
		t.Errorf("timings by phase (one vitest run of all the candidates expected): %+v", r.Timings)
	}
}

// TestAuditBase: with --base, a blind function the change touched is an
// error (exit 1); the functions it did not touch are not measured nor
// reported; with --static as well, they stay warnings.
func TestAuditBase(t *testing.T) {
	dir := CopySample(t, "services", V4(t).NodeModules)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules\n"), 0o644)
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "base")
	svc := filepath.Join(dir, "src/orders/service.ts")
	b, _ := os.ReadFile(svc)
	os.WriteFile(svc, []byte(strings.Replace(string(b), "const total = sumLines(order.lines);", "const total = sumLines(order.lines) + 0;", 1)), 0o644)
	git("commit", "-qam", "change finalize")
	code, out, errs := Oracle(t, "audit", "--json", "--base", "HEAD~1", "--root", dir)
	var r struct {
		Findings []struct{ Rule, Severity, Message string }
	}
	json.Unmarshal([]byte(out), &r)
	sev := map[string]string{}
	for _, f := range r.Findings {
		name, _, _ := strings.Cut(f.Message, ":")
		sev[name] = f.Severity
	}
	if code != ExitFail || sev["OrderService.finalize"] != "error" || sev["OrderService.cancel"] != "" {
		t.Fatalf("exit %d, severities %v\n%s", code, sev, errs)
	}
	code, out, errs = Oracle(t, "audit", "--json", "--static", "--base", "HEAD~1", "--root", dir)
	r.Findings = nil
	json.Unmarshal([]byte(out), &r)
	sev = map[string]string{}
	for _, f := range r.Findings {
		name, _, _ := strings.Cut(f.Message, ":")
		sev[name] = f.Severity
	}
	if code != ExitFail || sev["OrderService.finalize"] != "error" || sev["OrderService.cancel"] != "warning" || !strings.Contains(out, `"static": true`) {
		t.Fatalf("--static: exit %d, severities %v\n%s", code, sev, errs)
	}
}

// TestAuditInputErrors (issue 20 items 10-11): a misspelt --enable, a PATH
// that is not there or outside the repository, a bad flag: exit 2, the
// message on stderr, and with --json one document with errors[] (none of
// these needs vitest: they stop before it is asked).
func TestAuditInputErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"x"}`), 0o644)
	outside := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string // in the stderr message and the JSON error
	}{
		{"misspelt --enable", []string{"--enable", "vacuous-test/no-assertions"}, "vacuous-test/no-assertion (on by default: blind-function, vacuous-test, mock-drift)"},
		{"a rule on by default", []string{"--enable", "mock-drift"}, `--enable "mock-drift": not a rule that is off by default`},
		{"a PATH not there", []string{filepath.Join(dir, "nope")}, "no such file or directory in the repository"},
		{"a PATH outside", []string{outside}, "is outside the repository"},
		{"a flag not there", []string{"--enabel", "x"}, "invalid command line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := Oracle(t, append([]string{"audit", "--root", dir}, tc.args...)...)
			if code != ExitUsage || out != "" || (!strings.Contains(errs, tc.want) && tc.want != "invalid command line") {
				t.Errorf("exit %d (want 2), stdout %q, stderr %q", code, out, errs)
			}
			code, out, _ = Oracle(t, append([]string{"audit", "--json", "--root", dir}, tc.args...)...)
			var doc struct {
				Schema string
				Errors []struct{ Message string }
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil || code != ExitUsage || doc.Schema != "oracle.audit/v1" ||
				len(doc.Errors) != 1 || !strings.Contains(doc.Errors[0].Message, tc.want) {
				t.Errorf("--json: exit %d, %v, %s", code, err, out)
			}
		})
	}
}

// TestAuditJSONOnError (item 11): an audit that cannot run (vitest not
// installed: exit 3) prints its JSON document with errors[] too.
func TestAuditJSONOnError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"x"}`), 0o644)
	code, out, errs := Oracle(t, "audit", "--json", "--root", dir)
	var doc struct {
		Schema string
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != ExitError || doc.Schema != "oracle.audit/v1" ||
		len(doc.Errors) != 1 || !strings.Contains(doc.Errors[0].Message, "vitest is not installed") || !strings.Contains(errs, "vitest is not installed") {
		t.Errorf("exit %d, %v, stdout %s, stderr %s", code, err, out, errs)
	}
}

// TestAuditCannotAudit (item 10): a test file with a syntax error and one
// written for jest are reported ("cannot audit: ...") and counted, and the
// jest file's jest.mock stubs nothing.
func TestAuditCannotAudit(t *testing.T) {
	dir := CopySample(t, "services", V4(t).NodeModules)
	os.WriteFile(filepath.Join(dir, "test/broken.test.ts"), []byte("import { it } from 'vitest';\nit('x', () => {\n  const = 1;\n});\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "test/jesty.test.ts"), []byte("jest.mock('../src/orders/service');\ntest('x', () => { expect(1 + 1).toBe(2); });\n"), 0o644)
	r := auditJSON(t, dir)
	got := map[string]string{}
	for _, f := range r.Findings {
		if f.Rule == "cannot-audit" {
			got[f.File] = f.Message
		}
	}
	if !strings.HasPrefix(got["test/broken.test.ts"], "cannot audit: syntax error: line 3:") || !strings.HasPrefix(got["test/jesty.test.ts"], "cannot audit: written for jest") || len(got) != 2 {
		t.Errorf("cannot-audit findings: %v", got)
	}
	_, out, _ := Oracle(t, "audit", "--root", dir)
	if !strings.Contains(out, ", 2 test file(s) cannot be audited\n") {
		t.Errorf("summary does not count them:\n%s", out)
	}
}
