package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/audit"
)

// TestAuditRuleError: a rule that fails fails the audit with exit 3 (SPEC
// "oracle audit": 3 error), every failing rule named, on stderr and in the
// --json document's errors; no findings are printed.
func TestAuditRuleError(t *testing.T) {
	dir := copySample(t, "services", v4(t).nodeModules)
	saved := audit.Rules
	defer func() { audit.Rules = saved }()
	audit.Rules = append(append([]*audit.Rule{}, saved...),
		&audit.Rule{Name: "boom", Doc: "fails", Run: func(p *audit.Pass) error { return errors.New("cannot read src/orders/service.ts") }},
		&audit.Rule{Name: "bang", Doc: "fails too", Run: func(p *audit.Pass) error { return errors.New("bad tree") }})
	code, out, errs := oracle(t, "audit", "--static", "--root", dir)
	if code != exitError || !strings.Contains(errs, "rule boom: cannot read src/orders/service.ts") || !strings.Contains(errs, "rule bang: bad tree") || strings.Contains(out, "blind-function") {
		t.Errorf("exit %d (want 3, both rules named)\nstdout %s\nstderr %s", code, out, errs)
	}
	code, out, _ = oracle(t, "audit", "--static", "--json", "--root", dir)
	var doc struct {
		Schema   string
		Findings []json.RawMessage
		Errors   []struct{ Message string }
	}
	err := json.Unmarshal([]byte(out), &doc)
	var messages []string
	for _, e := range doc.Errors {
		messages = append(messages, e.Message)
	}
	all := strings.Join(messages, "\n")
	if err != nil || code != exitError || doc.Schema != "oracle.audit/v1" || len(doc.Findings) != 0 ||
		!strings.Contains(all, "rule boom: cannot read src/orders/service.ts") || !strings.Contains(all, "rule bang: bad tree") {
		t.Errorf("--json: exit %d, %v, %s", code, err, out)
	}
}
