package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// TestProgressEvent: a lab's progress, as the verbs count it, in the one
// line a terminal shows (README: "run i of N").
func TestProgressEvent(t *testing.T) {
	for _, c := range []struct {
		e    lab.Event
		want string
	}{
		{lab.Event{Kind: lab.BaselineRun, Test: "a.test.ts", Op: "op-1", Done: 1, Total: 5, Unit: lab.Runs}, "run 1 of 5: op-1 baseline"},
		{lab.Event{Kind: lab.Alone, Mutant: "red-first", Op: "op-1", Done: 2, Total: 5, Unit: lab.Runs}, "run 2 of 5: op-1 red-first"},
		{lab.Event{Kind: lab.BaselineRun, Test: "a.test.ts", Done: 0, Total: 40, Unit: lab.Mutants}, "mutant 0 of 40: baseline"},
		{lab.Event{Kind: lab.Batched, Mutant: "src/a.ts:3:7 ConditionalExpression", Done: 3, Total: 40, Unit: lab.Mutants}, "mutant 3 of 40: src/a.ts:3:7 ConditionalExpression"},
	} {
		if got := eventText(c.e); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
	var b bytes.Buffer
	p := &progress{w: &b}
	p.event(lab.Event{Kind: lab.Alone, Mutant: "m", Done: 1, Total: 2, Unit: lab.Mutants})
	p.clear()
	if got := b.String(); got != "\r\033[Kmutant 1 of 2: m\r\033[K" {
		t.Errorf("line: %q", got)
	}
}

// TestProgressPlain: where stderr is no terminal (CI, a log) or with --json,
// progress is plain lines: one when a phase starts (the baselines, the
// mutants, prove's runs), then at most one every 10 s of it; never the
// terminal's control sequences.
func TestProgressPlain(t *testing.T) {
	var b bytes.Buffer
	clock := time.Unix(0, 0)
	p := progressLine(&b, true, "gate") // a bytes.Buffer is no terminal
	p.now = func() time.Time { return clock }
	tick := func(d time.Duration) { clock = clock.Add(d) }
	p.step("setup", "reading the change, the code and the test suite")
	p.event(lab.Event{Kind: lab.BaselineRun, Test: "test/a.test.ts", Total: 40, Unit: lab.Mutants})
	tick(time.Second)
	p.event(lab.Event{Kind: lab.BaselineRun, Test: "test/b.test.ts", Total: 40, Unit: lab.Mutants}) // same phase, 1 s later: nothing
	tick(time.Second)
	p.event(lab.Event{Kind: lab.Batched, Mutant: "m1", Done: 1, Total: 40, Unit: lab.Mutants}) // the mutants start
	for i := 2; i <= 30; i++ {
		tick(time.Second)
		p.event(lab.Event{Kind: lab.Alone, Mutant: "m", Done: i, Total: 40, Unit: lab.Mutants})
	}
	p.clear()
	want := "oracle gate: reading the change, the code and the test suite\n" +
		"oracle gate: baselines: test/a.test.ts\n" +
		"oracle gate: mutants 1/40\n" +
		"oracle gate: mutants 11/40\n" +
		"oracle gate: mutants 21/40\n"
	if got := b.String(); got != want {
		t.Errorf("plain progress:\n%s\nwant:\n%s", got, want)
	}
	b.Reset()
	p = progressLine(&b, false, "prove")
	p.now = func() time.Time { return clock }
	p.event(lab.Event{Kind: lab.BaselineRun, Test: "a.test.ts", Op: "op-1", Done: 1, Total: 5, Unit: lab.Runs})
	p.event(lab.Event{Kind: lab.Alone, Mutant: "red-first", Op: "op-1", Done: 2, Total: 5, Unit: lab.Runs})
	if got := b.String(); got != "oracle prove: runs 1/5: op-1 baseline\n" {
		t.Errorf("prove's plain progress: %q", got)
	}
}
