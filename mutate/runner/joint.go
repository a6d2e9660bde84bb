package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// JointRunner runs several test files in one vitest run, each as a run of its own would
// (LongLivedRunner is one): the per-run cost (a vitest worker started, the test file's
// modules imported into a fresh registry) is paid once, not once per file.
type JointRunner interface {
	// RunJoint runs files (repository-relative, like Spec.TestFile; s.TestFile is ignored)
	// with s's other fields in one run and returns the result of every file it can attribute
	// to that file alone, with its Markers (FileMarkersStatement) and its Duration (the
	// file's own time in the run plus the run's time outside any file). A file missing from
	// the map, or every file, must be run alone: the run timed out, crashed, had an
	// unhandled error or a marker of no file, left the file out (a project in typecheck
	// mode), or the runner cannot run files together here. The error is Run's kind: the
	// environment (node missing, the runner closed, ctx).
	RunJoint(ctx context.Context, s Spec, files []string) (map[string]Result, error)
}

// RunJoint is JointRunner's: one request to the long-lived process for the files' key
// (longlived_driver.mjs's runJoint). Nothing falls back here: what it cannot attribute is
// left for the caller's runs of one file.
func (r *LongLivedRunner) RunJoint(ctx context.Context, s Spec, files []string) (map[string]Result, error) {
	if len(files) == 0 || s.TestTimeout > 0 {
		return nil, nil // (a raised test time-out: each file's own run, in a fresh process)
	}
	pr := &ProcessRunner{Node: r.Node}
	var inv invocation
	abs := make([]string, len(files))
	for i, f := range files {
		one := s
		one.TestFile = f
		v, err := pr.prepare(one)
		if err != nil {
			return nil, nil // its own run reports the problem
		}
		if i == 0 {
			inv = v
		} else if v.cwd != inv.cwd || v.vitest != inv.vitest {
			return nil, nil // files of different packages: one run each
		}
		abs[i] = v.testAbs
	}
	if s.ReachedMarker != "" || s.Coverage {
		if err := checkMarkerSupport(ctx, inv.node); err != nil {
			return nil, err
		}
	}
	key := llKey{dir: filepath.Clean(s.Dir), cwd: inv.cwd, vitest: inv.vitest, config: inv.config, node: inv.node}
	d, _, err := r.acquire(key)
	if err != nil || d == nil {
		return nil, err
	}
	out, err := d.joint(ctx, r, s, inv, files, abs)
	d.mu.Unlock()
	var pe *llProtocolError
	if errors.As(err, &pe) {
		if r.isClosed() {
			return nil, ErrClosed
		}
		return nil, nil // the runs of one file start the process again, or fall back
	}
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.stats.Runs++
	r.stats.JointRuns++
	r.stats.JointFiles += len(out)
	r.mu.Unlock()
	return out, nil
}

// joint runs the files on the (started if needed) process, once; d.mu held.
func (d *llDriver) joint(ctx context.Context, r *LongLivedRunner, s Spec, inv invocation, files, abs []string) (out map[string]Result, err error) {
	err = d.onProcess(ctx, r, func(p *llProc) (stale bool, err error) {
		out, stale, err = d.jointRequest(ctx, r, p, s, inv, files, abs)
		return stale, err
	})
	return out, err
}

func (d *llDriver) jointRequest(ctx context.Context, r *LongLivedRunner, p *llProc, s Spec, inv invocation, files, abs []string) (out map[string]Result, stale bool, err error) {
	reportPath, phasesPath, reachedPath := p.path("report.json"), p.path("phases.json"), p.path("reached")
	id, sentinel, start, err := d.send(p, map[string]any{"files": abs})
	if err != nil {
		return nil, false, err
	}
	wd := watch(s, p.path("progress"))
	defer wd.stop()
	var m struct {
		llResponse
		Refused []string `json:"refused"`
	}
	select {
	case msg, ok := <-p.resp:
		if !ok {
			<-waitOr(p.exited, 3*time.Second)
			d.stop()
			return nil, false, protoErr("the driver exited during a joint run")
		}
		if msg.ID != id {
			d.stop()
			return nil, false, protoErr("unexpected message %.200q", msg.raw)
		}
		m.llResponse = msg
		_ = json.Unmarshal([]byte(msg.raw), &m)
	case <-ctx.Done():
		d.stop()
		return nil, false, ctx.Err()
	case <-wd.Done:
		d.stop() // the whole group; the files run alone, each with its own time-out
		return nil, false, nil
	}
	wall := time.Since(start)
	switch m.Type {
	case "done":
	case "stale":
		return nil, true, nil
	case "nomatch", "unsupported":
		return nil, false, nil
	case "error":
		d.stop()
		return nil, false, protoErr("the joint run threw: %s", r.clean(d).line(m.Error, false))
	default:
		d.stop()
		return nil, false, protoErr("unexpected message %.200q", m.raw)
	}
	r.mu.Lock()
	r.stats.Invalidated += m.Invalidated
	r.mu.Unlock()
	output := p.out.waitFor(sentinel, 2*time.Second)
	report, _ := os.ReadFile(reportPath)
	phases, _ := os.ReadFile(phasesPath)
	return attribute(jointEvidence{files: files, abs: abs, refused: m.Refused, report: report, phases: phases,
		reached: reachedPath, exit: m.Exit, output: output, clean: inv.clean, wall: wall, marker: s.ReachedMarker}), false, nil
}

// jointEvidence is what a finished joint run left behind.
type jointEvidence struct {
	files, abs      []string // the files asked for, repository-relative and absolute
	refused         []string // absolute: left out of the run
	report, phases  []byte
	reached, marker string // the reached file's path; Spec.ReachedMarker
	exit            int
	output          string
	clean           *cleaner
	wall            time.Duration
	jest            bool // jest's report: its messages read as jest words them
}

// attribute splits a joint run into the results of its files (see JointRunner): each file
// read alone from its part of the report, its markers the lines naming it.
func attribute(ev jointEvidence) map[string]Result {
	var rep jsonReport
	var ph phaseReport
	if json.Unmarshal(ev.report, &rep) != nil || json.Unmarshal(ev.phases, &ph) != nil || len(ph.Unhandled) > 0 {
		return nil // no report, or an error no file owns
	}
	names := make([][]string, len(ev.abs)) // each file's absolute paths: as given, real
	owner := map[string]int{}
	for i, a := range ev.abs {
		names[i] = []string{a}
		if rp, err := filepath.EvalSymlinks(a); err == nil && rp != a {
			names[i] = append(names[i], rp)
		}
		for _, n := range names[i] {
			owner[n] = i
		}
	}
	markers := make([]map[string]bool, len(ev.abs))
	if f, err := os.Open(ev.reached); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if sc.Text() == "" {
				continue
			}
			file, id, ok := strings.Cut(sc.Text(), "\t")
			i, mine := owner[filepath.Clean(file)]
			if !ok || !mine {
				f.Close()
				return nil // a marker of no file asked for (a plain marker, "?"): nothing is attributed
			}
			if markers[i] == nil {
				markers[i] = map[string]bool{}
			}
			markers[i][id] = true
		}
		f.Close()
	}
	own := map[string]float64{}
	sum := 0.0
	for _, t := range ph.Files {
		own[filepath.Clean(t.File)] += t.Ms
		sum += t.Ms
	}
	rest := max(ev.wall-time.Duration(sum*float64(time.Millisecond)), 0)
	out := map[string]Result{}
	allPassed := true
	for i, rel := range ev.files {
		if slices.ContainsFunc(names[i], func(n string) bool { return slices.Contains(ev.refused, n) }) {
			continue
		}
		var mine []jsonFileResult
		for _, fr := range rep.TestResults {
			if slices.Contains(names[i], filepath.Clean(fr.Name)) {
				mine = append(mine, fr)
			}
		}
		if len(mine) == 0 {
			continue // not in the report: run it alone
		}
		one, _ := json.Marshal(jsonReport{NumTotalTests: rep.NumTotalTests, Success: rep.Success, TestResults: mine})
		res := read(evidence{report: one, phases: ev.phases, exitCode: 0, output: ev.output, testAbs: names[i], rel: filepath.ToSlash(rel), clean: ev.clean, jest: ev.jest})
		res.Duration = ev.wall
		for _, n := range names[i] {
			if ms, ok := own[n]; ok {
				res.Duration = time.Duration(ms*float64(time.Millisecond)) + rest
				break
			}
		}
		res.Attempts = 1
		for id := range markers[i] {
			res.Markers = append(res.Markers, id)
		}
		slices.Sort(res.Markers)
		res.Reached = ev.marker != "" && markers[i][ev.marker]
		allPassed = allPassed && !res.failedAnything()
		out[rel] = res
	}
	if allPassed && ev.exit != 0 {
		return nil // vitest failed the run, and no file says why
	}
	return out
}

// failedAnything: the result reports a failure of some kind (a failed test, a failed
// file, an unhandled error, no report): what a non-zero exit of a joint run can be
// blamed on.
func (r Result) failedAnything() bool {
	if r.NoReport || r.FileFailed || r.FileMessage != "" || len(r.Unhandled) > 0 {
		return true
	}
	for _, t := range r.Tests {
		if t.Status == TestFailed {
			return true
		}
	}
	return false
}
