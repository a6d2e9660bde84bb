package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/oracle-ts/oracle/internal/nodeproc"
	"github.com/oracle-ts/oracle/internal/vitestenv"
)

// RunTogetherJest is RunTogether on jest: files (repository-relative) of the repository
// s.Dir, a sandbox, in one plain jest run (jest's own workers, as the user's `jest`), from
// the first file's package (where jest finds its config, as JestRunner runs), with s.Config
// as --config when set, $ORACLE_REACHED set for FileMarkerStatement's lines, and env added to
// the environment; its JSON report, jest's, read as vitest's. Its error is jest's or node's
// absence, a sandbox without a temporary directory, or ctx's.
func RunTogetherJest(ctx context.Context, s Spec, files []string, env ...string) (Together, error) {
	var t Together
	if len(files) == 0 {
		return t, fmt.Errorf("runner: no test file to run")
	}
	jest, err := FindJest(s.Dir, files[0])
	if err != nil {
		return t, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return t, fmt.Errorf("node is not installed (or not on PATH): %v", err)
	}
	var abs []string
	for _, f := range files {
		a, err := repoFile(s.Dir, f)
		if err != nil {
			return t, err
		}
		abs = append(abs, a)
	}
	base, tmp, err := togetherTemp(s.Dir)
	if err != nil {
		return t, err
	}
	defer os.RemoveAll(tmp)
	reached, reportPath := filepath.Join(tmp, "entered"), filepath.Join(tmp, "report.json")
	cwd := packageDir(filepath.Clean(s.Dir), filepath.Dir(abs[0]))
	args := []string{jest, "--json", "--outputFile=" + reportPath, "--ci", "--watchman=false",
		"--coverage=false", "--forceExit", "--cacheDirectory=" + jestCache(s.Dir)}
	if s.Config != "" {
		config, err := configFile(s.Dir, s.Config)
		if err != nil {
			return t, err
		}
		args = append(args, "--config="+config)
	}
	args = append(append(args, "--runTestsByPath"), abs...)
	var out bytes.Buffer
	cmd := nodeproc.Command(ctx, node, cwd, vitestenv.For(cwd, base, append([]string{ReachedEnv + "=" + reached}, env...)...), args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	_ = cmd.Run() // its exit code says less than its report: a red test file exits 1 too
	t.Output = out.String()
	if ctx.Err() != nil {
		return t, ctx.Err()
	}
	readTogether(&t, s.Dir, reportPath, reached, true)
	return t, nil
}
