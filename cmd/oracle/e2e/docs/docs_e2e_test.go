// Package docs runs the commands of the README's "Start here" and "The flow
// on the bundled example" sections and of docs/your-repository.md, as a
// reader would, and checks that they print what the docs say they print.
package docs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
	"github.com/oracle-ts/oracle/internal/samplecopy"
	"github.com/oracle-ts/oracle/internal/testenv"
)

func TestMain(m *testing.M) { Main(m) }

// command is a command line of a doc's sh block: the line without its
// comment, the comment, and the comment-only lines right after it (what the
// doc says it prints, as in the README's prove block).
type command struct {
	line, comment string
	printed       []string
}

// block is an sh block and its commands.
type block struct{ commands []command }

// shBlocks are the ```sh blocks of text.
func shBlocks(text string) []block {
	var out []block
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(text, -1) {
		var b block
		for _, l := range strings.Split(strings.TrimRight(m[1], "\n"), "\n") {
			t := strings.TrimSpace(l)
			if c, ok := strings.CutPrefix(t, "#"); ok {
				if n := len(b.commands); n > 0 {
					b.commands[n-1].printed = append(b.commands[n-1].printed, strings.TrimPrefix(c, " "))
				}
				continue
			}
			cmd := command{line: t}
			if i := regexp.MustCompile(`\s+#\s`).FindStringIndex(t); i != nil {
				cmd.line, cmd.comment = strings.TrimSpace(t[:i[0]]), strings.TrimSpace(t[i[1]:])
			}
			b.commands = append(b.commands, cmd)
		}
		out = append(out, b)
	}
	return out
}

// section is the text of the README's "## title" section.
func section(t *testing.T, text, title string) string {
	t.Helper()
	i := strings.Index(text, "\n## "+title+"\n")
	if i < 0 {
		t.Fatalf("README.md has no section %q", title)
	}
	rest := text[i+1:]
	if j := strings.Index(rest[3:], "\n## "); j >= 0 {
		rest = rest[:j+3]
	}
	return rest
}

// expect is what a command of the docs must do, beyond what its own
// comment says (a "writes FILE" comment: the file is there after it; "N
// passed": printed; comment lines after it: printed, "..." lines aside).
type expect struct {
	skip  string   // why it is not run (the network, publishing)
	codes []int    // its exit code, one of these (default 0)
	says  []string // in its output (standard output and error)
}

// expected: every command of the docs, by its line. A command the docs
// gain is missing here and fails the test, as does an entry no doc has.
var expected = map[string]expect{
	// README.md, "Start here" (in a TypeScript repository) and
	// docs/your-repository.md, "1. Install".
	"npm install --save-dev @oracle-ts/cli": {skip: "the npm registry (the network; @oracle-ts/cli is published by hand, docs/install.md)"},
	"npx oracle gate --base origin/main":    {says: []string{"GATE PASS 100% (", " changed lines threshold 70\n", "  src/reports/stats.ts 100% ("}},
	"npx oracle audit":                      {says: []string{"AUDIT 0 error(s), "}},
	// README.md, "Start here" (in this repository).
	`go run ./cmd/oracle -C testdata/pipeline gen --dry-run tickets/PROJ-142.yaml`: {says: []string{"would write skip-enrichment src/server/index.ts#processItem -> src/server/__oracles__/processItem.skip-enrichment.oracle.test.ts"}},
	`bash scripts/build -o "$(mktemp -d)/oracle"`:                                  {},
	"bash scripts/test": {skip: "the project's whole test command, of which this test is a part"},
	// README.md, "The flow on the bundled example".
	"work=$(mktemp -d)":                                             {},
	`go build -o "$work/oracle" ./cmd/oracle`:                       {},
	`cp -r testdata/pipeline "$work/example" && cd "$work/example"`: {},
	"npm ci": {says: []string{"added "}},
	`"$work/oracle" gen tickets/PROJ-142.yaml`:                                 {says: []string{"generated skip-enrichment src/server/index.ts#processItem -> src/server/__oracles__/processItem.skip-enrichment.oracle.test.ts (fixture pipeline)"}},
	"npx vitest run src/server/__oracles__/":                                   {says: []string{"Tests  2 passed (2)"}},
	"npx tsc --noEmit":                                                         {},
	`"$work/oracle" prove tickets/PROJ-142.yaml --report "$work/mutants.json"`: {},
	// docs/your-repository.md.
	"npx oracle --version":                                              {says: []string{"oracle 0.6.0"}},
	"npx oracle gen tickets/PROJ-142.yaml":                              {},
	"npx oracle prove tickets/PROJ-142.yaml":                            {says: []string{"PASS skip-enrichment src/server/index.ts#processItem\n", "  baseline ", " passed", "  red-first ", " killed ", "\nPASS\n"}},
	"npx oracle apply --dry-run tickets/PROJ-142.yaml":                  {says: []string{"unchanged skip-enrichment src/server/index.ts#processItem: already guarded"}},
	"npx oracle gate":                                                   {says: []string{"GATE PASS 100% (", " changed lines threshold 70\n"}},
	"git diff --name-only origin/main | npx oracle gate --files-from -": {says: []string{"GATE PASS ", "on 1 whole file threshold 70\n", "src/reports/stats.ts "}},
	"npx oracle audit --base origin/main":                               {codes: []int{0, 1}, says: []string{"AUDIT 0 error(s), 0 warning(s), 0 ignored\n"}},
}

// The change the gate and the audit see in the sample repositories: the
// count of a status written in two steps (its tests still pass).
const statsBefore = "  for (const r of records) counts[r.status] = (counts[r.status] ?? 0) + 1;\n"
const statsAfter = "  for (const r of records) {\n    const n = counts[r.status] ?? 0;\n    counts[r.status] = n + 1;\n  }\n"

// TestDocsCommands runs every command of the README's "Start here" and
// "The flow on the bundled example" and of docs/your-repository.md, a
// doc's blocks one after the other in one shell (a cd or a variable of a
// block holds in the next): the README's TypeScript-repository commands
// and docs/your-repository.md's in a copy of testdata/pipeline made a git
// repository with a change over origin/main (npx oracle: the binary in its
// node_modules/.bin), the README's in-this-repository commands in the
// checkout (they write only under mktemp -d), everything in a TMPDIR of
// the test's. Each command must end with its exit code and print what its
// comment, the comment lines after it and expected say; a command it does
// not run is in expected with the reason.
func TestDocsCommands(t *testing.T) {
	pipeline := testenv.NeedSample(t, "pipeline")
	readme, your := readRepoFile(t, "README.md"), readRepoFile(t, "docs/your-repository.md")
	checkout := RepoFile(".")
	sessions := []struct {
		name   string
		blocks []block
		dir    string
	}{
		{"README.md Start here, in a TypeScript repository", shBlocks(section(t, readme, "Start here"))[:1], sampleRepo(t, pipeline)},
		{"README.md Start here, in this repository, and The flow on the bundled example",
			append(shBlocks(section(t, readme, "Start here"))[1:], shBlocks(section(t, readme, "The flow on the bundled example"))...), checkout},
		{"docs/your-repository.md", shBlocks(your), sampleRepo(t, pipeline)},
	}
	seen := map[string]bool{}
	for _, s := range sessions {
		var cmds []command
		for _, b := range s.blocks {
			cmds = append(cmds, b.commands...)
		}
		if len(cmds) == 0 {
			t.Errorf("%s: no command", s.name)
		}
		for _, c := range cmds {
			seen[c.line] = true
			if _, ok := expected[c.line]; !ok {
				t.Errorf("%s: the command %q is not in expected: say what it prints (or why it cannot run)", s.name, c.line)
			}
		}
		t.Run(s.name, func(t *testing.T) { runSession(t, s.dir, cmds) })
	}
	for line := range expected {
		if !seen[line] {
			t.Errorf("expected has %q, which no doc runs", line)
		}
	}
}

// runSession runs cmds in one bash in dir, each said between markers, and
// checks each.
func runSession(t *testing.T, dir string, cmds []command) {
	var script strings.Builder
	script.WriteString("exec 2>&1\n")
	var run []command
	for _, c := range cmds {
		e, known := expected[c.line]
		if !known { // never run: it may write anywhere (a fixed path in the shared /tmp); TestDocsCommands fails on it
			t.Logf("not run: %s: not in expected", c.line)
			continue
		}
		if e.skip != "" {
			t.Logf("not run: %s: %s", c.line, e.skip)
			continue
		}
		n := len(run)
		run = append(run, c)
		fmt.Fprintf(&script, "echo '@@@ start %d'\n%s\necho \"@@@ exit %d $?\"\n", n, c.line, n)
		if f, ok := writes(c.comment); ok {
			fmt.Fprintf(&script, "test -e %q; echo \"@@@ exists %d $?\"\n", f, n)
		}
	}
	tmp := t.TempDir()
	cmd := exec.Command("bash", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "npm_config_prefer_offline=true", "npm_config_audit=false", "npm_config_fund=false",
		"npm_config_update_notifier=false", "NO_COLOR=1", "FORCE_COLOR=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	parts := regexp.MustCompile(`(?m)^@@@ start (\d+)\n`).Split(string(out), -1)[1:]
	if len(parts) != len(run) {
		t.Fatalf("%d of %d commands ran:\n%s", len(parts), len(run), out)
	}
	for i, c := range run {
		e := expected[c.line]
		text, code, exists := parts[i], -1, -1
		if m := regexp.MustCompile(`(?m)^@@@ exit \d+ (\d+)\n`).FindStringSubmatchIndex(text); m != nil {
			code, _ = strconv.Atoi(text[m[2]:m[3]])
			if x := regexp.MustCompile(`(?m)^@@@ exists \d+ (\d+)$`).FindStringSubmatch(text[m[1]:]); x != nil {
				exists, _ = strconv.Atoi(x[1])
			}
			text = text[:m[0]]
		}
		codes := e.codes
		if codes == nil {
			codes = []int{0}
		}
		ok := false
		for _, want := range codes {
			ok = ok || code == want
		}
		if !ok {
			t.Errorf("%s: exit %d, want %v\n%s", c.line, code, codes, text)
		}
		if f, isWrite := writes(c.comment); isWrite && exists != 0 {
			t.Errorf("%s: the doc says it writes %s, which is not there\n%s", c.line, f, text)
		}
		says := append([]string{}, e.says...)
		if m := regexp.MustCompile(`^\d+ passed$`).FindString(c.comment); m != "" {
			says = append(says, m)
		}
		plain := regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(text, "")
		for _, w := range says {
			if !strings.Contains(plain, w) && !strings.Contains(squeeze(plain), squeeze(w)) {
				t.Errorf("%s: does not print %q\n%s", c.line, w, plain)
			}
		}
		// The lines the doc shows it printing, in order; "..." stands for
		// lines left out.
		at := 0
		for _, p := range c.printed {
			if strings.Contains(p, "...") {
				continue
			}
			j := strings.Index(squeeze(plain)[at:], squeeze(p))
			if j < 0 {
				t.Errorf("%s: the doc shows it printing %q, which it does not (in that order)\n%s", c.line, p, plain)
				continue
			}
			at += j + len(squeeze(p))
		}
	}
}

// writes is FILE of a "writes FILE" comment.
func writes(comment string) (string, bool) {
	rest, ok := strings.CutPrefix(comment, "writes ")
	if !ok {
		return "", false
	}
	return strings.Fields(rest)[0], true
}

// squeeze is s with every run of spaces one space (the doc aligns columns
// its own way).
func squeeze(s string) string {
	return regexp.MustCompile(`[ \t]+`).ReplaceAllString(s, " ")
}

// sampleRepo is a copy of testdata/pipeline as a reader's repository: its
// node_modules a directory of links to the sample's install, with oracle in
// node_modules/.bin (what npm install of @oracle-ts/cli leaves), a git
// repository whose origin/main is the sample and whose HEAD changes
// src/reports/stats.ts.
func sampleRepo(t *testing.T, pipeline string) string {
	t.Helper()
	r := Repo{T: t, Dir: t.TempDir()}
	src := filepath.Join(pipeline, "node_modules")
	nm := filepath.Join(t.TempDir(), "node_modules")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(nm, ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == ".bin" {
			continue
		}
		if err := os.Symlink(filepath.Join(src, e.Name()), filepath.Join(nm, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	bins, _ := os.ReadDir(filepath.Join(src, ".bin"))
	for _, b := range bins {
		target, err := filepath.EvalSymlinks(filepath.Join(src, ".bin", b.Name()))
		if err != nil {
			continue
		}
		os.Symlink(target, filepath.Join(nm, ".bin", b.Name()))
	}
	if err := os.Symlink(Bin(t), filepath.Join(nm, ".bin", "oracle")); err != nil {
		t.Fatal(err)
	}
	if err := samplecopy.Copy(pipeline, r.Dir, nm); err != nil {
		t.Fatal(err)
	}
	WriteFiles(t, r.Dir, map[string]string{".gitignore": "node_modules/\n.oracle/\n"})
	r.Git("init", "-q")
	r.Commit("the sample", nil)
	r.Git("update-ref", "refs/remotes/origin/main", "HEAD")
	stats := filepath.Join(r.Dir, "src/reports/stats.ts")
	b, err := os.ReadFile(stats)
	if err != nil || !strings.Contains(string(b), statsBefore) {
		t.Fatalf("src/reports/stats.ts has no %q: %v", statsBefore, err)
	}
	r.Commit("the change", map[string]string{"src/reports/stats.ts": strings.Replace(string(b), statsBefore, statsAfter, 1)})
	return r.Dir
}

func readRepoFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(RepoFile(rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDocsGateExample: the gate's output docs/your-repository.md shows for
// another repository (src/shipping.ts, which no sample has) is in the form
// the gate prints (cmd/oracle/gate.go's printGate; TestDocsCommands checks
// the same form on the sample): the verdict line with its scope, the
// reason, the change, the files' scores, each survivor with its diff.
func TestDocsGateExample(t *testing.T) {
	your := readRepoFile(t, "docs/your-repository.md")
	m := regexp.MustCompile("(?s)prints:\n\n```\n(.*?)```").FindStringSubmatch(your)
	if m == nil {
		t.Fatal("docs/your-repository.md shows no gate output (\"prints:\" and a block)")
	}
	forms := []string{
		`GATE (PASS|FAIL) \d+(\.\d+)?% \(\d+/\d+\) on \d+ changed lines? threshold \d+`,
		`  \S+ scores \d+(\.\d+)?% \(\d+/\d+\), below the threshold \d+`,
		`  the change: [0-9a-f]{12}\.\.[0-9a-f]{12}, the files as committed at HEAD`,
		`  \S+ \d+(\.\d+)?% \(\d+/\d+\)`,
		``,
		`survived \S+:\d+:\d+ [A-Za-z]+ \(\S+#\w+\)`,
		`--- a/\S+`, `\+\+\+ b/\S+`, `@@ .*`, `[-+ ].*`,
	}
	lines := strings.Split(strings.TrimRight(m[1], "\n"), "\n")
	if !regexp.MustCompile("^" + forms[0] + "$").MatchString(lines[0]) {
		t.Errorf("the first line is not the gate's verdict line: %q", lines[0])
	}
	for _, l := range lines {
		ok := false
		for _, f := range forms {
			ok = ok || regexp.MustCompile("^"+f+"$").MatchString(l)
		}
		if !ok {
			t.Errorf("a line the gate does not print: %q", l)
		}
	}
}
