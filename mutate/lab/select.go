package lab

import (
	"slices"

	"github.com/oracle-ts/oracle/mutate/runner"
)

// Per-test selection in a batch (StrykerJS's perTest coverage, at the
// grain of a statement).
//
// The schema's original branch records, before the statement holding a
// mutant's change, that statement's key (edit.Schema.Cover). The batch's
// opening baseline keeps those records per test (its full name within the
// block): the tests that reached each key. A test that never reached the
// statement runs the variant exactly as the original, so a variant need
// only run the tests that reached its key; the others are skipped in its
// block: taken out of it in its beforeAll, before vitest lists what to run
// (a beforeEach that calls the test context's skip() is the fallback where
// the hook is not given the block's suite).
//
// A test may depend on state a skipped earlier test left, so a kill under a
// selection is real only when the same selection passes on the original
// code: before the variants of a key the harness has a block of the
// original (a selection's baseline) that runs that key's selection, once
// per distinct selection in the batch (a selection equal to one that
// already passed is not run again). Only when it passes do the key's
// variants run their selection (selNote names the block of that
// baseline); otherwise they run every test, as without selection. After
// the key's variants, a closing block runs the same selection on the
// original again, as the batch's closing baseline does for every test: a
// variant may leave state (in a dependency vi.resetModules does not
// reload) that a later variant's selection trips on, where a full run would
// have reset it in a skipped test. Reading the batch, a variant that ran a
// selection whose two baselines the report does not both show green
// (every test passed or skipped, one at least passed) has neither its kill
// nor its pass used (AloneSelection): it runs alone. A survivor is trusted
// only under the Coverage rule, as before, and so only when its
// selection's baselines were green.
//
// A selection keeps every test up to the first that reached its key, then
// the later ones that reached it: the state the first of them starts from
// is the whole file's, so a kill there is the whole file's kill. A kill by
// a later one, after a test the selection left out (and its hooks), is not
// (issue 41: a test that configures state, then tests that reach nothing,
// then one that asserts strictly only when the state was not set: the
// selection's baselines pass, its variants fail, and the whole file passes
// every variant): the variant runs again in a batch of its test file
// without a selection (again.go), which decides it as any variant.
//
// A key reached outside a test (while the file loaded, in a beforeAll or
// afterAll hook, by a concurrent test), a key no test reached, a mutant
// without a key (cover.go's rules), or an opening baseline that failed:
// every test runs for that variant.

// AloneSelection: the variant ran only the tests that reached its code, and
// that selection's baseline on the original code did not pass in the
// report: neither its kill nor its pass is used.
const AloneSelection = "the baseline of its test selection failed"

// AloneSelectionKill: the variant failed a test of its selection after a
// test the selection left out; run whole in its batch, its tests did not
// decide it either.
const AloneSelectionKill = "its kill under a test selection is confirmed on the whole file"

// keptBefore says whether a variant's tests (vt) ran every test the
// opening baseline (open) ran before by, the test that killed it: a
// selection that left none of them out starts by from the whole file's
// state. False when by is not among open's.
func keptBefore(open, vt []runner.Test, by string) bool {
	ran := map[string]bool{}
	for _, t := range vt {
		if t.Status == runner.TestPassed || t.Status == runner.TestFailed {
			ran[t.Name] = true
		}
	}
	for _, t := range open {
		if t.Name == by {
			return true
		}
		if t.Status != runner.TestSkipped && !ran[t.Name] {
			return false
		}
	}
	return false
}

// selectBlocks orders plan's blocks: the opening baseline, then per
// selection key (in the order of its first task) the key's baseline, its
// variants and its closing baseline, the variants without a key, and the
// closing baseline.
func selectBlocks(plan batchPlan) []*block {
	var blocks []*block
	add := func(t *task, k int) {
		bl := &block{n: len(blocks), key: k, task: t}
		if t != nil {
			bl.v = t.n + 1
		}
		blocks = append(blocks, bl)
	}
	var order []int
	byKey := map[int][]*task{}
	var none []*task
	for _, t := range plan.tasks {
		k := plan.keys[t]
		if k <= 0 {
			none = append(none, t)
			continue
		}
		if _, ok := byKey[k]; !ok {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], t)
	}
	add(nil, 0)
	for _, k := range order {
		add(nil, k)
		for _, t := range byKey[k] {
			add(t, k)
		}
		add(nil, k)
	}
	for _, t := range none {
		add(t, 0)
	}
	add(nil, 0)
	return blocks
}

// selectionGreen says whether variant bl of blocks (a batch's, as read),
// which ran the selection whose baseline is block bl.heard.sel, has both
// baselines of that selection green: sel, a baseline of bl's key before
// it, and the key's closing block, the first baseline of that key after
// bl.
func selectionGreen(blocks []*block, bl *block) bool {
	sel := bl.heard.sel
	if sel == nil || sel.n <= 0 || sel.n >= bl.n || sel.v != 0 || !green(sel.heard.tests) {
		return false
	}
	for _, p := range blocks[bl.n+1 : len(blocks)-1] {
		if p.v == 0 && p.key == bl.key {
			return green(p.heard.tests)
		}
	}
	return false
}

// ranEvery says whether a variant's tests (vt) skipped no test the opening
// baseline (open) ran before the variant's first failure (after it, the
// harness skips the rest): a variant with a key but no selNote must have
// run every test (a selection whose note was lost has no baselines checked).
// A variant none of whose tests ran has nothing to use: true.
func ranEvery(open, vt []runner.Test) bool {
	if !slices.ContainsFunc(vt, func(t runner.Test) bool { return t.Status != runner.TestSkipped }) {
		return true
	}
	ran := map[string]bool{}
	for _, t := range open {
		if t.Status != runner.TestSkipped {
			ran[t.Name] = true
		}
	}
	for _, t := range vt {
		switch {
		case t.Status == runner.TestFailed:
			return true
		case t.Status == runner.TestSkipped && ran[t.Name]:
			return false
		}
	}
	return true
}
