package runner

import (
	"fmt"
	"os"
	"time"
)

// watchdog decides when a run is over its time (Spec.Timeout, extended by Spec.Stall while
// the progress file grows). Done is closed then; stop ends the watch early.
type watchdog struct {
	Done chan struct{}
	quit chan struct{}
}

// watchPoll is how often the progress file is looked at.
const watchPoll = 200 * time.Millisecond

// watch starts the watchdog of a run of s that started now, with progress the file named by
// $ORACLE_PROGRESS. A Spec without Timeout never fires.
func watch(s Spec, progress string) *watchdog {
	w := &watchdog{Done: make(chan struct{}), quit: make(chan struct{})}
	if s.Timeout <= 0 {
		return w
	}
	start := time.Now()
	go func() {
		if s.Stall <= 0 {
			t := time.NewTimer(s.Timeout)
			defer t.Stop()
			select {
			case <-t.C:
				close(w.Done)
			case <-w.quit:
			}
			return
		}
		tick := time.NewTicker(watchPoll)
		defer tick.Stop()
		last, size := start, int64(-1)
		for {
			select {
			case <-w.quit:
				return
			case now := <-tick.C:
				if fi, err := os.Stat(progress); err == nil && fi.Size() != size {
					size, last = fi.Size(), now
				}
				if now.Sub(start) >= s.Timeout && now.Sub(last) >= s.Stall {
					close(w.Done)
					return
				}
			}
		}
	}()
	return w
}

func (w *watchdog) stop() {
	select {
	case <-w.quit:
	default:
		close(w.quit)
	}
}

// fired reports whether the run went over its time.
func (w *watchdog) fired() bool {
	select {
	case <-w.Done:
		return true
	default:
		return false
	}
}

// timeoutDetail says why a run of s that took d timed out.
func timeoutDetail(s Spec, d time.Duration) string {
	if s.Stall > 0 {
		return fmt.Sprintf("timed out after %s (no progress for %s past the time-out of %s)", round(d), s.Stall, s.Timeout)
	}
	return fmt.Sprintf("timed out after %s", s.Timeout)
}
