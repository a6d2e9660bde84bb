package audit

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
)

// ListTests asks the repository's own vitest which test files it runs
// (`vitest list --filesOnly --json`: its include and exclude, its projects),
// rather than guessing from names. The files come back repo-relative, sorted.
func ListTests(root string) ([]string, error) {
	vitest := filepath.Join(root, "node_modules", "vitest", "vitest.mjs")
	if _, err := os.Stat(vitest); err != nil {
		return nil, fmt.Errorf("vitest is not installed at the repository root (%s): audit asks it which test files it runs; install the repository's dependencies first", "node_modules/vitest")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", vitest, "list", "--filesOnly", "--json")
	cmd.Dir = root
	tmp, err := privateTemp()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cmd.Env = append(os.Environ(), "CI=1", "NO_COLOR=1", "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("vitest list: %v: %s", err, firstLine(errb.String()))
	}
	var files []struct {
		File string `json:"file"`
	}
	start := bytes.IndexByte(out.Bytes(), '[')
	if start < 0 {
		return nil, fmt.Errorf("vitest list printed no JSON list: %s", firstLine(out.String()))
	}
	if err := json.Unmarshal(out.Bytes()[start:], &files); err != nil {
		return nil, fmt.Errorf("vitest list: %v", err)
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	var rel []string
	for _, f := range files {
		r, err := filepath.Rel(realRoot, f.File)
		if err != nil || !filepath.IsLocal(r) {
			if r, err = filepath.Rel(root, f.File); err != nil || !filepath.IsLocal(r) {
				continue
			}
		}
		rel = append(rel, filepath.ToSlash(r))
	}
	sort.Strings(rel)
	return rel, nil
}

func firstLine(s string) string {
	s = string(bytes.TrimSpace([]byte(s)))
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// setupFilesScript asks vitest's node API for the setupFiles of every
// project of the repository's configuration (they run before each test
// file: a vi.mock in one applies to every test).
const setupFilesScript = `
const [root, nodeAPI] = process.argv.slice(1);
const { createVitest } = await import(nodeAPI);
const ctx = await createVitest("test", { watch: false, root }, {}, {});
const out = new Set();
for (const p of ctx.projects ?? []) for (const f of p.config?.setupFiles ?? []) out.add(f);
for (const f of ctx.config?.setupFiles ?? []) out.add(f);
process.stdout.write(JSON.stringify([...out]) + "\n");
await ctx.close();
`

// SetupFiles lists the repository's vitest setupFiles, repo-relative, sorted
// (none when vitest's node API is not there).
func SetupFiles(root string) ([]string, error) {
	api := filepath.Join(root, "node_modules", "vitest", "dist", "node.js")
	if _, err := os.Stat(api); err != nil {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--input-type=module", "-e", setupFilesScript, root, api)
	cmd.Dir = root
	tmp, err := privateTemp()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cmd.Env = append(os.Environ(), "CI=1", "NO_COLOR=1", "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("reading vitest's setupFiles: %v: %s", err, firstLine(errb.String()))
	}
	lines := bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n"))
	var files []string
	if err := json.Unmarshal(lines[len(lines)-1], &files); err != nil {
		return nil, fmt.Errorf("reading vitest's setupFiles: %v", err)
	}
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
	return rel, nil
}

// privateTemp is a temporary directory for a vitest process audit starts
// (vite writes transformed sources under $TMPDIR/<id>/ssr): removed when the
// process ends, so nothing is left in the system's temp directory.
func privateTemp() (string, error) {
	tmp, err := os.MkdirTemp("", "oracle-audit-")
	if err != nil {
		return "", fmt.Errorf("environment: temp directory: %w", err)
	}
	return tmp, nil
}
