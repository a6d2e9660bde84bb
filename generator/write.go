package generator

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/atomicfile"
	"github.com/oracle-ts/oracle/manifest"
)

// Load reads what Plan needs for one manifest: oracle.yaml, the manifest, the
// program and the fixture catalog. Invalid input comes back as
// manifest.Errors (exit 2); anything else is the tool's or the environment's.
// The caller closes in.Program.
func Load(root, manifestPath string) (Input, error) {
	var in Input
	cfg, err := manifest.LoadConfig(root)
	if err != nil {
		return in, err
	}
	t, err := manifest.LoadTicket(manifestPath, root)
	if err != nil {
		return in, err
	}
	if err := manifest.CheckFixtures(t, cfg); err != nil {
		return in, err
	}
	if err := manifest.CheckOutPaths(root, t, cfg); err != nil {
		return in, err
	}
	p, err := callgraph.NewProgram(root)
	if err != nil {
		return in, err
	}
	fx, err := LoadFixtures(p, cfg)
	if err != nil {
		p.Close()
		return in, err
	}
	rel, err := filepath.Rel(root, absPath(manifestPath))
	if err != nil || !filepath.IsLocal(rel) {
		rel = filepath.Base(manifestPath)
	}
	return Input{Program: p, Config: cfg, Ticket: t, Fixtures: fx, Manifest: filepath.ToSlash(rel), Runner: RunnerOf(root)}, nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// Write puts every generated oracle of res under root, each atomically (a
// temporary file in the same directory, renamed over the target), and only
// when its bytes changed.
func Write(root string, res *Result) error {
	MarkUnchanged(root, res)
	for _, o := range res.Operations {
		if o.Status != StatusGenerated || o.Unchanged {
			continue
		}
		dst := filepath.Join(root, filepath.FromSlash(o.File))
		if err := atomicfile.Write(dst, o.Content, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", o.File, err)
		}
	}
	return nil
}

// MarkUnchanged sets Unchanged on every generated operation whose oracle is
// already on disk with the same bytes (what Write leaves alone).
func MarkUnchanged(root string, res *Result) {
	for _, o := range res.Operations {
		if o.Status != StatusGenerated {
			continue
		}
		old, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(o.File)))
		o.Unchanged = err == nil && string(old) == string(o.Content)
	}
}
