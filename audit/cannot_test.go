package audit

import (
	"strconv"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/testsuite"
)

// TestCannotMeasure: measured, a function no test entered is blind when
// its candidate test files all ran; when one of them could not run, it is
// cannot-measure (a warning, even when the change touched it), naming the
// test file and its first error; a function a test entered is neither.
func TestCannotMeasure(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"src/a.ts":        "export function ran() { return 1; }\nexport function notRun() { return 2; }\n",
		"src/b.ts":        "export function other() { return 3; }\n",
		"test/a.test.ts":  "import { it } from 'vitest';\nimport { ran, notRun } from '../src/a';\nit('x', () => ran());\n",
		"test/b.test.ts":  "import { it } from 'vitest';\nimport { other } from '../src/b';\nit('x', () => other());\n",
		"test/b2.test.ts": "import { it } from 'vitest';\nimport { other } from '../src/b';\nit('x', () => other());\n",
	})
	p, err := callgraph.NewProgram(root)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	tests := []string{"test/a.test.ts", "test/b.test.ts", "test/b2.test.ts"}
	ts, err := testsuite.Load(p, testsuite.Options{Tests: tests})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		unrunnable map[string]string
		want       []string
	}{
		{"all ran", nil, []string{
			"blind-function src/a.ts:2 notRun: no test executes it (measured)",
			"blind-function src/b.ts:1 other: no test executes it (measured)",
		}},
		{"the tests of b could not run", map[string]string{"test/b2.test.ts": "Transform failed with 1 error: [TSCONFIG_ERROR] Failed to load tsconfig '../lib'", "test/b.test.ts": "boom"}, []string{
			"blind-function src/a.ts:2 notRun: no test executes it (measured)",
			"cannot-measure src/b.ts:1 other: cannot measure whether a test executes it: test/b.test.ts could not run: boom (and 1 more test file(s) that could not run) [test/b.test.ts test/b2.test.ts]",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSuite(p, ts, Options{})
			if err != nil {
				t.Fatal(err)
			}
			s.computeReach()
			s.Executed = map[string][]string{"src/a.ts#ran": {"test/a.test.ts"}, "src/a.ts#notRun": {}, "src/b.ts#other": {}}
			s.Unrunnable = tc.unrunnable
			var got []string
			for _, f := range blindFunctions(s.pass(BlindFunction)) {
				line := f.Rule + " " + f.File + ":" + strconv.Itoa(f.Line) + " " + f.Message
				if f.Rule == blindFunctionRule {
					line, _, _ = strings.Cut(line, "):")
					line += ")"
				}
				if f.Rule == CannotMeasure {
					var rel []string
					for _, r := range f.Related {
						rel = append(rel, r.File)
					}
					line += " [" + strings.Join(rel, " ") + "]"
				}
				if f.Severity != Warning {
					t.Errorf("%s: severity %s", line, f.Severity)
				}
				got = append(got, line)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
