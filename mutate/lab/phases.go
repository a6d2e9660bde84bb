package lab

import "time"

// Phases are where a lab's time went: the baselines (with coverage), the
// batched runs, the mutants run alone (RanAlone of them); and how many
// mutants ran past the hit limit and timed out alone (HitLimits, a
// timeout). One shape: a lab's Result has them, prove sums them over its
// operations (prove.Timings), the gate writes them in seconds
// (gate.Timings, its document's shape).
type Phases struct {
	Baseline, Batches, Alone time.Duration
	RanAlone, HitLimits      int
}

// Add adds q's times and counts to p's.
func (p *Phases) Add(q Phases) {
	p.Baseline += q.Baseline
	p.Batches += q.Batches
	p.Alone += q.Alone
	p.RanAlone += q.RanAlone
	p.HitLimits += q.HitLimits
}
