package runner

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWatchdogStall: with Stall, a run past its Timeout goes on while its
// progress file grows, and times out Stall after the growth stops; without
// Stall, at Timeout whatever it writes. The margins are seconds apart from
// the writer's 50 ms steps, so a loaded machine does not change the answer.
func TestWatchdogStall(t *testing.T) {
	progress := filepath.Join(t.TempDir(), "progress")
	write := func(d time.Duration) {
		f, err := os.Create(progress)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			f.WriteString("x\n")
		}
	}
	start := time.Now()
	// A stall of 10 s: a loaded machine may starve the writer for seconds.
	w := watch(Spec{Timeout: 200 * time.Millisecond, Stall: 10 * time.Second}, progress)
	write(3 * time.Second)
	if w.fired() {
		t.Fatalf("timed out after %s while the run progressed", time.Since(start))
	}
	<-w.Done // it times out once the progress stopped (never: go test's -timeout names this test)
	w.stop()

	w = watch(Spec{Timeout: 200 * time.Millisecond}, progress)
	defer w.stop()
	write(3 * time.Second)
	if !w.fired() {
		t.Fatal("without Stall, progress kept a run past its Timeout")
	}
	if w := watch(Spec{}, progress); w.fired() {
		t.Fatal("a run without Timeout timed out")
	}
}
