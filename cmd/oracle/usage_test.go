package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestUsageListsEveryFlag: the top-level usage is built from the verbs'
// own flag sets, so every flag a verb has is in it (and in the verb's
// synopsis).
func TestUsageListsEveryFlag(t *testing.T) {
	code, top, _ := oracle(t, "help")
	if code != exitOK {
		t.Fatalf("oracle help: exit %d", code)
	}
	flagRE := regexp.MustCompile(`(?m)^  --([a-z-]+)`)
	for _, v := range verbList {
		_, help, _ := oracle(t, append(strings.Fields(v.name), "-h")...)
		synopsis, _, _ := strings.Cut(help, "\n")
		for _, m := range flagRE.FindAllStringSubmatch(help, -1) {
			if !strings.Contains(synopsis, "--"+m[1]) {
				t.Errorf("oracle %s: --%s is not in its synopsis %q", v.name, m[1], synopsis)
			}
			if !strings.Contains(top, strings.TrimPrefix(synopsis, "usage: oracle ")) {
				t.Errorf("the top-level usage lacks oracle %s's synopsis", v.name)
			}
		}
	}
}

// TestJSONOnEveryExit: with --json, a run that stops on its input or the
// environment still prints one document of the verb's schema with errors[].
func TestJSONOnEveryExit(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args   []string
		schema string
		code   int
	}{
		{[]string{"gate", "--json", "--root", dir + "/nowhere"}, "oracle.gate/v1", exitUsage},
		{[]string{"gate", "--json", "--threshold", "NaN", "--root", dir}, "oracle.gate/v1", exitUsage},
		{[]string{"prove", "--json", "--root", dir, dir + "/none.yaml"}, "oracle.prove/v1", exitUsage},
		{[]string{"gen", "--json", "--root", dir, dir + "/none.yaml"}, "oracle.gen/v1", exitUsage},
		{[]string{"apply", "--json", "--root", dir, dir + "/none.yaml"}, "oracle.apply/v1", exitUsage},
		{[]string{"graph", "--json", "--root", dir, dir + "/none.ts"}, "oracle.graph/v1", exitUsage},
		{[]string{"gate", "merge", "--json", dir + "/none.json"}, "oracle.gate/v1", exitUsage},
		{[]string{"audit", "--json", "--enable", "nope", "--root", dir}, "oracle.audit/v1", exitUsage},
	} {
		code, out, errs := oracle(t, tc.args...)
		var doc struct {
			Schema string
			Errors []struct{ Message string }
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || code != tc.code || doc.Schema != tc.schema || len(doc.Errors) == 0 || doc.Errors[0].Message == "" {
			t.Errorf("%v: exit %d, document %q (%v), stderr %q", tc.args, code, out, err, errs)
		}
	}
}
