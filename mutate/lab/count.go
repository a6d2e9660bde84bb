package lab

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// A mutant run alone counts its hits (SPEC "Runs and kills": a hit-limit
// stop is confirmed by counting, not by a clock). Its run writes the mutant
// with its file's function entries and loop iterations counted
// (edit.MarkCounted) and a counter (runner.HitCounter) that stops a test past the confirming
// limit (confirmHits): a mutant that loops forever ends in about a second,
// where it used to cost the run's wall-clock limit, twice (--isolate, the
// runners that run no batches, a batch's suspect it did not decide).
//
// The limit is confirmHits's rule applied to the original's most hits in
// one test, which a run alone does not know beforehand: it runs first at
// the rule's floor. Stopped there, the original code runs once, counted the
// same way (edit.CountedOriginal), to say at most how many hits its tests
// make; when the rule then asks for more, the mutant runs again with that
// limit. Stopped at the limit the rule asks for, it is a timeout; finishing,
// its tests decide (a finite loop is slow, not endless).

// aloneSource is mutant m as a run alone writes it: marked with id (a
// RanMarkerStatement, and the load's marker: withLoadMarker; unmarked when
// no marker can be placed) and, when marked, its hits counted against
// limit. marked and counted say what it carries.
//
// Counted, the marker is a call of a function declared with the counter
// (runner.RanMarkerFunc: a marker in a loop runs as often as the counter);
// otherwise the statement itself.
func aloneSource(m *edit.Mutant, id string, limit int64) (src []byte, marked, counted bool) {
	call, decl := runner.RanMarkerFunc(ranFunc, id)
	src, counted, err := edit.MarkCounted(*m, call, hitCounter(id, limit, 0)+"\n"+decl)
	if err == nil && !counted {
		src, err = edit.MarkReached(*m, runner.RanMarkerStatement(id)) // it counts nothing
	}
	if err != nil {
		return m.Source(), false, false // no marker can be placed (MarkReached's error)
	}
	return withLoadMarker(src, id), true, counted
}

// ranFunc is the marker function a counted mutant declares.
const ranFunc = "__oracle_ran__"

// hitCounter is the counter's declaration for the marker id.
func hitCounter(id string, limit, record int64) string {
	return runner.HitCounter(edit.HitFunc, edit.HitLimitMessage, id, limit, record)
}

// aloneLimit is the limit of a mutant's first run alone: confirmHits's
// floor (the original's most not yet known).
func aloneLimit() int64 { return confirmHits.limit(0) }

// confirmCount decides a run alone that the counter stopped at limit (r):
// it measures the original's most hits in one test (one run of the original
// code, counted), and the limit confirmHits derives from them; at or below
// limit, the stop is a timeout; above, the mutant runs again with it (src
// written again, so counted), a stop by it a timeout, else its tests
// decide. The runs' durations are added to took. The mutant's own source
// (marked and counted with limit) is in the sandbox on return.
func (l *Lab) confirmCount(ctx context.Context, sl Slot, m *edit.Mutant, spec runner.Spec, limit int64, took *time.Duration) (judgment, error) {
	id := spec.ReachedMarker
	most, err := l.originalHits(ctx, sl, m, spec, limit)
	if err != nil {
		return judgment{}, err
	}
	need := confirmHits.limit(most)
	if need <= limit {
		return judgment{outcome: Timeout, hit: true, detail: countedDetail(limit, most)}, nil
	}
	src, _, counted := aloneSource(m, id, need)
	if err := sl.Files.WriteFile(m.Path, l.prepared(m.Path, src)); err != nil {
		return judgment{}, fmt.Errorf("sandbox: %w", err)
	}
	r, err := l.Runner.Run(ctx, spec)
	if err != nil {
		return judgment{}, l.fail(ctx, err)
	}
	*took += r.Duration
	if r.HitLimit > 0 && counted {
		return judgment{outcome: Timeout, hit: true, detail: countedDetail(r.HitLimit, most)}, nil
	}
	j := judgeAlone(r, true, id)
	again := fmt.Sprintf("%s: more than %d loop iterations and calls in one test run alone; the original's tests make fewer than %d, so run again with the limit raised to %d", edit.HitLimitMessage, limit, most, need)
	switch j.outcome {
	case Survived, Killed, NoCoverage:
		j.detail = again + ", it finished: no loop" + tail(j.detail)
	default: // it ended otherwise (the clock, the heap's end): that decides, not the first stop
		j.detail = j.detail + " (" + again + ")"
	}
	return j, nil
}

// originalHits runs the original code of m's file, counted as the mutant
// is (edit.CountedOriginal), against spec's test file: below how many hits
// its tests make in one test (twice the greatest power of two a test
// reached, from the one that could still leave limit enough: confirmHits's
// factor below it). The mutant's source is written back by the caller.
// The original's count is the same for every mutant of the file against the
// same test file, tests and limit: it is measured once (l.originals).
func (l *Lab) originalHits(ctx context.Context, sl Slot, m *edit.Mutant, spec runner.Spec, limit int64) (int64, error) {
	record := int64(1)
	for record*2*int64(confirmHits.factor) <= limit {
		record *= 2
	}
	key := strings.Join([]string{m.Path, spec.TestFile, spec.TestName, strconv.FormatInt(record, 10)}, "\x00")
	if most, ok := l.originals.get(key); ok {
		return most, nil
	}
	orig, ok := edit.CountedOriginal(*m, hitCounter(spec.ReachedMarker, 0, record))
	if !ok {
		return record, nil
	}
	if err := sl.Files.WriteFile(m.Path, l.prepared(m.Path, orig)); err != nil {
		return 0, fmt.Errorf("sandbox: %w", err)
	}
	r, err := l.Runner.Run(ctx, spec)
	if err != nil {
		return 0, l.fail(ctx, err)
	}
	most := record
	if r.HitsOver > 0 {
		most = 2 * r.HitsOver
	}
	l.originals.set(key, most)
	return most, nil
}

// originalCounts are originalHits' measures, by file, test file, tests and
// record, shared by the lab's workers.
type originalCounts struct {
	mu sync.Mutex
	m  map[string]int64
}

func (o *originalCounts) get(key string) (int64, bool) {
	if o == nil {
		return 0, false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	v, ok := o.m[key]
	return v, ok
}

func (o *originalCounts) set(key string, most int64) {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.m[key] = most
	o.mu.Unlock()
}

// countedDetail is a timeout's detail when the counter stopped a mutant run
// alone at limit, the original's tests making fewer than most hits.
func countedDetail(limit, most int64) string {
	return fmt.Sprintf("%s: more than %d loop iterations and calls in one test run alone (the original's tests make fewer than %d; the limit %d times that, at least %d): a loop",
		edit.HitLimitMessage, limit, most, confirmHits.factor, confirmHits.floor)
}

// tail is ": " and detail, or "" when detail is empty.
func tail(detail string) string {
	if detail == "" {
		return ""
	}
	return ": " + detail
}
