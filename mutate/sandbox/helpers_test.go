//go:build unix

package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// fixture is a repository on disk with the layouts the sandbox must handle.
type fixture struct {
	base    string // holds repo and outside
	repo    string
	outside string // a directory next to the repository
}

// newFixture writes a small monorepo: sources, VCS and build outputs, npm
// node_modules with a scope, a workspace link, a pnpm store, vite caches, a
// nested package node_modules, links of every kind, a FIFO, read-only files.
func newFixture(t testing.TB) *fixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{base: base, repo: filepath.Join(base, "repo"), outside: filepath.Join(base, "outside")}
	files := []struct {
		path, content string
		mode          fs.FileMode
	}{
		{"outside/ext.ts", "export const ext = 1;\n", 0o644},
		{"repo/package.json", `{"name":"acme","workspaces":["packages/*"]}`, 0o644},
		{"repo/src/index.ts", "export { util } from './util';\n", 0o644},
		{"repo/src/util.ts", "export const util = () => 1;\n", 0o644},
		{"repo/src/readonly.ts", "export const ro = 1;\n", 0o444},
		{"repo/scripts/run.sh", "#!/bin/sh\necho hi\n", 0o755},
		{"repo/.git/HEAD", "ref: refs/heads/main\n", 0o644},
		{"repo/.git/objects/ab/cdef", "blob", 0o444},
		{"repo/dist/index.js", "exports.util = 1;\n", 0o644},
		{"repo/coverage/lcov.info", "TN:\n", 0o644},
		{"repo/.turbo/cache.json", "{}", 0o644},
		{"repo/packages/core/package.json", `{"name":"@acme/core","main":"src/x.ts"}`, 0o644},
		{"repo/packages/core/src/x.ts", "export const x = () => 'original';\n", 0o644},
		{"repo/packages/core/dist/x.js", "exports.x = 1;\n", 0o644},
		{"repo/packages/core/.cache/blob", "cache", 0o644},
		{"repo/packages/app/package.json", `{"name":"@acme/app"}`, 0o644},
		{"repo/packages/lib/package.json", `{"name":"@acme/lib","exports":{".":{"import":"./dist/index.js"}}}`, 0o644},
		{"repo/packages/lib/dist/index.js", "export const lib = 1;\n", 0o644},
		{"repo/packages/lib/coverage/lcov.info", "TN:\n", 0o644},
		{"repo/packages/app/src/build/keep.ts", "export const keep = 1;\n", 0o644},
		{"repo/packages/app/node_modules/left-pad/index.js", "module.exports = 1;\n", 0o644},
		{"repo/node_modules/lodash/package.json", `{"name":"lodash"}`, 0o644},
		{"repo/node_modules/lodash/index.js", "module.exports = {};\n", 0o644},
		{"repo/node_modules/lodash/node_modules/inner/index.js", "module.exports = 2;\n", 0o644},
		{"repo/node_modules/@scope/pkg/index.js", "module.exports = 3;\n", 0o644},
		{"repo/node_modules/vitest/vitest.mjs", "// vitest\n", 0o755},
		{"repo/node_modules/.package-lock.json", "{}", 0o644},
		{"repo/node_modules/.vite/deps/_metadata.json", "{}", 0o644},
		{"repo/node_modules/.vitest/results.json", "{}", 0o644},
		{"repo/node_modules/.pnpm/lodash@4.17.21/node_modules/lodash/index.js", "module.exports = 4;\n", 0o644},
		{"repo/ro/file.ts", "export const locked = 1;\n", 0o444},
	}
	for _, e := range files {
		p := filepath.Join(base, e.path)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(e.content), e.mode))
	}
	links := []struct{ path, target string }{
		{"repo/node_modules/@acme/core", "../../packages/core"},
		{"repo/node_modules/@acme/app", filepath.Join(f.repo, "packages/app")}, // absolute workspace link
		{"repo/node_modules/.bin/vitest", "../vitest/vitest.mjs"},
		{"repo/node_modules/pnpm-dep", ".pnpm/lodash@4.17.21/node_modules/lodash"},
		{"repo/packages/app/node_modules/@acme/core", "../../../core"},
		{"repo/src/link-rel", "util.ts"},
		{"repo/src/link-abs", filepath.Join(f.repo, "src/util.ts")},
		{"repo/src/link-out", filepath.Join(f.outside, "ext.ts")},
		{"repo/src/link-out-rel", "../../outside/ext.ts"},
		{"repo/src/link-dist", "../dist/index.js"},
		{"repo/src/link-dangling", "nowhere.ts"},
		{"repo/ro/link", "file.ts"},
	}
	for _, l := range links {
		p := filepath.Join(base, l.path)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.Symlink(l.target, p))
	}
	must(t, syscall.Mkfifo(filepath.Join(f.repo, "src/fifo"), 0o644))
	must(t, os.Chmod(filepath.Join(f.repo, "ro"), 0o555))
	t.Cleanup(func() { os.Chmod(filepath.Join(f.repo, "ro"), 0o755) })
	return f
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// hashTree is a sha256 over every path under dir with its mode, its link
// target (links are not followed) and its content, node_modules included.
func hashTree(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			line += " -> " + target
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		}
		lines = append(lines, line)
		return nil
	})
	must(t, err)
	sort.Strings(lines)
	h.Write([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(h.Sum(nil))
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	must(t, err)
	return string(b)
}
