package runner

import (
	"context"
	"os"
	"path/filepath"
	"time"
)

// RunJoint is JointRunner's: the files in one run of their key's long-lived jest, in band
// (`jest --runInBand a b c`: each file in its own module registry and test environment, one
// after the other), so that the baselines pay jest's run and ts-jest's type check of the
// shared code once, not once per file. Each file's result is read from its part of jest's
// report; its markers are the lines naming it (the environment names the file the markers
// read: JestWorker), its time its environment's (jest_env.cjs). Nothing falls back here:
// what it cannot attribute (a file left out of the report, a marker of no file, a run that
// failed with no file saying why, a time-out) is left for the runs of one file.
func (r *JestLongLived) RunJoint(ctx context.Context, s Spec, files []string) (map[string]Result, error) {
	if len(files) == 0 || s.TestTimeout > 0 || s.TestName != "" {
		return nil, nil // (a raised test time-out, one test: each file's own run)
	}
	var inv jestInvocation
	abs := make([]string, len(files))
	for i, f := range files {
		one := s
		one.TestFile = f
		v, err := r.Fresh.prepare(ctx, one)
		if err != nil {
			return nil, nil // its own run reports the problem
		}
		if i == 0 {
			inv = v
		} else if v.cwd != inv.cwd || v.jest != inv.jest || v.config != inv.config || v.node != inv.node {
			return nil, nil // files of different packages: one run each
		}
		abs[i] = v.testAbs
	}
	if s.ReachedMarker != "" || s.Coverage {
		if err := checkMarkerSupport(ctx, inv.node); err != nil {
			return nil, err
		}
	}
	key := jestKey{dir: filepath.Clean(s.Dir), cwd: inv.cwd, jest: inv.jest, config: inv.config, node: inv.node}
	p, why := r.acquire(key)
	if p == nil {
		if why == "" {
			return nil, ErrClosed
		}
		return nil, nil
	}
	defer p.mu.Unlock()
	out, err := r.joint(ctx, p, s, inv, files, abs)
	if r.unserved(key, err) != nil {
		return nil, nil // the runs of one file start the process again, or fall back
	}
	return out, err
}

// joint runs the files on p (p.mu held), once.
func (r *JestLongLived) joint(ctx context.Context, p *jestDriverProc, s Spec, inv jestInvocation, files, abs []string) (map[string]Result, error) {
	if err := r.ready(ctx, p, inv); err != nil {
		return nil, err
	}
	p.runs++
	args := jestArgs(s, inv, p.files.report, p.env, jestCache(p.key.cwd), r.Fresh.ExtraArgs)[1:]
	args = append(args[:len(args)-1], abs...) // after --runTestsByPath: every file's path
	sentinel, start, err := p.send(args)
	if err != nil {
		return nil, err
	}
	m, took, err := p.wait(ctx, s, inv, start)
	if err != nil || m == nil {
		return nil, err // (a time-out: the process is stopped; each file runs alone, with its own)
	}
	report, _ := os.ReadFile(p.files.report)
	phases, _ := os.ReadFile(p.files.phases)
	return attribute(jointEvidence{files: files, abs: abs, report: report, phases: phases, reached: p.files.reached,
		exit: m.Exit, output: p.out.waitFor(sentinel, 2*time.Second), clean: inv.clean, wall: took, marker: s.ReachedMarker, jest: true}), nil
}
