package manifest

import (
	"encoding/json"
	"github.com/oracle-ts/oracle/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestPublishedSchemas: the JSON Schemas in schema/ accept every ticket and
// oracle.yaml this repository ships (what oracle itself accepts) and reject
// what oracle rejects for its shape.
func TestPublishedSchemas(t *testing.T) {
	if _, err := os.Stat("../testdata/node/node_modules/ajv/package.json"); err != nil {
		testenv.Missing(t, "ajv missing: scripts/test installs it")
	}
	tickets, _ := filepath.Glob("../testdata/*/tickets/*.yaml")
	configs, _ := filepath.Glob("../testdata/*/oracle.yaml")
	tickets = append(tickets, "../testdata/manifests/good.yaml")
	if len(tickets) < 4 || len(configs) < 2 {
		t.Fatalf("samples: %v %v", tickets, configs)
	}
	dir := t.TempDir()
	toJSON := func(name, src string) string {
		var v any
		if err := yaml.Unmarshal([]byte(src), &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		p := filepath.Join(dir, name+".json")
		os.WriteFile(p, b, 0o644)
		return p
	}
	check := func(schema string, docs map[string]bool) {
		var names, paths []string
		for name := range docs {
			names = append(names, name)
		}
		for i, name := range names {
			src := name
			if b, err := os.ReadFile(name); err == nil {
				src = string(b)
			}
			paths = append(paths, toJSON(strings.Repeat("d", i+1), src))
		}
		out, err := exec.Command("node", append([]string{"../testdata/node/validate-schema.mjs", schema}, paths...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		for i, name := range names {
			if valid := lines[i] == "valid"; valid != docs[name] {
				t.Errorf("%s against %s: %s, want valid=%v", name, schema, lines[i], docs[name])
			}
		}
	}
	docs := map[string]bool{
		"ticket: T-1\noperations:\n  - {kind: conditional-skip, function: src/a.ts#f, flag: opts.skip, wrap: g, extra: 1}\n":                                 false,
		"ticket: T-1\noperations:\n  - {kind: conditional-skip, function: src/a.ts, flag: opts.skip, wrap: g}\n":                                             false,
		"$schema: ../schema/ticket.schema.json\nticket: T-1\noperations:\n  - {kind: conditional-skip, function: src/a.ts#C.m, flag: o.s, wrap: this.x.y}\n": true,
	}
	for _, p := range tickets {
		docs[p] = true
	}
	check("../schema/ticket.schema.json", docs)
	cdocs := map[string]bool{"fixtures:\n  - {name: a, file: a.js}\n": false, "fixtures: []\nout: x\nunknown: 1\n": false}
	for _, p := range configs {
		cdocs[p] = true
	}
	check("../schema/oracle.schema.json", cdocs)
}

// TestSchemaKeyAccepted: `$schema:` (for editors) is accepted at the top of a
// ticket and of oracle.yaml; a typo of it is not.
func TestSchemaKeyAccepted(t *testing.T) {
	if _, err := ParseTicket("t.yaml", []byte("$schema: ../schema/ticket.schema.json\nticket: T-1\noperations:\n  - {kind: conditional-skip, function: src/a.ts#f, flag: opts.skip, wrap: g}\n")); err != nil {
		t.Errorf("ticket: %v", err)
	}
	if _, err := ParseConfig("oracle.yaml", []byte("$schema: schema/oracle.schema.json\nfixtures: []\n")); err != nil {
		t.Errorf("oracle.yaml: %v", err)
	}
	if _, err := ParseConfig("oracle.yaml", []byte("$schemas: x\n")); err == nil || !strings.Contains(err.Error(), `did you mean "$schema"`) {
		t.Errorf("typo: %v", err)
	}
}
