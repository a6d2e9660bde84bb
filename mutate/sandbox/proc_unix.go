//go:build unix

package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// processAlive reports whether a process with this pid exists (EPERM: it
// exists, owned by someone else).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// processStart returns the start time of the process in clock ticks since
// boot where /proc tells it (Linux), "" elsewhere: with the pid it names a
// process even when pids are reused.
func processStart(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return ""
	}
	fields := strings.Fields(string(b[i+1:]))
	// fields[0] is field 3 (state); starttime is field 22.
	if len(fields) < 20 {
		return ""
	}
	return fields[19]
}

// killGroup sends SIGKILL to the process group pgid; false when there is
// no such group.
func killGroup(pgid int) bool { return syscall.Kill(-pgid, syscall.SIGKILL) == nil }

func killProcess(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }

// groupMembersIn lists the processes of the group pgid whose working
// directory is dir or below it (from /proc; none where there is no /proc).
func groupMembersIn(pgid int, dir string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(b[i+1:]))
		// fields[0] is field 3 (state); pgrp is field 5.
		if len(fields) < 3 || fields[2] != strconv.Itoa(pgid) {
			continue
		}
		cwd, err := os.Readlink("/proc/" + e.Name() + "/cwd")
		if err != nil {
			continue
		}
		if cwd == real || strings.HasPrefix(cwd, real+string(filepath.Separator)) {
			out = append(out, pid)
		}
	}
	return out
}
