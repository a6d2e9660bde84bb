package audit

// The user's own test command is the default (issue 31 item 5): where the
// test script of package.json names a vitest config, gate and audit use it
// unless --config says otherwise; a config vitest cannot load is exit 2
// quoting vitest's message and the fix, never a SKIP with a stack frame.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// scriptConfigRepo is vercel/ai's layout: the test script runs two
// scripts, each naming a config; the shared vitest.config.js exports a
// function of the runtime, which vitest alone calls with its own argument
// and gets no object from ("config must export or return an object").
func scriptConfigRepo(t *testing.T, pkg string) Repo {
	t.Helper()
	g := Repo{T: t, Dir: t.TempDir()}
	if err := os.Symlink(V4(t).NodeModules, filepath.Join(g.Dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	g.Git("init", "-q")
	g.Commit("base", map[string]string{
		".gitignore":   "node_modules\n",
		"package.json": pkg,
		"vitest.config.js": "// shared by vitest.node.config.js and vitest.edge.config.js\n" +
			"export default function config(runtime) {\n  if (typeof runtime !== \"string\") return undefined;\n" +
			"  return { test: { name: runtime, environment: \"node\", include: [\"test/**/*.test.ts\"] } };\n}\n",
		"vitest.node.config.js": "import config from \"./vitest.config.js\";\nexport default config(\"node\");\n",
		"vitest.edge.config.js": "import config from \"./vitest.config.js\";\nexport default config(\"edge\");\n",
		"src/money.ts":          moneyBase + "\nexport function dollars(n: number): number {\n  return n / 100;\n}\n",
		"test/money.test.ts":    importing(moneyTest, "../src/money"),
	})
	g.Commit("change", map[string]string{"src/money.ts": moneyNew + "\nexport function dollars(n: number): number {\n  return n / 100;\n}\n"})
	return g
}

const vercelScripts = `{"name":"ai","private":true,"type":"module","scripts":{"test":"pnpm test:node && pnpm test:edge","test:edge":"vitest --config vitest.edge.config.js --run","test:node":"vitest --config vitest.node.config.js --run"}}`

// TestScriptConfigIsTheDefault: with no --config, gate gives its verdict
// and audit measures with the config the test script names (each mutant of
// `n * 100` fails the test: checked by hand with vitest --config
// vitest.node.config.js), and both say which config in a note. It was exit
// 3, "failed to load config from vitest.config.js".
func TestScriptConfigIsTheDefault(t *testing.T) {
	g := scriptConfigRepo(t, vercelScripts)
	const note = "using vitest.node.config.js, named by the test:node script of package.json"
	code, out, errs := Oracle(t, "gate", "--json", "--root", g.Dir)
	var r HostileResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("gate --json (exit %d): %v\n%s\n%s", code, err, out, errs)
	}
	if code != 0 || r.Verdict != "PASS" || len(r.Mutants) == 0 || !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, note) }) {
		t.Errorf("gate: exit %d %s %q, %d mutants, notes %q; want PASS with the note\n%s", code, r.Verdict, r.Reason, len(r.Mutants), r.Notes, errs)
	}
	for _, m := range r.Mutants {
		if m.Outcome != "killed" {
			t.Errorf("mutant %s line %d: %s, want killed", m.MutatorName, m.Line, m.Outcome)
		}
	}
	code, out, errs = Oracle(t, "audit", "--json", "--root", g.Dir)
	var a struct {
		auditResult
		Static bool
		Notes  []string
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("audit --json (exit %d): %v\n%s\n%s", code, err, out, errs)
	}
	var blind []string
	for _, f := range a.Findings {
		if f.Rule == "blind-function" {
			blind = append(blind, f.Message)
		}
	}
	// Measured: dollars is loaded by the test, which does not run it.
	if code != 0 || a.Static || len(blind) != 1 || !strings.HasPrefix(blind[0], "dollars: no test executes it (measured)") || !slices.ContainsFunc(a.Notes, func(n string) bool { return strings.HasPrefix(n, note) }) {
		t.Errorf("audit: exit %d static %v, blind %q, notes %q\n%s", code, a.Static, blind, a.Notes, errs)
	}
	// --config says otherwise: no note.
	code, out, errs = Oracle(t, "gate", "--root", g.Dir, "--config", filepath.Join(g.Dir, "vitest.edge.config.js"))
	if code != 0 || !strings.HasPrefix(out, "GATE PASS") || strings.Contains(out+errs, "named by") {
		t.Errorf("gate --config vitest.edge.config.js: exit %d\n%s%s", code, out, errs)
	}
	if st, err := exec.Command("git", "-C", g.Dir, "status", "--porcelain").Output(); err != nil || len(st) != 0 {
		t.Errorf("left in the checkout (%v):\n%s", err, st)
	}
}

// TestUnloadableConfigIsAnError: a config vitest cannot load is exit 2
// from gate and audit, with vitest's message and the fix, not a SKIP.
func TestUnloadableConfigIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name, pkg string
		edit      map[string]string
		args      []string
		want      []string
	}{
		{name: "the script's config throws", pkg: vercelScripts,
			edit: map[string]string{"vitest.node.config.js": "throw new Error(\"AI_API_KEY is not set\");\n"},
			want: []string{"vitest.node.config.js", `"AI_API_KEY is not set"`, "named by the test:node script of package.json", "--config vitest.edge.config.js (the test:edge script of package.json names it)"}},
		{name: "--config names the function", pkg: vercelScripts, args: []string{"--config", "vitest.config.js"}, // in the repository: the test runs there
			want: []string{"vitest cannot load its config vitest.config.js", `"config must export or return an object."`, "--config vitest.node.config.js (the test:node script"}},
		{name: "vitest's own search finds the function", pkg: `{"name":"ai","private":true,"type":"module","scripts":{"test":"vitest run"}}`,
			want: []string{"vitest cannot load its config vitest.config.js", `"config must export or return an object."`, "vitest found it by its own search", "--config vitest.edge.config.js, or --config vitest.node.config.js"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := scriptConfigRepo(t, tc.pkg)
			t.Chdir(g.Dir)
			WriteFiles(t, g.Dir, tc.edit)
			for _, verb := range []string{"gate", "audit"} {
				code, out, errs := Oracle(t, append([]string{verb, "--root", g.Dir}, tc.args...)...)
				if code != ExitUsage || strings.Contains(out, "SKIP") || strings.Contains(errs, "CAC.run") || strings.Contains(errs, "\tat ") {
					t.Errorf("%s: exit %d, want %d with vitest's message\n%s%s", verb, code, ExitUsage, out, errs)
				}
				for _, w := range tc.want {
					if !strings.Contains(errs, w) {
						t.Errorf("%s: stderr wants %q\n%s", verb, w, errs)
					}
				}
			}
			code, out, _ := Oracle(t, append([]string{"audit", "--json", "--root", g.Dir}, tc.args...)...)
			var doc struct {
				Errors []struct{ File, Message string }
			}
			if json.Unmarshal([]byte(out), &doc) != nil || code != ExitUsage || len(doc.Errors) != 1 || !strings.Contains(doc.Errors[0].Message, tc.want[1]) {
				t.Errorf("audit --json: exit %d\n%s", code, out)
			}
		})
	}
}
