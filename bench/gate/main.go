// Command gate is the benchmark of `oracle gate` against StrykerJS on the
// same work (issue 10 item 8; not run in CI: it installs StrykerJS from the
// npm registry). On a copy of a repository and a change given as a list of
// files: `oracle gate --files` runs first, untimed, to name the functions it
// mutates and their related test files; StrykerJS 10 (vitest runner,
// coverageAnalysis perTest, concurrency 2) then mutates the same functions'
// line ranges with the same test files as its only tests. Rounds alternate
// the two tools; it prints wall time, mutants, score and mutants per second
// for both (min/median/max), and the ratio of mutants per second per round.
//
//	go run ./bench/gate [-repo DIR] [-files a.ts,b.ts] [-runs N] [-node DIR]
//
// -repo is a checkout with its dependencies installed by npm (default: the
// services sample, whose node_modules is the pipeline sample's); it is
// copied, never changed. -node is a directory holding the node binary, put
// first on PATH for both tools (default: Node 22 from testdata/vitest5,
// which scripts/deps installs).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/bench/internal/strykerjs"
	"github.com/oracle-ts/oracle/internal/samplecopy"
)

func main() {
	repo := flag.String("repo", "testdata/services", "the repository (a checkout with node_modules installed by npm)")
	files := flag.String("files", "src/orders/repository.ts,src/orders/service.ts,src/orders/pricing.ts", "the change: repo-relative files, comma-separated")
	runs := flag.Int("runs", 3, "rounds")
	nodeDir := flag.String("node", "testdata/vitest5/node_modules/node/bin", "directory of the node binary to use")
	flag.Parse()
	if err := mainErr(*repo, strings.Split(*files, ","), *runs, *nodeDir); err != nil {
		fmt.Fprintln(os.Stderr, "bench/gate:", err)
		os.Exit(1)
	}
}

// gateDoc is the part of `oracle gate --json` the benchmark reads.
type gateDoc struct {
	Verdict string  `json:"verdict"`
	Reason  string  `json:"reason"`
	Score   float64 `json:"score"`
	Targets []struct {
		ID, File, Skipped string
		Tests             []string
	} `json:"targets"`
	Mutants []struct {
		File, Replacement string
		Line, Column      int
		EndLine           int    `json:"endLine"`
		EndColumn         int    `json:"endColumn"`
		Outcome           string `json:"outcome"`
		MutatorName       string `json:"mutatorName"`
	} `json:"mutants"`
	Timings struct {
		Setup, Baseline, Batches, Alone float64
		RanAlone                        int `json:"ranAlone"`
	} `json:"timings"`
}

func mainErr(repoDir string, files []string, runs int, nodeDir string) error {
	nodeDir, _ = filepath.Abs(nodeDir)
	env := append(os.Environ(), "PATH="+nodeDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	tmp, err := os.MkdirTemp("", "oracle-bench-gate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	repo := filepath.Join(tmp, "repo")
	if err := copyRepo(repoDir, repo); err != nil {
		return err
	}
	if err := strykerjs.Install(repo, env); err != nil {
		return err
	}
	bin := filepath.Join(tmp, "oracle")
	if _, err := strykerjs.Run(".", os.Environ(), "go", "build", "-o", bin, "./cmd/oracle"); err != nil {
		return err
	}
	list := filepath.Join(tmp, "change.txt")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	gate := func() (gateDoc, error) {
		var doc gateDoc
		cmd := exec.Command(bin, "gate", "--json", "--timings", "--no-cache", "--threshold", "0", "--root", repo, "--files", list)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			return doc, fmt.Errorf("oracle gate: %v\n%s", err, out)
		}
		if err := json.Unmarshal(out, &doc); err != nil || doc.Verdict != "PASS" {
			return doc, fmt.Errorf("oracle gate did not PASS (%v): %.2000s", err, out)
		}
		return doc, nil
	}
	// The work: the functions the gate mutates, and their related tests.
	first, err := gate()
	if err != nil {
		return err
	}
	mutate, tests, err := work(first, repo)
	if err != nil {
		return err
	}
	if len(mutate) == 0 {
		return fmt.Errorf("the gate mutates nothing in %v", files)
	}
	if err := strykerConfig(repo, mutate, tests); err != nil {
		return err
	}
	nodeV, _ := strykerjs.Run(repo, env, filepath.Join(nodeDir, "node"), "--version")
	fmt.Printf("node %s", nodeV)
	fmt.Printf("work: %d functions (%s), %d test files\n", len(mutate), strings.Join(mutate, " "), len(tests))

	fig := map[string]*figures{"stryker": {}, "gate": {}}
	// One plain `vitest run` of the related test files (the repository's
	// own config, the files as filters), per round: what the gate's
	// baseline phase is held to.
	vitestArgs := append([]string{"node_modules/vitest/vitest.mjs", "run"}, tests...)
	for i := 0; i < runs; i++ {
		line := fmt.Sprintf("round %d (load %s):", i+1, loadavg())
		start := time.Now()
		if out, err := strykerjs.Run(repo, env, filepath.Join(nodeDir, "node"), vitestArgs...); err != nil {
			line += fmt.Sprintf(" [plain vitest run failed: %.300s]", out)
		}
		line += fmt.Sprintf(" vitest run %.1fs", time.Since(start).Seconds())
		for _, k := range []string{"stryker", "gate"} {
			f := fig[k]
			start := time.Now()
			switch k {
			case "stryker":
				if _, err := strykerjs.Run(repo, env, filepath.Join(nodeDir, "node"), "node_modules/@stryker-mutator/core/bin/stryker.js", "run"); err != nil {
					return err
				}
				r, err := strykerjs.ReadReport(filepath.Join(repo, "reports", "mutation.json"))
				if err != nil {
					return err
				}
				f.n, f.score, f.detail, f.mutator, f.list = r.Mutants, r.Score(), fmt.Sprint(r.ByStatus), r.ByMutator, r.List
			case "gate":
				doc, err := gate()
				if err != nil {
					return err
				}
				line += gateFigures(doc, f)
			}
			d := time.Since(start)
			f.wall = append(f.wall, d)
			f.rate = append(f.rate, float64(f.n)/d.Seconds())
			line += fmt.Sprintf(" %s %.1fs (%d mutants, %.2f/s)", k, d.Seconds(), f.n, f.rate[i])
		}
		line += fmt.Sprintf(" ratio %.2f (load %s)", fig["gate"].rate[i]/fig["stryker"].rate[i], loadavg())
		fmt.Println(line)
	}
	printFigures(fig)
	return nil
}

// gateFigures records the gate's round in f (its mutants, score, outcomes,
// operators and each mutant for the agreement) and returns its phases as
// the round's line says them.
func gateFigures(doc gateDoc, f *figures) string {
	by, ops := map[string]int{}, map[string]int{}
	var list []strykerjs.Mutant
	for _, m := range doc.Mutants {
		by[m.Outcome]++
		ops[m.MutatorName]++
		list = append(list, strykerjs.Mutant{File: m.File, Line: m.Line, Column: m.Column, EndLine: m.EndLine, EndColumn: m.EndColumn,
			Replacement: m.Replacement, MutatorName: m.MutatorName, Status: m.Outcome})
	}
	f.n, f.score, f.detail, f.mutator, f.list = len(doc.Mutants), doc.Score, fmt.Sprint(by), ops, list
	t := doc.Timings
	return fmt.Sprintf(" [gate setup %.1fs, baseline %.1fs, batches %.1fs, alone %.1fs (%d)]", t.Setup, t.Baseline, t.Batches, t.Alone, t.RanAlone)
}

// work is what the gate mutates in its first run (each target function as
// file:from-to) and the related tests of those functions, each once.
func work(first gateDoc, repo string) (mutate, tests []string, err error) {
	seen := map[string]bool{}
	for _, t := range first.Targets {
		if t.Skipped != "" {
			continue
		}
		from, to, err := lines(filepath.Join(repo, t.File), t.File, t.ID[strings.Index(t.ID, "#")+1:])
		if err != nil {
			return nil, nil, err
		}
		mutate = append(mutate, fmt.Sprintf("%s:%d-%d", t.File, from, to))
		for _, f := range t.Tests {
			if !seen[f] {
				seen[f] = true
				tests = append(tests, f)
			}
		}
	}
	return mutate, tests, nil
}

// figures are the measures of one tool over the rounds: the wall time and
// mutants per second of each round, the last round's mutant count, score,
// outcomes and mutants by operator.
type figures struct {
	wall    []time.Duration
	rate    []float64
	n       int
	score   float64
	detail  string
	mutator map[string]int
	list    []strykerjs.Mutant
}

// printFigures prints each tool's spread over the rounds, the mutants by
// operator side by side, and the gate's speed relative to StrykerJS.
func printFigures(fig map[string]*figures) {
	for _, k := range []string{"stryker", "gate"} {
		f := fig[k]
		lo, md, hi := strykerjs.Spread(strykerjs.Seconds(f.wall))
		rl, rm, rh := strykerjs.Spread(f.rate)
		fmt.Printf("%-8s wall min/median/max %.1f/%.1f/%.1fs, %d mutants, score %.1f%%, mutants/s %.2f/%.2f/%.2f; %s\n",
			k, lo, md, hi, f.n, f.score, rl, rm, rh, f.detail)
	}
	// Where the mutant counts differ: the operator sets.
	names := map[string]bool{}
	for _, k := range []string{"stryker", "gate"} {
		for n := range fig[k].mutator {
			names[n] = true
		}
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	fmt.Println("mutants by operator (stryker / gate):")
	for _, n := range sorted {
		fmt.Printf("  %-24s %4d %4d\n", n, fig["stryker"].mutator[n], fig["gate"].mutator[n])
	}
	// Per mutant, the last round's: the mutants both tools made (same span,
	// same replacement) and each one whose verdict differs.
	a := strykerjs.Agree(fig["stryker"].list, fig["gate"].list)
	fmt.Printf("per mutant: %d made by both, %d the same verdict, %d differ; %d StrykerJS's only, %d the gate's only\n",
		a.Both, a.Same, len(a.Differ), a.OnlyStryker, a.OnlyGate)
	for _, p := range a.Differ {
		fmt.Println("  differ:", p)
	}
	var ratio []float64
	for i := range fig["gate"].rate {
		ratio = append(ratio, fig["gate"].rate[i]/fig["stryker"].rate[i])
	}
	lo, md, hi := strykerjs.Spread(ratio)
	fmt.Printf("mutants per second, gate / stryker, per round: min/median/max %.2f/%.2f/%.2f\n", lo, md, hi)
}

// copyRepo copies src to dst with a real node_modules (StrykerJS is
// installed into it): a testdata sample through samplecopy (its
// node_modules is the pipeline sample's), any other checkout whole.
func copyRepo(src, dst string) error {
	src, _ = filepath.Abs(src)
	nm := filepath.Join(src, "node_modules")
	if strings.HasPrefix(src, mustAbs("testdata")+string(filepath.Separator)) {
		if _, err := os.Stat(filepath.Join(nm, "vitest")); err != nil {
			nm = mustAbs("testdata/pipeline/node_modules") // services runs on it (the e2e tests do)
		}
		if err := samplecopy.Copy(src, dst, nm); err != nil {
			return err
		}
		os.Remove(filepath.Join(dst, "node_modules"))
		_, err := strykerjs.Run(".", os.Environ(), "cp", "-a", nm, filepath.Join(dst, "node_modules"))
		return err
	}
	_, err := strykerjs.Run(".", os.Environ(), "cp", "-a", src, dst)
	return err
}

// loadavg is the 1-minute load average ("?" where /proc has none).
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

func mustAbs(p string) string {
	a, _ := filepath.Abs(p)
	return a
}

// lines is the first and last line of the function qual in the file at path
// (rel in the repository).
func lines(path, rel, qual string) (int, int, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	f, syn := analyzer.ParseSyntax(rel, src)
	if syn == nil {
		return 0, 0, fmt.Errorf("%s does not parse", rel)
	}
	for _, fn := range f.Functions {
		if fn.Qual == qual {
			return fn.Line, syn.Line(fn.EndByte), nil
		}
	}
	return 0, 0, fmt.Errorf("%s: no function %s", rel, qual)
}

// strykerConfig writes StrykerJS's config and a vitest config that is the
// repository's own (when it has one) with the related test files as its
// only tests. A config with test.projects (remeda's: runtime tests, type
// tests in typecheck mode, property tests) ignores a top-level include: each
// project keeps the related files its own include matches, and a project in
// typecheck mode is left out (`vitest run <file>`, the gate's run, type-checks
// nothing for a runtime test file).
func strykerConfig(repo string, mutate, tests []string) error {
	vc := "export default { test: { include: %s } };\n"
	for _, name := range []string{"vitest.config.ts", "vitest.config.mts", "vitest.config.js", "vitest.config.mjs"} {
		if _, err := os.Stat(filepath.Join(repo, name)); err == nil {
			vc = `import { matchesGlob } from "node:path";
import config from "./` + name + `";

const tests = %s;
const projects = config.test?.projects;
if (Array.isArray(projects)) {
  const mine = (p) => tests.filter((t) => (p.test?.include ?? ["**/*.{test,spec}.?(c|m)[jt]s?(x)"]).some((g) => matchesGlob(t, g)));
  config.test = {
    ...config.test,
    projects: projects
      .filter((p) => typeof p === "object" && !p.test?.typecheck?.enabled)
      .map((p) => ({ ...p, test: { ...p.test, include: mine(p) } }))
      .filter((p) => p.test.include.length > 0),
  };
} else {
  config.test = { ...config.test, include: tests };
}
export default config;
`
			break
		}
	}
	inc, _ := json.Marshal(tests)
	mut, _ := json.Marshal(mutate)
	files := map[string]string{
		"vitest.stryker.config.ts": fmt.Sprintf(vc, inc),
		"stryker.config.json": fmt.Sprintf(`{
  "testRunner": "vitest",
  "coverageAnalysis": "perTest",
  "concurrency": 2,
  "mutate": %s,
  "vitest": { "configFile": "vitest.stryker.config.ts", "related": false },
  "reporters": ["json"],
  "jsonReporter": { "fileName": "reports/mutation.json" },
  "tempDirName": ".stryker-tmp",
  "cleanTempDir": "always"
}
`, mut),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
