package main

import (
	"fmt"
	"io"
	"sync"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// progress is the one line a long verb keeps up to date on a terminal
// (standard error): each show replaces it; clear removes it, so that the
// result never starts on the same line.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	shown bool
}

// progressLine is the progress line on w when w is a terminal and on is
// set (no --json), else nil (whose methods do nothing).
func progressLine(w io.Writer, on bool) *progress {
	if !on || !isTerminal(w) {
		return nil
	}
	return &progress{w: w}
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
	p.show("%s", eventText(e))
}

func eventText(e lab.Event) string {
	what := e.Mutant
	if e.Kind == lab.BaselineRun {
		what = "baseline"
	}
	if e.Op != "" {
		what = e.Op + " " + what
	}
	return fmt.Sprintf("%s %d of %d: %s", e.Unit, e.Done, e.Total, what)
}

func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
