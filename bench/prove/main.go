// Command prove is the benchmark of `oracle prove` on the seed scenario
// (testdata/pipeline, PROJ-142: one operation, four preserved calls, eleven
// mutants plus the baseline). It prints the total prove time, the time per
// run, and the ratio of the prove time to one plain vitest run of the same
// oracle, all measured in one run.
//
//	go run ./bench/prove [-runs N]
//
// It needs testdata/pipeline/node_modules (scripts/test installs it).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"
)

func main() {
	runs := flag.Int("runs", 3, "how many times to measure each")
	flag.Parse()
	if err := mainErr(*runs); err != nil {
		fmt.Fprintln(os.Stderr, "bench/prove:", err)
		os.Exit(1)
	}
}

func mainErr(runs int) error {
	tmp, err := os.MkdirTemp("", "oracle-bench-prove-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	src, err := filepath.Abs("testdata/pipeline")
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(src, "node_modules", "vitest")); err != nil {
		return fmt.Errorf("run from the repository root after scripts/test: %w", err)
	}
	repo := filepath.Join(tmp, "repo")
	if err := copyTree(src, repo); err != nil {
		return err
	}
	if err := os.Symlink(filepath.Join(src, "node_modules"), filepath.Join(repo, "node_modules")); err != nil {
		return err
	}
	bin := filepath.Join(tmp, "oracle")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/oracle").CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	manifest := filepath.Join(repo, "tickets/PROJ-142.yaml")
	if out, err := exec.Command(bin, "gen", "--root", repo, manifest).CombinedOutput(); err != nil {
		return fmt.Errorf("gen: %v\n%s", err, out)
	}
	oracleFile := "src/server/__oracles__/processItem.skip-enrichment.oracle.test.ts"

	var plain, total []time.Duration
	var perRun []float64
	nRuns := 0
	for i := 0; i < runs; i++ {
		start := time.Now()
		cmd := exec.Command("node", filepath.Join(repo, "node_modules/vitest/vitest.mjs"), "run", oracleFile, "--no-cache")
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("plain vitest run: %v\n%s", err, out)
		}
		plain = append(plain, time.Since(start))

		start = time.Now()
		out, err := exec.Command(bin, "prove", "--json", "--root", repo, manifest).Output()
		if err != nil {
			return fmt.Errorf("prove: %v\n%s", err, out)
		}
		total = append(total, time.Since(start))
		var doc struct {
			Verdict    string `json:"verdict"`
			Operations []struct {
				Runs []struct {
					Seconds float64 `json:"seconds"`
				} `json:"runs"`
			} `json:"operations"`
		}
		if err := json.Unmarshal(out, &doc); err != nil || doc.Verdict != "PASS" {
			return fmt.Errorf("prove did not PASS (%v): %s", err, out)
		}
		for _, r := range doc.Operations[0].Runs {
			perRun = append(perRun, r.Seconds)
		}
		nRuns = len(doc.Operations[0].Runs)
		fmt.Printf("run %d: plain vitest %.2fs, prove %.2fs (%d runs)\n", i+1, plain[i].Seconds(), total[i].Seconds(), nRuns)
	}
	mp, mt := median(plain), median(total)
	sort.Float64s(perRun)
	fmt.Printf("median: one plain vitest run of the oracle %.2fs; prove %.2fs for %d runs (baseline, red-first, %d mutants)\n",
		mp.Seconds(), mt.Seconds(), nRuns, nRuns-2)
	fmt.Printf("time per run: median %.2fs (vitest's own duration, as prove reports it); prove per run incl. overhead %.2fs\n",
		perRun[len(perRun)/2], mt.Seconds()/float64(nRuns))
	fmt.Printf("ratio prove / plain run: %.1f\n", mt.Seconds()/mp.Seconds())
	return nil
}

func median(xs []time.Duration) time.Duration {
	s := append([]time.Duration(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "__oracles__") {
			return filepath.SkipDir
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
}
