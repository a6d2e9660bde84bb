//go:build unix

package runner

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts vitest and its workers in a process group of their own.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the whole group (vitest, its forks and threads), not just the
// main process: a worker spinning in an infinite loop must not outlive the run.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
