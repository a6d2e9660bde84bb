package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/gate"
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

// TestProgressBeat: once beat runs, no phase of the gate goes more than
// plainEvery (10 s) without a line (beat looks twice a second, and says
// the phase again 9 s after its last line), however long its runs take (the
// baselines run together for 109 s, a batch of mutants for minutes): tick
// says the phase again with its count and the time it has taken. The
// baselines count k/N as they finish. A fake clock drives it (tick is what
// beat's ticker calls; here every second); nothing is said after clear.
func TestProgressBeat(t *testing.T) {
	var b bytes.Buffer
	clock := time.Unix(0, 0)
	p := progressLine(&b, false, "gate")
	p.now = func() time.Time { return clock }
	var at []time.Duration // when each line was written
	lines := 0
	wait := func(d time.Duration) { // d of 1-second ticks
		for range int(d / time.Second) {
			clock = clock.Add(time.Second)
			p.tick()
			if n := bytes.Count(b.Bytes(), []byte("\n")); n > lines {
				lines = n
				at = append(at, clock.Sub(time.Unix(0, 0)))
			}
		}
	}
	mark := func() {
		if n := bytes.Count(b.Bytes(), []byte("\n")); n > lines {
			lines = n
			at = append(at, clock.Sub(time.Unix(0, 0)))
		}
	}
	p.step("setup", "reading the change, the code and the test suite")
	mark()
	wait(25 * time.Second) // reading, planning, the sandbox
	p.event(lab.Event{Kind: lab.BaselineRun, Total: 3, Unit: gate.BaselineFiles})
	mark()
	wait(109 * time.Second) // the files together: no event from the lab
	p.event(lab.Event{Kind: lab.BaselineRun, Test: "test/a.test.ts", Done: 0, Total: 3, Unit: gate.BaselineFiles})
	p.event(lab.Event{Kind: lab.BaselineRun, Test: "test/b.test.ts", Done: 1, Total: 3, Unit: gate.BaselineFiles})
	wait(4 * time.Second)
	p.event(lab.Event{Kind: lab.BaselineRun, Test: "test/c.test.ts", Done: 2, Total: 3, Unit: gate.BaselineFiles})
	wait(30 * time.Second) // c runs alone
	p.event(lab.Event{Kind: lab.Batched, Mutant: "m1", Done: 1, Total: 103, Unit: lab.Mutants})
	mark()
	wait(12 * time.Second)
	p.event(lab.Event{Kind: lab.BatchRun, Test: "test/a.test.ts", Variants: 40, Done: 1, Total: 103, Unit: lab.Mutants})
	mark()
	wait(53 * time.Second) // a batch
	p.clear()
	cleared := b.Len()
	wait(30 * time.Second)
	if b.Len() != cleared {
		t.Errorf("a line after clear: %q", b.String()[cleared:])
	}
	out := b.String()
	for _, want := range []string{
		"oracle gate: reading the change, the code and the test suite\n",
		"oracle gate: reading the change, the code and the test suite (9s so far)\n",
		"oracle gate: reading the change, the code and the test suite (18s so far)\n",
		"oracle gate: baselines 0/3\n",
		"oracle gate: baselines 0/3 (9s so far)\n",
		"oracle gate: baselines 0/3 (1m39s so far)\n",
		"oracle gate: baselines 2/3: test/c.test.ts (", // the counter moved
		"oracle gate: mutants 1/103\n",
		"oracle gate: mutants 1/103: a batch of 40 on test/a.test.ts (1m3s so far)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	prev := time.Duration(0)
	for _, a := range at {
		if a-prev > plainEvery {
			t.Errorf("no line from %s to %s:\n%s", prev, a, out)
		}
		prev = a
	}
	if end := 25*time.Second + 109*time.Second + 34*time.Second + 65*time.Second; end-prev > plainEvery {
		t.Errorf("the last line at %s, the phase went on to %s:\n%s", prev, end, out)
	}

	// The live line (a terminal) is kept up to date the same way.
	b.Reset()
	clock = time.Unix(0, 0)
	p = &progress{w: &b, now: func() time.Time { return clock }}
	p.event(lab.Event{Kind: lab.BaselineRun, Total: 3, Unit: gate.BaselineFiles})
	clock = clock.Add(10 * time.Second)
	p.tick()
	p.clear()
	if got := b.String(); got != "\r\033[Kbaselines 0 of 3\r\033[Kbaselines 0 of 3 (10s so far)\r\033[K" {
		t.Errorf("live line: %q", got)
	}
}
