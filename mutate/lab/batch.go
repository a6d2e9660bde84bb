package lab

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// Batched runs (the default; Lab.Isolate turns them off).
//
// Each mutated file is written once as a schema (edit.BuildSchema): every
// mutant behind a run-time switch, the original as the default. A harness
// test file next to the test file runs, in one vitest run, a describe block
// per variant: it resets the module registry and imports the test file
// again with the variant's switch set (code that runs while a module loads
// is the variant's too, as alone), so the test file's own tests and hooks
// run once per variant. The test file itself is not changed. The import is the same
// specifier each time (no `?query`): the module is evaluated afresh after
// the reset, and vite transforms it once, not once per variant (a quarter
// of the batches' time on unjs/ufo; checked with vitest 3.2, 4.1 and 5.1).
//
// The guards against contamination (a variant leaving state that makes a
// later one fail):
//   - the baseline runs first and last in the batch and must pass both
//     times; otherwise no result of the batch is used;
//   - a batch that times out, crashes or cannot load uses no result;
//   - a batch result is used only when it is a kill by an assertion or an
//     exception in a test body (with both baselines green); every other
//     variant (survived, no-coverage, error, setup failure) and every mutant
//     the schema could not place runs alone, as with Isolate.
//   - a variant runs only the tests that reached its statement in the
//     opening baseline (per-test selection, select.go) when the original,
//     run on that same selection in the batch, passed; a variant whose
//     selection's baseline is not green in the report has no result used.
// So a batch can only save time: every outcome other than a clean kill is
// established by an isolated run. With one exception, under Lab.Coverage:
// a mutant whose code the coverage runs reached, and whose variant passed
// every test in the clean batch of each test file that reached it, survived
// (the coverage run already told it from no-coverage; StrykerJS trusts its
// survivors the same way). Isolate runs it alone as before.

// HarnessPrefix starts the name of the harness file written next to a test
// file for a batched run.
const HarnessPrefix = "__oracle_batch__."

// MovedPrefix starts the name the test file's own content takes beside it
// when the harness takes its place (Lab.inPlace): a config whose include
// lists test files by path matches no file of another name.
const MovedPrefix = "__oracle_tests__."

// variantTitle is the describe title of block i of a batch (switch value v).
func variantTitle(i, v int) string { return fmt.Sprintf("%s%d-%d", variantPrefix, i, v) }

// variantPrefix starts every block's title: a test named so is a harness's.
const variantPrefix = "oracle-variant-"

// block is one describe block of a batch's harness, built once
// (selectBlocks) and carried to the harness, its snapshots and the reading
// of its run: a baseline of the original code, or a variant (its task's
// mutant behind its switch); and, once a run of the batch is read
// (readBlocks), what the run reported for it (heard).
type block struct {
	n    int   // its place in the batch: its title's and the harness's notes' number
	v    int   // its switch value: 0 the original, else its task's n+1
	key  int   // its selection key (select.go), 0 for none
	task *task // the variant's; nil for a baseline
	// heard is what the run last read reported for it (readBlocks).
	heard heard
}

// heard is what a batch's run reported for one of its blocks: its tests
// (named within the block), the hit limit, its time limit and the tests
// that ran its code (variant); the selection it ran (selected, whose
// baseline is block sel: nil when the note names none); how long it took
// (took, when timed).
type heard struct {
	variant
	selected bool
	sel      *block
	took     time.Duration
	timed    bool
}

// title is the block's describe title.
func (bl *block) title() string { return variantTitle(bl.n, bl.v) }

// HitLimitFloor and HitLimitFactor derive a batch's hit limit from its
// opening baseline: HitLimitFactor times the most hits any of its tests
// counted, at least HitLimitFloor (StrykerJS's factor).
const (
	HitLimitFloor  = 100_000
	HitLimitFactor = 100
)

// SPEC "Runs and kills": a hit-limit stop is confirmed by counting, not by
// a clock. A variant stopped by its batch's hit limit is a suspect: it runs
// again in a batch of its test file (again) with the limit raised
// ConfirmRaise-fold, at least ConfirmHitFloor hits; stopped again it is a
// timeout (Run.HitLimit), finishing its tests decide. A finite loop of
// 5,000,000 iterations finishes under the raised limit; an endless one
// stops within about a second.
const (
	ConfirmRaise    = 100
	ConfirmHitFloor = 10_000_000
)

// hitRule is how a harness derives each variant's hit limit from the most
// hits a test (or the load) of the original counted: factor times that, at
// least floor.
type hitRule struct{ floor, factor int }

// limit is the rule's limit for an original whose most hits in one test
// were most.
func (h hitRule) limit(most int64) int64 {
	return max(int64(h.floor), int64(h.factor)*min(most, 1<<40))
}

// batchHits is a batch's rule; confirmHits a suspects' batch's, the
// batch's raised ConfirmRaise-fold (at least ConfirmHitFloor).
var (
	batchHits   = hitRule{HitLimitFloor, HitLimitFactor}
	confirmHits = hitRule{max(ConfirmHitFloor, ConfirmRaise*HitLimitFloor), ConfirmRaise * HitLimitFactor}
)

// batch runs the tasks left (no run yet) in batches, each against its
// test files (of tests, in that order), and sets the runs it established
// (a kill, a timeout; the rest run alone), each task's hit limit, why it
// runs alone, and the clean batches it passed. A covered task (its test
// files are those whose coverage run reached it) whose variant passed in
// the batch of each of them survived. baseline is each test file's
// baseline time.
func (l *Lab) batch(ctx context.Context, tests []string, tasks []*task, timeout time.Duration, baseline map[string]time.Duration) error {
	placed, written, keys, err := l.schemas(tasks)
	defer func() {
		for _, p := range written {
			l.Files.Restore(p)
		}
	}()
	if err != nil {
		return err
	}
	// Each mutant in the batches of its test files, in tests' order, until
	// one kills it (more sandboxes, each with a vitest of its own, did not
	// pay on two cores: vitest keeps both busy; measured on ufo). The batches
	// run in waves: a test file's batch joins a wave when none of its
	// variants is one of an earlier test file's batch still to run (that
	// batch may kill it first); a wave's batches run in one vitest run when
	// the runner can (runner.JointRunner), so each batch holds exactly the
	// variants it held when the batches ran one after the other.
	left := func(test string) []*task {
		var ts []*task
		for _, t := range placed {
			if t.run == nil && slices.Contains(t.tests, test) {
				ts = append(ts, t)
			}
		}
		return ts
	}
	pending := slices.Clone(tests)
	for len(pending) > 0 {
		var wave []batchPlan
		var rest []string
		earlier := map[*task]bool{} // variants of the batches before, in this wave or still to run
		for _, test := range pending {
			ts := left(test)
			if len(ts) == 0 {
				continue
			}
			if slices.ContainsFunc(ts, func(t *task) bool { return earlier[t] }) {
				rest = append(rest, test)
			} else {
				wave = append(wave, batchPlan{test: test, tasks: ts, keys: keys})
			}
			for _, t := range ts {
				earlier[t] = true
			}
		}
		if err := l.batchWave(ctx, wave, timeout, baseline); err != nil {
			return err
		}
		if err := l.batchWave(ctx, again(wave), timeout, baseline); err != nil {
			return err
		}
		pending = rest
	}
	for _, t := range tasks {
		if t.run == nil && t.covered && len(t.tests) > 0 && t.passed == len(t.tests) {
			t.run = &Run{Test: t.tests[len(t.tests)-1], Mutant: &t.job.Mutant, Outcome: Survived, Batched: true}
		}
	}
	return nil
}

// schemas writes one schema per file of the tasks left (no run yet), to be
// restored after the batches (written, even with an error): the tasks it
// placed a switch for, in order, and the selection key of those that have
// one (edit.Schema.Cover); each other task gets why it runs alone.
func (l *Lab) schemas(tasks []*task) (placed []*task, written []string, keys map[*task]int, err error) {
	keys = map[*task]int{}
	paths, byPath := byFile(tasks, func(t *task) bool { return t.run == nil })
	for _, p := range paths {
		ts := byPath[p]
		orig, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)))
		if err != nil {
			for _, t := range ts {
				t.why = AloneUnreadable
			}
			continue // these run alone, which reports the problem
		}
		var sms []edit.Mutant
		var svs []int
		// No reached markers in the variants: a batch judges by the tests
		// alone, and a marker in a loop would append to a file on every
		// iteration (100,000 times before a hit limit).
		for _, t := range ts {
			sms = append(sms, t.job.Mutant)
			svs = append(svs, t.n+1)
		}
		sc, err := edit.BuildSchema(p, orig, sms, svs)
		if err != nil {
			for _, t := range ts {
				t.why = AloneNoSchema + ": the file's schema could not be built"
			}
			continue // every mutant of this file runs alone
		}
		if err := l.Files.WriteFile(p, sc.Source); err != nil {
			return nil, written, nil, fmt.Errorf("sandbox: %w", err)
		}
		written = append(written, p)
		for _, t := range ts {
			in := slices.Contains(sc.Placed, t.n+1)
			if in {
				placed = append(placed, t)
				if k, ok := sc.Cover[t.n+1]; ok {
					keys[t] = k
				}
			}
			if a, ok := sc.Alone[t.n+1]; ok {
				t.why = AloneNoSchema + ": " + a
			} else if !in {
				t.why = AloneNoSchema
			}
		}
	}
	slices.SortFunc(placed, func(a, b *task) int { return a.n - b.n })
	return placed, written, keys, nil
}

// batchPlan is one test file's batch: the tasks its variants are.
type batchPlan struct {
	test  string
	tasks []*task
	keys  map[*task]int // their selection keys (schemas)
	// again: a batch of variants that run again (again.go): every test,
	// the hit limit raised (confirmHits), a stop by it final.
	again bool
}

// byFile groups the tasks keep says to keep by the file their mutants
// change: the files, sorted, and each one's tasks in order.
func byFile(tasks []*task, keep func(*task) bool) ([]string, map[string][]*task) {
	byPath := map[string][]*task{}
	var paths []string
	for _, t := range tasks {
		if !keep(t) {
			continue
		}
		p := t.job.Mutant.Path
		if _, ok := byPath[p]; !ok {
			paths = append(paths, p)
		}
		byPath[p] = append(byPath[p], t)
	}
	slices.Sort(paths)
	return paths, byPath
}

// batchRun is one batch as run: its harness, its blocks (the original's
// first and last), each variant's time limit and the run's spec.
type batchRun struct {
	plan    batchPlan
	test    string
	moved   string // where the test file's content is, when the harness took its place
	harness string
	snap    string // the harness's snapshot file ("" when none was written)
	blocks  []*block
	limit   time.Duration
	spec    runner.Spec
}

// batchWave runs the batches of the wave, which share no variant, in one
// vitest run when the runner can (runner.JointRunner), and records the
// outcomes it can trust (kills, and timeouts: a hit limit, vitest's
// time-out, the variant's own time limit), and the variants that passed
// every test of a clean batch. baseline holds each test file's baseline
// time: each variant may take the time-out an isolated run of it would
// have (Lab.Timeout, else DerivedTimeout of its test file's baseline); a
// batch is abandoned only when it stops progressing (its worker died or
// spins) or cannot load. A batch the joint run cannot attribute, or does
// not trust (it timed out, did not load, a baseline of it failed: maybe for
// another batch's leftovers), runs again alone, as every batch did before;
// so the outcomes are those of batches run one by one.
//
// A batch whose run reported no test at all, its harness beside the test
// file, runs again with the harness in the test file's place (inPlace): a
// config whose include lists the test files by path runs no other file.
func (l *Lab) batchWave(ctx context.Context, wave []batchPlan, timeout time.Duration, baseline map[string]time.Duration) error {
	retry, err := l.runWave(ctx, wave, timeout, baseline)
	if err != nil || len(retry) == 0 {
		return err
	}
	_, err = l.runWave(ctx, retry, timeout, baseline)
	return err
}

// runWave is batchWave's one wave: it returns the plans of the batches that
// reported no test with the harness beside the test file (now marked to run
// in its place).
func (l *Lab) runWave(ctx context.Context, wave []batchPlan, timeout time.Duration, baseline map[string]time.Duration) ([]batchPlan, error) {
	var runs []batchRun
	defer func() {
		for _, b := range runs {
			l.Files.Restore(b.harness)
			if b.snap != "" {
				l.Files.Restore(b.snap)
			}
			if b.moved != "" {
				l.Files.Restore(b.moved)
			}
		}
	}()
	for _, plan := range wave {
		b, ok, err := l.writeHarness(plan, timeout, baseline[plan.test])
		if err != nil {
			return nil, err
		}
		if ok {
			runs = append(runs, b)
		}
	}
	for _, b := range runs {
		l.progress(Event{Kind: BatchRun, Test: b.test, Variants: b.variants()})
	}
	var joint map[string]runner.Result
	if jr, ok := l.Runner.(runner.JointRunner); ok && !l.NoJoint && len(runs) > 1 {
		// Past the longest time-out of a batch alone the run goes on while it
		// progresses; a stuck variant ends it as it would end its own batch,
		// which then runs alone (and the others with it).
		spec := runs[0].spec
		var hs []string
		for _, b := range runs[1:] {
			spec.Timeout = max(spec.Timeout, b.spec.Timeout)
			spec.Stall = max(spec.Stall, b.spec.Stall)
		}
		for _, b := range runs {
			hs = append(hs, b.harness)
		}
		var err error
		if joint, err = jr.RunJoint(ctx, spec, hs); err != nil {
			return nil, l.fail(ctx, err)
		}
	}
	var retry []batchPlan
	for _, b := range runs {
		if r, ok := joint[b.harness]; ok {
			if l.batchRead(r, b) {
				l.decided(b)
				continue
			}
			l.refused = l.refused[:len(l.refused)-1] // its run of its own below has the last word
		}
		r, err := l.Runner.Run(ctx, b.spec)
		if err != nil {
			return nil, l.fail(ctx, err)
		}
		read := l.batchRead(r, b)
		if read {
			l.decided(b)
		}
		if !read && len(r.Tests) == 0 && !r.TimedOut && b.moved == "" && !l.inPlace[b.test] {
			if l.inPlace == nil {
				l.inPlace = map[string]bool{}
			}
			l.inPlace[b.test] = true
			retry = append(retry, b.plan)
			l.refused = l.refused[:len(l.refused)-1] // the run in its place has the last word
		}
	}
	return retry, nil
}

// variants counts b's mutants (its blocks but the baselines).
func (b batchRun) variants() int {
	n := 0
	for _, bl := range b.blocks {
		if bl.task != nil {
			n++
		}
	}
	return n
}

// decided tells Progress of each mutant batch b decided, as it ends (a
// gate's counter moves batch by batch, not once every batch has run).
func (l *Lab) decided(b batchRun) {
	for _, bl := range b.blocks {
		if t := bl.task; t != nil && t.run != nil && t.run.Batched && !t.told {
			t.told = true
			l.progress(Event{Kind: Batched, Mutant: t.job.Mutant.Name}) // counted as run
		}
	}
}

// writeHarness writes the harness of plan's batch next to its test file
// (base is the file's baseline time); false when the file's name cannot be
// imported by it (its tasks run alone).
func (l *Lab) writeHarness(plan batchPlan, timeout, base time.Duration) (batchRun, bool, error) {
	test := plan.test
	if _, err := jsonString(path.Base(test)); err != nil {
		for _, t := range plan.tasks {
			t.why = AloneHarnessPath
		}
		return batchRun{}, false, nil
	}
	blocks := selectBlocks(plan)
	h, imported, moved := path.Join(path.Dir(test), HarnessPrefix+path.Base(test)), path.Base(test), ""
	if l.inPlace[test] {
		// The harness in the test file's place, the file's content beside it.
		src, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(test)))
		if err != nil {
			return batchRun{}, false, fmt.Errorf("sandbox: %w", err)
		}
		h, imported, moved = test, MovedPrefix+path.Base(test), path.Join(path.Dir(test), MovedPrefix+path.Base(test))
		if err := l.Files.WriteFile(moved, src); err != nil {
			return batchRun{}, false, fmt.Errorf("sandbox: %w", err)
		}
	}
	limit := l.Timeout
	if limit == 0 {
		limit = DerivedTimeout(base)
	}
	hr := batchHits
	if plan.again {
		hr = confirmHits
	}
	if err := l.Files.WriteFile(h, harness(imported, blocks, limit, hr, l.Aside[test])); err != nil {
		if moved != "" {
			l.Files.Restore(moved)
		}
		return batchRun{}, false, fmt.Errorf("sandbox: %w", err)
	}
	snap, err := l.harnessSnapshots(test, h, blocks)
	if err != nil {
		l.Files.Restore(h)
		if moved != "" {
			l.Files.Restore(moved)
		}
		return batchRun{}, false, fmt.Errorf("sandbox: %w", err)
	}
	// The batch may take as long as every variant's run after start-up, and
	// longer while it progresses: a variant (a test and its hooks) ends
	// within its limit, or its worker is stuck.
	spec := l.spec(l.Root, h, timeout+time.Duration(len(blocks))*base, "")
	spec.Stall, spec.Once = 3*limit+5*time.Second, true
	return batchRun{plan: plan, test: test, harness: h, moved: moved, snap: snap, blocks: blocks, limit: limit, spec: spec}, true, nil
}

// batchRead records what the batch run r of b establishes, as batchWave
// says; false (and nothing recorded) when the batch cannot be trusted
// (batchTrusted). Each task left undecided gets why it runs alone.
func (l *Lab) batchRead(r runner.Result, b batchRun) bool {
	preloaded, overlapped := readBlocks(r, b.blocks)
	first, last := b.blocks[0], b.blocks[len(b.blocks)-1]
	if overlapped || !batchTrusted(r, first.heard.tests, last.heard.tests) {
		w := untrustedWhy(r, first.heard.tests, last.heard.tests)
		if overlapped {
			w = AloneOverlap
		}
		l.refused = append(l.refused, Refusal{Test: b.test, Why: w, Detail: refusalDetail(w, r, first.heard.tests, last.heard.tests)})
		for _, bl := range b.blocks {
			switch {
			case bl.task != nil && b.plan.again && bl.task.hit != "":
				bl.task.why = AloneHitLimit // no count confirmed it: alone, counted (count.go)
			case bl.task != nil:
				bl.task.why = w
			}
		}
		return false // nothing is trusted: each mutant runs alone
	}
	for _, bl := range b.blocks {
		t := bl.task
		if t == nil {
			continue // a baseline
		}
		if bl.heard.selected && !selectionGreen(b.blocks, bl) || !bl.heard.selected && bl.key > 0 && !bl.heard.slow && !ranEvery(first.heard.tests, bl.heard.tests) {
			t.why = AloneSelection // its selection's kills and passes are not trusted
			continue
		}
		switch {
		case bl.heard.hit && b.plan.again:
			t.run = &Run{Test: b.test, Mutant: &t.job.Mutant, Batched: true, Outcome: Timeout, HitLimit: true, Detail: hitAgainDetail(t.hit, bl.heard), Duration: b.took(r, bl)}
			continue
		case bl.heard.hit:
			// A suspicion: it runs again with the limit raised (again.go),
			// or, where that batch decides nothing, alone, counted (count.go).
			t.hit, t.suspect = bl.heard.limit, true
		case b.plan.again && t.hit != "":
			t.finished, t.hit = t.hit, "" // it finished under the raised limit: no loop
		}
		o, detail, by := variantOutcome(bl.heard.variant, b.limit)
		if o == Killed && bl.heard.concurrent && !bl.heard.ran[by] {
			t.why = AloneConcurrentKill // alone, the kill is repeated and checked on the original (loadkill.go)
			continue
		}
		if by != "" && bl.heard.selected && !keptBefore(first.heard.tests, bl.heard.tests, by) {
			t.whole, t.why = true, AloneSelectionKill // confirmed on the whole file (again.go)
			continue
		}
		if o == "" {
			t.why = undecidedWhy(bl.heard.variant, preloaded)
			if green(bl.heard.tests) && !preloaded && !bl.heard.hit {
				t.passed++ // (a variant that caught the hit limit's error may loop without the counter)
			}
			continue // not a clean kill: run alone (unless it passes everywhere under coverage)
		}
		t.run = &Run{Test: b.test, Mutant: &t.job.Mutant, Batched: true, Duration: b.took(r, bl), Outcome: o, Detail: detail, KilledBy: by}
	}
	return true
}

// took is the time of block bl in b's run r: as the harness timed it, else
// the run's share.
func (b batchRun) took(r runner.Result, bl *block) time.Duration {
	if bl.heard.timed {
		return bl.heard.took
	}
	return r.Duration / time.Duration(len(b.blocks))
}

// readBlocks sets in each of blocks (a batch's, in order) what the run r
// reported for it, afresh: the report's tests by the block's title (their
// names within the block), and the harness's notes by the block they name.
// preloaded: a schema was loaded before the harness (by a setup file), or
// a variant changed the realm's globals: a variant that passes may pass
// only because that instance's load-time code is the original's, or
// because an earlier variant left the global it would have set.
// overlapped: a block started while another ran (overlapNote).
func readBlocks(r runner.Result, blocks []*block) (preloaded, overlapped bool) {
	byTitle := map[string]*block{}
	for _, bl := range blocks {
		bl.heard = heard{variant: variant{ran: map[string]bool{}}}
		byTitle[bl.title()] = bl
	}
	for _, t := range r.Tests {
		title, name, found := strings.Cut(t.Name, " ")
		if bl, ok := byTitle[title]; found && ok {
			t.Name = name
			bl.heard.tests = append(bl.heard.tests, t)
		}
	}
	// at is the block a note names by its number (nil: none).
	at := func(i int) *block {
		if i < 0 || i >= len(blocks) {
			return nil
		}
		return blocks[i]
	}
	for _, n := range readNotes(r.Markers) {
		bl := at(n.Block)
		switch n.Kind {
		case preloadNote, globalsNote:
			preloaded = true
		case overlapNote:
			overlapped = true
		}
		if bl == nil {
			continue
		}
		switch n.Kind {
		case concNote:
			bl.heard.concurrent = true
		case ranAllNote:
			bl.heard.ranAll = true
		case selNote:
			if n.Base >= 0 {
				bl.heard.selected, bl.heard.sel = true, at(n.Base)
			}
		case ranNote:
			bl.heard.ran[strings.TrimPrefix(n.Test, bl.title()+" ")] = true
		case limitNote:
			// A block may hit the limit in its load and in its tests: the
			// limit it reports is the greater as text (limit, then most),
			// as the harness's notes read in sorted order always gave.
			l, m := n.Limit.String(), n.Most.String()
			if !bl.heard.hit || cmp.Or(strings.Compare(l, bl.heard.limit), strings.Compare(m, bl.heard.most)) > 0 {
				bl.heard.hit, bl.heard.limit, bl.heard.most = true, l, m
			}
		case noLoadNote:
			bl.heard.tests = nil // what it registered before its load threw (read above)
		case slowNote:
			bl.heard.slow = true
		case timeNote:
			if n.Ms != nil {
				bl.heard.took, bl.heard.timed = time.Duration(*n.Ms)*time.Millisecond, true
			}
		}
	}
	return preloaded, overlapped
}

// snapshotPath is where vitest keeps the file snapshots of test file test
// (its default resolveSnapshotPath: __snapshots__/<name>.snap beside it).
func snapshotPath(test string) string {
	return path.Join(path.Dir(test), "__snapshots__", path.Base(test)+".snap")
}

// harnessSnapshots writes the file snapshots of test (toMatchSnapshot's)
// for its batch harness h: each of test's entries once per block of blocks,
// under the variant's name (its describe title before the test's full
// name, as vitest keys the snapshots of the harness). Without them every
// toMatchSnapshot of the batch is a new snapshot, written and passed, and
// a variant that only a snapshot kills passes its batch (vercel/ai's
// stream-text.test.ts: 21 snapshots; the mutants they kill alone passed
// every batch). It returns the file written, "" when test has none.
func (l *Lab) harnessSnapshots(test, h string, blocks []*block) (string, error) {
	orig, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(snapshotPath(test))))
	if err != nil {
		return "", nil // no snapshot file: new snapshots alone as in the batch
	}
	const entry = "\nexports[`"
	head, _, _ := strings.Cut(string(orig), entry)
	body := strings.TrimPrefix(string(orig), head)
	var b strings.Builder
	b.WriteString(head)
	for _, bl := range blocks {
		b.WriteString(strings.ReplaceAll(body, entry, entry+bl.title()+" > "))
	}
	snap := snapshotPath(h)
	return snap, l.Files.WriteFile(snap, []byte(b.String()))
}

// SchemaBytes bounds the source a file's schema holds in one batch: each
// variant is a copy of its function's body, so the mutants of a 1500-line
// function (12,000 of them) would make a schema of most of a gigabyte,
// quadratic in the change (issue 42). A file whose mutants would pass it
// has them in several schemas, one after the other, each its own batches.
var SchemaBytes int64 = 16 << 20

// schemaGroups splits tasks (in order) into groups whose schemas stay under
// SchemaBytes: a file of size s holds at most SchemaBytes/s variants (at
// least one) in a group; group k has each file's k-th such slice. One group
// (tasks itself) when every file's variants fit.
func schemaGroups(root string, tasks []*task) [][]*task {
	per, seen := map[string]int{}, map[string]int{}
	groups := [][]*task{nil}
	for _, t := range tasks {
		p := t.job.Mutant.Path
		if _, ok := per[p]; !ok {
			per[p] = 1 << 30
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err == nil && fi.Size() > 0 {
				per[p] = int(max(1, SchemaBytes/fi.Size()))
			}
		}
		k := seen[p] / per[p]
		seen[p]++
		for len(groups) <= k {
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], t)
	}
	return groups
}
