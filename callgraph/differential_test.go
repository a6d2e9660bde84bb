package callgraph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/oracle-ts/oracle/bench/synth"
	"github.com/oracle-ts/oracle/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
)

// The compiler's call graph, as testdata/node/tsgraph.mjs prints it.
type tsGraph struct {
	Functions []struct {
		ID       string `json:"id"`
		Exported bool   `json:"exported"`
		Line     int    `json:"line"`
		Calls    []struct {
			Text   string  `json:"text"`
			Line   int     `json:"line"`
			Column int     `json:"column"`
			Target *string `json:"target"`
			Kind   string  `json:"kind"`
			Scope  string  `json:"scope"` // declared: names and declared types decide it; inferred: only the checker's inference
			New    bool    `json:"new"`
		} `json:"calls"`
	} `json:"functions"`
}

// needTool skips a test whose tool is missing, except in CI, where a missing
// tool means the CI setup is broken and must fail loudly.
func needTool(t *testing.T, path, why string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		testenv.Missing(t, fmt.Sprintf("%s missing (%s): run scripts/test, which installs it", path, why))
	}
}

// runTSGraph runs the TypeScript checker over a repository and returns its
// call graph.
func runTSGraph(t *testing.T, root string, args ...string) tsGraph {
	t.Helper()
	script, _ := filepath.Abs("../testdata/node/tsgraph.mjs")
	needTool(t, "../testdata/node/node_modules/typescript/package.json", "the typescript package for the ground truth")
	var out, errb bytes.Buffer
	cmd := exec.Command("node", append([]string{script, root}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("tsgraph on %s: %v\n%s", root, err, errb.String())
	}
	var g tsGraph
	if err := json.Unmarshal(out.Bytes(), &g); err != nil {
		t.Fatalf("tsgraph output: %v", err)
	}
	return g
}

// agreement counts what diffGraphs compared.
type agreement struct {
	Sites    int // call sites compared
	Resolved int // of them, the checker pins to a function of the repository through names and declared types
	Same     int // of those, oracle pins to the same target the same way
	Inferred int // call sites the checker pins only through inferred types (a parameter's, a local's, a call result's)
	Pinned   int // of those, oracle pins (to the same target: a different one is a disagreement)
	// Missing lists the calls of Resolved that oracle leaves unresolved (not
	// in the disagreements: the caller decides how many it tolerates).
	Missing []string
}

// diffGraphs compares oracle's graph with the compiler's: the same functions,
// the same call sites, and for every call the compiler pins to a function of
// the repository through names and declared types, the same target and the
// same way (via). A call the checker pins only through inferred types may be
// left unresolved by oracle (it never infers types), never pinned elsewhere;
// a call the compiler does not pin must not be pinned by oracle either.
func diffGraphs(ours *Graph, want tsGraph) (int, []string) {
	a, diffs := diffGraphsCounted(ours, want)
	return a.Sites, append(a.Missing, diffs...)
}

func diffGraphsCounted(ours *Graph, want tsGraph) (agreement, []string) {
	var a agreement
	var diffs []string
	type site struct {
		line, col int
		text      string
	}
	key := func(s site) string { return fmt.Sprintf("%d:%d %s", s.line, s.col, s.text) }
	byID := map[string]*FunctionNode{}
	for _, fn := range ours.Functions {
		byID[fn.ID] = fn
	}
	seen := map[string]bool{}
	for _, wf := range want.Functions {
		seen[wf.ID] = true
		of := byID[wf.ID]
		if of == nil {
			diffs = append(diffs, fmt.Sprintf("%s: function missing from oracle's graph", wf.ID))
			continue
		}
		if of.Exported != wf.Exported || of.Line != wf.Line {
			diffs = append(diffs, fmt.Sprintf("%s: oracle says exported=%v line=%d, compiler exported=%v line=%d", wf.ID, of.Exported, of.Line, wf.Exported, wf.Line))
		}
		ourCalls := map[string][]CallEdge{}
		for _, c := range of.Calls {
			k := key(site{c.Line, c.Column, c.Text})
			ourCalls[k] = append(ourCalls[k], c)
		}
		for _, wc := range wf.Calls {
			k := key(site{wc.Line, wc.Column, wc.Text})
			a.Sites++
			list := ourCalls[k]
			if len(list) == 0 {
				diffs = append(diffs, fmt.Sprintf("%s %s: call missing from oracle's graph", wf.ID, k))
				continue
			}
			c := list[0]
			ourCalls[k] = list[1:]
			if wc.Target != nil && wc.Scope == "inferred" {
				a.Inferred++
				if c.Target == nil {
					continue
				}
				a.Pinned++
			} else if wc.Target != nil {
				a.Resolved++
				if c.Target != nil && *c.Target == *wc.Target && string(c.Via) == wc.Kind {
					a.Same++
				}
			}
			switch {
			case wc.Target != nil && c.Target == nil:
				a.Missing = append(a.Missing, fmt.Sprintf("%s %s: oracle %s, compiler %s (%s)", wf.ID, k, edgeLine(c), *wc.Target, wc.Kind))
			case wc.Target != nil && *c.Target != *wc.Target:
				diffs = append(diffs, fmt.Sprintf("%s %s: oracle %s, compiler %s (%s)", wf.ID, k, edgeLine(c), *wc.Target, wc.Kind))
			case wc.Target != nil && string(c.Via) != wc.Kind:
				diffs = append(diffs, fmt.Sprintf("%s %s: oracle via %s, compiler via %s", wf.ID, k, c.Via, wc.Kind))
			case wc.Target == nil && c.Target != nil:
				diffs = append(diffs, fmt.Sprintf("%s %s: oracle pins %s, compiler pins nothing in the repository (%s)", wf.ID, k, *c.Target, wc.Kind))
			}
		}
		var extra []string
		for k, list := range ourCalls {
			for range list {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		for _, k := range extra {
			diffs = append(diffs, fmt.Sprintf("%s %s: call the compiler does not see", wf.ID, k))
		}
	}
	for _, fn := range ours.Functions {
		if !seen[fn.ID] {
			diffs = append(diffs, fmt.Sprintf("%s: function the compiler does not see", fn.ID))
		}
	}
	return a, diffs
}

// TestDifferentialAgainstTypeScript: on every sample repository, oracle's call
// graph agrees with the TypeScript checker at every call site.
func TestDifferentialAgainstTypeScript(t *testing.T) {
	samples, _ := filepath.Glob("../testdata/graph/*/tsconfig.json")
	if len(samples) == 0 {
		t.Fatal("no samples under testdata/graph")
	}
	// The sample repositories of the other verbs too: classes and methods (services), the
	// seed scenario (pipeline).
	samples = append(samples, "../testdata/services/tsconfig.json", "../testdata/pipeline/tsconfig.json")
	for _, tsconfig := range samples {
		root, _ := filepath.Abs(filepath.Dir(tsconfig))
		t.Run(filepath.Base(root), func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(root, "package-lock.json")); err == nil {
				needTool(t, filepath.Join(root, "node_modules"), "workspace links of the sample")
			}
			checkAgreement(t, filepath.Base(root), root)
		})
	}
}

// TestDiffGraphsBites: the comparison itself reports a wrong target, a missing
// call and an extra pin (so a broken resolver cannot pass the differential test).
func TestDiffGraphsBites(t *testing.T) {
	tgt := func(s string) *string { return &s }
	var want tsGraph
	if err := json.Unmarshal([]byte(`{"functions":[{"id":"a.ts#f","exported":true,"line":1,"calls":[
		{"text":"g","line":2,"column":3,"target":"b.ts#g","kind":"import"},
		{"text":"h","line":3,"column":3,"target":null,"kind":"nested"},
		{"text":"k","line":4,"column":3,"target":"b.ts#k","kind":"import"}]}]}`), &want); err != nil {
		t.Fatal(err)
	}
	ours := &Graph{Functions: []*FunctionNode{{ID: "a.ts#f", Exported: true, Line: 1, Calls: []CallEdge{
		{Text: "g", Line: 2, Column: 3, Target: tgt("c.ts#g"), Via: ViaImport},
		{Text: "h", Line: 3, Column: 3, Target: tgt("b.ts#h"), Via: ViaImport},
	}}}}
	_, diffs := diffGraphs(ours, want)
	if len(diffs) != 3 {
		t.Fatalf("want 3 disagreements (wrong target, extra pin, missing call), got %d: %q", len(diffs), diffs)
	}
}

// TestDifferentialSynthetic: the same agreement on a generated monorepo
// (bench/synth: workspace packages with exports and customConditions, path
// aliases, barrels, star and namespace re-exports, dynamic imports, shadowing
// parameters, an external package), small enough for the checker to run fast.
func TestDifferentialSynthetic(t *testing.T) {
	root := t.TempDir()
	cfg := synth.Default()
	cfg.Packages, cfg.FilesPerPackage = 3, 12
	if _, err := synth.Generate(root, cfg); err != nil {
		t.Fatal(err)
	}
	if n := checkAgreement(t, "synthetic", root); n < 1000 {
		t.Errorf("only %d call sites compared", n)
	}
}

// checkAgreement builds oracle's graph of root and the checker's, reports
// every disagreement as an error, logs the agreement rate, and returns the
// number of call sites compared.
func checkAgreement(t *testing.T, name, root string) int {
	t.Helper()
	want := runTSGraph(t, root)
	ours, err := Build(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, diffs := diffGraphsCounted(ours, want)
	diffs = append(a.Missing, diffs...)
	for _, d := range diffs {
		t.Error(d)
	}
	t.Logf("%s: %d call sites, %d disagreements; %d resolved by the checker through names and declared types, %d the same (%.1f%%); %d only through inferred types, %d of them pinned by oracle",
		name, a.Sites, len(diffs), a.Resolved, a.Same, 100*float64(a.Same)/float64(max(a.Resolved, 1)), a.Inferred, a.Pinned)
	return a.Sites
}
