package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/oracle-ts/oracle/gate"
	"github.com/oracle-ts/oracle/mutate/lab"
)

// progress is how a long verb says how far it is, on standard error. On a
// terminal (and without --json) it is one line kept up to date: each show
// replaces it; clear removes it, so that the result never starts on the same
// line. Elsewhere (CI, a log, --json) it is plain lines, "oracle gate:
// mutants 240/421": one when a phase starts and at most one every
// plainEvery after that. Once beat has started it, a phase that goes
// plainEvery without an event (a long vitest run: the baselines run
// together, a batch of mutants) is said again with the time it has taken,
// so that no phase is silent for more than plainEvery.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	shown bool
	// plain: lines, not the live line; verb prefixes them.
	plain bool
	verb  string
	phase string
	last  time.Time // the last line (plain), or the last show (live)
	now   func() time.Time
	// text is what the latest event or step said (a plain line or the live
	// line's), since is when its phase started.
	text    string
	since   time.Time
	stop    chan struct{}
	cleared bool
}

// plainEvery is the least time between two plain progress lines of a
// phase, and the most between two lines once beat runs: beat says the
// phase again beatEvery after its last line, looking every beatTick.
const (
	plainEvery = 10 * time.Second
	beatEvery  = plainEvery - 2*beatTick
	beatTick   = 500 * time.Millisecond
)

// progressLine is the progress of verb on w: the live line when w is a
// terminal and live is set (no --json), else plain lines.
func progressLine(w io.Writer, live bool, verb string) *progress {
	if live && isTerminal(w) {
		return &progress{w: w, now: time.Now}
	}
	return &progress{w: w, plain: true, verb: verb, now: time.Now}
}

// step says a phase starts ("measuring 12 test files"): a plain line at
// once, or the live line.
func (p *progress) step(phase, format string, a ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase = phase
	p.text = fmt.Sprintf(format, a...)
	if p.now != nil {
		p.last, p.since = p.now(), p.now()
	}
	if !p.plain {
		p.showLocked(p.text)
		return
	}
	fmt.Fprintf(p.w, "oracle %s: %s\n", p.verb, p.text)
}

func (p *progress) show(format string, a ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.showLocked(fmt.Sprintf(format, a...))
}

func (p *progress) showLocked(text string) {
	fmt.Fprint(p.w, "\r\033[K"+text)
	p.shown = true
}

// beat starts saying the phase again every plainEvery it goes without a
// line (tick), until clear.
func (p *progress) beat() {
	if p == nil || p.stop != nil {
		return
	}
	p.stop = make(chan struct{})
	go func(stop <-chan struct{}) {
		t := time.NewTicker(beatTick)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				p.tick()
			}
		}
	}(p.stop)
}

// tick says the phase again, with the time it has taken, when beatEvery
// has gone by since the last line: "oracle gate: baselines 0/3 (1m39s so
// far)".
func (p *progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.text == "" || p.now == nil || p.cleared {
		return
	}
	now := p.now()
	if now.Sub(p.last) < beatEvery {
		return
	}
	p.last = now
	text := fmt.Sprintf("%s (%s so far)", p.text, now.Sub(p.since).Round(time.Second))
	if !p.plain {
		p.showLocked(text)
		return
	}
	fmt.Fprintf(p.w, "oracle %s: %s\n", p.verb, text)
}

// event shows a lab's progress: "run 3 of 12: op-1 baseline" (prove),
// "mutant 3 of 40: ConditionalExpression" (gate).
func (p *progress) event(e lab.Event) {
	if p == nil {
		return
	}
	if p.plain {
		p.plainEvent(e)
		return
	}
	phase, _ := plainText(e)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.text = eventText(e)
	if p.now != nil {
		if phase != p.phase {
			p.phase, p.since = phase, p.now()
		}
		p.last = p.now()
	}
	p.showLocked(p.text)
}

// plainEvent prints e as a plain line when its phase (the baselines, or the
// mutants) starts, or plainEvery after the phase's last line.
func (p *progress) plainEvent(e lab.Event) {
	phase, text := plainText(e)
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.text = text
	if phase != p.phase {
		p.since = now
	} else if now.Sub(p.last) < plainEvery {
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
	case e.Kind == lab.BaselineRun && e.Unit == gate.BaselineFiles:
		return "baselines", baselineText(e, "/")
	case e.Kind == lab.BaselineRun:
		return "baselines", "baselines: " + e.Test
	}
	if e.Kind == lab.BatchRun {
		return "mutants", fmt.Sprintf("%ss %d/%d: %s", e.Unit, e.Done, e.Total, eventWhat(e))
	}
	return "mutants", fmt.Sprintf("%ss %d/%d", e.Unit, e.Done, e.Total)
}

// baselineText is the gate's count of baselines: "baselines 1/3:
// test/b.test.ts" (sep "/"), "baselines 1 of 3: test/b.test.ts" (" of ");
// before the test files run together, none is named.
func baselineText(e lab.Event, sep string) string {
	s := fmt.Sprintf("baselines %d%s%d", e.Done, sep, e.Total)
	if e.Test != "" {
		s += ": " + e.Test
	}
	return s
}

func eventText(e lab.Event) string {
	if e.Kind == lab.BaselineRun && e.Unit == gate.BaselineFiles {
		return baselineText(e, " of ")
	}
	return fmt.Sprintf("%s %d of %d: %s", e.Unit, e.Done, e.Total, eventWhat(e))
}

// eventWhat names what e runs: "op-1 baseline", a mutant.
func eventWhat(e lab.Event) string {
	what := e.Mutant
	switch e.Kind {
	case lab.BaselineRun:
		what = "baseline"
	case lab.BatchRun:
		what = fmt.Sprintf("a batch of %d on %s", e.Variants, e.Test)
	}
	if e.Op != "" {
		what = e.Op + " " + what
	}
	return what
}

func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	p.cleared = true
	if p.plain {
		return
	}
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
