package callgraph

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// realPackages are open-source packages that ship their TypeScript sources,
// installed from the npm registry by scripts/deps (testdata/realpkgs, pinned
// by its lock file) and never committed: code nobody here wrote.
var realPackages = []string{"zod", "@tanstack/query-core", "immer", "mobx", "@trpc/client"}

// testSource matches the files of a package's src that are its tests.
var testSource = regexp.MustCompile(`(\.test\.|\.spec\.|__tests__/|/tests?/|\.d\.ts$)`)

// stageRealPackage copies the sources of an installed package (src/, tests
// left out) to a temporary repository with a tsconfig, as its own repository
// would compile them (bundler resolution: `.js` specifiers name `.ts` files).
func stageRealPackage(t *testing.T, pkg string) string {
	t.Helper()
	from := filepath.Join("../testdata/realpkgs/node_modules", filepath.FromSlash(pkg), "src")
	needTool(t, from, "the real packages of the differential test")
	return stageSources(t, from)
}

// stageSources copies the TypeScript sources under from (tests left out) to
// src/ of a temporary repository with a tsconfig.
func stageSources(t *testing.T, from string) string {
	t.Helper()
	root := t.TempDir()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		rel = "src/" + filepath.ToSlash(rel)
		if _, ok := langFor(rel); !ok || testSource.MatchString(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	tsconfig := map[string]any{
		"compilerOptions": map[string]any{
			"target": "ES2022", "lib": []string{"ES2022", "DOM"}, "module": "ESNext", "moduleResolution": "Bundler",
			"strict": true, "skipLibCheck": true, "noEmit": true, "allowImportingTsExtensions": true, "types": []string{},
		},
		"include": []string{"src"},
	}
	b, _ := json.Marshal(tsconfig)
	if err := os.WriteFile(filepath.Join(root, "tsconfig.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func langFor(p string) (string, bool) {
	switch {
	case strings.HasSuffix(p, ".ts"), strings.HasSuffix(p, ".tsx"), strings.HasSuffix(p, ".mts"), strings.HasSuffix(p, ".cts"):
		return "ts", true
	}
	return "", false
}

// TestDifferentialRealPackages: on real packages, every file parses without
// errors, every call the checker pins to a function of the package through
// names and declared types gets the same target from oracle (goal: at least
// 99.5%), and oracle never pins a call to a different target than the
// checker.
func TestDifferentialRealPackages(t *testing.T) {
	var total agreement
	for _, pkg := range realPackages {
		t.Run(strings.ReplaceAll(pkg, "/", "_"), func(t *testing.T) {
			root := stageRealPackage(t, pkg)
			want := runTSGraph(t, root, "--allow-errors")
			ours, err := Build(root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ours.Errors { // every valid file parses (issue 26)
				t.Errorf("parse error: %+v", e)
			}
			a, diffs := diffGraphsCounted(ours, want)
			for _, d := range diffs { // a different target, a lost call or function: never
				t.Error(d)
			}
			for _, m := range a.Missing {
				t.Log("left unresolved:", m)
			}
			if rate := float64(a.Same) / float64(max(a.Resolved, 1)); rate < 0.995 {
				t.Errorf("%s: %.2f%% of the calls the checker resolves get the same target (goal 99.5%%)", pkg, 100*rate)
			}
			t.Logf("%s: %d call sites, %d disagreements; %d resolved by the checker through names and declared types, %d the same (%.2f%%); %d only through inferred types, %d of them pinned by oracle",
				pkg, a.Sites, len(diffs), a.Resolved, a.Same, 100*float64(a.Same)/float64(max(a.Resolved, 1)), a.Inferred, a.Pinned)
			total.Sites += a.Sites
			total.Resolved += a.Resolved
			total.Same += a.Same
			total.Inferred += a.Inferred
			total.Pinned += a.Pinned
		})
	}
	t.Logf("overall: %d call sites; %d resolved by the checker through names and declared types, %d the same (%.2f%%); %d only through inferred types, %d pinned by oracle",
		total.Sites, total.Resolved, total.Same, 100*float64(total.Same)/float64(max(total.Resolved, 1)), total.Inferred, total.Pinned)
}

// thisShare counts the calls written `this.…` that the checker pins to a
// function or member of the repository (through declared or inferred
// types), and how many of them oracle pins to the same target.
func thisShare(ours *Graph, want tsGraph) (checker, same int, missing []string) {
	byID := map[string]*FunctionNode{}
	for _, fn := range ours.Functions {
		byID[fn.ID] = fn
	}
	for _, wf := range want.Functions {
		of := byID[wf.ID]
		if of == nil {
			continue
		}
		at := map[string]CallEdge{}
		for _, c := range of.Calls {
			at[fmt.Sprintf("%d:%d %s", c.Line, c.Column, c.Text)] = c
		}
		for _, wc := range wf.Calls {
			if wc.Target == nil || !strings.HasPrefix(wc.Text, "this.") {
				continue
			}
			checker++
			k := fmt.Sprintf("%d:%d %s", wc.Line, wc.Column, wc.Text)
			if c, ok := at[k]; ok && c.Target != nil && *c.Target == *wc.Target {
				same++
			} else {
				missing = append(missing, fmt.Sprintf("%s %s: oracle %s, checker %s", wf.ID, k, edgeLine(c), *wc.Target))
			}
		}
	}
	return checker, same, missing
}

// TestHeldOutSources measures, on sources outside the repository (not in CI:
// ORACLE_HELDOUT_SRC lists src directories, separated by the path list
// separator), the agreement with the checker and the share of the
// checker-resolved `this.…` calls oracle pins. Disagreements fail.
func TestHeldOutSources(t *testing.T) {
	dirs := filepath.SplitList(os.Getenv("ORACLE_HELDOUT_SRC"))
	if len(dirs) == 0 {
		t.Skip("ORACLE_HELDOUT_SRC not set")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(filepath.Dir(dir)), func(t *testing.T) {
			root := stageSources(t, dir)
			want := runTSGraph(t, root, "--allow-errors")
			ours, err := Build(root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ours.Errors { // every valid file parses (issue 26)
				t.Errorf("parse error: %+v", e)
			}
			a, diffs := diffGraphsCounted(ours, want)
			for _, d := range diffs {
				t.Error(d)
			}
			checker, same, missing := thisShare(ours, want)
			for _, m := range missing {
				t.Log("this call not pinned:", m)
			}
			t.Logf("%s: %d call sites, %d disagreements; declared: %d resolved by the checker, %d the same (%.2f%%); inferred: %d, %d pinned; this.… calls the checker pins: %d, oracle the same: %d (%.1f%%)",
				dir, a.Sites, len(diffs), a.Resolved, a.Same, 100*float64(a.Same)/float64(max(a.Resolved, 1)), a.Inferred, a.Pinned,
				checker, same, 100*float64(same)/float64(max(checker, 1)))
		})
	}
}
