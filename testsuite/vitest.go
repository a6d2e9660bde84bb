package testsuite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/oracle-ts/oracle/internal/text"
	"github.com/oracle-ts/oracle/internal/vitestloc"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// ListTests asks the repository's own vitest which test files it runs
// (`vitest list --filesOnly --json`: its include and exclude, its projects),
// rather than guessing from names; config is the vitest config file to use
// ("" lets vitest find its own). The files come back repo-relative, sorted.
func ListTests(root, config string) ([]string, error) {
	vitest, err := findVitest(root)
	if err != nil {
		return nil, err
	}
	args := []string{filepath.Join(vitest, "vitest.mjs"), "list", "--filesOnly", "--json"}
	if config != "" {
		args = append(args, "--config", config)
	}
	if readOnly(root) {
		args = append(args, "--configLoader", "runner")
	}
	out, err := runNode(root, "vitest list", args...)
	if err != nil {
		return nil, err
	}
	files, err := listedFiles(out)
	if err != nil {
		return nil, err
	}
	abs := make([]string, len(files))
	for i, f := range files {
		abs[i] = f.File
	}
	return repoRelative(root, abs), nil
}

// listedFile is one entry of `vitest list --json`.
type listedFile struct {
	File string `json:"file"`
}

// listedFiles finds the JSON list in what `vitest list --json` printed:
// the first line that opens a JSON array and decodes as the list. What the
// configuration's plugins log on stdout before it ("12:00:01 [WARN] ...",
// "[vite] ...") is passed over, however many brackets it has.
func listedFiles(out []byte) ([]listedFile, error) {
	var firstErr error
	for i := 0; i < len(out); {
		if out[i] == '[' && (i == 0 || out[i-1] == '\n') {
			var files []listedFile
			err := json.NewDecoder(bytes.NewReader(out[i:])).Decode(&files)
			if err == nil {
				return files, nil
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		nl := bytes.IndexByte(out[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	if firstErr != nil {
		return nil, fmt.Errorf("vitest list: %v", firstErr)
	}
	return nil, fmt.Errorf("vitest list printed no JSON list: %s", text.FirstLine(string(out), 300))
}

// setupFilesScript asks vitest's node API for the setupFiles of every
// project of the repository's configuration (they run before each test
// file: a vi.mock in one applies to every test).
const setupFilesScript = `
const [root, nodeAPI, config, loader] = process.argv.slice(1);
const { createVitest } = await import(nodeAPI);
const ctx = await createVitest("test", { watch: false, root, ...(config ? { config } : {}), ...(loader ? { configLoader: loader } : {}) }, {}, {});
const out = new Set();
for (const p of ctx.projects ?? []) for (const f of p.config?.setupFiles ?? []) out.add(f);
for (const f of ctx.config?.setupFiles ?? []) out.add(f);
process.stdout.write(JSON.stringify([...out]) + "\n");
await ctx.close();
`

// SetupFiles lists the repository's vitest setupFiles (config as for
// ListTests), repo-relative, sorted (none when vitest's node API is not
// there).
func SetupFiles(root, config string) ([]string, error) {
	vitest, err := findVitest(root)
	if err != nil {
		return nil, err
	}
	api := filepath.Join(vitest, "dist", "node.js")
	if _, err := os.Stat(api); err != nil {
		return nil, nil
	}
	loader := ""
	if readOnly(root) {
		loader = "runner"
	}
	out, err := runNode(root, "reading vitest's setupFiles", "--input-type=module", "-e", setupFilesScript, root, api, config, loader)
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	var files []string
	if err := json.Unmarshal(lines[len(lines)-1], &files); err != nil {
		return nil, fmt.Errorf("reading vitest's setupFiles: %v", err)
	}
	return repoRelative(root, files), nil
}

// findVitest is the vitest package the repository's tests run with: the
// lookup the runner makes too (internal/vitestloc), from root up to the
// workspace's root.
func findVitest(root string) (string, error) {
	if p := vitestloc.Find(root); p != "" {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("vitest is not installed (no node_modules/vitest at %s or above it up to the workspace root): oracle asks the repository's vitest which test files it runs; install the repository's dependencies first (gate and audit work on vitest suites)", root)
}

// readOnly reports whether root cannot be written: vite's default config
// loader writes the bundled config next to it (vitest.config.ts.timestamp-
// *.mjs) and fails with "failed to load config" in a read-only checkout;
// vitest's --configLoader runner loads it without writing.
func readOnly(root string) bool {
	f, err := os.CreateTemp(root, ".oracle-write-check-*")
	if err != nil {
		return true
	}
	f.Close()
	os.Remove(f.Name())
	return false
}

// runNode runs node with args in root, in the environment of oracle's
// vitest runs (runner.VitestEnv) without colour, and returns what it printed; what names the step in
// the error. vitest's temporary files (vite writes transformed sources under
// $TMPDIR/<id>/ssr) go to a private directory removed when node ends, so
// nothing is left in the system's temp directory.
func runNode(root, what string, args ...string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "oracle-vitest-")
	if err != nil {
		return nil, fmt.Errorf("environment: temp directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a monorepo's project configs take minutes on a loaded machine
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = root
	cmd.Env = runner.VitestEnv(root, tmp, "NO_COLOR=1") // plain output to parse: the listing runs no test
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", what, err, text.FirstLine(errb.String(), 300))
	}
	return out.Bytes(), nil
}

// repoRelative turns the absolute paths vitest reports (through the
// repository's real path or the path it was given) into sorted,
// slash-separated paths relative to root; paths outside it are dropped.
func repoRelative(root string, files []string) []string {
	realRoot, _ := filepath.EvalSymlinks(root)
	var rel []string
	for _, f := range files {
		r, err := filepath.Rel(realRoot, f)
		if err != nil || !filepath.IsLocal(r) {
			if r, err = filepath.Rel(root, f); err != nil || !filepath.IsLocal(r) {
				continue
			}
		}
		rel = append(rel, filepath.ToSlash(r))
	}
	sort.Strings(rel)
	return rel
}
