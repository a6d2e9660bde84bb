// Package strykerjs is what the benchmarks against StrykerJS share: its
// installation into a repository copy, its report, and the figures.
package strykerjs

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	cmd := exec.Command("npm", installArgs(dir)...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm i @stryker-mutator/core: %v\n%s", err, out)
	}
	return nil
}

// installArgs is npm's arguments for Install: StrykerJS and its vitest
// runner, and typescript where the repository has a tsconfig.json and no
// typescript installed (StrykerJS's tsconfig preprocessor imports it and
// stops with ERR_MODULE_NOT_FOUND without it: unjs/pathe's copy, its dev
// dependencies cut to what the tests import).
func installArgs(dir string) []string {
	args := []string{"i", "--no-save", "--no-package-lock", "--no-audit", "--no-fund",
		"@stryker-mutator/core@" + Version, "@stryker-mutator/vitest-runner@" + Version}
	if _, err := os.Stat(filepath.Join(dir, "tsconfig.json")); err == nil {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "typescript", "package.json")); err != nil {
			args = append(args, "typescript@5")
		}
	}
	return args
}

// Report is what a StrykerJS JSON report (mutation-testing-report-schema)
// says: the mutants, by status.
type Report struct {
	Mutants   int
	ByStatus  map[string]int
	ByMutator map[string]int
	List      []Mutant // every mutant, by file, then position
}

// Mutant is one mutant of either tool, for the per-mutant comparison:
// its file (repository-relative), its span (1-based lines and columns, the
// end column exclusive, as both reports count), its replacement, its
// operator and its status (StrykerJS's, or the gate's outcome).
type Mutant struct {
	File                             string
	Line, Column, EndLine, EndColumn int
	Replacement, MutatorName, Status string
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
				Replacement string `json:"replacement"`
				Location    struct {
					Start struct{ Line, Column int } `json:"start"`
					End   struct{ Line, Column int } `json:"end"`
				} `json:"location"`
			} `json:"mutants"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return Report{}, fmt.Errorf("%s: %v", path, err)
	}
	r := Report{ByStatus: map[string]int{}, ByMutator: map[string]int{}}
	for name, f := range doc.Files {
		for _, m := range f.Mutants {
			r.Mutants++
			r.ByStatus[m.Status]++
			r.ByMutator[m.MutatorName]++
			r.List = append(r.List, Mutant{File: name, Line: m.Location.Start.Line, Column: m.Location.Start.Column,
				EndLine: m.Location.End.Line, EndColumn: m.Location.End.Column,
				Replacement: m.Replacement, MutatorName: m.MutatorName, Status: m.Status})
		}
	}
	sortMutants(r.List)
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
