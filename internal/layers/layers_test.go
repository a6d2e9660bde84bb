// Package layers holds the test that keeps the packages in their rooms:
// each may import only packages of a lower layer or of its own, and no verb
// imports another verb.
package layers

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/oracle-ts/oracle/"

// layer of each package, lowest first (README "Architecture").
var layer = map[string]int{
	"analyzer": 0, "manifest": 0, "callgraph/modules": 0, "templates": 0,
	"internal/atomicfile": 0, "internal/change": 0, "internal/par": 0, "internal/testenv": 0, "internal/text": 0, "internal/samplecopy": 0,
	"callgraph": 1, "mutate/edit": 1, "mutate/operators": 1, "mutate/runner": 1, "mutate/sandbox": 1, "fixtures": 1,
	"mutate/lab": 2, "mutate/report": 2, "testsuite": 2, "generator": 2,
	"mutate": 3, "gate": 3, "audit": 3, // the verbs (mutate: gen, apply, prove)
	"cmd/oracle": 4,
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
			t.Errorf("%s has no layer: add it to the table (and to the README's architecture)", pkg)
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
