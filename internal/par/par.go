// Package par runs independent work on every core.
package par

import (
	"runtime"
	"sync"
)

// Each calls do(i) for every i in [0, n), on one worker per core, and
// returns when all are done. do must only write what belongs to its i.
func Each(n int, do func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
