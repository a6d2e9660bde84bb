package npm

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/internal/testenv"
)

// TestLauncherMissingPackage: the launcher (npm/cli/bin/oracle.js), its
// platform's package not installed, says so (exit 3) and how to install it
// without naming a version: the one it runs may be a development build
// (0.6.0-dev, installed from a tarball) that no registry has, so a fix
// naming it would fail. It runs the launcher as npm-pack lays it out, with
// a package.json of its own; no packing.
func TestLauncherMissingPackage(t *testing.T) {
	node := testenv.NeedTool(t, "node")
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("cli", "bin", "oracle.js"))
	if err != nil {
		t.Fatal(err)
	}
	testenv.WriteTree(t, dir, map[string]string{
		"node_modules/@oracle-ts/cli/bin/oracle.js": string(src),
		"node_modules/@oracle-ts/cli/package.json": `{"name":"@oracle-ts/cli","version":"0.6.0-dev","optionalDependencies":{` +
			`"@oracle-ts/cli-linux-x64":"0.6.0-dev","@oracle-ts/cli-linux-arm64":"0.6.0-dev","@oracle-ts/cli-darwin-arm64":"0.6.0-dev","@oracle-ts/cli-win32-x64":"0.6.0-dev",` +
			`"@oracle-ts/cli-linux-x64-musl":"0.6.0-dev","@oracle-ts/cli-linux-arm64-musl":"0.6.0-dev","@oracle-ts/cli-darwin-x64":"0.6.0-dev","@oracle-ts/cli-win32-arm64":"0.6.0-dev"}}`,
	})
	cmd := exec.Command(node, filepath.Join(dir, "node_modules/@oracle-ts/cli/bin/oracle.js"), "--version")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ORACLE_BINARY=")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 3 {
		t.Fatalf("exit %v, want 3\n%s", err, out)
	}
	msg := string(out)
	if !strings.Contains(msg, "is not installed") || !strings.Contains(msg, "`npm install --include=optional`") {
		t.Errorf("the message does not say how to install the platform's package:\n%s", msg)
	}
	if m := regexp.MustCompile("`[^`]*@oracle-ts/cli@[^`]*`").FindString(msg); m != "" {
		t.Errorf("the fix names a version (%s), which may not be published:\n%s", m, msg)
	}
}
