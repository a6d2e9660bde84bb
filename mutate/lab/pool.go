package lab

import (
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
)

// SandboxPool is the pool of sandboxes of root (in tempDir, "" for the
// system's) for a lab run by r, up to max of them: a runner that keeps
// vitest running per directory (runner.LongLivedRunner) is told when each
// sandbox goes.
func SandboxPool(root, tempDir string, max int, r runner.Runner) *sandbox.Pool {
	pool := &sandbox.Pool{Root: root, TempDir: tempDir, Max: max}
	if c, ok := r.(interface{ CloseDir(string) }); ok {
		pool.CloseDir = c.CloseDir
	}
	return pool
}
