package gate

import (
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// shards builds the n shards of a gate of total mutants, mutant i killed
// unless i is in survived.
func shards(n, total int, survived ...int) []*Result {
	id := Identity{Repository: "r00t", Base: "b45e", Head: "he4d", Scope: "function", Operators: "ops", Version: "v1", Threshold: 70, Untested: UntestedSkip,
		Mutants: total, Digest: "d1g", N: n}
	var out []*Result
	for k := 1; k <= n; k++ {
		ident := id
		ident.K = k
		r := &Result{Threshold: 70, Identity: &ident, Shard: "x", Mutants: []Mutant{}}
		for i := k - 1; i < total; i += n {
			o := "killed"
			for _, s := range survived {
				if s == i {
					o = "survived"
				}
			}
			r.Mutants = append(r.Mutants, Mutant{ID: "src/a.ts#f#" + string(rune('a'+i)), File: "src/a.ts", Line: i + 1, Decision: lab.Decision{Outcome: lab.Outcome(o)}})
		}
		score(r)
		out = append(out, r)
	}
	return out
}

// named gives parts their documents' names, in order (none past names).
func named(parts []*Result, names ...string) []Part {
	var out []Part
	for _, p := range parts {
		name := ""
		if len(out) < len(names) {
			name = names[len(out)]
		}
		out = append(out, Part{Name: name, Result: p})
	}
	return out
}

// TestMergeWhole: a complete set merges into the single run's decision,
// whatever the order.
func TestMergeWhole(t *testing.T) {
	parts := shards(3, 10, 0, 3, 6) // 70%: shard 1 alone is 25%, the others 100%
	res, err := Merge([]Part{{"c", parts[2]}, {"a", parts[0]}, {"b", parts[1]}})
	if err != nil || res.Verdict != PASS || res.Detected != 7 || res.Total != 10 || len(res.Mutants) != 10 {
		t.Fatalf("%v %+v", err, res)
	}
}

// TestMergeRefuses: one shard alone, the same shard twice, shards of
// another base, repository, scope, version, --untested or mutant list, a document with
// no identity, a cut document: each refused, naming what is wrong.
func TestMergeRefuses(t *testing.T) {
	names := []string{"s1.json", "s2.json", "s3.json"}
	for _, c := range []struct {
		name  string
		parts func() []*Result
		want  string
	}{
		{"one shard alone", func() []*Result { return shards(3, 10)[:1] }, "shard 2/3, 3/3 missing"},
		{"the same shard twice", func() []*Result { p := shards(2, 10); return []*Result{p[0], p[0]} }, "shard 1/2 is given twice (s1.json and s2.json)"},
		{"another base", func() []*Result { p := shards(2, 10); p[1].Identity.Base = "0ther"; return p }, "base commit differ (b45e and 0ther)"},
		{"another repository", func() []*Result { p := shards(2, 10); p[1].Identity.Repository = "x"; return p }, "repository differ"},
		{"another head", func() []*Result { p := shards(2, 10); p[1].Identity.Head = "x"; return p }, "head commit differ"},
		{"another scope", func() []*Result { p := shards(2, 10); p[1].Identity.Scope = "lines"; return p }, "scope differ"},
		{"another version", func() []*Result { p := shards(2, 10); p[1].Identity.Version = "v2"; return p }, "oracle version differ"},
		{"another --untested", func() []*Result { p := shards(2, 10); p[1].Identity.Untested = UntestedFail; return p }, "s1.json and s2.json are not shards of one gate: their --untested differ (skip and fail)"},
		{"another mutant list", func() []*Result { p := shards(2, 10); p[1].Identity.Digest = "x"; return p }, "mutant list differ"},
		{"another N", func() []*Result { return append(shards(2, 10)[:1], shards(3, 10)[1]) }, "shard count N differ"},
		{"no identity", func() []*Result { p := shards(2, 10); p[1].Identity = nil; return p }, "s2.json records no shard identity"},
		{"a cut document", func() []*Result { p := shards(2, 10); p[1].Mutants = p[1].Mutants[1:]; return p }, "the shards hold 9 mutants, their gate has 10"},
		{"overlapping shards", func() []*Result { p := shards(2, 10); p[1].Mutants = append(p[1].Mutants, p[0].Mutants[0]); return p }, "the shards overlap"},
	} {
		_, err := Merge(named(c.parts(), names...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestMergeRedBaseline: a shard whose related test fails before any
// mutant makes the merge FAIL, attribution tests.
func TestMergeRedBaseline(t *testing.T) {
	p := shards(2, 10)
	p[1].Mutants, p[1].Verdict, p[1].Attribution, p[1].Reason = []Mutant{}, FAIL, AttributionTests, "red"
	res, err := Merge(named(p))
	if err != nil || res.Verdict != FAIL || res.Attribution != AttributionTests {
		t.Fatalf("%v %+v", err, res)
	}
}

// TestMergeUnexecuted: the mutants a shard left out because their target
// is executed by no test count toward the whole list; without them the set
// does not add up.
func TestMergeUnexecuted(t *testing.T) {
	parts := shards(2, 10)
	parts[1].Mutants = parts[1].Mutants[:3] // two of shard 2's five belong to an unexecuted target
	parts[1].Unexecuted = 2
	score(parts[1])
	res, err := Merge(named(parts, "a", "b"))
	if err != nil || res.Total != 8 || res.Unexecuted != 2 {
		t.Fatalf("%v %+v", err, res)
	}
	parts[1].Unexecuted = 0
	if _, err := Merge(named(parts, "a", "b")); err == nil || !strings.Contains(err.Error(), "cut or edited") {
		t.Errorf("8 of 10 mutants without the unexecuted count merged: %v", err)
	}
}

// TestMergeUntested: shards of a gate run with --untested fail, each FAIL
// attribution untested for the same untested target, merge into that FAIL,
// not the PASS their mutants score.
func TestMergeUntested(t *testing.T) {
	parts := shards(2, 10)
	for _, p := range parts {
		p.Verdict, p.Attribution, p.Reason = FAIL, AttributionUntested, "src/b.ts#g is executed by no test (--untested fail): no test loads src/b.ts"
	}
	res, err := Merge(named(parts, "a", "b"))
	if err != nil || res.Verdict != FAIL || res.Attribution != AttributionUntested || !strings.Contains(res.Reason, "src/b.ts#g") {
		t.Fatalf("%v %s (%s) %q", err, res.Verdict, res.Attribution, res.Reason)
	}
}
