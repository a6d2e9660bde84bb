package lab

// Batches run again. After a wave of batches, a variant whose outcome
// there is only a suspicion runs again in a batch of the same test file,
// every test (no selection), with the hit limit raised (confirmHits), so
// that what it gives is final:
//
//   - a kill under a test selection after a test the selection left out
//     (task.whole, select.go): the whole file, in order, decides;
//   - a stop by the hit limit (task.suspect): SPEC "Runs and kills", a
//     hit-limit stop is confirmed by counting, not by a clock. Stopped again
//     under the raised limit it is a timeout; finishing, its tests decide
//     (a finite loop of 5,000,000 iterations is slow, not endless).
//
// What that batch does not decide (it is not trusted, the variant passed)
// goes on as any undecided variant: to its next test file's batch, or
// alone (a hit-limit suspect then counted as every run alone is: count.go).

// again is the batches that run again for the tasks of wave flagged whole
// or suspect (the flags cleared here): one per test file, in wave's order.
func again(wave []batchPlan) []batchPlan {
	var out []batchPlan
	for _, p := range wave {
		var ts []*task
		for _, t := range p.tasks {
			if t.whole || t.suspect {
				t.whole, t.suspect = false, false
				ts = append(ts, t)
			}
		}
		if len(ts) > 0 {
			out = append(out, batchPlan{test: p.test, tasks: ts, again: true})
		}
	}
	return out
}
