package audit

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// TestAuditViteGlobAndRootAlias (issue 41): audit --base measures the
// functions a test reaches only through vite's import.meta.glob (eager,
// and lazy) or a root-relative alias ("@": "/src") as executed: no
// blind-function for them, measured or --static; the glob's `!` pattern
// leaves src/plugins/draft.ts out, and it is reported.
func TestAuditViteGlobAndRootAlias(t *testing.T) {
	g := NewRepo(t, V4(t).NodeModules, ViteApp)
	g.Commit("change", MergeFiles(ViteAppChange, map[string]string{"src/plugins/draft.ts": "export function apply(n: number): number {\n  return n - 1001;\n}\n"}))
	for _, args := range [][]string{nil, {"--static"}} {
		code, out, errs := Oracle(t, append([]string{"audit", "--json", "--base", "HEAD~1", "--root", g.Dir}, args...)...)
		var r auditResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("audit %v: exit %d: %v\n%s\n%s", args, code, err, out, errs)
		}
		var blind []string
		for _, f := range blindOf(r) {
			if strings.HasPrefix(f, "blind-function ") {
				blind = append(blind, f)
			}
		}
		if want := "[blind-function src/plugins/draft.ts apply]"; code != ExitFail || fmt.Sprint(blind) != want {
			t.Errorf("audit %v: exit %d, blind %v, want %s\n%s", args, code, blind, want, errs)
		}
	}
}
