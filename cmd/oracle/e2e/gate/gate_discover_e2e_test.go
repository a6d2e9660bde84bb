package gate

import (
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// TestGateViteGlobAndRootAlias (issue 41): a module the test reaches only
// through vite's import.meta.glob (eager, and lazy) or through an alias
// whose replacement is root-relative ("@": "/src") has its related test,
// as vitest finds it: no SKIP, each target tested by the test file, which
// kills every mutant.
func TestGateViteGlobAndRootAlias(t *testing.T) {
	g := NewGateRepo(t, ViteApp)
	g.Commit("change", ViteAppChange)
	code, r, errs := GateJSON(t, g.Dir, "--no-cache")
	if r.Verdict != "PASS" || code != 0 {
		t.Fatalf("exit %d %s %q\n%s", code, r.Verdict, r.Reason, errs)
	}
	tested := map[string]string{}
	for _, tg := range r.Targets {
		tested[tg.ID] = strings.Join(tg.Tests, " ") + tg.Skipped
	}
	for _, id := range []string{"src/plugins/tax.ts#apply", "src/lazy/card.ts#fee", "src/shared/round.ts#round"} {
		if tested[id] != "test/registry.test.ts" {
			t.Errorf("%s: tests %q, want test/registry.test.ts (targets %v)", id, tested[id], tested)
		}
	}
}
