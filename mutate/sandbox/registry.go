package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// registry holds the open sandboxes of the process.
var registry struct {
	sync.Mutex
	open map[*Sandbox]bool
}

// register runs mkdir (which makes s.dir) and records s as open, atomically
// with respect to CloseAll, so that a signal never leaves a sandbox behind.
func register(s *Sandbox, mkdir func() error) error {
	registry.Lock()
	defer registry.Unlock()
	if err := mkdir(); err != nil {
		return err
	}
	if registry.open == nil {
		registry.open = map[*Sandbox]bool{}
	}
	registry.open[s] = true
	return nil
}

func unregister(s *Sandbox) {
	registry.Lock()
	delete(registry.open, s)
	registry.Unlock()
}

// CloseAll closes every open sandbox of the process and returns the errors
// joined. Deferring it in main covers the panics that unwind main.
func CloseAll() error {
	registry.Lock()
	open := make([]*Sandbox, 0, len(registry.open))
	for s := range registry.open {
		open = append(open, s)
	}
	registry.Unlock()
	var errs []error
	for _, s := range open {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// writeOwner records in dir the process that owns the sandbox.
func writeOwner(dir string) error {
	pid := os.Getpid()
	content := fmt.Sprintf("pid %d\nstart %s\n", pid, processStart(pid))
	return os.WriteFile(filepath.Join(dir, ownerFile), []byte(content), 0o644)
}

// ownerGone reports whether the process recorded in the owner marker of dir
// has exited (or its pid now names another process). ok is false when there
// is no readable marker.
func ownerGone(dir string) (gone, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		return false, false
	}
	var pid int
	var start string
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "pid":
			pid, _ = strconv.Atoi(v)
		case "start":
			start = v
		}
	}
	if pid <= 0 {
		return false, false
	}
	if pid == os.Getpid() {
		return false, true
	}
	if !processAlive(pid) {
		return true, true
	}
	if now := processStart(pid); start != "" && now != "" && now != start {
		return true, true // the pid was reused
	}
	return false, true
}

// SweepStale removes the sandbox directories in tempDir (os.TempDir() when
// empty) left behind by processes that were killed before they could remove
// them: an oracle-prove-* directory whose owner process is gone and whose
// marker is older than olderThan. A directory without a marker (the process
// was killed between making it and marking it) is removed when older than
// olderThan and a minute. The sandboxes of this process and of live processes
// are never touched. Before a dead owner's directory goes, the process
// groups recorded in it (RecordProcessGroup: vitest and its workers, left
// running by a SIGKILL) are stopped. It returns the directories removed.
func SweepStale(tempDir string, olderThan time.Duration) ([]string, error) {
	if tempDir == "" {
		tempDir = os.TempDir()
	}
	entries, err := os.ReadDir(tempDir)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), Prefix) { // IsDir is false for links
			continue
		}
		dir := filepath.Join(tempDir, e.Name())
		gone, marked := ownerGone(dir)
		age := olderThan
		stamp := dir
		if marked {
			if !gone {
				continue
			}
			stamp = filepath.Join(dir, ownerFile)
		} else {
			age = max(olderThan, time.Minute)
		}
		fi, err := os.Lstat(stamp)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		if time.Since(fi.ModTime()) < age {
			continue
		}
		if marked {
			stopGroups(dir) // the vitest processes the dead owner left running
		}
		if err := removeTree(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, dir)
	}
	return removed, errors.Join(errs...)
}
