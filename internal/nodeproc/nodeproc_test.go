//go:build linux

package nodeproc

import (
	"bufio"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/internal/testenv"
)

// A command whose context ends is killed with every process it forked:
// node starts a grandchild that would run forever, and it is gone once the
// context is cancelled (its process group killed, not only node). No
// deadline of its own: one that never goes is go test's -timeout.
func TestCommandKillsTheGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := Command(ctx, "node", t.TempDir(), nil, "-e",
		`const c = require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }); console.log(c.pid); setInterval(() => {}, 1000);`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("node: %v", err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || testenv.Gone(pid) {
		t.Fatalf("no grandchild: %q %v", line, err)
	}
	cancel()
	_ = cmd.Wait()
	testenv.Await(func() bool { return testenv.Gone(pid) })
}
