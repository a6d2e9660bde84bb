package audit

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// wantRE is a want comment (analysistest's): the finding expected on its
// line, a substring of "rule: message".
var wantRE = regexp.MustCompile(`// want "([^"]+)"`)

// TestRules runs each rule, in the manner of go/analysis's analysistest,
// on the small repository testdata/rules/RULE: every finding must be
// expected by a `// want "…"` comment on its line, and every want comment
// must be met by a finding there. The test files are the *.test.ts files.
func TestRules(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("testdata", "rules"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		rule := d.Name()
		t.Run(rule, func(t *testing.T) {
			root, _ := filepath.Abs(filepath.Join("testdata", "rules", rule))
			wants := map[string][]string{} // "file:line" → expected substrings
			var tests []string
			filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
				if err != nil || e.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(root, p)
				rel = filepath.ToSlash(rel)
				if strings.HasSuffix(rel, ".test.ts") {
					tests = append(tests, rel)
				}
				b, _ := os.ReadFile(p)
				for i, line := range strings.Split(string(b), "\n") {
					for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
						at := fmt.Sprintf("%s:%d", rel, i+1)
						wants[at] = append(wants[at], m[1])
					}
				}
				return nil
			})
			rep, err := Audit(context.Background(), root, Options{Tests: tests, Rules: []string{rule}})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Findings {
				at := fmt.Sprintf("%s:%d", f.File, f.Line)
				text := f.Rule + ": " + f.Message
				matched := -1
				for i, w := range wants[at] {
					if strings.Contains(text, w) {
						matched = i
						break
					}
				}
				if matched < 0 {
					t.Errorf("%s: unexpected finding %s", at, text)
					continue
				}
				wants[at] = append(wants[at][:matched], wants[at][matched+1:]...)
			}
			for at, ws := range wants {
				for _, w := range ws {
					t.Errorf("%s: no finding matching %q", at, w)
				}
			}
		})
	}
}

// TestDriverComputesWhatRulesRequire: the static walk (Reach) runs only
// when an enabled rule requires it; an unknown rule name is an error
// naming the rules.
func TestDriverComputesWhatRulesRequire(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "rules", "mock-drift"))
	before := reachComputed
	files := &Rule{Name: "files", Requires: []Fact{TestFiles}, Run: func(*Pass) error { return nil }}
	withRules(t, append([]*Rule{files}, Rules...), func() {
		if _, err := Audit(context.Background(), root, Options{Tests: []string{"test/api.test.ts"}, Rules: []string{"files"}}); err != nil {
			t.Fatal(err)
		}
	})
	if reachComputed != before {
		t.Error("a rule requiring only the test files made the driver walk what each test reaches")
	}
	if _, err := Audit(context.Background(), root, Options{Tests: []string{"test/api.test.ts"}, Rules: []string{"blind-function"}}); err != nil || reachComputed != before+1 {
		t.Errorf("blind-function did not get the walk it requires: %v", err)
	}
	if _, err := Audit(context.Background(), root, Options{Tests: []string{"test/api.test.ts"}, Rules: []string{"blind-functions"}}); err == nil || !strings.Contains(err.Error(), "blind-function, vacuous-test, mock-drift") {
		t.Errorf("an unknown rule: %v", err)
	}
}
