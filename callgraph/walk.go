package callgraph

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// MaxFileSize is the largest source file parsed; larger ones are skipped with a note
// (generated bundles, vendored code).
const MaxFileSize = 2 << 20

// skippedDirs are never walked: dependencies, VCS data and build outputs.
var skippedDirs = map[string]bool{
	"node_modules": true, ".git": true, ".hg": true, ".svn": true,
	"dist": true, "build": true, "out": true, "coverage": true,
	".next": true, ".turbo": true, ".cache": true, ".yarn": true, ".pnpm-store": true,
}

// walkSources lists the TypeScript files under root (repo-relative, slash
// paths, sorted). Symlinked directories are followed when they stay inside the
// repository and have not been seen yet (which ends symlink loops); everything
// passed over that a user might expect to be read comes back as a Note.
func walkSources(root string) ([]string, []Note, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, nil, err
	}
	var files []string
	var notes []Note
	seen := map[string]bool{realRoot: true}
	var walk func(dir, rel string) error
	walk = func(dir, rel string) error {
		entries, err := os.ReadDir(dir)
		if err != nil {
			notes = append(notes, Note{File: relOrDot(rel), Reason: "unreadable directory: " + err.Error()})
			return nil
		}
		for _, e := range entries {
			name := e.Name()
			abs := filepath.Join(dir, name)
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			typ := e.Type()
			if typ&fs.ModeSymlink != 0 {
				target, err := filepath.EvalSymlinks(abs)
				if err != nil {
					notes = append(notes, Note{File: r, Reason: "broken symlink"})
					continue
				}
				info, err := os.Stat(target)
				if err != nil {
					notes = append(notes, Note{File: r, Reason: "broken symlink"})
					continue
				}
				if info.IsDir() {
					if skippedDirs[name] {
						continue
					}
					if !within(realRoot, target) {
						notes = append(notes, Note{File: r, Reason: "symlink leaves the repository; not followed"})
						continue
					}
					if seen[target] {
						notes = append(notes, Note{File: r, Reason: "symlink to a directory already read (loop or alias); not followed"})
						continue
					}
					seen[target] = true
					if err := walk(abs, r); err != nil {
						return err
					}
					continue
				}
				typ = info.Mode().Type()
			}
			if typ.IsDir() {
				if skippedDirs[name] || strings.HasPrefix(name, ".") {
					continue
				}
				real, err := filepath.EvalSymlinks(abs)
				if err == nil {
					if seen[real] {
						continue
					}
					seen[real] = true
				}
				if err := walk(abs, r); err != nil {
					return err
				}
				continue
			}
			if !typ.IsRegular() {
				continue
			}
			if _, ok := analyzer.LangFor(name); ok {
				files = append(files, r)
			}
		}
		return nil
	}
	if err := walk(root, ""); err != nil {
		return nil, nil, err
	}
	sort.Strings(files)
	return files, notes, nil
}

// readSource reads a source file, or says why it is not one to parse.
func readSource(abs string) ([]byte, string) {
	info, err := os.Stat(abs)
	if err != nil {
		return nil, "unreadable: " + err.Error()
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Sprintf("skipped: %d bytes, larger than %d", info.Size(), MaxFileSize)
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, "unreadable: " + err.Error()
	}
	head := src
	if len(head) > 8000 {
		head = head[:8000]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, "skipped: binary content (NUL byte)"
	}
	return src, ""
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

func relOrDot(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// SourcesUnder lists the repository's TypeScript sources (as Build reads
// them: node_modules, build outputs and hidden directories left out) under
// the repo-relative directory dir ("." for all), sorted.
func SourcesUnder(root, dir string) ([]string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	all, _, err := walkSources(abs)
	if err != nil {
		return nil, err
	}
	if dir == "." || dir == "" {
		return all, nil
	}
	var out []string
	for _, f := range all {
		if strings.HasPrefix(f, dir+"/") {
			out = append(out, f)
		}
	}
	return out, nil
}
