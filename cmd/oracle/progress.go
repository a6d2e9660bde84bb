package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// progress is how a long verb says how far it is, on standard error. On a
// terminal (and without --json) it is one line kept up to date: each show
// replaces it; clear removes it, so that the result never starts on the same
// line. Elsewhere (CI, a log, --json) it is plain lines, "oracle gate:
// mutants 240/421": one when a phase starts and at most one every
// plainEvery after that.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	shown bool
	// plain: lines, not the live line; verb prefixes them.
	plain bool
	verb  string
	phase string
	last  time.Time
	now   func() time.Time
}

// plainEvery is the least time between two plain progress lines of a phase.
const plainEvery = 10 * time.Second

// progressLine is the progress of verb on w: the live line when w is a
// terminal and live is set (no --json), else plain lines.
func progressLine(w io.Writer, live bool, verb string) *progress {
	if live && isTerminal(w) {
		return &progress{w: w}
	}
	return &progress{w: w, plain: true, verb: verb, now: time.Now}
}

// step says a phase starts ("measuring 12 test files"): a plain line at
// once, or the live line.
func (p *progress) step(phase, format string, a ...any) {
	if p == nil {
		return
	}
	if !p.plain {
		p.show(format, a...)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase, p.last = phase, p.now()
	fmt.Fprintf(p.w, "oracle %s: "+format+"\n", append([]any{p.verb}, a...)...)
}

func (p *progress) show(format string, a ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\033[K"+format, a...)
	p.shown = true
}

// event shows a lab's progress: "run 3 of 12: op-1 baseline" (prove),
// "mutant 3 of 40: ConditionalExpression" (gate).
func (p *progress) event(e lab.Event) {
	if p != nil && p.plain {
		p.plainEvent(e)
		return
	}
	p.show("%s", eventText(e))
}

// plainEvent prints e as a plain line when its phase (the baselines, or the
// mutants) starts, or plainEvery after the phase's last line.
func (p *progress) plainEvent(e lab.Event) {
	phase, text := plainText(e)
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if phase == p.phase && now.Sub(p.last) < plainEvery {
		return
	}
	p.phase, p.last = phase, now
	fmt.Fprintf(p.w, "oracle %s: %s\n", p.verb, text)
}

// plainText is e's plain line and the phase it belongs to: prove's runs
// ("runs 3/12: op-1 red-first"), the gate's baselines ("baselines:
// test/a.test.ts") and mutants ("mutants 240/421").
func plainText(e lab.Event) (phase, text string) {
	switch {
	case e.Unit == lab.Runs:
		return "runs", fmt.Sprintf("runs %d/%d: %s", e.Done, e.Total, eventWhat(e))
	case e.Kind == lab.BaselineRun:
		return "baselines", "baselines: " + e.Test
	}
	return "mutants", fmt.Sprintf("%ss %d/%d", e.Unit, e.Done, e.Total)
}

func eventText(e lab.Event) string {
	return fmt.Sprintf("%s %d of %d: %s", e.Unit, e.Done, e.Total, eventWhat(e))
}

// eventWhat names what e runs: "op-1 baseline", a mutant.
func eventWhat(e lab.Event) string {
	what := e.Mutant
	if e.Kind == lab.BaselineRun {
		what = "baseline"
	}
	if e.Op != "" {
		what = e.Op + " " + what
	}
	return what
}

func (p *progress) clear() {
	if p == nil || p.plain {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
