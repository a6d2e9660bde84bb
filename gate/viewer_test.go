//go:build unix

package gate

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// seen, appended to a page, writes what a person sees into
// <pre id="oracle-seen"> (as JSON), which chromium --dump-dom prints: the
// text that is rendered (through the viewer's shadow roots, without what
// is display:none or inside a closed <details>), the source lines (of the
// gate's page) that carry the changed-line bar and those painted as a
// survivor's. Before that, when click is not "", it clicks the first
// element, in any shadow root, whose title is click (the viewer's mutants,
// its tests' dots) or, for a summary or button, whose text begins with it,
// and waits for the page to draw.
func seen(click string) string {
	q, _ := json.Marshal(click)
	return `<pre id="oracle-seen" style="display:none"></pre>
<script>
(function () {
  const click = ` + string(q) + `;
  const deep = (root, visit) => {
    for (const n of root.childNodes) {
      visit(n);
      if (n.shadowRoot) deep(n.shadowRoot, visit);
      deep(n, visit);
    }
  };
  const visible = (el) => el && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const seen = () => {
    const text = [];
    deep(document.body, (n) => {
      if (n.nodeType === 3 && n.data.trim() && visible(n.parentElement) && n.parentElement.id !== "oracle-seen") text.push(n.data.trim());
    });
    const changed = [], survived = [];
    for (const pre of document.querySelectorAll("pre[id]")) {
      const ln = pre.querySelector(".ln");
      if (!ln || !visible(pre)) continue;
      const line = Number(ln.textContent);
      if (parseFloat(getComputedStyle(ln).borderRightWidth) > 0) changed.push(line);
      if (getComputedStyle(pre).backgroundColor === "rgb(255, 221, 221)") survived.push(line);
    }
    const at = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    return { text: text.join("\n"), changed, survived, clicked, hash: location.hash, target: at ? { open: at.open === true, visible: visible(at) } : null };
  };
  let tries = 0, clicked = false;
  const finish = () => { document.getElementById("oracle-seen").textContent = JSON.stringify(seen()); };
  const step = () => {
    if (click) {
      let target = null;
      deep(document.body, (n) => {
        if (!target && n.nodeType === 1 && visible(n) &&
          (n.getAttribute("title") === click || n.querySelector(":scope > title")?.textContent === click ||
            n.matches("summary, button, a") && n.textContent.trim().startsWith(click))) target = n;
      });
      if (!target && ++tries < 50) return setTimeout(step, 100);
      if (target) { target.dispatchEvent(new MouseEvent("click", { bubbles: true, composed: true })); clicked = true; }
    }
    setTimeout(finish, 500);
  };
  window.addEventListener("load", () => setTimeout(step, 300));
})();
</script>
`
}

// chromium is the headless browser the viewer test renders with: skipped
// when there is none, unless CI is set (then it must be there).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed, and CI is set: scripts/deps installs it (apt-get install chromium)")
	}
	t.Skip("chromium is not installed: ORACLE_CHROMIUM=1 bash scripts/deps installs it (Debian's package) to render the page and the report in a browser")
	return ""
}

// seenPage is what seen reported.
type seenPage struct {
	Text              string
	Changed, Survived []int
	Clicked           bool
	Hash              string // the location's #fragment after the click (a link that jumps)
	Target            *struct{ Open, Visible bool }
	Flat              string // Text on one line, spaces collapsed (the viewer draws code token by token)
}

// render opens url in headless chromium and returns what seenScript saw.
// With ORACLE_SCREENSHOTS set to a directory, it also writes name.png there.
func render(t *testing.T, browser, url, name string) (seen seenPage) {
	t.Helper()
	args := []string{"--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=15000", "--window-size=1280,1100"}
	out := run(t, browser, append(args, "--dump-dom", url)...)
	m := regexp.MustCompile(`(?s)<pre id="oracle-seen"[^>]*>(.*?)</pre>`).FindStringSubmatch(out)
	if m == nil || m[1] == "" {
		t.Fatalf("%s: the page said nothing of what it shows (did it load?)\n%.2000s", name, out)
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &seen); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, m[1])
	}
	seen.Flat = strings.Join(strings.Fields(seen.Text), " ")
	if dir := os.Getenv("ORACLE_SCREENSHOTS"); dir != "" {
		run(t, browser, append(args, "--screenshot="+filepath.Join(dir, name+".png"), url)...)
	}
	return seen
}

// run runs chromium, with its helper processes in a process group of their
// own that is killed with it. It has no cap of its own (a loaded machine
// makes any fixed one too short): a chromium that hangs is killed shortly
// before go test's -timeout, which then names the test.
func run(t *testing.T, browser string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	if end, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(context.Background(), end.Add(-30*time.Second))
	}
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever it left behind
	}
	if err != nil {
		t.Fatalf("chromium %s: %v\n%.2000s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// TestViewerInChromium renders the gate's --html page and its --report in
// Stryker's viewer (mutation-testing-elements, testdata/viewer) in headless
// Chromium, and checks what a person sees: the verdict, the changed lines,
// the survivor's diff, and the tests by name (describe > it) with what they
// killed.
func TestViewerInChromium(t *testing.T) {
	browser := chromium(t)
	viewer, err := filepath.Abs("../testdata/viewer/node_modules/mutation-testing-elements/dist/mutation-test-elements.js")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(viewer); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s missing: scripts/deps installs it", viewer)
		}
		t.Skipf("%s missing: run bash scripts/deps", viewer)
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	src := "import { save } from \"./orders\";\nexport async function ship(id: number, total: number): Promise<number> {\n  await save(id);\n  if (total > 50) {\n    return 0;\n  }\n  return 5;\n}\n"
	os.WriteFile(filepath.Join(root, "src/shipping.ts"), []byte(src), 0o644)
	os.MkdirAll(filepath.Join(root, "test"), 0o755)
	os.WriteFile(filepath.Join(root, "test/shipping.test.ts"), []byte("import { expect, it } from \"vitest\";\nimport { ship } from \"../src/shipping\";\n\ndescribe(\"shipping\", () => {\n"+
		"  it(\"ships free over 50\", async () => {\n    expect(await ship(1, 100)).toBe(0);\n  });\n\n  it(\"charges 5 below\", async () => {\n    expect(await ship(2, 10)).toBe(5);\n  });\n});\n"), 0o644)
	const killer = "test/shipping.test.ts > shipping > ships free over 50"
	res := &Result{Threshold: 90, Scope: ScopeLines, Changed: map[string][][2]int{"src/shipping.ts": {{3, 4}}},
		Targets: []Target{{ID: "src/shipping.ts#ship", File: "src/shipping.ts", Line: 2, Tests: []string{"test/shipping.test.ts"}}},
		Mutants: []Mutant{
			{ID: "src/shipping.ts#ship#1", Target: "src/shipping.ts#ship", File: "src/shipping.ts", Line: 4, Column: 7, EndLine: 4, EndColumn: 17,
				Operator: "EqualityOperator", Replacement: "total >= 50", Decision: lab.Decision{Outcome: "survived", CoveredBy: []string{"test/shipping.test.ts"}},
				Diff: "@@ -4 +4 @@\n-  if (total > 50) {\n+  if (total >= 50) {\n"},
			{ID: "src/shipping.ts#ship#2", Target: "src/shipping.ts#ship", File: "src/shipping.ts", Line: 4, Column: 7, EndLine: 4, EndColumn: 17,
				Operator: "ConditionalExpression", Replacement: "false", Decision: lab.Decision{Outcome: "killed", KilledBy: "test/shipping.test.ts", KilledByTest: killer, CoveredBy: []string{"test/shipping.test.ts"}},
				Diff: "@@ -4 +4 @@\n-  if (total > 50) {\n+  if (false) {\n"},
		},
		Tests: map[string][]TestCase{"test/shipping.test.ts": {
			{ID: killer, Name: "shipping > ships free over 50", Line: 5, FullName: "shipping ships free over 50"},
			{ID: "test/shipping.test.ts > shipping > charges 5 below", Name: "shipping > charges 5 below", Line: 9, FullName: "shipping charges 5 below"},
		}}}
	score(res)
	dir := t.TempDir()
	if d := os.Getenv("ORACLE_SCREENSHOTS"); d != "" {
		dir = d // the pages beside their screenshots
	}

	// The gate's page, as --html writes it, with the script that reports
	// what is rendered (the page itself has none); then with the killed
	// mutant opened.
	gate := string(res.HTML(root))
	os.WriteFile(filepath.Join(dir, "gate.html"), []byte(strings.Replace(gate, "</body>", seen("")+"</body>", 1)), 0o644)
	os.WriteFile(filepath.Join(dir, "gate-killed.html"), []byte(strings.Replace(gate, "</body>", seen("killed src/shipping.ts:4:7")+"</body>", 1)), 0o644)
	os.WriteFile(filepath.Join(dir, "gate-jump.html"), []byte(strings.Replace(gate, "</body>", seen("survived src/shipping.ts:4:7 EqualityOperator")+"</body>", 1)), 0o644)
	page := render(t, browser, "file://"+filepath.Join(dir, "gate.html"), "gate-page")
	for _, want := range []string{"GATE FAIL 50% (1/2) on 2 changed lines, threshold 90", "src/shipping.ts scores 50% (1/2), below the threshold 90",
		"survived src/shipping.ts:4:7 EqualityOperator", "-  if (total > 50) {\n+  if (total >= 50) {", "ran against test/shipping.test.ts",
		"killed src/shipping.ts:4:7 ConditionalExpression", "Survivors (1)", "survived src/shipping.ts:4:7 EqualityOperator\nin src/shipping.ts#ship",
		"a line the change wrote", "a mutant survived on it", "no test reached a mutant on it", "line 8"} {
		if !strings.Contains(page.Text, want) {
			t.Errorf("the gate's page does not show %q; it shows:\n%s", want, page.Text)
		}
	}
	if strings.Contains(page.Text, "+  if (false) {") {
		t.Errorf("the killed mutant's diff is shown: it should be collapsed\n%s", page.Text)
	}
	if fmt.Sprint(page.Changed) != "[3 4]" || fmt.Sprint(page.Survived) != "[4]" {
		t.Errorf("the page marks lines %v as changed (want [3 4]) and %v as a survivor's (want [4])", page.Changed, page.Survived)
	}
	if strings.Contains(page.Text, "\n8\n}") {
		t.Errorf("line 8, folded, is shown:\n%s", page.Text)
	}
	// The survivor's link in the list at the top jumps to it, open.
	jump := render(t, browser, "file://"+filepath.Join(dir, "gate-jump.html"), "gate-page-jump")
	if !jump.Clicked || jump.Hash != "#mutant-1" || jump.Target == nil || !jump.Target.Open || !jump.Target.Visible {
		t.Errorf("the survivor's link: clicked %v, at %q, the mutant there %+v", jump.Clicked, jump.Hash, jump.Target)
	}
	page = render(t, browser, "file://"+filepath.Join(dir, "gate-killed.html"), "gate-page-killed")
	if want := "killed by " + killer; !page.Clicked || !strings.Contains(page.Text, want) || !strings.Contains(page.Text, "+  if (false) {") {
		t.Errorf("the killed mutant, opened (clicked: %v), does not show its diff and %q:\n%s", page.Clicked, want, page.Text)
	}

	// The report in the viewer (which names files without their common
	// directory, src/ and test/ here): the file with its mutants, the
	// survivor's diff once clicked, the Tests tab and a test's mutants.
	doc, err := res.Report(root)
	if err != nil {
		t.Fatal(err)
	}
	view := func(name, hash, click string) seenPage {
		harness := "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>oracle gate report</title>\n<script src=\"file://" + html.EscapeString(viewer) + "\"></script></head><body>\n" +
			"<mutation-test-report-app title-postfix=\"oracle gate\"></mutation-test-report-app>\n" +
			"<script>document.querySelector(\"mutation-test-report-app\").report = " + string(doc) + ";</script>\n" + seen(click) + "</body></html>\n"
		os.WriteFile(filepath.Join(dir, name+".html"), []byte(harness), 0o644)
		return render(t, browser, "file://"+filepath.Join(dir, name+".html")+hash, name)
	}
	file := view("viewer-file", "#mutant/shipping.ts", "EqualityOperator Survived")
	for _, want := range []string{"shipping.ts", "Mutation Score", "50.00", "Survived ( 1 )", "if ( total > 50 ) {", "if ( total >= 50 ) {",
		"EqualityOperator Survived ( 4 : 7 )", "Covered by 2 test s (yet still survived)"} {
		if !file.Clicked || !strings.Contains(file.Flat, want) {
			t.Errorf("the viewer's file view, the survivor clicked (%v), does not show %q; it shows:\n%s", file.Clicked, want, file.Flat)
		}
	}
	tests := view("viewer-tests", "#test/shipping.test.ts", "shipping > ships free over 50 (Killing)")
	for _, want := range []string{"Killing ( 1 )", "Covering ( 1 )", `it ( "ships free over 50"`, "shipping > ships free over 50 [ Killing ] ( 5 : 1 )",
		"Killed: if (false) { ( src/shipping.ts:4:7 )", "Covered 2 mutant s"} {
		if !tests.Clicked || !strings.Contains(tests.Flat, want) {
			t.Errorf("the viewer's Tests tab, the killing test clicked (%v), does not show %q; it shows:\n%s", tests.Clicked, want, tests.Flat)
		}
	}
	t.Logf("the viewer's file view:\n%s\n\nits Tests tab:\n%s", file.Flat, tests.Flat)
}
