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

// TestHelpAndTypos: each verb's help spells its flags' placeholders as its
// synopsis does (never Go's `int`, `float`, `string`), gives a default only
// where there is one to give (never `(default -1)`, never two); a mistyped
// verb or flag is one line naming the one meant; under --json a usage error
// is one error, not a line of usage text each; audit's messages name only
// flags audit has.
func TestHelpAndTypos(t *testing.T) {
	for _, v := range verbs {
		_, help, _ := oracle(t, append(v, "-h")...)
		synopsis, _, _ := strings.Cut(help, "\n")
		for _, line := range strings.Split(help, "\n") {
			if m := regexp.MustCompile(`^  --([a-z-]+)(?: (.+))?$`).FindStringSubmatch(line); m != nil {
				if m[2] != "" && !strings.Contains(synopsis, "--"+m[1]+" "+m[2]) {
					t.Errorf("oracle %s -h: %q is not written so in the synopsis %q", strings.Join(v, " "), line, synopsis)
				}
				if m[2] == "int" || m[2] == "float" || m[2] == "string" || m[2] == "duration" {
					t.Errorf("oracle %s -h: Go's type as a placeholder: %q", strings.Join(v, " "), line)
				}
			}
			if strings.Contains(line, "(default -1)") || strings.Count(line, "default") > 1 {
				t.Errorf("oracle %s -h: a default that is not one, or two: %q", strings.Join(v, " "), line)
			}
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"gate", "--treshold", "80"}, "oracle gate: unknown flag --treshold (did you mean --threshold?); oracle help gate lists its flags\n"},
		{[]string{"prove", "--concurency", "2", "x.yaml"}, "oracle prove: unknown flag --concurency (did you mean --concurrency?); oracle help prove lists its flags\n"},
		{[]string{"gate", "-C", "web"}, "oracle gate: unknown flag -C: -C DIR goes before the verb (oracle -C DIR gate ...); after it, --root DIR names the repository; oracle help gate lists its flags\n"},
		{[]string{"audt"}, "oracle: unknown verb \"audt\" (did you mean audit?); oracle help lists the verbs\n"},
		{[]string{"gate", "--threshold", "x"}, "oracle gate: invalid value \"x\" for --threshold: parse error; oracle help gate lists its flags\n"},
	} {
		code, out, errs := oracle(t, tc.args...)
		if code != exitUsage || out != "" || errs != tc.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", tc.args, code, out, errs, tc.want)
		}
	}
	code, out, _ := oracle(t, "gate", "--json", "--treshold", "80")
	var doc struct{ Errors []struct{ Message string } }
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitUsage || len(doc.Errors) != 1 || !strings.Contains(doc.Errors[0].Message, "did you mean --threshold?") {
		t.Errorf("gate --json --treshold: exit %d, %d errors: %s", code, len(doc.Errors), out)
	}
	dir := t.TempDir() // no git repository
	if code, _, errs := oracle(t, "audit", "--root", dir, "--base", "HEAD~1"); code != exitUsage || strings.Contains(errs, "--files") || !strings.Contains(errs, "is not a git repository") {
		t.Errorf("audit --base outside git: exit %d %q", code, errs)
	}
	if code, _, errs := oracle(t, "gate", "--root", dir); code != exitUsage || !strings.Contains(errs, "or give the changed files with --files") {
		t.Errorf("gate outside git: exit %d %q", code, errs)
	}
}
