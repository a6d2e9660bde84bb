//go:build !unix

package procgroup

import "os/exec"

// Set does nothing where there are no process groups.
func Set(cmd *exec.Cmd) {}

// Kill kills the command itself.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
