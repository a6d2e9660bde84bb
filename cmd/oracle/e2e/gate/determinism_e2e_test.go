package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// TestSameInputsSameBytes: every verb, run twice on the same inputs, prints
// the same bytes (SPEC "Output and exit codes"), as --json and as text: this
// run's measures (seconds, phase timings, mutants from the cache) appear
// only with --timings. The gate's second run is served from the cache, so a
// document that counted it would differ. Progress goes to stderr as plain
// lines where it is no terminal. gate and audit write --summary and --sarif
// where they are told, the same bytes each time. (With --timings the
// measures are there: TestProveConcurrencyDeterministic for prove,
// TestGateEndToEnd's cached count and TestProveOrdersBatched's timings for
// gate, TestAuditPipelineSample for audit.)
func TestSameInputsSameBytes(t *testing.T) {
	nm := V4(t).NodeModules
	pipeline := CopySample(t, "pipeline", nm)
	sampleTimeouts(t, pipeline)
	manifest := filepath.Join(pipeline, "tickets/PROJ-142.yaml")

	g := Repo{T: t, Dir: t.TempDir()}
	if err := os.Symlink(nm, filepath.Join(g.Dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	g.Git("init", "-q")
	g.Commit("base", map[string]string{
		".gitignore":         "node_modules\n.oracle\n",
		"package.json":       `{"name":"shop","private":true,"type":"module"}`,
		"src/price.ts":       "export function discount(total: number): number {\n  return total;\n}\n",
		"test/price.test.ts": "import { it, expect } from 'vitest';\nimport { discount } from '../src/price';\nit('discounts', () => { expect(discount(200)).toBe(180); expect(discount(50)).toBe(50); });\n",
	})
	g.Commit("change", map[string]string{
		"src/price.ts": "export function discount(total: number): number {\n  if (total > 100) {\n    return total * 0.9;\n  }\n  return total;\n}\n",
	})

	verbs := []struct {
		name string
		args []string
	}{
		{"graph", []string{"graph", "--root", pipeline}},
		{"gen", []string{"gen", "--dry-run", "--root", pipeline, manifest}},
		{"prove", []string{"prove", "--root", pipeline, manifest}},
		{"gate", []string{"gate", "--root", g.Dir}},
		{"audit", []string{"audit", "--root", pipeline}},
	}
	written := t.TempDir()
	for _, v := range verbs {
		for _, format := range []string{"text", "json"} {
			args := v.args
			if format == "json" {
				args = append([]string{v.args[0], "--json"}, v.args[1:]...)
			}
			// gate and audit as text write --summary and --sarif too.
			summary, sarif := filepath.Join(written, v.name+".md"), filepath.Join(written, v.name+".sarif")
			files := format == "text" && (v.name == "gate" || v.name == "audit")
			if files {
				args = append([]string{v.args[0], "--summary", summary, "--sarif", sarif}, v.args[1:]...)
			}
			code1, out1, errs1 := Oracle(t, args...)
			md1, _ := os.ReadFile(summary)
			sarif1, _ := os.ReadFile(sarif)
			code2, out2, errs2 := Oracle(t, args...)
			if code1 != code2 || out1 != out2 {
				t.Errorf("%s (%s): two runs differ: exit %d / %d\n%s\n---\n%s\n%s%s", v.name, format, code1, code2, out1, out2, errs1, errs2)
			}
			if files {
				md2, _ := os.ReadFile(summary)
				sarif2, _ := os.ReadFile(sarif)
				if code1 > 1 || !strings.HasPrefix(string(md1), "### oracle "+v.name) || !strings.Contains(string(sarif1), `"version": "2.1.0"`) {
					t.Errorf("%s --summary --sarif: exit %d\n%s\n%s\n%s", v.name, code1, md1, sarif1, errs1)
				}
				if string(md1) != string(md2) || string(sarif1) != string(sarif2) {
					t.Errorf("%s: two runs wrote different --summary or --sarif files:\n%s\n---\n%s\n%s\n---\n%s", v.name, md1, md2, sarif1, sarif2)
				}
			}
			// stderr is no terminal here (as in CI): progress is plain lines
			// (the first gate runs its mutants; later ones take the cache).
			if v.name == "gate" && format == "text" && (!strings.Contains(errs1, "oracle gate: reading the change") || !strings.Contains(errs1, "oracle gate: mutants ")) {
				t.Errorf("gate (%s): no plain progress lines on stderr:\n%s", format, errs1)
			}
			if out1 == "" {
				t.Errorf("%s (%s): no output (exit %d)\n%s", v.name, format, code1, errs1)
			}
			if format == "json" && strings.Contains(out1, `"timings"`) {
				t.Errorf("%s --json without --timings has timings:\n%s", v.name, out1)
			}
		}
	}
}

// TestGateCachedSameBytes: a gate served from the cache writes the bytes
// of the fresh gate, in every document (--json, --report, --sarif,
// --summary, --html): a mutant no test reached keeps its empty coveredBy,
// one that ran alone its aloneWhy. The cached count is of the mutants in
// the result: not those of a target no test executes (fee, whose test
// file loads it and never calls it), which the cache holds too.
func TestGateCachedSameBytes(t *testing.T) {
	g := NewGateRepo(t, map[string]string{
		".gitignore":   "node_modules\n.oracle\n",
		"src/price.ts": "export function discount(total: number): number {\n  return total;\n}\n\nexport function fee(total: number): number {\n  return 0;\n}\n",
		"test/price.test.ts": "import { it, expect } from 'vitest';\nimport { discount } from '../src/price';\n" +
			"it('leaves small totals', () => { expect(discount(50)).toBe(50); });\n",
	})
	g.Commit("change", map[string]string{
		"src/price.ts": "export function discount(total: number): number {\n  if (total > 100) {\n    return total - 10;\n  }\n  return total;\n}\n\n" +
			"export function fee(total: number): number {\n  return total > 50 ? 5 : 0;\n}\n",
	})
	out := t.TempDir()
	docs := []string{"report.json", "gate.sarif", "summary.md", "gate.html"}
	run := func() (string, string, map[string]string) {
		t.Helper()
		code, stdout, stderr := Oracle(t, "gate", "--json", "--isolate", "--root", g.Dir,
			"--report", filepath.Join(out, docs[0]), "--sarif", filepath.Join(out, docs[1]), "--summary", filepath.Join(out, docs[2]), "--html", filepath.Join(out, docs[3]))
		if code != ExitFail {
			t.Fatalf("gate: exit %d, want 1 (a FAIL: the no-coverage mutants)\n%s\n%s", code, stdout, stderr)
		}
		written := map[string]string{}
		for _, d := range docs {
			b, err := os.ReadFile(filepath.Join(out, d))
			if err != nil {
				t.Fatal(err)
			}
			written[d] = string(b)
		}
		return stdout, stderr, written
	}
	fresh, _, freshDocs := run()
	for _, want := range []string{`"outcome": "no-coverage"`, `"coveredBy": []`, `"aloneWhy": "isolate"`, `src/price.ts#fee`} {
		if !strings.Contains(fresh, want) {
			t.Errorf("the fresh gate has no %s:\n%s", want, fresh)
		}
	}
	cached, errs, cachedDocs := run()
	if cached != fresh {
		t.Errorf("--json from the cache differs from the fresh gate's:\n%s\n---\n%s", fresh, cached)
	}
	for _, d := range docs {
		if cachedDocs[d] != freshDocs[d] {
			t.Errorf("%s from the cache differs from the fresh gate's:\n%s\n---\n%s", d, freshDocs[d], cachedDocs[d])
		}
	}
	n := strings.Count(cached, `"mutatorName"`)
	if want := fmt.Sprintf("oracle gate: %d of %d mutants from the cache", n, n); !strings.Contains(errs, want) {
		t.Errorf("stderr does not say %q:\n%s", want, errs)
	}
}

// sampleTimeouts gives the tests and hooks of a copy of testdata/pipeline
// 120 s, over vitest's 5 s and 10 s: opening the sample's database (sql.js's
// WebAssembly, in a beforeEach) takes milliseconds on an idle machine and
// took longer than 10 s on a loaded one (2 cores at load 30), so that one of
// two audits saw a hook time out and the two differed. Whether two runs
// print the same bytes must not depend on the machine's load (only in the
// test's copy: the lab's tests rely on vitest's own time-outs of the
// sample).
func sampleTimeouts(t *testing.T, dir string) {
	t.Helper()
	cfg := filepath.Join(dir, "vitest.config.ts")
	b, err := os.ReadFile(cfg)
	const include = `include: ["test/**/*.test.ts", "src/**/*.test.ts"],`
	if err != nil || !strings.Contains(string(b), include) {
		t.Fatalf("%s has no %s: %v", cfg, include, err)
	}
	b = []byte(strings.Replace(string(b), include, include+" testTimeout: 120_000, hookTimeout: 120_000,", 1))
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
