package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// noOracles fails if gen wrote anything under dir (oracles go to __oracles__).
func noOracles(t *testing.T, dir string) {
	t.Helper()
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.Contains(p, "__oracles__") {
			t.Errorf("a file was written: %s", p)
		}
		return nil
	})
}

// writeManifest writes a manifest into a copy of the pipeline sample.
func writeManifest(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, "tickets", "T.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGenOutcomes: PROJ-150's SKIPs and unobservable callee, in the JSON
// document and the exit code; nothing is written for them.
func TestGenOutcomes(t *testing.T) {
	dir := copySample(t, "pipeline", t.TempDir())
	code, out, errs := oracle(t, "gen", "--json", "--root", dir, filepath.Join(dir, "tickets/PROJ-150.yaml"))
	if code != 1 {
		t.Fatalf("exit %d, want 1 (an operation cannot have an oracle)\n%s%s", code, out, errs)
	}
	var doc struct {
		Schema     string `json:"schema"`
		Ticket     string `json:"ticket"`
		Operations []struct {
			ID, Function, Status, Reason string
		} `json:"operations"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"compact-summary": {"skipped", "no fixture stands up src/reports/summary.ts"},
		"quiet-pipeline":  {"skipped", "fixture pipeline stands up src/server/index.ts but has no arrange entry for runPipeline"},
		"raw-metadata":    {"error", "cannot observe normalizeTags (23:12): it is defined in src/server/metadata.ts, the function's own module"},
	}
	if doc.Schema != "oracle.gen/v1" || doc.Ticket != "PROJ-150" || len(doc.Operations) != 3 {
		t.Fatalf("document: %s", out)
	}
	for _, op := range doc.Operations {
		w := want[op.ID]
		if op.Status != w[0] || !strings.HasPrefix(op.Reason, w[1]) {
			t.Errorf("%s: got %s %q, want %s %q…", op.ID, op.Status, op.Reason, w[0], w[1])
		}
	}
	noOracles(t, dir)
}

// TestGenMissingManifest: a manifest that is not there is a usage error.
func TestGenMissingManifest(t *testing.T) {
	dir := copySample(t, "pipeline", t.TempDir())
	code, _, errs := oracle(t, "gen", "--root", dir, filepath.Join(dir, "tickets/none.yaml"))
	if code != 2 || !strings.Contains(errs, "no such file") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// TestGenInvalidInput: a manifest that is invalid, or does not fit the code,
// exits 2 with file:line:column and the field, and writes nothing, not even
// the other operations' oracles.
func TestGenInvalidInput(t *testing.T) {
	good := `  - kind: conditional-skip
    id: ok
    function: src/server/index.ts#processItem
    flag: opts.skip
    wrap: enrichItem
    preserve: [updateRecord]
`
	cases := []struct{ name, manifest, want string }{
		{"flag names no parameter", "ticket: T-1\noperations:\n" + good + `  - kind: conditional-skip
    function: src/server/index.ts#processItem
    flag: options.skip
    wrap: enrichItem
`, `tickets/T.yaml:11:11: operations[1].flag: processItem has no parameter "options" (parameters: id, opts)`},
		{"wrap call not in the body", "ticket: T-1\noperations:\n" + strings.Replace(good, "wrap: enrichItem", "wrap: enrichItems", 1),
			`tickets/T.yaml:7:11: operations[0].wrap: no call enrichItems in the body of processItem (calls: getRecord, selectTargets, resolveSettings, extractMetadata, enrichItem, updateRecord)`},
		{"occurrence beyond the calls", "ticket: T-1\noperations:\n" + strings.Replace(good, "wrap: enrichItem", "wrap: {call: enrichItem, occurrence: 2}", 1),
			`operations[0].wrap: occurrence 2 of enrichItem, but the body of processItem calls it 1 time(s)`},
		{"no such function", "ticket: T-1\noperations:\n" + strings.Replace(good, "#processItem", "#processItems", 1),
			`tickets/T.yaml:5:15: operations[0].function: src/server/index.ts: no function "processItems" (functions: resetStats, processItem, runPipeline)`},
		{"unknown field", "ticket: T-1\noperations:\n" + good + "    preserves: [x]\n", `operations[0].preserves: unknown field "preserves"; did you mean "preserve"?`},
		{"unknown fixture", "ticket: T-1\noperations:\n" + good + "    fixture: pipelin\n", `operations[0].fixture`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copySample(t, "pipeline", t.TempDir())
			m := writeManifest(t, dir, tc.manifest)
			code, out, errs := oracle(t, "gen", "--root", dir, m)
			if code != 2 {
				t.Fatalf("exit %d, want 2\n%s%s", code, out, errs)
			}
			if !strings.Contains(errs, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, errs)
			}
			if strings.Contains(errs, dir) {
				t.Errorf("an absolute path of this machine reached the user:\n%s", errs)
			}
			noOracles(t, dir)
		})
	}
}

// TestGenMessages: a second gen on unchanged inputs says "unchanged"; an
// operation with no preserved call gets a warning that only the gating half
// is asserted.
func TestGenMessages(t *testing.T) {
	dir := copySample(t, "pipeline", t.TempDir())
	manifest := filepath.Join(dir, "tickets/PROJ-142.yaml")
	if code, out, errs := oracle(t, "gen", "--root", dir, manifest); code != 0 || !strings.HasPrefix(out, "generated ") {
		t.Fatalf("first gen: exit %d\n%s%s", code, out, errs)
	}
	for _, args := range [][]string{{"gen"}, {"gen", "--dry-run"}} {
		code, out, errs := oracle(t, append(args, "--root", dir, manifest)...)
		if code != 0 || !strings.HasPrefix(out, "unchanged ") {
			t.Errorf("%v again: exit %d\n%s%s", args, code, out, errs)
		}
	}
	bare := writeManifest(t, dir, "ticket: T-9\noperations:\n  - kind: conditional-skip\n    function: src/server/index.ts#processItem\n    flag: opts.skip\n    wrap: enrichItem\n")
	code, out, errs := oracle(t, "gen", "--dry-run", "--root", dir, bare)
	if code != 0 || !strings.Contains(errs, "warning: processItem-skip: preserve is empty: the oracle asserts only the gating half") {
		t.Errorf("preserve []: exit %d\n%s%s", code, out, errs)
	}
}

// TestNewlineSeparatedFlagType: shadcn's dryRunComponents declares its
// options as an object type whose members are separated by line breaks
// only; the flag's property is found by apply and gen alike (issue 41).
func TestNewlineSeparatedFlagType(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"src/fonts.ts": "export async function installFonts() {}\n",
		"src/files.ts": "export async function writeFiles(c: string[]) {}\n",
		"src/add.ts": `import { installFonts } from "./fonts";
import { writeFiles } from "./files";
export async function dryRunComponents(
  components: string[],
  opts: {
    overwrite?: boolean
    skipFonts?: boolean // fonts come from the registry
  }
) {
  await writeFiles(components);
  await installFonts();
}
`,
		"tickets/T.yaml": "ticket: T-41\noperations:\n  - kind: conditional-skip\n    function: src/add.ts#dryRunComponents\n    flag: opts.skipFonts\n    wrap: installFonts\n    preserve: [writeFiles]\n    args: [[\"button\"], {}]\n",
	})
	m := filepath.Join(dir, "tickets/T.yaml")
	if code, out, errs := oracle(t, "apply", "--dry-run", "--root", dir, m); code != 0 || !strings.Contains(out+errs, "skipFonts") {
		t.Errorf("apply: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := oracle(t, "gen", "--json", "--root", dir, m)
	if code != 0 || !strings.Contains(out, `"status": "generated"`) {
		t.Errorf("gen: exit %d\n%s%s", code, out, errs)
	}
}
