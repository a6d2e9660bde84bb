// Package nodeproc is where oracle starts node: every node process (vitest
// and jest runs, the long-lived and warm processes, the config probe's
// listing, the formatters, the version check) is a command made here. Each
// runs in a process group of its own (internal/procgroup), which ending its
// context kills whole (a worker spinning in a loop, a fork vitest left,
// never outlive it). internal/layers checks that no other production code
// starts a program but git.
package nodeproc

import (
	"context"
	"os/exec"

	"github.com/oracle-ts/oracle/internal/procgroup"
)

// Command is node (its path; "node": the one on PATH) running args in dir
// with env (nil: oracle's own), in a process group of its own: when ctx
// (nil: none) ends, the whole group is killed. The caller sets its
// standard streams, and WaitDelay when its output may outlive it (a
// grandchild holding a pipe: 0 waits for it).
func Command(ctx context.Context, node, dir string, env []string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if ctx != nil {
		cmd = exec.CommandContext(ctx, node, args...)
	} else {
		cmd = exec.Command(node, args...)
	}
	cmd.Dir, cmd.Env = dir, env
	procgroup.Set(cmd)
	if ctx != nil {
		cmd.Cancel = func() error { return procgroup.Kill(cmd) }
	}
	return cmd
}

// Kill kills cmd's process group (cmd and every process it forked).
func Kill(cmd *exec.Cmd) error { return procgroup.Kill(cmd) }
