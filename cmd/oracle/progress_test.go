package main

import (
	"bytes"
	"testing"

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
