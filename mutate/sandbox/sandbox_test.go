//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func newSandbox(t *testing.T, f *fixture, opts Options) *Sandbox {
	t.Helper()
	if opts.TempDir == "" {
		opts.TempDir = filepath.Join(f.base, "tmp")
		must(t, os.MkdirAll(opts.TempDir, 0o755))
	}
	s, err := New(f.repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestNewLayout(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Options{})
	if filepath.Dir(s.Root) != s.Dir() || !strings.HasPrefix(filepath.Base(s.Dir()), Prefix) {
		t.Fatalf("Root %s is not in an %s* directory", s.Root, Prefix)
	}
	type kind int
	const (
		file    kind = iota // a regular file with the original content and mode
		absent              // not in the sandbox
		realDir             // a real directory (not a link)
		linkTo              // a link whose target is exactly want
		resolve             // a link that resolves to the file want
	)
	orig := func(rel string) string { return filepath.Join(f.repo, rel) }
	in := func(rel string) string { return filepath.Join(s.Root, rel) }
	tests := []struct {
		rel  string
		kind kind
		want string
	}{
		{"package.json", file, ""},
		{"src/index.ts", file, ""},
		{"src/readonly.ts", file, ""},
		{"scripts/run.sh", file, ""},
		{"packages/core/src/x.ts", file, ""},
		{"packages/app/src/build/keep.ts", file, ""}, // "build" below a package root is source
		{"ro/file.ts", file, ""},
		{"packages/lib/dist/index.js", file, ""}, // the package's entry point
		{"packages/lib/coverage", absent, ""},
		{".git", absent, ""},
		{"dist", absent, ""},
		{"coverage", absent, ""},
		{".turbo", absent, ""},
		{"packages/core/dist", absent, ""},
		{"packages/core/.cache", absent, ""},
		{"src/fifo", absent, ""},
		{"node_modules/.vite", absent, ""},
		{"node_modules/.vitest", absent, ""},
		{"node_modules", realDir, ""},
		{"node_modules/@scope", realDir, ""},
		{"node_modules/@acme", realDir, ""},
		{"packages/app/node_modules", realDir, ""},
		{"packages/app/node_modules/@acme", realDir, ""},
		{"node_modules/lodash", linkTo, orig("node_modules/lodash")},
		{"node_modules/@scope/pkg", linkTo, orig("node_modules/@scope/pkg")},
		{"node_modules/.bin", linkTo, orig("node_modules/.bin")},
		{"node_modules/vitest", linkTo, orig("node_modules/vitest")},
		{"node_modules/.package-lock.json", linkTo, orig("node_modules/.package-lock.json")},
		{"node_modules/.pnpm", linkTo, orig("node_modules/.pnpm")},
		{"node_modules/pnpm-dep", linkTo, orig("node_modules/pnpm-dep")},
		{"packages/app/node_modules/left-pad", linkTo, orig("packages/app/node_modules/left-pad")},
		{"node_modules/@acme/core", linkTo, in("packages/core")},
		{"node_modules/@acme/app", linkTo, in("packages/app")},
		{"packages/app/node_modules/@acme/core", linkTo, in("packages/core")},
		{"src/link-rel", linkTo, "util.ts"},
		{"src/link-abs", linkTo, in("src/util.ts")},
		{"src/link-out", linkTo, filepath.Join(f.outside, "ext.ts")},
		{"src/link-out-rel", linkTo, filepath.Join(f.outside, "ext.ts")},
		{"src/link-dist", linkTo, orig("src/link-dist")}, // dist is not copied: the original
		{"src/link-dangling", linkTo, "nowhere.ts"},
		{"ro/link", linkTo, "file.ts"},
		{"node_modules/.bin/vitest", resolve, orig("node_modules/vitest/vitest.mjs")},
		{"node_modules/pnpm-dep/index.js", resolve, orig("node_modules/.pnpm/lodash@4.17.21/node_modules/lodash/index.js")},
		{"src/link-dist", resolve, orig("dist/index.js")},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			p := in(tt.rel)
			fi, err := os.Lstat(p)
			if tt.kind == absent {
				if !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("%s is in the sandbox (err %v)", tt.rel, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch tt.kind {
			case file:
				ofi, err := os.Lstat(orig(tt.rel))
				must(t, err)
				// The source's bits, and always writable by the owner (issue 8 item 11).
				if !fi.Mode().IsRegular() || fi.Mode() != ofi.Mode()|0o200 {
					t.Errorf("mode %v, want %v", fi.Mode(), ofi.Mode()|0o200)
				}
				if got, want := readFile(t, p), readFile(t, orig(tt.rel)); got != want {
					t.Errorf("content %q, want %q", got, want)
				}
			case realDir:
				if !fi.IsDir() {
					t.Errorf("mode %v, want a real directory", fi.Mode())
				}
			case linkTo:
				target, err := os.Readlink(p)
				if err != nil {
					t.Fatal(err)
				}
				if target != tt.want {
					t.Errorf("-> %s, want -> %s", target, tt.want)
				}
			case resolve:
				got, err := filepath.EvalSymlinks(p)
				must(t, err)
				if got != tt.want {
					t.Errorf("resolves to %s, want %s", got, tt.want)
				}
			}
		})
	}
	// Directory modes are preserved, and owner-writable: a read-only checkout
	// (CI caches, chmod a-w) still takes mutants in the sandbox.
	fi, err := os.Stat(in("ro"))
	must(t, err)
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("ro: mode %v, want 0755 (0555 and u+rwx)", fi.Mode().Perm())
	}
}

func TestWorkspaceMutantSeenThroughNodeModules(t *testing.T) {
	f := newFixture(t)
	before := hashTree(t, f.repo)
	s := newSandbox(t, f, Options{})
	const mutant = "export const x = () => 'MUTANT';\n"
	must(t, s.WriteFile("packages/core/src/x.ts", []byte(mutant)))
	for _, via := range []string{"node_modules/@acme/core/src/x.ts", "packages/app/node_modules/@acme/core/src/x.ts"} {
		if got := readFile(t, filepath.Join(s.Root, via)); got != mutant {
			t.Errorf("%s in the sandbox: %q, want the mutant", via, got)
		}
		if got := readFile(t, filepath.Join(f.repo, via)); got == mutant {
			t.Errorf("%s in the checkout shows the mutant", via)
		}
	}
	if after := hashTree(t, f.repo); after != before {
		t.Error("the checkout changed")
	}
	// A write through the in-sandbox workspace link is the same file.
	must(t, s.WriteFile("node_modules/@acme/core/src/x.ts", []byte("second")))
	must(t, s.Restore("packages/core/src/x.ts"))
	if got, want := readFile(t, filepath.Join(s.Root, "packages/core/src/x.ts")), readFile(t, filepath.Join(f.repo, "packages/core/src/x.ts")); got != want {
		t.Errorf("after Restore: %q, want the original %q", got, want)
	}
}

func TestFullCycleLeavesCheckoutUntouched(t *testing.T) {
	f := newFixture(t)
	before := hashTree(t, f.repo)
	s := newSandbox(t, f, Options{})
	sandboxBefore := hashTree(t, s.Root)

	writes := []string{"src/util.ts", "src/readonly.ts", "ro/file.ts", "packages/core/src/x.ts", "src/new/dir/added.ts"}
	for i := range 3 {
		for _, rel := range writes {
			must(t, s.WriteFile(rel, []byte("mutant "+rel+string(rune('0'+i)))))
		}
	}
	// What vite does while tests run: caches under node_modules.
	must(t, os.MkdirAll(filepath.Join(s.Root, "node_modules/.vite/vitest/results"), 0o755))
	must(t, os.WriteFile(filepath.Join(s.Root, "node_modules/.vite/vitest/results/results.json"), []byte("{}"), 0o644))
	must(t, os.MkdirAll(filepath.Join(s.Root, "node_modules/.vite-temp"), 0o755))
	if after := hashTree(t, f.repo); after != before {
		t.Fatal("the checkout changed while mutants were written")
	}
	for _, rel := range writes {
		must(t, s.Restore(rel))
	}
	must(t, os.RemoveAll(filepath.Join(s.Root, "node_modules/.vite")))
	must(t, os.RemoveAll(filepath.Join(s.Root, "node_modules/.vite-temp")))
	if got := hashTree(t, s.Root); got != sandboxBefore {
		t.Error("Restore did not put back the sandbox as copied")
	}
	if err := s.Restore("src/util.ts"); err == nil {
		t.Error("Restore of a file not written again: no error")
	}

	dir := s.Dir()
	must(t, s.Close())
	must(t, s.Close()) // idempotent
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s is still there after Close (err %v)", dir, err)
	}
	if err := s.WriteFile("src/util.ts", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("WriteFile after Close: %v, want ErrClosed", err)
	}
	if after := hashTree(t, f.repo); after != before {
		t.Error("the checkout changed")
	}
	if _, err := os.Lstat(filepath.Join(f.repo, "node_modules/.vite/vitest")); err == nil {
		t.Error("a vite cache was written into the checkout")
	}
}

func TestRefusals(t *testing.T) {
	f := newFixture(t)
	before := hashTree(t, f.repo)
	s := newSandbox(t, f, Options{})
	tests := []string{
		"",
		"../x",
		"src/../../x",
		"..",
		filepath.Join(f.repo, "src/util.ts"), // absolute, into the checkout
		filepath.Join(s.Root, "src/util.ts"), // absolute, even inside
		"node_modules/lodash/index.js",       // a node_modules entry links into the checkout
		"node_modules/lodash/new.js",
		"node_modules/@scope/pkg/index.js",
		"node_modules/.bin/vitest",
		"node_modules/pnpm-dep/index.js",
		"packages/app/node_modules/left-pad/index.js",
		"src/link-out",      // a source link out of the repository
		"src/link-dist",     // points at the checkout's dist
		"src/link-dangling", // where a write lands is unknown
	}
	for _, rel := range tests {
		t.Run(rel, func(t *testing.T) {
			if p, err := s.Path(rel); !errors.Is(err, ErrOutside) {
				t.Errorf("Path(%q) = %q, %v; want ErrOutside", rel, p, err)
			}
			if err := s.WriteFile(rel, []byte("mutant")); !errors.Is(err, ErrOutside) {
				t.Errorf("WriteFile(%q) = %v; want ErrOutside", rel, err)
			}
		})
	}
	if after := hashTree(t, f.repo); after != before {
		t.Error("the checkout changed")
	}
	// Accepted: plain paths, new files, and links that stay inside.
	for rel, want := range map[string]string{
		"src/util.ts":                      filepath.Join(s.Root, "src/util.ts"),
		"src/new.ts":                       filepath.Join(s.Root, "src/new.ts"),
		"src/./x/../util.ts":               filepath.Join(s.Root, "src/util.ts"),
		"src/link-abs":                     filepath.Join(s.Root, "src/util.ts"),
		"node_modules/@acme/core/src/x.ts": filepath.Join(s.Root, "packages/core/src/x.ts"),
		"node_modules/.vite/deps/x.js":     filepath.Join(s.Root, "node_modules/.vite/deps/x.js"),
	} {
		if got, err := s.Path(rel); err != nil || got != want {
			t.Errorf("Path(%q) = %q, %v; want %q", rel, got, err, want)
		}
	}
}

func TestSymlinkLoopsDoNotHang(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	must(t, os.MkdirAll(filepath.Join(repo, "loop/sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(repo, "loop/sub/a.ts"), []byte("a"), 0o644))
	for p, target := range map[string]string{
		"loop/self":            ".",
		"loop/up":              "..",
		"loop/sub/root":        repo,
		"loop/a":               "b",
		"loop/b":               "a",
		"node_modules/@x/self": "../../loop", // workspace-like link to a directory with loops
		"node_modules/cycle":   "../node_modules",
	} {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(repo, p)), 0o755))
		must(t, os.Symlink(target, filepath.Join(repo, p)))
	}
	done := make(chan error, 1)
	var s *Sandbox
	go func() {
		var err error
		s, err = New(repo, Options{TempDir: base})
		done <- err
	}()
	// A loop followed never ends: go test's -timeout names this test
	// (no cap of its own, which a loaded machine could pass).
	must(t, <-done)
	defer s.Close()
	for _, rel := range []string{"loop/self", "loop/up", "loop/a", "loop/b", "loop/sub/root"} {
		if fi, err := os.Lstat(filepath.Join(s.Root, rel)); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s: not copied as a link (%v)", rel, err)
		}
	}
	if target, _ := os.Readlink(filepath.Join(s.Root, "loop/sub/root")); target != s.Root {
		t.Errorf("loop/sub/root -> %s, want %s", target, s.Root)
	}
	must(t, s.Close())
}

func TestTempDirInsideRepository(t *testing.T) {
	f := newFixture(t)
	tmp := filepath.Join(f.repo, ".oracle-tmp")
	must(t, os.Mkdir(tmp, 0o755))
	s := newSandbox(t, f, Options{TempDir: tmp, Exclude: []string{"scripts", "packages/app/src"}})
	if _, err := os.Lstat(filepath.Join(s.Root, ".oracle-tmp", filepath.Base(s.Dir()))); err == nil {
		t.Error("the sandbox was copied into itself")
	}
	for _, rel := range []string{"scripts", "packages/app/src"} {
		if _, err := os.Lstat(filepath.Join(s.Root, rel)); err == nil {
			t.Errorf("%s: excluded but copied", rel)
		}
	}
	must(t, s.Close())
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("%s not empty after Close: %v", tmp, entries)
	}
}

func TestRepositoryThroughALink(t *testing.T) {
	f := newFixture(t)
	alias := filepath.Join(f.base, "alias")
	must(t, os.Symlink(f.repo, alias))
	s, err := New(alias, Options{TempDir: f.base})
	must(t, err)
	defer s.Close()
	if s.Source != f.repo {
		t.Errorf("Source %s, want %s", s.Source, f.repo)
	}
	if target, _ := os.Readlink(filepath.Join(s.Root, "node_modules/@acme/core")); target != filepath.Join(s.Root, "packages/core") {
		t.Errorf("workspace link -> %s, not re-pointed", target)
	}
}

func TestCloseAllDuringCopy(t *testing.T) {
	f := newFixture(t)
	for i := range 300 {
		p := filepath.Join(f.repo, "src/many", fmt.Sprintf("m%02d/f%03d.ts", i/30, i))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte("export {};\n"), 0o644))
	}
	tmp := filepath.Join(f.base, "tmp")
	must(t, os.Mkdir(tmp, 0o755))
	done := make(chan error, 1)
	go func() {
		s, err := New(f.repo, Options{TempDir: tmp})
		if err == nil {
			_, err = s.Path("src/util.ts") // closed by CloseAll before or after the copy
		}
		done <- err
	}()
	for { // the sandbox is registered as soon as its directory exists
		registry.Lock()
		n := len(registry.open)
		registry.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	must(t, CloseAll())
	err := <-done
	if !errors.Is(err, ErrClosed) && !errors.Is(err, errAborted) {
		t.Errorf("New or Path after CloseAll: %v, want ErrClosed or an aborted copy", err)
	}
	t.Logf("result: %v", err)
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("left in %s: %v", tmp, entries)
	}
}

// TestWorkspacePackageSeesHoistedModules: a repository that is one package
// of a workspace resolves the packages hoisted to the workspace root by
// walking up; the copy finds them the same way, through node_modules beside
// it, and the workspace itself stays as it was.
func TestWorkspacePackageSeesHoistedModules(t *testing.T) {
	ws := t.TempDir()
	pkg := filepath.Join(ws, "packages", "a")
	for rel, body := range map[string]string{
		"node_modules/rootonly/package.json": `{"name":"rootonly","main":"index.js"}`,
		"node_modules/rootonly/index.js":     "module.exports = 1;\n",
		"packages/a/package.json":            `{"name":"a"}`,
		"packages/a/src/a.ts":                "export const a = 1;\n",
	} {
		p := filepath.Join(ws, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(body), 0o644))
	}
	tmp := t.TempDir()
	s, err := New(pkg, Options{TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	// Walking up from the copy's root, as node does, reaches rootonly.
	found := false
	for d := s.Root; d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "node_modules", "rootonly", "index.js")); err == nil {
			found = true
			break
		}
	}
	if !found {
		t.Error("the copy of a workspace package cannot reach the workspace's hoisted packages")
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(ws, "node_modules", "rootonly", "index.js")); err != nil {
		t.Errorf("closing the sandbox touched the workspace's node_modules: %v", err)
	}
}
