//go:build unix

// Package procgroup starts a command in a process group of its own and
// kills that group: vitest and every worker it forked, whoever started it.
package procgroup

import (
	"os/exec"
	"syscall"
)

// Set puts the command (and whatever it forks) in a process group of its own.
func Set(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// Kill kills the command's process group (the command and every worker).
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
