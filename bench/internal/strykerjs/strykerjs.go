// Package strykerjs is what the benchmarks against StrykerJS share: its
// installation into a repository copy, its report, and the figures.
package strykerjs

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"
)

// Version is the StrykerJS release the benchmarks install.
const Version = "10.1.1"

// Install adds StrykerJS and its vitest runner to the repository at dir
// (whose node_modules must be a real directory, npm's layout), with env
// (PATH holding the node to use).
func Install(dir string, env []string) error {
	cmd := exec.Command("npm", "i", "--no-save", "--no-package-lock", "--no-audit", "--no-fund",
		"@stryker-mutator/core@"+Version, "@stryker-mutator/vitest-runner@"+Version)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm i @stryker-mutator/core: %v\n%s", err, out)
	}
	return nil
}

// Report is what a StrykerJS JSON report (mutation-testing-report-schema)
// says: the mutants, by status.
type Report struct {
	Mutants   int
	ByStatus  map[string]int
	ByMutator map[string]int
}

// Score is (killed + timeout) / (killed + timeout + survived + no
// coverage), in percent: the gate's formula.
func (r Report) Score() float64 {
	det := r.ByStatus["Killed"] + r.ByStatus["Timeout"]
	all := det + r.ByStatus["Survived"] + r.ByStatus["NoCoverage"]
	if all == 0 {
		return 100
	}
	return 100 * float64(det) / float64(all)
}

// ReadReport reads a report file.
func ReadReport(path string) (Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Report{}, err
	}
	var doc struct {
		Files map[string]struct {
			Mutants []struct {
				Status      string `json:"status"`
				MutatorName string `json:"mutatorName"`
			} `json:"mutants"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return Report{}, fmt.Errorf("%s: %v", path, err)
	}
	r := Report{ByStatus: map[string]int{}, ByMutator: map[string]int{}}
	for _, f := range doc.Files {
		for _, m := range f.Mutants {
			r.Mutants++
			r.ByStatus[m.Status]++
			r.ByMutator[m.MutatorName]++
		}
	}
	return r, nil
}

// Spread is the min, median and max of xs.
func Spread(xs []float64) (lo, med, hi float64) {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[0], s[len(s)/2], s[len(s)-1]
}

// Seconds converts durations for Spread.
func Seconds(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = d.Seconds()
	}
	return out
}

// Run runs name with args in dir with env; the error carries the output.
func Run(dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out, nil
}
