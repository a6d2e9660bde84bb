package lab

// Per-test selection in a batch (StrykerJS's perTest coverage, at the
// grain of a statement).
//
// The schema's original branch records, before the statement holding a
// mutant's change, that statement's key (edit.Schema.Cover). The batch's
// opening baseline keeps those records per test (its full name within the
// block): the tests that reached each key. A test that never reached the
// statement runs the variant exactly as the original, so a variant need
// only run the tests that reached its key; the others are skipped in its
// block (a beforeEach that calls the test context's skip()).
//
// A test may depend on state a skipped earlier test left, so a kill under a
// selection is real only when the same selection passes on the original
// code: before the variants of a key the harness has a block of the
// original (a selection's baseline) that runs that key's selection, once
// per distinct selection in the batch (a selection equal to one that
// already passed is not run again). Only when it passes do the key's
// variants run their selection (selNote names the block of that
// baseline); otherwise they run every test, as without selection. Reading
// the batch, a variant that ran a selection whose baseline the report does
// not show green (every test passed or skipped, one at least passed) has
// neither its kill nor its pass used (AloneSelection): it runs alone. A
// survivor is trusted only under the Coverage rule, as before, and so only
// when its selection's baseline was green.
//
// A key reached outside a test (while the file loaded, in a beforeAll or
// afterAll hook, by a concurrent test), a key no test reached, a mutant
// without a key (cover.go's rules), or an opening baseline that failed:
// every test runs for that variant.

// AloneSelection: the variant ran only the tests that reached its code, and
// that selection's baseline on the original code did not pass in the
// report: neither its kill nor its pass is used.
const AloneSelection = "the baseline of its test selection failed"

// selectBlocks orders plan's blocks: the opening baseline, then per
// selection key (in the order of its first task) the key's baseline and
// its variants, the variants without a key, and the closing baseline. vs
// are their switch values (0: the original), keys their keys (0: none),
// byVariant the task of each variant's block.
func selectBlocks(plan batchPlan) (vs, keys []int, byVariant map[int]*task) {
	vs, keys, byVariant = []int{0}, []int{0}, map[int]*task{}
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
	add := func(t *task, k int) {
		byVariant[len(vs)] = t
		vs, keys = append(vs, t.n+1), append(keys, k)
	}
	for _, k := range order {
		vs, keys = append(vs, 0), append(keys, k)
		for _, t := range byKey[k] {
			add(t, k)
		}
	}
	for _, t := range none {
		add(t, 0)
	}
	return append(vs, 0), append(keys, 0), byVariant
}
