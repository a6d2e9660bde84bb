package runner

import (
	"os/exec"

	"github.com/oracle-ts/oracle/internal/procgroup"
)

// setProcessGroup puts vitest and its workers in a process group of their own.
func setProcessGroup(cmd *exec.Cmd) { procgroup.Set(cmd) }

// killProcessGroup kills the whole group (vitest, its forks and threads), not just the
// main process: a worker spinning in an infinite loop must not outlive the run.
func killProcessGroup(cmd *exec.Cmd) error { return procgroup.Kill(cmd) }
