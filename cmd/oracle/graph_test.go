package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/callgraph"
)

// oracle runs the command in-process and returns its exit code and streams.
func oracle(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestGraphCLI(t *testing.T) {
	root := sample(t, "graph/imports")
	index := filepath.Join(root, "src/server/index.ts")
	cases := []struct {
		name     string
		args     []string
		code     int
		contains []string // in stdout
		stderr   string   // in stderr
	}{
		{"text form, one line per call", []string{"graph", "--root", root, index + "#processItem"}, 0,
			[]string{"src/server/index.ts#processItem (line ", " selectTargets -> src/server/targets.ts#selectTargets (import)\n"}, ""},
		{"json form", []string{"graph", "--json", "--root", root, index + "#processItem"}, 0,
			[]string{`{"schema":"oracle.graph/v1","functions":[{"id":"src/server/index.ts#processItem"`, `"via":"import"`}, ""},
		{"unknown function is a usage error naming the functions", []string{"graph", "--root", root, index + "#nope"}, 2,
			nil, `src/server/index.ts: no function "nope" (functions: `},
		{"missing file", []string{"graph", "--root", root, filepath.Join(root, "src/none.ts")}, 2, nil, "no such file"},
		{"file outside the repository", []string{"graph", "--root", root, "/etc/hosts"}, 2, nil, "outside the repository"},
		{"unknown verb", []string{"grpah"}, 2, nil, `unknown verb "grpah" (did you mean graph?)`},
		{"bad flag", []string{"graph", "--jsn"}, 2, nil, "oracle graph: unknown flag --jsn (did you mean --json?); oracle help graph lists its flags"},
		{"no verb", nil, 2, nil, "usage: oracle"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := oracle(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			for _, want := range tc.contains {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			if !strings.Contains(errs, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errs)
			}
			if strings.Contains(errs, "goroutine ") {
				t.Errorf("a Go stack trace reached the user:\n%s", errs)
			}
		})
	}
}

// TestGraphJSONDocument: the whole-repository document is valid JSON with the
// spec's fields, has no absolute paths, and is byte-identical across runs.
func TestGraphJSONDocument(t *testing.T) {
	root := sample(t, "graph/imports")
	code, first, errs := oracle(t, "graph", "--json", "--root", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, second, _ := oracle(t, "graph", "--json", "--root", root)
	if first != second {
		t.Error("two runs differ")
	}
	if strings.Contains(first, root) {
		t.Error("the document holds an absolute path of this machine")
	}
	var doc struct {
		Schema    string `json:"schema"`
		Functions []struct {
			ID, File, Name string
			Exported       *bool
			Line           int
			Calls          []map[string]any
		} `json:"functions"`
	}
	if err := json.Unmarshal([]byte(first), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "oracle.graph/v1" || len(doc.Functions) < 10 {
		t.Fatalf("schema %q, %d functions", doc.Schema, len(doc.Functions))
	}
	for _, fn := range doc.Functions {
		if fn.ID != fn.File+"#"+fn.Name || fn.Exported == nil || fn.Line < 1 {
			t.Errorf("function %+v lacks a spec field", fn)
		}
		for _, c := range fn.Calls {
			for _, k := range []string{"text", "line", "column", "target", "via"} {
				if _, ok := c[k]; !ok {
					t.Errorf("%s: call %v lacks %q", fn.ID, c, k)
				}
			}
			switch c["via"] {
			case "external":
				if c["package"] == nil {
					t.Errorf("%s: external call without package: %v", fn.ID, c)
				}
			case "unresolved":
				if c["reason"] == nil {
					t.Errorf("%s: unresolved call without reason: %v", fn.ID, c)
				}
			}
		}
	}
}

// TestGraphJSONStreamed: the document written in chunks encoded in
// parallel is, byte for byte, what encoding it whole gives (with and without
// the optional notes and errors, with characters JSON escapes, with one
// chunk, many chunks and a last chunk of one function).
func TestGraphJSONStreamed(t *testing.T) {
	tgt := "src/a.ts#f<T>"
	full := graphDoc{Schema: "oracle.graph/v1",
		Functions: []*callgraph.FunctionNode{
			{ID: "src/a.ts#f", File: "src/a.ts", Name: "f", Exported: true, Line: 1,
				Calls: []callgraph.CallEdge{{Text: "a && b", Line: 2, Column: 3, Target: &tgt, Via: callgraph.ViaImport}}},
			{ID: "src/a.ts#g", File: "src/a.ts", Name: "g", Line: 9, Kind: "nested", Calls: []callgraph.CallEdge{}},
		},
		Notes:  []callgraph.Note{{File: "big.ts", Reason: "skipped: \"huge\""}},
		Errors: []callgraph.FileError{{File: "x.ts", Line: 1, Column: 2, Message: "syntax error near `)`"}},
	}
	noExtras := full
	noExtras.Notes, noExtras.Errors = nil, nil
	empty := graphDoc{Schema: "oracle.graph/v1", Functions: []*callgraph.FunctionNode{}}
	many := full
	many.Functions = nil
	for i := 0; i < 5*graphJSONChunk+1; i++ {
		id := fmt.Sprintf("src/m%d.ts#f%d", i/7, i)
		many.Functions = append(many.Functions, &callgraph.FunctionNode{ID: id, File: fmt.Sprintf("src/m%d.ts", i/7),
			Name: fmt.Sprintf("f%d", i), Line: i, Calls: []callgraph.CallEdge{{Text: fmt.Sprintf("g%d()", i), Line: i, Target: &id, Via: callgraph.ViaLocal}}})
	}
	for name, doc := range map[string]graphDoc{"full": full, "no notes or errors": noExtras, "no functions": empty, "many chunks": many} {
		var want, got bytes.Buffer
		if err := json.NewEncoder(&want).Encode(doc); err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(&got)
		if err := writeGraphJSON(w, doc); err != nil || w.Flush() != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s:\n got %s\nwant %s", name, got.String(), want.String())
		}
	}
}

// TestGraphTextBodilessMember: a call pinned to a class member without a
// body says so in the text form, and carries `declared` in the JSON form.
func TestGraphTextBodilessMember(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "export abstract class J {\n  abstract step(): void;\n  run() { this.step(); }\n}\n"
	if err := os.WriteFile(filepath.Join(root, "src", "j.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, text, _ := oracle(t, "graph", "--root", root)
	if !strings.Contains(text, "this.step -> src/j.ts#J.step (member, abstract: no body)") {
		t.Errorf("text form:\n%s", text)
	}
	_, doc, _ := oracle(t, "graph", "--json", "--root", root)
	if !strings.Contains(doc, `"target":"src/j.ts#J.step","via":"member","declared":"abstract"`) {
		t.Errorf("json form:\n%s", doc)
	}
}
