package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// groupsFile, in the sandbox directory next to the owner marker, lists the
// process groups started in the sandbox (vitest and its workers run in a
// group of their own): "group PGID START" a line, START the leader's start
// time. A SIGKILL of oracle leaves them running (a long-lived vitest, a
// worker spinning on an infinite-loop mutant); the next run's sweep stops
// them before it removes the directory.
const groupsFile = ".oracle-sandbox-groups"

// RecordProcessGroup records, in the sandbox that holds path (a process's
// working directory inside a sandbox's Root), the process group pgid whose
// leader just started. Nothing happens for a path in no sandbox.
func RecordProcessGroup(path string, pgid int) error {
	dir := sandboxDirOf(path)
	if dir == "" || pgid <= 0 {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(dir, groupsFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "group %d %s\n", pgid, processStart(pgid))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// sandboxDirOf is the sandbox directory (the one with the owner marker)
// holding path, "" when none does.
func sandboxDirOf(path string) string {
	for dir := path; ; dir = filepath.Dir(dir) {
		if fi, err := os.Lstat(filepath.Join(dir, ownerFile)); err == nil && fi.Mode().IsRegular() {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// stopGroups kills what is left of the process groups recorded in dir, a
// sandbox whose owner is gone: a group whose leader is the process recorded
// (same start time) whole, and of a group whose leader is gone, the members
// still working inside dir. A pid reused by another process is left alone.
// It returns the process groups it signalled.
func stopGroups(dir string) []int {
	b, err := os.ReadFile(filepath.Join(dir, groupsFile))
	if err != nil {
		return nil
	}
	var stopped []int
	seen := map[int]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "group" {
			continue
		}
		pgid, err := strconv.Atoi(f[1])
		if err != nil || pgid <= 1 || pgid == os.Getpid() || seen[pgid] {
			continue
		}
		seen[pgid] = true
		start := ""
		if len(f) > 2 {
			start = f[2]
		}
		if start != "" && processStart(pgid) == start {
			if killGroup(pgid) {
				stopped = append(stopped, pgid)
			}
			continue
		}
		// The leader is gone (or its pid is another process now): its
		// workers may live on in the group; kill those working in dir.
		if members := groupMembersIn(pgid, dir); len(members) > 0 {
			for _, pid := range members {
				killProcess(pid)
			}
			stopped = append(stopped, pgid)
		}
	}
	return stopped
}
