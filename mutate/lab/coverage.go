package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// Coverage runs (Lab.Coverage), StrykerJS's perTest coverage at the grain
// of a test file: while the baselines run, every mutated file holds its
// original code with a marker before each statement that holds a mutant
// (edit.MarkCoverage), so each baseline also tells which mutants' code that
// test file reached. A mutant then runs only against those test files, and
// one no test file reached is no-coverage without a run. A mutant whose
// code cannot carry a marker (outside any block) runs against every test
// file, as without coverage.

// coverage is what the coverage runs established. A nil *coverage is "no
// coverage": every mutant runs against every test file.
type coverage struct {
	probes   map[Probe]string    // the probes whose body carries an entry marker, with its id
	reached  map[string][]string // test file → the marker ids it reached (sorted)
	written  []string            // the instrumented files, restored after the baselines
	restored bool
}

// Probe is a function the baselines watch (Lab.Probes): its body, a byte
// range of the file at Path in the sandbox (a { } block or an arrow's
// expression body), gets an entry marker, so each baseline tells whether
// that test file entered the function: the answer to "which tests execute
// this", measured, not guessed.
type Probe struct {
	Path string
	Body [2]uint
}

// instrument writes every file the tasks' mutants change, or a probe is
// in, with the markers of all of them (a task's id; probe i's is
// probeID(i), its statement entry(id)), and marks the tasks whose code
// carries one. The baselines' probes and Measure's are marked here alike,
// and coverage.entered reads them alike.
func (l *Lab) instrument(tasks []*task, entry func(id string) string) (*coverage, error) {
	c := &coverage{reached: map[string][]string{}, probes: map[Probe]string{}}
	paths, byPath := byFile(tasks, func(*task) bool { return true })
	type probeMark struct {
		probe Probe
		id    string
	}
	probes := map[string][]probeMark{}
	for i, pr := range l.Probes {
		if _, ok := byPath[pr.Path]; !ok && len(probes[pr.Path]) == 0 {
			paths = append(paths, pr.Path)
		}
		probes[pr.Path] = append(probes[pr.Path], probeMark{pr, l.probeID(i)})
	}
	slices.Sort(paths)
	for _, p := range paths {
		orig, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)))
		if err != nil {
			continue // unmarked: these run against every test file, which reports the problem
		}
		var sites []edit.Site
		for _, t := range byPath[p] {
			sites = append(sites, edit.Site{Span: [2]uint{t.job.Mutant.Original.Start.Offset, t.job.Mutant.Original.End.Offset}, ID: t.id})
		}
		var entries []edit.Entry
		for _, pm := range probes[p] {
			entries = append(entries, edit.Entry{Body: pm.probe.Body, Stmt: entry(pm.id)})
		}
		src, marked, err := edit.Instrument(p, orig, sites, func(ids []string) string { return runner.FileMarkersStatement(ids...) }, entries)
		if err != nil {
			continue // unmarked, as above
		}
		if err := l.Files.WriteFile(p, src); err != nil {
			c.restore(l.Files)
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		c.written = append(c.written, p)
		for _, t := range byPath[p] {
			t.marked = marked[t.id]
		}
		for _, pm := range probes[p] {
			c.probes[pm.probe] = pm.id
		}
	}
	return c, nil
}

// probeMarker is a baseline's entry marker of a probe (its id): the
// baselines may run several test files at once (jointBaselines).
func probeMarker(id string) string { return runner.FileMarkersStatement(id) }

// probeID is probe i's marker id.
func (l *Lab) probeID(i int) string { return fmt.Sprintf("%s-entry-%d", l.MarkerPrefix, i) }

// entered lists, by probe, the test files (of tests, in order) whose
// baseline entered it; a probe that could not be marked (its file does
// not parse) is not in it.
func (c *coverage) entered(tests []string) map[Probe][]string {
	if c == nil {
		return nil
	}
	by := map[Probe][]string{}
	for p, id := range c.probes {
		by[p] = []string{}
		for _, t := range tests {
			if _, ok := slices.BinarySearch(c.reached[t], id); ok {
				by[p] = append(by[p], t)
			}
		}
	}
	return by
}

// markerID is the marker id of the lab's k-th job's mutant.
func (l *Lab) markerID(k int) string { return fmt.Sprintf("%s-%d", l.MarkerPrefix, k) }

// record notes the marker ids test file t reached in its baseline.
func (c *coverage) record(t string, ids []string) {
	if c != nil {
		c.reached[t] = ids
	}
}

// of returns the test files of tests (in order) whose baseline reached the
// marker of task tk, and whether tk carried a marker at all (when not, the
// list means nothing: the mutant runs against every test file).
func (c *coverage) of(tk *task, tests []string) ([]string, bool) {
	if c == nil || !tk.marked {
		return nil, false
	}
	by := []string{}
	for _, t := range tests {
		if _, ok := slices.BinarySearch(c.reached[t], tk.id); ok {
			by = append(by, t)
		}
	}
	return by, true
}

// restore puts the original code back (once).
func (c *coverage) restore(f Files) error {
	if c == nil || c.restored {
		return nil
	}
	c.restored = true
	var first error
	for _, p := range c.written {
		if err := f.Restore(p); err != nil && first == nil {
			first = fmt.Errorf("sandbox: %w", err)
		}
	}
	return first
}
