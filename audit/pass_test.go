package audit

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// withRules runs do with Rules set to rules (the driver's registry).
func withRules(t *testing.T, rules []*Rule, do func()) {
	t.Helper()
	saved := Rules
	defer func() { Rules = saved }()
	Rules = rules
	do()
}

// TestPassHoldsWhatTheRuleDeclared: a rule's Pass carries the facts its
// rule declared and nothing else (go/analysis's Pass). At compile time: no
// field of a Pass, nor of a fact it carries, is the Suite, so a rule cannot
// name what it did not declare through it. Through the driver: for every
// combination of facts, a fact declared is there and one not declared is
// nil.
func TestPassHoldsWhatTheRuleDeclared(t *testing.T) {
	suite := reflect.TypeOf(Suite{})
	var reach func(path string, typ reflect.Type, seen map[reflect.Type]bool)
	reach = func(path string, typ reflect.Type, seen map[reflect.Type]bool) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ == suite {
			t.Errorf("%s reaches the whole Suite", path)
		}
		if typ.Kind() != reflect.Struct || typ.PkgPath() != suite.PkgPath() || seen[typ] {
			return
		}
		seen[typ] = true
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			reach(path+"."+f.Name, f.Type, seen)
		}
	}
	reach("Pass", reflect.TypeOf(Pass{}), map[reflect.Type]bool{})

	root, _ := filepath.Abs(filepath.Join("testdata", "rules", "mock-drift"))
	tests := []string{"test/api.test.ts", "test/users.test.ts"}
	all := []Fact{Reach, Executed, TestFiles}
	for mask := 0; mask < 1<<len(all); mask++ {
		declared := map[Fact]bool{}
		var req []Fact
		for i, f := range all {
			if mask&(1<<i) != 0 {
				declared[f] = true
				req = append(req, f)
			}
		}
		var got *Pass
		probe := &Rule{Name: "probe", Requires: req, Run: func(p *Pass) error { got = p; return nil }}
		withRules(t, []*Rule{probe}, func() {
			if _, err := Audit(context.Background(), root, Options{Tests: tests}); err != nil {
				t.Fatal(err)
			}
		})
		if got == nil || got.Rule != probe || got.Program == nil || len(got.Tests) != 2 || len(got.Production) == 0 {
			t.Fatalf("%v: the pass lacks what every rule reads: %+v", req, got)
		}
		has := map[Fact]bool{Reach: got.Reach != nil, Executed: got.Executed != nil, TestFiles: got.TestFiles != nil}
		for _, f := range all {
			if has[f] != declared[f] {
				t.Errorf("requires %v: the pass has %s = %v", req, f, has[f])
			}
		}
		if got.Reach != nil && (got.Reach.Suite == nil || len(got.Reach.tests) != 2) {
			t.Errorf("requires %v: the walk is empty", req)
		}
		if got.Executed != nil && got.Executed.Entered != nil {
			t.Errorf("requires %v: a static audit measured %v", req, got.Executed.Entered)
		}
		if got.TestFiles != nil {
			n := 0
			got.TestFiles.Each(func(test string, in *TestInput) {
				n++
				if in.Syntax == nil || in.Structure == nil || in.File == nil {
					t.Errorf("requires %v: %s is not parsed: %+v", req, test, in)
				}
			})
			if n != 2 {
				t.Errorf("requires %v: %d test files, want 2", req, n)
			}
		}
	}
}

// TestTestFilesParsedOnce: the test files a rule reads are the parse
// testsuite made when it checked them (the same syntax tree), not a
// second parse.
func TestTestFilesParsedOnce(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "rules", "mock-drift"))
	seen := 0
	probe := &Rule{Name: "probe", Requires: []Fact{Reach, TestFiles}, Run: func(p *Pass) error {
		p.TestFiles.Each(func(test string, in *TestInput) {
			seen++
			tf := p.Reach.Suite.File(test)
			if tf == nil || tf.Syntax == nil || in.Syntax != tf.Syntax || in.File != tf.File {
				t.Errorf("%s: the rule's parse is not testsuite's", test)
			}
		})
		return nil
	}}
	withRules(t, []*Rule{probe}, func() {
		if _, err := Audit(context.Background(), root, Options{Tests: []string{"test/api.test.ts", "test/users.test.ts"}}); err != nil {
			t.Fatal(err)
		}
	})
	if seen != 2 {
		t.Errorf("%d test files, want 2", seen)
	}
}

// TestRuleErrors: a rule may fail; the audit then fails with every failing
// rule's error, each naming its rule (exit 3 in cmd), and reports no
// findings.
func TestRuleErrors(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "rules", "mock-drift"))
	boom := &Rule{Name: "boom", Run: func(p *Pass) error { return errors.New("cannot read src/x.ts") }}
	bang := &Rule{Name: "bang", Run: func(p *Pass) error { return errors.New("bad tree") }}
	withRules(t, []*Rule{MockDrift, boom, bang}, func() {
		rep, err := Audit(context.Background(), root, Options{Tests: []string{"test/api.test.ts"}})
		var re *RuleError
		if rep != nil || !errors.As(err, &re) || re.Rule != "boom" {
			t.Fatalf("report %v, error %v", rep, err)
		}
		for _, want := range []string{"rule boom: cannot read src/x.ts", "rule bang: bad tree"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	})
}
