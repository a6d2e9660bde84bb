package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/internal/testenv"
)

// TestJestRead: jest's JSON report, as jest 29 writes it (recorded), read with the phases
// its environment wrote: the tests with the same names, statuses and lines as vitest's; a
// beforeEach failure is setup; jest's file message, which repeats the failed tests, is no
// file error; a file that did not run is FileFailed with its own error.
func TestJestRead(t *testing.T) {
	failing := `{"testResults":[{"name":"/r/test/a.test.ts","status":"failed",
	 "message":"  ● price › fails\n\n    expect(received).toBe(expected)\n",
	 "assertionResults":[
	  {"ancestorTitles":["price"],"title":"doubles","fullName":"price doubles","status":"passed","duration":4,"failureMessages":[],"location":{"line":4,"column":3}},
	  {"ancestorTitles":["price"],"title":"fails","fullName":"price fails","status":"failed","duration":3,"failureMessages":["Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 5\nReceived: 4\n    at Object.<anonymous> (/r/test/a.test.ts:5:40)"],"location":{"line":5,"column":3}},
	  {"ancestorTitles":[],"title":"setup","fullName":"setup","status":"failed","duration":1,"failureMessages":["Error: setup boom\n    at x"]},
	  {"ancestorTitles":[],"title":"slow","fullName":"slow","status":"failed","duration":101,"failureMessages":["Error: thrown: \"Exceeded timeout of 100 ms for a test.\nAdd a timeout value"]},
	  {"ancestorTitles":[],"title":"later","fullName":"later","status":"pending","duration":0,"failureMessages":[]}]}]}`
	phases := `{"tests":[{"name":"price doubles","state":"pass","phase":""},{"name":"price fails","state":"fail","phase":"body"},
	 {"name":"setup","state":"fail","phase":"setup"},{"name":"slow","state":"fail","phase":"body","timeout":true,"message":"Exceeded timeout of 100 ms for a test."}],"unhandled":[]}`
	res := read(evidence{report: []byte(failing), phases: []byte(phases), exitCode: 1, testAbs: []string{"/r/test/a.test.ts"}, rel: "test/a.test.ts", clean: newCleaner("/r"), jest: true})
	if res.FileFailed || res.FileMessage != "" {
		t.Errorf("a file whose tests failed is not a file error: %v %q", res.FileFailed, res.FileMessage)
	}
	want := []Test{
		{Name: "price doubles", Title: "doubles", Ancestors: []string{"price"}, Line: 4, Status: TestPassed, Duration: 4 * time.Millisecond},
		{Name: "price fails", Title: "fails", Ancestors: []string{"price"}, Line: 5, Status: TestFailed, Phase: PhaseBody, Failure: "Error: expect(received).toBe(expected) // Object.is equality: Expected: 5, Received: 4", Duration: 3 * time.Millisecond},
		{Name: "setup", Title: "setup", Ancestors: []string{}, Status: TestFailed, Phase: PhaseSetup, Failure: "Error: setup boom", Duration: time.Millisecond},
		{Name: "slow", Title: "slow", Ancestors: []string{}, Status: TestFailed, Phase: PhaseBody, TimedOut: true, Failure: "Exceeded timeout of 100 ms for a test.", Duration: 101 * time.Millisecond},
		{Name: "later", Title: "later", Ancestors: []string{}, Status: TestSkipped},
	}
	if len(res.Tests) != len(want) {
		t.Fatalf("tests = %+v", res.Tests)
	}
	for i := range want {
		if g := res.Tests[i]; g.Name != want[i].Name || g.Title != want[i].Title || !slices.Equal(g.Ancestors, want[i].Ancestors) || g.Line != want[i].Line ||
			g.Status != want[i].Status || g.Phase != want[i].Phase || g.Failure != want[i].Failure || g.TimedOut != want[i].TimedOut || g.Duration != want[i].Duration {
			t.Errorf("test %d = %+v, want %+v", i, g, want[i])
		}
	}

	load := `{"testResults":[{"name":"/r/test/b.test.ts","status":"failed","assertionResults":[],
	 "message":"  ● Test suite failed to run\n\n    \u001b[96mtest/b.test.ts\u001b[0m:1:22 - error TS2307: Cannot find module '../src/missing' or its corresponding type declarations.\n\n    1 import { nope } from \"../src/missing\";\n"}]}`
	res = read(evidence{report: []byte(load), exitCode: 1, testAbs: []string{"/r/test/b.test.ts"}, rel: "test/b.test.ts", clean: newCleaner("/r"), jest: true})
	if !res.FileFailed || res.FileMessage != "test/b.test.ts:1:22 - error TS2307: Cannot find module '../src/missing' or its corresponding type declarations." || len(res.Tests) != 0 {
		t.Errorf("load failure: FileFailed %v, FileMessage %q, tests %v", res.FileFailed, res.FileMessage, res.Tests)
	}
	res = read(evidence{exitCode: 1, output: "Error: Cannot find module 'ts-jest'\n", testAbs: []string{"/r/test/b.test.ts"}, rel: "test/b.test.ts", clean: newCleaner("/r"), jest: true})
	if !res.NoReport || !strings.HasPrefix(res.Note, "jest exited with code 1 and wrote no report") {
		t.Errorf("no report: %v %q", res.NoReport, res.Note)
	}
}

// jestRepo writes a small ts-jest repository (node_modules linked from testdata/jest) and
// returns its root.
func jestRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	env := testenv.NeedJest(t)
	testenv.NeedTool(t, "node")
	root := testenv.WriteTree(t, "", map[string]string{
		"package.json":  `{"name":"j","private":true,"jest":{"preset":"ts-jest","testEnvironment":"node"}}`,
		"tsconfig.json": `{"compilerOptions":{"strict":true,"target":"es2020","module":"commonjs","esModuleInterop":true,"types":["jest","node"]}}`,
	})
	testenv.WriteTree(t, root, files)
	if err := os.Symlink(filepath.Join(env, "node_modules"), filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestJestRun runs real jest (testdata/jest): the tests and their phases (a beforeEach that
// throws is setup, never the body's), the markers naming the tests that executed the
// marked code (RanMarkerStatement under jest), a file that does not load FileFailed with
// its error, -t anchored, a run past its time-out stopped, and the progress a run shows
// (Spec.Stall).
func TestJestRun(t *testing.T) {
	t.Parallel()
	root := jestRepo(t, map[string]string{
		// ts-jest type-checks what it runs (strict here): every marker must.
		"src/price.ts": "export function price(n: number): number {\n  " + RanMarkerStatement("m1") + "\n  " + FileMarkersStatement("c1", "c2") + "\n  " + FileMarkerStatement("e1") + "\n  return n * 2;\n}\n" +
			"export function spin(): void {\n" + endless + "}\n",
		"test/price.test.ts": `import { price } from "../src/price";
describe("price", () => {
  it("doubles", () => { expect(price(2)).toBe(4); });
  it("is wrong", () => { expect(price(2)).toBe(5); });
  describe("guarded", () => {
    beforeEach(() => { if (price(1) === 2) throw new Error("setup boom"); });
    it("never runs", () => { expect(1).toBe(1); });
  });
});
test("apart", () => { expect(1).toBe(1); });
test("sees the progress", () => {
  expect(require("node:fs").readFileSync(process.env.ORACLE_PROGRESS, "utf8")).toBe("c\nt\nt\n");
});
`,
		"test/load.test.ts": `import { price } from "../src/price";
throw new Error("top-level boom " + price(1));
`,
		"test/spin.test.ts": `import { spin } from "../src/price";
test("spins", () => { spin(); });
`,
	})
	r := NewJest()
	ctx := context.Background()
	res, err := r.Run(ctx, Spec{Dir: root, TestFile: "test/price.test.ts", ReachedMarker: "m1", Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Test{}
	for _, tc := range res.Tests {
		got[tc.Name] = tc
	}
	if tc := got["price doubles"]; tc.Status != TestPassed || tc.Line != 3 || tc.Title != "doubles" {
		t.Errorf("price doubles = %+v", tc)
	}
	if tc := got["price is wrong"]; tc.Status != TestFailed || tc.Phase != PhaseBody || !strings.Contains(tc.Failure, "toBe") {
		t.Errorf("price is wrong = %+v", tc)
	}
	if tc := got["price guarded never runs"]; tc.Status != TestFailed || tc.Phase != PhaseSetup || !strings.Contains(tc.Failure, "setup boom") {
		t.Errorf("a beforeEach that throws: %+v", tc)
	}
	if tc := got["sees the progress"]; tc.Status != TestPassed {
		t.Errorf("the progress the environment wrote (the file collected, and the two tests that passed): %+v", tc)
	}
	if res.FileFailed || res.FileMessage != "" || !res.Reached {
		t.Errorf("FileFailed %v %q, Reached %v", res.FileFailed, res.FileMessage, res.Reached)
	}
	if want := []string{"c1", "c2", "e1", "m1"}; !slices.Equal(res.Markers, want) {
		t.Errorf("Markers = %q, want %q", res.Markers, want)
	}
	if want := []string{"price doubles", "price guarded never runs", "price is wrong"}; !slices.Equal(res.ReachedIn, want) {
		t.Errorf("ReachedIn = %q, want %q (outside: %q)", res.ReachedIn, want, res.ReachedOutside)
	}

	res, err = r.Run(ctx, Spec{Dir: root, TestFile: "test/price.test.ts", TestName: "price doubles", Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	for _, tc := range res.Tests {
		if tc.Status != TestSkipped {
			ran = append(ran, tc.Name)
		}
	}
	if !slices.Equal(ran, []string{"price doubles"}) {
		t.Errorf("-t \"price doubles\" ran %q", ran)
	}

	res, err = r.Run(ctx, Spec{Dir: root, TestFile: "test/load.test.ts", ReachedMarker: "m1", Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if !res.FileFailed || !strings.Contains(res.FileMessage, "top-level boom 2") || len(res.Tests) != 0 || !slices.Equal(res.ReachedOutside, []string{""}) {
		t.Errorf("load failure: %+v", res)
	}

	res, err = r.Run(ctx, Spec{Dir: root, TestFile: "test/spin.test.ts", Timeout: 20 * time.Second, Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.Attempts != 1 {
		t.Errorf("a loop: TimedOut %v, attempts %d", res.TimedOut, res.Attempts)
	}
}

// TestJestRunDocblock: a test file that names its environment in a docblock
// (`@jest-environment jsdom`) runs in that one, not in the runner's environment, and
// still says what the runner's says (jest_runner.cjs extends it): the markers name the
// tests that executed the marked code, a beforeEach that throws is setup. On a fresh jest
// and on the long-lived one.
func TestJestRunDocblock(t *testing.T) {
	t.Parallel()
	root := jestRepo(t, map[string]string{
		"src/price.ts": "export function price(n: number): number {\n  " + RanMarkerStatement("m1") + "\n  return n * 2;\n}\n",
		"test/price.test.ts": `/**
 * @jest-environment jsdom
 */
import { price } from "../src/price";
describe("price", () => {
  it("runs in jsdom", () => { expect(typeof document).toBe("object"); });
  it("doubles", () => { expect(price(2)).toBe(4); });
  it("is wrong", () => { expect(price(2)).toBe(5); });
  describe("guarded", () => {
    beforeEach(() => { if (price(1) === 2) throw new Error("setup boom"); });
    it("never runs", () => { expect(1).toBe(1); });
  });
});
`,
	})
	ll := NewJestLongLived()
	ll.OnFallback = func(s Spec, reason string) { t.Errorf("the long-lived jest fell back: %s", reason) }
	defer ll.Close()
	for _, r := range []Runner{NewJest(), ll} {
		docblockRun(t, r, root)
	}
}

// docblockRun is TestJestRunDocblock's run on r.
func docblockRun(t *testing.T, r Runner, root string) {
	t.Helper()
	res, err := r.Run(context.Background(), Spec{Dir: root, TestFile: "test/price.test.ts", ReachedMarker: "m1", Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Test{}
	for _, tc := range res.Tests {
		got[tc.Name] = tc
	}
	if tc := got["price runs in jsdom"]; tc.Status != TestPassed {
		t.Errorf("not in jsdom: %+v", tc)
	}
	if tc := got["price guarded never runs"]; tc.Status != TestFailed || tc.Phase != PhaseSetup {
		t.Errorf("a beforeEach that throws: %+v", tc)
	}
	if want := []string{"price doubles", "price guarded never runs", "price is wrong"}; !slices.Equal(res.ReachedIn, want) || len(res.ReachedOutside) != 0 {
		t.Errorf("ReachedIn = %q, want %q (outside: %q)", res.ReachedIn, want, res.ReachedOutside)
	}
}

// TestJestPrepareMutant: a mutated file gets TypeScript's @ts-nocheck first (after a
// shebang): ts-jest loads a mutant that does not type-check, as vitest does.
func TestJestPrepareMutant(t *testing.T) {
	r := NewJest()
	for in, want := range map[string]string{
		"export const a = 1;\n":         "// @ts-nocheck\nexport const a = 1;\n",
		"#!/usr/bin/env node\nrun();\n": "#!/usr/bin/env node\n// @ts-nocheck\nrun();\n",
		"#!/usr/bin/env node":           "#!/usr/bin/env node\n// @ts-nocheck\n",
		"\"use strict\";\nexport {};\n": "// @ts-nocheck\n\"use strict\";\nexport {};\n",
	} {
		if got := string(PrepareMutant(r, "src/a.ts", []byte(in))); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
	if got := string(PrepareMutant(New(), "src/a.ts", []byte("x;\n"))); got != "x;\n" {
		t.Errorf("vitest's runner changed the mutant: %q", got)
	}
}

// TestJestFinds: jest itself says which paths it takes as test files, whether or not they
// exist yet: its roots and testPathIgnorePatterns leave a path out, its default testMatch
// takes an oracle's `.oracle.test.ts`; a package of its own is asked in its directory.
func TestJestFinds(t *testing.T) {
	t.Parallel()
	root := jestRepo(t, map[string]string{
		"package.json":     `{"name":"j","private":true,"jest":{"preset":"ts-jest","testEnvironment":"node","roots":["<rootDir>/src","<rootDir>/test"],"testPathIgnorePatterns":["/node_modules/","/test/skipped/"]}}`,
		"src/a.ts":         "export const a = 1;\n",
		"test/a.test.ts":   "it(\"a\", () => {});\n",
		"pkg/package.json": `{"name":"p","private":true,"jest":{"testMatch":["**/*.check.ts"]}}`,
	})
	files := []string{"src/__oracles__/a.x.oracle.test.ts", "test/a.test.ts", "test/skipped/b.test.ts", "other/c.test.ts", "src/a.ts", "pkg/d.check.ts", "pkg/e.test.ts"}
	got, err := NewJest().Finds(context.Background(), root, files)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"src/__oracles__/a.x.oracle.test.ts": true, "test/a.test.ts": true, "pkg/d.check.ts": true}
	for _, f := range files {
		if got[f] != want[f] {
			t.Errorf("%s: jest takes it %v, want %v", f, got[f], want[f])
		}
	}
}
