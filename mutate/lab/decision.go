package lab

// Decision is a mutant's decided outcome, the one record of it the verbs
// keep: embedded, not copied, in gate's entry of a mutant (gate.Mutant),
// in gate's cache (an entry is a Decision) and in prove's run (prove.Run).
// Its JSON names are theirs; a document that writes its members in an
// order of its own says so (internal/jsonorder).
type Decision struct {
	Outcome Outcome `json:"outcome"`
	// Detail says why: the failure, the load error, the time-out.
	Detail string `json:"detail,omitempty"`
	// KilledBy is the test file that decided a kill (Run.Test); "" when
	// the mutant was not killed.
	KilledBy string `json:"killedBy,omitempty"`
	// CoveredBy are the test files whose coverage run reached the mutant
	// (the gate: every related test file when its code could not be
	// marked; an empty list when no test reached it).
	CoveredBy []string `json:"coveredBy"`
	// KilledByTest is the verb's name of the test of KilledBy that killed
	// the mutant (the gate's TestCase.ID; the lab's Run.KilledBy is
	// vitest's full name of it); "" when no single test did (a hit limit,
	// a time-out of the whole run).
	KilledByTest string `json:"killedByTest,omitempty"`
	// AloneWhy says why the mutant ran alone rather than being decided in
	// a batch (one of the Alone* reasons, alone.go); "" when a batch
	// decided it, or no test file reached it (no run).
	AloneWhy string `json:"aloneWhy,omitempty"`
}

// Decision is what r decided, as a verb keeps it (KilledByTest is the
// verb's to name).
func (r Run) Decision() Decision {
	d := Decision{Outcome: r.Outcome, Detail: r.Detail, CoveredBy: r.CoveredBy, AloneWhy: r.AloneWhy}
	if r.Outcome.Kills() {
		d.KilledBy = r.Test
	}
	return d
}
