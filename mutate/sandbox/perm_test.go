//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestAsUnprivilegedUser reruns the tests that write read-only files and
// remove read-only directories as the user nobody when the tests run as
// root, for whom permission bits do not apply and those paths go untested.
func TestAsUnprivilegedUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("not root: the other tests already run without privileges")
	}
	if os.Getenv(helperEnv) != "" {
		t.Skip("helper process")
	}
	const nobody = 65534
	dir, err := os.MkdirTemp("", "sandbox-nobody-*")
	must(t, err)
	t.Cleanup(func() { removeTree(dir) })
	must(t, os.Chmod(dir, 0o777))
	bin := filepath.Join(dir, "sandbox.test")
	data, err := os.ReadFile(os.Args[0])
	must(t, err)
	must(t, os.WriteFile(bin, data, 0o755))
	cmd := exec.Command(bin, "-test.count=1", "-test.run=^(TestFullCycleLeavesCheckoutUntouched|TestInterruptRemovesSandbox|TestNewLayout)$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+dir, "HOME="+dir, "GOCOVERDIR=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as uid %d: %v\n%s", nobody, err, out)
	}
}
