// Command stryker is the benchmark of `oracle prove` against StrykerJS on the
// same function (issue 9 item 6; not run in CI: it installs StrykerJS from
// the npm registry). On a copy of a sample (-sample pipeline: PROJ-142's
// processItem; -sample services: PROJ-201's OrderService.finalize, whose
// fixture uses a real sql.js database): StrykerJS 10 with its vitest
// runner, coverageAnalysis perTest, concurrency 2, the oracle file as its
// only test, mutating the function's lines; against `oracle prove`
// (batched, the default, and --isolate). Rounds interleave the three; it
// prints min/median/max, the ratios per round and the cost per mutant, with
// the node version.
//
//	go run ./bench/stryker [-runs N] [-node DIR] [-sample pipeline|services]
//
// -node is a directory holding the node binary, put first on PATH for both
// tools (default: Node 22 from testdata/vitest5, which scripts/deps
// installs).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/bench/internal/strykerjs"
	"github.com/oracle-ts/oracle/internal/samplecopy"
)

// sample is what a benchmark case proves.
type sample struct {
	ticket, file, decl, oracle string
}

var samples = map[string]sample{
	"pipeline": {"tickets/PROJ-142.yaml", "src/server/index.ts", "export async function processItem(",
		"src/server/__oracles__/processItem.skip-enrichment.oracle.test.ts"},
	"services": {"tickets/PROJ-201.yaml", "src/orders/service.ts", "  async finalize(",
		"src/orders/__oracles__/OrderService.finalize.skip-quote.oracle.test.ts"},
}

func main() {
	runs := flag.Int("runs", 5, "rounds")
	nodeDir := flag.String("node", "testdata/vitest5/node_modules/node/bin", "directory of the node binary to use")
	name := flag.String("sample", "pipeline", "pipeline or services")
	flag.Parse()
	sm, ok := samples[*name]
	if !ok {
		fmt.Fprintln(os.Stderr, "bench/stryker: -sample pipeline or services")
		os.Exit(2)
	}
	if err := mainErr(*runs, *nodeDir, *name, sm); err != nil {
		fmt.Fprintln(os.Stderr, "bench/stryker:", err)
		os.Exit(1)
	}
}

func mainErr(runs int, nodeDir, name string, sm sample) error {
	nodeDir, _ = filepath.Abs(nodeDir)
	env := append(os.Environ(), "PATH="+nodeDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	tmp, err := os.MkdirTemp("", "oracle-bench-stryker-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	src, _ := filepath.Abs(filepath.Join("testdata", name))
	nm, _ := filepath.Abs("testdata/pipeline/node_modules") // services runs on it too (the e2e tests do)
	repo := filepath.Join(tmp, "repo")
	if err := samplecopy.Copy(src, repo, nm); err != nil {
		return err
	}
	// StrykerJS is installed into the copy: its node_modules must be real.
	os.Remove(filepath.Join(repo, "node_modules"))
	if out, err := exec.Command("cp", "-a", nm, filepath.Join(repo, "node_modules")).CombinedOutput(); err != nil {
		return fmt.Errorf("copy node_modules: %v\n%s", err, out)
	}
	run := func(dir string, name string, args ...string) ([]byte, error) {
		if name == "node" {
			name = filepath.Join(nodeDir, name) // exec looks names up in this process's PATH
		}
		return strykerjs.Run(dir, env, name, args...)
	}
	if err := strykerjs.Install(repo, env); err != nil {
		return err
	}
	bin := filepath.Join(tmp, "oracle")
	if _, err := run(".", "go", "build", "-o", bin, "./cmd/oracle"); err != nil {
		return err
	}
	manifest := filepath.Join(repo, sm.ticket)
	if _, err := run(repo, bin, "gen", "--root", repo, manifest); err != nil {
		return err
	}
	from, to, err := functionLines(filepath.Join(repo, sm.file), sm.decl)
	if err != nil {
		return err
	}
	if err := strykerConfig(repo, sm, from, to); err != nil {
		return err
	}
	nodeV, _ := run(repo, "node", "--version")

	kinds := []string{"stryker", "prove", "prove --isolate"}
	wall := map[string][]time.Duration{}
	mutants := map[string]int{}
	for i := 0; i < runs; i++ {
		line := fmt.Sprintf("round %d:", i+1)
		for _, k := range kinds {
			start := time.Now()
			switch k {
			case "stryker":
				if _, err := run(repo, "node", "node_modules/@stryker-mutator/core/bin/stryker.js", "run"); err != nil {
					return err
				}
				r, err := strykerjs.ReadReport(filepath.Join(repo, "reports/mutation.json"))
				if err != nil {
					return err
				}
				mutants[k] = r.Mutants
			default:
				n, err := proveMutants(bin, env, repo, manifest, k)
				if err != nil {
					return err
				}
				mutants[k] = n
			}
			wall[k] = append(wall[k], time.Since(start))
			line += fmt.Sprintf(" %s %.2fs", k, wall[k][i].Seconds())
		}
		fmt.Println(line)
	}
	fmt.Printf("node %s", nodeV)
	for _, k := range kinds {
		lo, md, hi := strykerjs.Spread(strykerjs.Seconds(wall[k]))
		fmt.Printf("%-16s min/median/max %.2f/%.2f/%.2fs, %d mutants, %.0f ms of wall time per mutant (median)\n",
			k, lo, md, hi, mutants[k], 1000*md/float64(mutants[k]))
	}
	for _, k := range kinds[1:] {
		var rs []float64
		for i := range wall[k] {
			rs = append(rs, wall[k][i].Seconds()/wall["stryker"][i].Seconds())
		}
		lo, md, hi := strykerjs.Spread(rs)
		fmt.Printf("wall time %s / stryker, per round: min/median/max %.2f/%.2f/%.2f\n", k, lo, md, hi)
	}
	return nil
}

// strykerConfig writes StrykerJS's config into repo: the sample's function
// from-to mutated, the oracle the only test (the sample's vitest config, its
// aliases, otherwise).
func strykerConfig(repo string, sm sample, from, to int) error {
	files := map[string]string{
		// The sample's own config (its aliases), with the oracle as the only test.
		"vitest.stryker.config.ts": fmt.Sprintf(`import config from "./vitest.config";

config.test = { ...config.test, include: [%q] };
export default config;
`, sm.oracle),
		"stryker.config.json": fmt.Sprintf(`{
  "testRunner": "vitest",
  "coverageAnalysis": "perTest",
  "concurrency": 2,
  "mutate": ["%s:%d-%d"],
  "vitest": { "configFile": "vitest.stryker.config.ts", "related": false },
  "reporters": ["json"],
  "jsonReporter": { "fileName": "reports/mutation.json" },
  "tempDirName": ".stryker-tmp",
  "cleanTempDir": "always"
}
`, sm.file, from, to),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// proveMutants runs the prove of kind k ("prove" or "prove --isolate") and
// returns how many mutants it ran; anything but a PASS is an error.
func proveMutants(bin string, env []string, repo, manifest, k string) (int, error) {
	args := []string{"prove", "--json", "--timings", "--root", repo, manifest}
	if k == "prove --isolate" {
		args = append(args, "--isolate")
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("%s: %v\n%s", k, err, out)
	}
	var doc struct {
		Verdict string `json:"verdict"`
		Timings struct {
			Mutants int `json:"mutants"`
		} `json:"timings"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || doc.Verdict != "PASS" {
		return 0, fmt.Errorf("%s did not PASS (%v): %s", k, err, out)
	}
	return doc.Timings.Mutants, nil
}

// functionLines is the first and last line of the function whose
// declaration line starts with decl (indentation included): the last is the
// first closing brace at the same indentation.
func functionLines(path, decl string) (int, int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	from := 0
	indent := decl[:len(decl)-len(strings.TrimLeft(decl, " \t"))]
	for i, l := range strings.Split(string(b), "\n") {
		switch {
		case from == 0 && strings.HasPrefix(l, decl):
			from = i + 1
		case from > 0 && strings.HasPrefix(l, indent+"}"):
			return from, i + 1, nil
		}
	}
	return 0, 0, fmt.Errorf("%s: no %s...}", path, decl)
}
