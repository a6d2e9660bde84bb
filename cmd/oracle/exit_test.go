package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/oracle-ts/oracle/manifest"
)

// TestRunVerbSignals (issue 28 item 4): the one exit path maps SIGINT to
// 130 and SIGTERM to 143 for every verb: one that watches its context
// (prove, gate, audit) ends when its work stops; one that does not (gen,
// apply, graph, gate merge) ends at once, what it would print after
// dropped. Under --json the document has the one error.
func TestRunVerbSignals(t *testing.T) {
	defer func(f func(int)) { exitNow = f }(exitNow)
	for _, tc := range []struct {
		verb    string
		watches bool
	}{{"gate", true}, {"audit", true}, {"prove", true}, {"gen", false}, {"apply", false}, {"graph", false}, {"gate merge", false}} {
		for _, sig := range []struct {
			sig  syscall.Signal
			code int
		}{{syscall.SIGINT, exitInterrupt}, {syscall.SIGTERM, exitTerminate}} {
			t.Run(tc.verb+"/"+sig.sig.String(), func(t *testing.T) {
				exited := make(chan int, 1)
				release := make(chan struct{})
				exitNow = func(code int) { exited <- code; close(release) }
				verb := func(ctx context.Context, _ []string, stdout, _ io.Writer) error {
					syscall.Kill(os.Getpid(), sig.sig)
					if tc.watches {
						<-ctx.Done() // the signal comes (no cap: one that never does is go test's -timeout)
						return ctx.Err()
					}
					<-release // it goes on with its work
					fmt.Fprintln(stdout, "printed after the end")
					return nil
				}
				var out, errs bytes.Buffer
				code := runVerb(tc.verb, tc.watches, verb, []string{"--json"}, &out, &errs)
				if !tc.watches {
					select {
					case code = <-exited:
					default:
						t.Fatalf("a verb that does not watch its context did not end at once (returned %d)", code)
					}
				}
				if code != sig.code {
					t.Errorf("exit %d, want %d", code, sig.code)
				}
				var doc errorDoc
				if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.Schema != "oracle."+strings.Fields(tc.verb)[0]+"/v1" ||
					len(doc.Errors) != 1 || !strings.HasPrefix(doc.Errors[0].Message, "oracle "+tc.verb+": interrupted (") {
					t.Errorf("document %v: %s", err, out.String())
				}
				if want := "oracle " + tc.verb + ": interrupted ("; !strings.HasPrefix(errs.String(), want) || strings.Count(errs.String(), "\n") != 1 {
					t.Errorf("stderr %q, want one line %q...", errs.String(), want)
				}
			})
		}
	}
}

// TestJSONErrorsAreTheVerbsErrors (issue 28 item 4): under --json, the
// errors[] of a verb that stopped on its input are the errors it found, one
// entry each, with file, line, column and field when the input has them:
// never a line of the usage printed after a command line error.
func TestJSONErrorsAreTheVerbsErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"x"}`), 0o644)
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("ticket: T\noperations:\n  - kind: nope\n    function: a.ts#f\n  - function: b.ts#g\n"), 0o644)
	// The requirements table of an audit reads the ticket manifests (vitest
	// is asked which test files it runs first).
	withTickets := auditRepo(t, map[string]string{"package.json": `{"name":"a","private":true,"type":"module"}`, "src/price.ts": totalTS,
		"tickets/bad.yaml": "ticket: T\noperations:\n  - kind: nope\n    function: a.ts#f\n  - function: b.ts#g\n"})
	badConfig := t.TempDir()
	os.WriteFile(filepath.Join(badConfig, "oracle.yaml"), []byte("fixtures: 3\ngate:\n  threshold: high\n"), 0o644)
	type entry = manifest.Error
	for _, tc := range []struct {
		args []string
		code int
		want []entry // nil: the input errors on stderr, each with a file and a line
	}{
		{[]string{"gen", "--json", "--root", dir}, exitUsage, []entry{{Message: "invalid command line: want 1 argument(s), MANIFEST; got 0"}}},
		{[]string{"apply", "--json", "--root", dir, "a.yaml", "b.yaml"}, exitUsage, []entry{{Message: "invalid command line: want 1 argument(s), MANIFEST; got 2"}}},
		{[]string{"prove", "--json", "--root", dir}, exitUsage, []entry{{Message: "invalid command line: want 1 argument(s), MANIFEST; got 0"}}},
		{[]string{"gate", "--json", "--root", dir, "extra"}, exitUsage, []entry{{Message: `invalid command line: takes no arguments, got "extra"`}}},
		{[]string{"audit", "--json", "--enabel", "x"}, exitUsage, []entry{{Message: "invalid command line: unknown flag --enabel (did you mean --enable?); oracle help audit lists its flags"}}},
		{[]string{"graph", "--json", "--root", dir, "--", filepath.Join(dir, "nope.ts")}, exitUsage, []entry{{Message: "oracle graph: " + filepath.Join(dir, "nope.ts") + ": no such file"}}},
		{[]string{"gate", "merge", "--json", "--root", dir}, exitUsage, []entry{{Message: "oracle gate merge: give the --json documents of the shards"}}},
		{[]string{"gen", "--json", "--root", dir, bad}, exitUsage, nil},
		{[]string{"apply", "--json", "--root", dir, bad}, exitUsage, nil},
		{[]string{"prove", "--json", "--root", dir, bad}, exitUsage, nil},
		{[]string{"gate", "--json", "--root", badConfig}, exitUsage, nil},
		{[]string{"audit", "--json", "--root", badConfig}, exitUsage, nil},
		// A bad ticket manifest is a FAIL row of the requirements table
		// (TestTablesBadManifestRow); a --tickets that is no directory is
		// the command line's error.
		{[]string{"audit", "--json", "--static", "--tables", filepath.Join(t.TempDir(), "r.md"), "--tickets", filepath.Join(dir, "nope"), "--root", withTickets}, exitUsage, []entry{{Message: "oracle audit: --tickets " + filepath.Join(dir, "nope") + ": no such directory"}}},
	} {
		code, out, errs := oracle(t, tc.args...)
		var doc struct {
			Schema string
			Errors []entry
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || code != tc.code {
			t.Errorf("%v: exit %d (want %d), %v\n%s\n%s", tc.args, code, tc.code, err, out, errs)
			continue
		}
		want := tc.want
		if want == nil {
			// The input errors the verb found, as it said them on stderr.
			var said []string
			for _, line := range strings.Split(strings.TrimSpace(errs), "\n") {
				if line != "nothing was written" && !strings.HasPrefix(line, "note: ") && !strings.HasPrefix(line, "oracle ") { // not a note or a progress step
					said = append(said, line)
				}
			}
			var got []string
			for _, e := range doc.Errors {
				got = append(got, e.Error())
				if e.File == "" || e.Line == 0 {
					t.Errorf("%v: an input error without its file and line: %+v", tc.args, e)
				}
			}
			if len(said) < 2 || strings.Join(got, "\n") != strings.Join(said, "\n") {
				t.Errorf("%v: errors[]\n%s\nwant the %d errors said on stderr\n%s", tc.args, strings.Join(got, "\n"), len(said), strings.Join(said, "\n"))
			}
			continue
		}
		got, _ := json.Marshal(doc.Errors)
		if w, _ := json.Marshal(want); string(got) != string(w) {
			t.Errorf("%v: errors[] %s, want %s", tc.args, got, w)
		}
	}
}
