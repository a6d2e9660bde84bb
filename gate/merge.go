package gate

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// Part is one shard's result given to Merge, and the name of its document
// (for the errors; "": "shard document N", its place in the set).
type Part struct {
	Name   string
	Result *Result
}

// Merge joins the results of the shards of one gate (`oracle gate merge`)
// into one decision: every mutant once, scored and judged as one run would.
// It refuses (an error: the caller's exit 2) a set that is not one gate's,
// whole: a document without a shard identity, shards whose identities
// differ (repository, base, head, scope, operators, version, threshold,
// --untested, mutant list), a shard given twice, a shard missing, or mutants that do
// not add up.
func Merge(parts []Part) (*Result, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	name := func(i int) string { return cmp.Or(parts[i].Name, "shard document "+strconv.Itoa(i+1)) }
	ref, err := wholeSet(parts, name)
	if err != nil {
		return nil, err
	}
	first := parts[0].Result
	out := &Result{Threshold: ref.Threshold, Files: []FileScore{}, Targets: first.Targets, Mutants: []Mutant{},
		Change: first.Change, Scope: first.Scope, Changed: first.Changed}
	merged := *ref
	merged.K = 0
	out.Identity = &merged
	seen := map[string]string{}
	stopped := false // a shard stopped before its mutants (a red baseline, an error)
	for i, part := range parts {
		p := part.Result
		switch {
		case p.Verdict == ERROR:
			stopped = true
			if out.Verdict != ERROR {
				out.Verdict, out.Reason, out.Attribution = ERROR, p.Reason, p.Attribution
			}
		case p.Attribution == AttributionTests:
			stopped = true
			if out.Verdict == "" {
				out.Verdict, out.Reason, out.Attribution = FAIL, p.Reason, p.Attribution
			}
		}
		for _, m := range p.Mutants {
			if prev, ok := seen[m.ID]; ok {
				return nil, fmt.Errorf("mutant %s is in %s and in %s: the shards overlap", m.ID, prev, name(i))
			}
			seen[m.ID] = name(i)
			out.Mutants = append(out.Mutants, m)
		}
		for file, ts := range p.Tests { // every shard ran the same baselines
			if out.Tests == nil {
				out.Tests = map[string][]TestCase{}
			}
			if _, ok := out.Tests[file]; !ok {
				out.Tests[file] = ts
			}
		}
		out.Cached += p.Cached
		out.Unexecuted += p.Unexecuted
		out.Seconds = max(out.Seconds, p.Seconds)
	}
	if out.Verdict != "" {
		return out, nil
	}
	if !stopped && len(out.Mutants)+out.Unexecuted != ref.Mutants {
		return nil, fmt.Errorf("the shards hold %d mutants, their gate has %d: a shard document was cut or edited", len(out.Mutants)+out.Unexecuted, ref.Mutants)
	}
	defer func() { // --untested fail: every shard says so alike
		for _, part := range parts {
			if p := part.Result; p.Attribution == AttributionUntested && (out.Verdict == PASS || out.Verdict == SKIP) {
				out.Verdict, out.Reason, out.Attribution = FAIL, p.Reason, p.Attribution
			}
		}
	}()
	if len(out.Mutants) == 0 { // no mutant in the whole gate: every shard says why alike
		out.Verdict, out.Reason = first.Verdict, first.Reason
		return out, nil
	}
	score(out)
	if out.Total == 0 {
		out.Verdict, out.Reason = SKIP, "no mutant could be built on what the change touched"
		if reason := skippedReason(out.Targets); reason != "" {
			out.Reason = reason
		}
	}
	return out, nil
}

// identityDiff names the first field (but K) in which a and b differ, with
// both values; "" when they agree.
func identityDiff(a, b *Identity) (field, va, vb string) {
	short := func(s string) string {
		if s == "" {
			return "none"
		}
		if len(s) > 12 {
			return s[:12]
		}
		return s
	}
	for _, f := range []struct{ name, a, b string }{
		{"repository", short(a.Repository), short(b.Repository)},
		{"base commit", short(a.Base), short(b.Base)},
		{"head commit", short(a.Head), short(b.Head)},
		{"working tree (--worktree)", strconv.FormatBool(a.Worktree), strconv.FormatBool(b.Worktree)},
		{"--files list", short(a.Files), short(b.Files)},
		{"scope", a.Scope, b.Scope},
		{"operators", short(a.Operators), short(b.Operators)},
		{"oracle version", a.Version, b.Version},
		{"threshold", strconv.FormatFloat(a.Threshold, 'g', -1, 64), strconv.FormatFloat(b.Threshold, 'g', -1, 64)},
		{"--untested", short(a.Untested), short(b.Untested)},
		{"shard count N", strconv.Itoa(a.N), strconv.Itoa(b.N)},
		{"mutant count", strconv.Itoa(a.Mutants), strconv.Itoa(b.Mutants)},
		{"mutant list", short(a.Digest), short(b.Digest)},
	} {
		if f.a != f.b {
			return f.name, f.a, f.b
		}
	}
	return "", "", ""
}

// wholeSet checks that parts are every shard of one gate, each once (name
// says which document each is), and returns their common identity.
func wholeSet(parts []Part, name func(int) string) (*Identity, error) {
	for i, p := range parts {
		if p.Result.Identity == nil {
			return nil, fmt.Errorf("%s records no shard identity (a gate --json of an older oracle?): run the shards again with this oracle and --shard K/N", name(i))
		}
	}
	ref := parts[0].Result.Identity
	byK := map[int]int{}
	for i, p := range parts {
		id := p.Result.Identity
		if field, a, b := identityDiff(ref, id); field != "" {
			return nil, fmt.Errorf("%s and %s are not shards of one gate: their %s differ (%s and %s)", name(0), name(i), field, a, b)
		}
		if id.K < 1 || id.K > id.N {
			return nil, fmt.Errorf("%s: shard %d/%d is not a shard of %d", name(i), id.K, id.N, id.N)
		}
		if j, ok := byK[id.K]; ok {
			return nil, fmt.Errorf("shard %d/%d is given twice (%s and %s)", id.K, id.N, name(j), name(i))
		}
		byK[id.K] = i
	}
	var missing []string
	for k := 1; k <= ref.N; k++ {
		if _, ok := byK[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, ref.N))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the set is incomplete: shard %s missing (%d of %d given); merge every shard of the gate", strings.Join(missing, ", "), len(parts), ref.N)
	}
	return ref, nil
}
