package lab

// Event is one step of a lab's progress, heard before the run starts (or
// when a batch decided a mutant): what runs, and how far along the verb over
// the lab is. The lab sets Kind, Test and Mutant; the verb (prove, gate)
// sets Op, Done, Total and Unit; cmd/oracle renders it.
type Event struct {
	Kind   EventKind
	Test   string // a baseline's test file
	Mutant string // a mutant's name (Batched, Alone)
	// Variants: a BatchRun's count of mutants (a batch run again to confirm
	// hit-limit stops has its suspects only).
	Variants int
	Op       string // prove: the operation the run belongs to
	// Done counts the Units so far, this one included, of Total.
	Done, Total int
	Unit        Unit
}

// EventKind says what an Event is about.
type EventKind string

const (
	BaselineRun EventKind = "baseline" // a test file on the unmutated code
	Batched     EventKind = "batch"    // a mutant decided in a batch (counted as run)
	Alone       EventKind = "alone"    // a mutant about to run alone
	// BatchRun: a batch of Variants mutants against Test starts (no
	// mutant decided yet: not counted as a run; its decisions follow as
	// Batched events when it ends).
	BatchRun EventKind = "batch-run"
)

// Unit is what an Event's Done and Total count.
type Unit string

const (
	Runs    Unit = "run"    // every run, baselines included (prove)
	Mutants Unit = "mutant" // the mutants (gate)
)
