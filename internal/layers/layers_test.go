// Package layers holds the test that keeps the packages in their rooms:
// each may import only packages of a lower layer or of its own, and no verb
// imports another verb.
package layers

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/oracle-ts/oracle/"

// layer of each package, lowest first (docs/architecture.md).
var layer = map[string]int{
	"analyzer": 0, "manifest": 0, "callgraph/modules": 0, "templates": 0,
	"internal/atomicfile": 0, "internal/change": 0, "internal/par": 0, "internal/testenv": 0, "internal/text": 0, "internal/samplecopy": 0, "internal/vitestloc": 0,
	"internal/syntaxcheck": 0, "internal/vitestenv": 0, "internal/procgroup": 0, "internal/nodeproc": 0, "internal/warmnode": 0, "internal/jsonorder": 0,
	"callgraph": 1, "mutate/edit": 1, "mutate/operators": 1, "mutate/runner": 1, "mutate/sandbox": 1,
	"mutate/lab": 2, "mutate/report": 2, "testsuite": 2, "generator": 2,
	"prove": 3, "apply": 3, "gate": 3, "audit": 3, // the verbs (gen is the generator's, run by cmd)
	"cmd/oracle": 4, "cmd/oracle/e2e/e2etest": 4, // the end-to-end tests' helpers
	"cmd/oracle/e2e/gate": 5, "cmd/oracle/e2e/audit": 5, "cmd/oracle/e2e/prove": 5, "cmd/oracle/e2e/tables": 5, "cmd/oracle/e2e/docs": 5, // tests only
}

const verbs = 3

func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok || strings.HasPrefix(pkg, "bench") || strings.HasPrefix(pkg, "scripts/") || pkg == "internal/layers" || pkg == "npm" {
			continue
		}
		from, known := layer[pkg]
		if !known {
			t.Errorf("%s has no layer: add it to the table (and to docs/architecture.md)", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			dep, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			to, known := layer[dep]
			switch {
			case !known:
				t.Errorf("%s imports %s, which has no layer", pkg, dep)
			case to > from:
				t.Errorf("%s (layer %d) imports %s (layer %d): nothing imports upward", pkg, from, dep, to)
			case to == verbs && from == verbs:
				t.Errorf("the verb %s imports the verb %s", pkg, dep)
			}
		}
	}
}

// engine is the mutation engine: the packages under it edit, run and
// classify mutants, and know nothing of the manifest, the generator or a
// verb (a verb hands them plain data).
const engine = "mutate/"

// TestKeptApart: what a package must not reach, even through another
// package (go list -deps): a prefix ending in "/" stands for every package
// under it.
func TestKeptApart(t *testing.T) {
	var verbPkgs []string
	for pkg, l := range layer {
		if l >= verbs {
			verbPkgs = append(verbPkgs, pkg)
		}
	}
	slices.Sort(verbPkgs)
	for _, tc := range []struct {
		pkg string // a package, or a prefix ending in "/"
		not []string
		why string
	}{
		{engine, append([]string{"manifest", "generator"}, verbPkgs...), "no package under the engine imports manifest, generator or a verb"},
		{"testsuite", []string{engine, "manifest"}, "which tests run this code is read without the engine or the manifest"},
	} {
		pattern := module + tc.pkg
		if strings.HasSuffix(tc.pkg, "/") {
			pattern += "..."
		}
		out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}`, pattern).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pattern, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			rel, ok := strings.CutPrefix(dep, module)
			if !ok || strings.HasPrefix(rel, tc.pkg) {
				continue
			}
			for _, bad := range tc.not {
				if rel == bad || strings.HasSuffix(bad, "/") && strings.HasPrefix(rel, bad) {
					t.Errorf("%s reaches %s: %s", tc.pkg, rel, tc.why)
				}
			}
		}
	}
}
