package main

// The documentation in docs/ is checked against the code: every flag of
// every verb and every key of oracle.yaml and of a ticket is in the
// reference; the CI workflow calls oracle only with flags that exist and
// keeps the shape docs/ci.md describes; the composite action's script
// passes the exit codes it is told to; and every relative link resolves.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func readDoc(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section is the text of the markdown section whose heading is exactly
// heading, up to the next heading of the same or a higher level.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("no section %q", heading)
	}
	rest := doc[i+len(heading)+2:]
	level := strings.Count(strings.Fields(heading)[0], "#")
	for _, m := range regexp.MustCompile(`(?m)^#{1,6} `).FindAllStringIndex(rest, -1) {
		if m[1]-m[0]-1 <= level {
			return rest[:m[0]]
		}
	}
	return rest
}

// verbFlags lists the flags a verb's help prints.
func verbFlags(t *testing.T, verb ...string) []string {
	t.Helper()
	code, out, errs := oracle(t, append(verb, "-h")...)
	if code != 0 {
		t.Fatalf("%v -h: exit %d %s", verb, code, errs)
	}
	var flags []string
	for _, m := range regexp.MustCompile(`(?m)^  --([a-z-]+)`).FindAllStringSubmatch(out, -1) {
		flags = append(flags, m[1])
	}
	if len(flags) == 0 {
		t.Fatalf("%v -h lists no flag:\n%s", verb, out)
	}
	return flags
}

var verbs = [][]string{{"gen"}, {"prove"}, {"apply"}, {"gate"}, {"gate", "merge"}, {"audit"}, {"graph"}}

func TestReferenceHasEveryFlag(t *testing.T) {
	ref := readDoc(t, "docs/reference.md")
	for _, v := range verbs {
		sec := section(t, ref, "## oracle "+strings.Join(v, " "))
		for _, f := range verbFlags(t, v...) {
			if !regexp.MustCompile("`--" + regexp.QuoteMeta(f) + "[` ]").MatchString(sec) {
				t.Errorf("docs/reference.md, oracle %s: --%s is not documented", strings.Join(v, " "), f)
			}
		}
	}
}

// schemaKeys lists the keys a JSON Schema allows, as paths
// (fixtures[].name, operations[].wrap.call).
func schemaKeys(t *testing.T, file string) []string {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal([]byte(readDoc(t, file)), &root); err != nil {
		t.Fatal(err)
	}
	defs, _ := root["$defs"].(map[string]any)
	if defs == nil {
		defs, _ = root["definitions"].(map[string]any)
	}
	var keys []string
	var walk func(n map[string]any, path string)
	walk = func(n map[string]any, path string) {
		if ref, ok := n["$ref"].(string); ok {
			n, _ = defs[ref[strings.LastIndex(ref, "/")+1:]].(map[string]any)
		}
		props, _ := n["properties"].(map[string]any)
		for k, v := range props {
			p := k
			if path != "" {
				p = path + "." + k
			}
			keys = append(keys, p)
			walk(v.(map[string]any), p)
		}
		if items, ok := n["items"].(map[string]any); ok {
			walk(items, path+"[]")
		}
		for _, alt := range []string{"oneOf", "anyOf"} {
			as, _ := n[alt].([]any)
			for _, a := range as {
				walk(a.(map[string]any), path)
			}
		}
	}
	walk(root, "")
	if len(keys) == 0 {
		t.Fatalf("%s: no keys", file)
	}
	return keys
}

func TestReferenceHasEveryConfigKey(t *testing.T) {
	ref := readDoc(t, "docs/reference.md")
	for file, heading := range map[string]string{"schema/oracle.schema.json": "## oracle.yaml", "schema/ticket.schema.json": "## The ticket manifest"} {
		sec := section(t, ref, heading)
		for _, k := range schemaKeys(t, file) {
			if !strings.Contains(sec, "`"+k+"`") {
				t.Errorf("docs/reference.md %s: the key %s (%s) is not documented", heading, k, file)
			}
		}
	}
	// And the exit codes every verb uses.
	codes := section(t, ref, "## Exit codes")
	for _, c := range []int{exitOK, exitFail, exitUsage, exitError, exitInterrupt, exitTerminate} {
		if !regexp.MustCompile(`(?m)^\| ([0-9, ]*\b)?` + regexp.QuoteMeta(strconv.Itoa(c)) + `\b`).MatchString(codes) {
			t.Errorf("docs/reference.md: exit code %d is not documented", c)
		}
	}
}

// oracleCalls are the oracle command lines of a workflow: the args of each
// step that uses the composite action, and each `oracle ...` in a run script.
func oracleCalls(t *testing.T, wf map[string]any) (calls []string) {
	t.Helper()
	jobs, _ := wf["jobs"].(map[string]any)
	for _, j := range jobs {
		steps, _ := j.(map[string]any)["steps"].([]any)
		for _, s := range steps {
			step := s.(map[string]any)
			if uses, _ := step["uses"].(string); strings.HasSuffix(uses, "actions/oracle") {
				with, _ := step["with"].(map[string]any)
				calls = append(calls, with["args"].(string))
			}
			if run, _ := step["run"].(string); run != "" {
				for _, m := range regexp.MustCompile(`(?m)\boracle ((?:gen|prove|apply|gate|audit|graph)\b.*)$`).FindAllStringSubmatch(run, -1) {
					calls = append(calls, m[1])
				}
			}
		}
	}
	return calls
}

func TestCIWorkflow(t *testing.T) {
	var wf map[string]any
	if err := yaml.Unmarshal([]byte(readDoc(t, "docs/github/workflows/oracle.yml")), &wf); err != nil {
		t.Fatalf("docs/github/workflows/oracle.yml: %v", err)
	}
	known := map[string]map[string]bool{}
	for _, v := range verbs {
		known[strings.Join(v, " ")] = map[string]bool{}
		for _, f := range verbFlags(t, v...) {
			known[strings.Join(v, " ")][f] = true
		}
	}
	calls := oracleCalls(t, wf)
	seen := map[string]string{}
	for _, c := range calls {
		words := strings.Fields(c)
		verb := words[0]
		if len(words) > 1 && verb == "gate" && words[1] == "merge" {
			verb = "gate merge"
		}
		if known[verb] == nil {
			t.Errorf("the workflow runs oracle %q: no such verb", c)
			continue
		}
		seen[verb] = c
		for _, w := range words {
			if name, ok := strings.CutPrefix(w, "--"); ok && !known[verb][name] {
				t.Errorf("the workflow runs oracle %s with --%s, which it does not have", verb, name)
			}
		}
	}
	// The shape docs/ci.md describes.
	gate, merge, audit := seen["gate"], seen["gate merge"], seen["audit"]
	jobs := wf["jobs"].(map[string]any)
	ks, _ := jobs["gate"].(map[string]any)["strategy"].(map[string]any)["matrix"].(map[string]any)["k"].([]any)
	if m := regexp.MustCompile(`--shard \$\{\{ matrix\.k \}\}/(\d+)`).FindStringSubmatch(gate); m == nil || m[1] != strconv.Itoa(len(ks)) {
		t.Errorf("the gate job's shards: %q with a matrix of %d", gate, len(ks))
	}
	if !strings.Contains(gate, "--base origin/${{ github.base_ref }}") || !strings.Contains(gate, "--json") {
		t.Errorf("the gate shards: %q", gate)
	}
	if !strings.Contains(merge, "--html oracle-gate.html") || !strings.Contains(merge, "--report oracle-gate-report.json") {
		t.Errorf("gate merge writes no page or report: %q", merge)
	}
	if !strings.Contains(audit, "--base origin/${{ github.base_ref }}") {
		t.Errorf("audit: %q", audit)
	}
	text := readDoc(t, "docs/github/workflows/oracle.yml")
	for _, want := range []string{"pull_request:", "fetch-depth: 0", "needs: gate", "oracle-gate.html\n", "oracle-gate-report.json\n", "actions/upload-artifact", "actions/download-artifact"} {
		if !strings.Contains(text, want) {
			t.Errorf("the workflow has no %q", want)
		}
	}
	// The merge decides even when a shard crashed: it runs always and fails
	// first unless every shard succeeded (a skipped required job passes).
	merged, _ := jobs["gate-merge"].(map[string]any)
	steps, _ := merged["steps"].([]any)
	if merged["if"] != "always()" || len(steps) == 0 || steps[0].(map[string]any)["if"] != "needs.gate.result != 'success'" ||
		!strings.Contains(steps[0].(map[string]any)["run"].(string), "exit 1") {
		t.Errorf("the merge job does not run always and fail on a failed or cancelled shard: if %v, first step %v", merged["if"], steps)
	}
	// Any package manager: the action installs the dependencies, no job assumes npm.
	if strings.Contains(text, "npm ci") || strings.Contains(text, "cache: npm") {
		t.Errorf("the workflow assumes npm (npm ci, cache: npm): the action installs with the lockfile's package manager")
	}
}

// TestCompositeAction runs the action's script with a stand-in oracle: the
// arguments split and globbed, standard output to the file asked for, the
// exit code in GITHUB_OUTPUT, and the step passing only on ok-codes.
func TestCompositeAction(t *testing.T) {
	var action struct {
		Runs struct {
			Steps []struct{ ID, Run string }
		}
	}
	if err := yaml.Unmarshal([]byte(readDoc(t, "docs/github/actions/oracle/action.yml")), &action); err != nil {
		t.Fatalf("docs/github/actions/oracle/action.yml: %v", err)
	}
	script := ""
	for _, st := range action.Runs.Steps { // the step that runs oracle (the first ones set up Node)
		if st.ID == "oracle" {
			script = st.Run
		}
	}
	if script == "" {
		t.Fatal("docs/github/actions/oracle/action.yml: no step with id oracle")
	}
	actionDir, _ := filepath.Abs(filepath.Join("..", "..", "docs", "github", "actions", "oracle"))
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"node_modules/.bin/oracle":  "#!/bin/sh\necho \"args: $*\"\nexit ${FAKE_EXIT:-0}\n",
		"shards/oracle-gate-1.json": "{}", "shards/oracle-gate-2.json": "{}",
	})
	os.Chmod(filepath.Join(dir, "node_modules/.bin/oracle"), 0o755)
	step := func(args, stdout, okCodes string, exit int) (int, string, string) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "github_output")
		cmd := exec.Command("bash", "-e", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "ORACLE_ARGS="+args, "ORACLE_STDOUT="+stdout, "ORACLE_OK_CODES="+okCodes,
			"ORACLE_CLI_VERSION=", "GITHUB_OUTPUT="+out, "FAKE_EXIT="+strconv.Itoa(exit),
			"GITHUB_ACTION_PATH="+actionDir, "GITHUB_WORKSPACE="+dir, "ORACLE_INSTALL=false", "ORACLE_PACKAGE_MANAGER=npm")
		log, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		gh, _ := os.ReadFile(out)
		return code, string(log), string(gh)
	}
	// A shard: --json to a file, its FAIL passes the step.
	code, log, gh := step("gate --shard 1/4 --json", "shard.json", "0 1", 1)
	if b, _ := os.ReadFile(filepath.Join(dir, "shard.json")); code != 0 || !strings.HasSuffix(gh, "\nexit-code=1\n") || string(b) != "args: gate --shard 1/4 --json\n" {
		t.Errorf("a failing shard: exit %d, output %q, file %q\n%s", code, gh, b, log)
	}
	// The merge: globbed shards, its FAIL fails the step.
	code, log, gh = step("gate merge --html oracle-gate.html shards/oracle-gate-*.json", "", "0", 1)
	if code != 1 || !strings.HasSuffix(gh, "\nexit-code=1\n") || !strings.Contains(log, "args: gate merge --html oracle-gate.html shards/oracle-gate-1.json shards/oracle-gate-2.json\n") {
		t.Errorf("a failing merge: exit %d, output %q\n%s", code, gh, log)
	}
	// A usage error fails a shard too.
	if code, log, _ = step("gate --shard 9/4", "shard.json", "0 1", 2); code != 2 {
		t.Errorf("exit 2 in a shard: step exit %d\n%s", code, log)
	}
}

// TestDocLinks: every relative link of the README and docs/ resolves in the
// repository (a clone stands on its own: nothing points outside it).
func TestDocLinks(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	files = append(files, filepath.Join("..", "..", "README.md"))
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			abs := filepath.Join(filepath.Dir(f), filepath.FromSlash(target))
			root, _ := filepath.Abs(filepath.Join("..", ".."))
			if a, _ := filepath.Abs(abs); !strings.HasPrefix(a, root+string(filepath.Separator)) {
				t.Errorf("%s links outside the repository: %s", f, target)
				continue
			}
			if _, err := os.Stat(abs); err != nil {
				t.Errorf("%s: a dead link: %s", f, target)
			}
		}
	}
}

// TestYourRepositoryQuotesTheSample: the files docs/your-repository.md
// quotes as the sample's (testdata/pipeline: oracle.yaml, the fixture, the
// ticket) are what the sample has, comments aside (the doc explains in its
// own); a block of keys the sample does not set says so.
func TestYourRepositoryQuotesTheSample(t *testing.T) {
	doc := readDoc(t, "docs/your-repository.md")
	quoted := map[string]string{ // a block's first line → the sample's file
		"fixtures:":                    "testdata/pipeline/oracle.yaml",
		`import { vi } from "vitest";`: "testdata/pipeline/test/fixtures/pipeline.fixture.ts",
		"ticket: PROJ-142":             "testdata/pipeline/tickets/PROJ-142.yaml",
	}
	notInSample := map[string]string{"gate:": "which the sample does not set"}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile("(?s)\n([^\n]*)\n\n```(yaml|ts)\n(.*?)```").FindAllStringSubmatch(doc, -1) {
		before, lang, body := m[1], m[2], m[3]
		first := strings.SplitN(body, "\n", 2)[0]
		seen[first] = true
		if why, ok := notInSample[first]; ok {
			if !strings.Contains(before, why) {
				t.Errorf("the block %q is not the sample's, and the line before it does not say so (%q): %q", first, why, before)
			}
			continue
		}
		file, ok := quoted[first]
		if !ok {
			t.Errorf("a %s block this test does not know (%q): say which file of the sample it quotes", lang, first)
			continue
		}
		comment := "#"
		if lang == "ts" {
			comment = "//"
		}
		if got, want := codeOf(body, comment), codeOf(readDoc(t, file), comment); got != want {
			t.Errorf("docs/your-repository.md quotes %s as\n%s\nthe sample has\n%s", file, got, want)
		}
	}
	for first := range quoted {
		if !seen[first] {
			t.Errorf("docs/your-repository.md no longer quotes the block starting %q", first)
		}
	}
}

// codeOf is text without its comments (from comment to the end of a line,
// and /** ... */ lines) and blank lines, each line's trailing space trimmed.
func codeOf(text, comment string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		for i := 0; i < len(l); i++ { // a comment starts a line or follows a space (not index.ts#fn)
			if strings.HasPrefix(l[i:], comment) && (i == 0 || l[i-1] == ' ') {
				l = l[:i]
				break
			}
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "/**") && strings.HasSuffix(t, "*/") {
			l = ""
		}
		if l = strings.TrimRight(l, " "); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
