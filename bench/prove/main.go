// Command prove is the benchmark of `oracle prove` on the seed scenario
// (testdata/pipeline, PROJ-142: one operation, four preserved calls, eleven
// mutants plus the baseline), or on the orders app (-sample orders:
// testdata/orders, PROJ-310, eleven mutants; it runs on testdata/pipeline's
// node_modules). It prints the total prove time, the time per
// run, and the ratio of the prove time to one plain vitest run of the same
// oracle, all measured in one run, and that ratio per round.
//
//	go run ./bench/prove [-runs N] [-sample pipeline|orders|orders-mocked] [-modes isolate/1,batched/1]
//
// Variants are measured interleaved in each round, all with the long-lived
// vitest runner: every mutant alone (--isolate, the engine before batching)
// one at a time and two at once (--concurrency 2, a sandbox each), and
// batched (the default) one and two at once. Ratios are to the first.
//
// It needs testdata/pipeline/node_modules (scripts/test installs it).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"github.com/oracle-ts/oracle/internal/samplecopy"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// samples are the samples the benchmark knows: the ticket and the oracle
// gen writes for it.
var samples = map[string]struct{ dir, ticket, oracle string }{
	"pipeline": {"pipeline", "tickets/PROJ-142.yaml", "src/server/__oracles__/processItem.skip-enrichment.oracle.test.ts"},
	"orders":   {"orders", "tickets/PROJ-310.yaml", "src/orders/__oracles__/checkout.quiet-checkout.oracle.test.ts"},
	// orders-mocked: testdata/orders with bench/prove/overlays/orders-mocked
	// written over it (the held-out shape: a fixture that imports the
	// sql.js database statically, the collaborators mocked by hoisted
	// vi.mocks in the generated oracle).
	"orders-mocked": {"orders", "tickets/PROJ-310.yaml", "src/orders/__oracles__/checkout.quiet-checkout.oracle.test.ts"},
}

func main() {
	runs := flag.Int("runs", 3, "how many times to measure each")
	sample := flag.String("sample", "pipeline", "the sample: pipeline, orders or orders-mocked")
	modes := flag.String("modes", "isolate/1,isolate/2,batched/1,batched/2", "the prove runs to measure, mode/concurrency")
	flag.Parse()
	if _, ok := samples[*sample]; !ok {
		fmt.Fprintf(os.Stderr, "bench/prove: unknown -sample %q (pipeline, orders, orders-mocked)\n", *sample)
		os.Exit(2)
	}
	if err := mainErr(*runs, *sample, strings.Split(*modes, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "bench/prove:", err)
		os.Exit(1)
	}
}

func mainErr(runs int, sample string, runners []string) error {
	tmp, err := os.MkdirTemp("", "oracle-bench-prove-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	src, err := filepath.Abs("testdata/" + samples[sample].dir)
	if err != nil {
		return err
	}
	nm, _ := filepath.Abs("testdata/pipeline/node_modules") // the orders sample has none of its own
	if _, err := os.Stat(filepath.Join(nm, "vitest")); err != nil {
		return fmt.Errorf("run from the repository root after scripts/deps: %w", err)
	}
	repo := filepath.Join(tmp, "repo")
	if err := samplecopy.Copy(src, repo, nm); err != nil {
		return err
	}
	if sample != samples[sample].dir {
		if err := overlay(filepath.Join("bench/prove/overlays", sample), repo); err != nil {
			return err
		}
	}
	bin := filepath.Join(tmp, "oracle")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/oracle").CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	manifest := filepath.Join(repo, samples[sample].ticket)
	if out, err := exec.Command(bin, "gen", "--root", repo, manifest).CombinedOutput(); err != nil {
		return fmt.Errorf("gen: %v\n%s", err, out)
	}
	oracleFile := samples[sample].oracle

	var plain []time.Duration
	total := map[string][]time.Duration{}
	perRun := map[string][]float64{}
	perMutant := map[string][]time.Duration{}
	nRuns := 0
	for i := 0; i < runs; i++ {
		start := time.Now()
		cmd := exec.Command("node", filepath.Join(repo, "node_modules/vitest/vitest.mjs"), "run", oracleFile, "--no-cache")
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("plain vitest run: %v\n%s", err, out)
		}
		plain = append(plain, time.Since(start))
		line := fmt.Sprintf("round %d: plain vitest %.2fs", i+1, plain[i].Seconds())
		for _, rk := range runners {
			start = time.Now()
			mode, conc, _ := strings.Cut(rk, "/")
			args := []string{"prove", "--json", "--timings", "--concurrency", conc, "--root", repo, manifest}
			if mode == "isolate" {
				args = append(args, "--isolate")
			}
			out, err := exec.Command(bin, args...).Output()
			if err != nil {
				return fmt.Errorf("prove --runner %s: %v\n%s", rk, err, out)
			}
			total[rk] = append(total[rk], time.Since(start))
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
				perRun[rk] = append(perRun[rk], r.Seconds)
			}
			nRuns = len(doc.Operations[0].Runs)
			// A mutant after the first run: the wall time less the baseline run
			// (sandbox, vitest start-up, the first load), over the other runs.
			base := time.Duration(doc.Operations[0].Runs[0].Seconds * float64(time.Second))
			perMutant[rk] = append(perMutant[rk], (total[rk][i]-base)/time.Duration(nRuns-1))
			line += fmt.Sprintf(", prove %s %.2fs", rk, total[rk][i].Seconds())
		}
		fmt.Println(line)
	}
	printSummary(sample, runners, plain, total, perRun, perMutant, nRuns)
	return nil
}

// printSummary prints the rounds' spreads: the plain vitest run of the
// oracle, each runner's prove (its wall time, per run, per mutant after the
// baseline run) and their ratios to the plain run and to the first runner.
func printSummary(sample string, runners []string, plain []time.Duration, total map[string][]time.Duration, perRun map[string][]float64, perMutant map[string][]time.Duration, nRuns int) {
	mp := median(plain)
	fmt.Printf("sample %s, node %s\n", sample, nodeVersion())
	fmt.Printf("one plain vitest run of the oracle: median %.2fs\n", mp.Seconds())
	for _, rk := range runners {
		lo, mt, hi := spread(total[rk])
		sort.Float64s(perRun[rk])
		fmt.Printf("prove %-13s min/median/max %.2f/%.2f/%.2fs for %d runs (baseline, red-first, %d mutants); %.2fs per run of the wall time (median of vitest's own duration %.2fs); ratio to one plain run %.1f\n",
			rk, lo.Seconds(), mt.Seconds(), hi.Seconds(), nRuns, nRuns-2, mt.Seconds()/float64(nRuns), perRun[rk][len(perRun[rk])/2], mt.Seconds()/mp.Seconds())
	}
	for _, rk := range runners {
		lo, md, hi := spread(perMutant[rk])
		fmt.Printf("prove %-13s per mutant after the baseline run: min/median/max %.0f/%.0f/%.0f ms\n", rk, float64(lo.Milliseconds()), float64(md.Milliseconds()), float64(hi.Milliseconds()))
	}
	for _, rk := range runners {
		var ratios []time.Duration // prove / the round's plain run, in units of 1/1000
		for i := range total[rk] {
			ratios = append(ratios, time.Duration(1000*total[rk][i].Seconds()/plain[i].Seconds()))
		}
		lo, md, hi := spread(ratios)
		fmt.Printf("prove %s / plain vitest run, per round: min/median/max %.2f/%.2f/%.2f\n", rk, float64(lo)/1000, float64(md)/1000, float64(hi)/1000)
	}
	for _, rk := range runners[1:] {
		var ratios []time.Duration // per round, in units of 1/1000
		for i := range total[rk] {
			ratios = append(ratios, time.Duration(1000*total[rk][i].Seconds()/total[runners[0]][i].Seconds()))
		}
		lo, md, hi := spread(ratios)
		fmt.Printf("wall time %s / %s, per round: min/median/max %.2f/%.2f/%.2f\n", rk, runners[0], float64(lo)/1000, float64(md)/1000, float64(hi)/1000)
	}
}

func nodeVersion() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

func spread(xs []time.Duration) (lo, med, hi time.Duration) {
	s := append([]time.Duration(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[0], s[len(s)/2], s[len(s)-1]
}

func median(xs []time.Duration) time.Duration {
	s := append([]time.Duration(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// overlay writes the files under dir over repo, at the same paths.
func overlay(dir, repo string) error {
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(repo, rel), b, 0o644)
	})
}
