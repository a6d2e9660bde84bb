package lab

// The verdicts over the outcomes, typed here beside them (cargo-mutants'
// outcome.rs): prove's of an operation and of the whole run, the gate's of
// a change. Strings only at the edges (JSON, the text, the report).

// Verdict of a verb's run: what a pipeline routes on.
type Verdict string

const (
	PASS  Verdict = "PASS"
	FAIL  Verdict = "FAIL"
	SKIP  Verdict = "SKIP"
	ERROR Verdict = "ERROR"
)

// Scored reports whether the outcome counts in a mutation score (killed,
// timeout, survived, no-coverage); an error does not.
func (o Outcome) Scored() bool { return o.Kills() || o.Open() }

// Open reports whether the outcome is what the next worker strengthens: a
// survivor, or a mutant no test reached.
func (o Outcome) Open() bool { return o == Survived || o == NoCoverage }
