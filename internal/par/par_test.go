package par

import (
	"sync/atomic"
	"testing"
)

// TestEach: every index exactly once, none when n is 0.
func TestEach(t *testing.T) {
	seen := make([]int32, 1000)
	Each(len(seen), func(i int) { atomic.AddInt32(&seen[i], 1) })
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("index %d done %d times", i, n)
		}
	}
	Each(0, func(int) { t.Fatal("called for n = 0") })
}
