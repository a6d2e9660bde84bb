package gate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSameInputsSameBytes: every verb, run twice on the same inputs, prints
// the same bytes (SPEC "Output and exit codes"), as --json and as text: this
// run's measures (seconds, phase timings, mutants from the cache) appear
// only with --timings. The gate's second run is served from the cache, so a
// document that counted it would differ. With --timings the measures are
// there. Progress goes to stderr as plain lines where it is no terminal.
func TestSameInputsSameBytes(t *testing.T) {
	nm := v4(t).nodeModules
	pipeline := copySample(t, "pipeline", nm)
	manifest := filepath.Join(pipeline, "tickets/PROJ-142.yaml")

	g := gitRepo{t, t.TempDir()}
	if err := os.Symlink(nm, filepath.Join(g.dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	g.git("init", "-q")
	g.commit("base", map[string]string{
		".gitignore":         "node_modules\n.oracle\n",
		"package.json":       `{"name":"shop","private":true,"type":"module"}`,
		"src/price.ts":       "export function discount(total: number): number {\n  return total;\n}\n",
		"test/price.test.ts": "import { it, expect } from 'vitest';\nimport { discount } from '../src/price';\nit('discounts', () => { expect(discount(200)).toBe(180); expect(discount(50)).toBe(50); });\n",
	})
	g.commit("change", map[string]string{
		"src/price.ts": "export function discount(total: number): number {\n  if (total > 100) {\n    return total * 0.9;\n  }\n  return total;\n}\n",
	})

	verbs := []struct {
		name string
		args []string
	}{
		{"graph", []string{"graph", "--root", pipeline}},
		{"gen", []string{"gen", "--dry-run", "--root", pipeline, manifest}},
		{"prove", []string{"prove", "--root", pipeline, manifest}},
		{"gate", []string{"gate", "--root", g.dir}},
		{"audit", []string{"audit", "--root", pipeline}},
	}
	for _, v := range verbs {
		for _, format := range []string{"text", "json"} {
			args := v.args
			if format == "json" {
				args = append([]string{v.args[0], "--json"}, v.args[1:]...)
			}
			code1, out1, errs1 := oracle(t, args...)
			code2, out2, errs2 := oracle(t, args...)
			if code1 != code2 || out1 != out2 {
				t.Errorf("%s (%s): two runs differ: exit %d / %d\n%s\n---\n%s\n%s%s", v.name, format, code1, code2, out1, out2, errs1, errs2)
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
	// --summary and --sarif write where they are told.
	out := t.TempDir()
	for _, v := range []string{"gate", "audit"} {
		args := []string{v, "--summary", filepath.Join(out, v+".md"), "--sarif", filepath.Join(out, v+".sarif"), "--root", g.dir}
		if v == "audit" {
			args[len(args)-1] = pipeline
		}
		code, _, errs := oracle(t, args...)
		md, _ := os.ReadFile(filepath.Join(out, v+".md"))
		sarif, _ := os.ReadFile(filepath.Join(out, v+".sarif"))
		if code > 1 || !strings.HasPrefix(string(md), "### oracle "+v) || !strings.Contains(string(sarif), `"version": "2.1.0"`) {
			t.Errorf("%s --summary --sarif: exit %d\n%s\n%s\n%s", v, code, md, sarif, errs)
		}
	}
	// With --timings, the measures are there.
	for _, v := range verbs[2:] {
		args := append([]string{v.args[0], "--json", "--timings"}, v.args[1:]...)
		_, out, errs := oracle(t, args...)
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil || doc["timings"] == nil {
			t.Errorf("%s --json --timings: no timings (%v)\n%s\n%s", v.name, err, out, errs)
		}
		if v.name == "gate" && doc["cached"] == nil {
			t.Errorf("gate --json --timings: no cached count\n%s", out)
		}
	}
}
