// Package sandbox makes a throwaway copy of a user's repository in which
// `oracle prove`, `oracle gate` and `oracle audit` write mutants or markers
// and run vitest, and which never touches the user's checkout.
//
// A sandbox is a fresh directory `<TempDir>/oracle-prove-*` holding an owner
// marker (the pid of the process that made it, for [SweepStale]) and the copy
// of the repository (Sandbox.Root, named like the repository's directory).
//
// What is copied: every regular file and directory of the repository with its
// permission bits, except version-control directories (.git, .hg, .svn, ...),
// tool caches (.turbo, .next, .cache, .vite, .vitest, ...), build outputs at a
// package root (dist, build, coverage next to a package.json, unless its
// main, exports, bin... point into them), special files (sockets, devices,
// pipes) and whatever Options.Exclude names.
//
// Symbolic links are copied as links and never followed: a link whose target
// lies inside the repository points at the same place inside the sandbox (a
// relative link stays relative); a link out of the repository points at the
// same absolute place; a link that would dangle in the sandbox (its target
// was not copied) points at the original. Symlink loops are therefore copied
// as they are, in constant time.
//
// A repository that is one package of a workspace may have tsconfig files
// (at its root and one level down) whose relative `extends` or `references`
// lead out of it (`"extends": "../../tsconfig.base.json"`, `"references":
// [{ "path": "../core" }]`): vite's transform reads them for every test
// file and fails on one it cannot find. The copy then sits at the same place
// below the name of the deepest directory holding all of them
// (`<sandbox>/ws/packages/app`), the extended files are copied to their
// places (and what they extend in turn; a node_modules one goes into is
// linked whole), and the referenced directories are linked to the
// originals.
//
// Dependencies are linked, not copied: each node_modules directory of the
// repository (not those inside node_modules) becomes a real directory of the
// sandbox with one absolute link per entry to the original entry, @scope
// directories being real directories with one link per package. An entry that
// is itself a link into the repository outside any node_modules (a workspace
// package, `node_modules/@acme/core -> ../../packages/core`) points into the
// sandbox instead, so that a mutant of packages/core is what an import of
// @acme/core sees. The caches vite and vitest write under node_modules
// (.vite, .vitest, .vite-temp, .cache) are left out: they are created afresh
// inside the sandbox's real node_modules, never through a link into the
// checkout. A pnpm store (node_modules/.pnpm) is linked as a whole.
//
// The sandbox only ever writes under its own directory: [Sandbox.WriteFile]
// and [Sandbox.Restore] refuse a path that leaves Root, lexically or through a
// link (such as a node_modules entry, which links into the checkout), and
// [Sandbox.Close] removes the directory without following links. Open sandboxes
// are registered, so that [CloseAll] removes them on an interrupt (the command
// cancels its run on SIGINT or SIGTERM, then closes them all); [SweepStale]
// removes what a killed process left behind.
package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Prefix starts the name of every sandbox directory made by [New].
const Prefix = "oracle-prove-"

// ownerFile is the marker, in the sandbox directory next to Root, that names
// the process owning the sandbox.
const ownerFile = ".oracle-sandbox-owner"

var (
	// ErrOutside is returned for a path that is absolute, leaves the sandbox
	// with "..", or resolves through a link to a place outside the sandbox.
	ErrOutside = errors.New("path leaves the sandbox")
	// ErrClosed is returned by the methods of a closed sandbox, and by New
	// once the sandboxes are being removed on a signal.
	ErrClosed = errors.New("sandbox is closed")

	errAborted = errors.New("closed while copying")
)

// Options tune [New].
type Options struct {
	// TempDir is where the sandbox directory is made; os.TempDir() when empty.
	TempDir string
	// Exclude leaves out more files and directories: an entry with a slash is a
	// path relative to the repository root ("packages/web/public/videos"), any
	// other entry a name matched at every depth ("fixtures-large").
	Exclude []string
	// Config is the vitest config the runs in the sandbox use, relative to
	// the repository: one above it, in its workspace (testsuite.Config.Above,
	// "../../vitest.config.ts"), is placed where it sits relative to the copy,
	// with the package.json beside it and what it imports by relative paths,
	// so that vitest runs the copy's tests from the config's directory as it
	// does in the checkout.
	Config string
}

// Sandbox is a copy of a repository. Its methods are safe for concurrent use.
type Sandbox struct {
	// Root is the absolute, symlink-free path of the copy of the repository.
	Root string
	// Source is the absolute, symlink-free path of the repository copied.
	Source string

	dir   string // the oracle-prove-* directory: owner marker and Root
	given string // the repository root as given, made absolute (may hold links)

	abort     atomic.Bool // set by Close: a copy under way stops
	mu        sync.Mutex
	closed    bool
	removed   bool
	originals map[string]*original // by physical path inside Root
}

// original is what a file looked like before the first WriteFile to it.
type original struct {
	existed bool
	data    []byte
	mode    fs.FileMode
	created []string // directories WriteFile made for a new file, deepest first
}

// New copies the repository at repoRoot into a new sandbox (see the package
// documentation for what is copied and how). On error nothing is left behind.
func New(repoRoot string, opts Options) (*Sandbox, error) {
	given, err := filepath.Abs(repoRoot)
	if err != nil {
		return nil, err
	}
	source, err := filepath.EvalSymlinks(given)
	if err != nil {
		return nil, fmt.Errorf("sandbox: repository: %w", err)
	}
	if fi, err := os.Stat(source); err != nil {
		return nil, fmt.Errorf("sandbox: repository: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("sandbox: repository %s is not a directory", repoRoot)
	}
	tempDir := opts.TempDir
	if tempDir == "" {
		tempDir = os.TempDir()
	}

	s := &Sandbox{Source: source, given: given, originals: map[string]*original{}}
	if err := register(s, func() error {
		dir, err := os.MkdirTemp(tempDir, Prefix+"*")
		if err != nil {
			return err
		}
		s.dir = dir
		return nil
	}); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	// Close (from a signal handler) waits for the copy, which it aborts.
	s.mu.Lock()
	err = errAborted // closed between its registration and the copy: its directory is gone
	if !s.abort.Load() {
		err = s.setUp(opts)
	}
	s.mu.Unlock()
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("sandbox: copying %s: %w", repoRoot, err)
	}
	return s, nil
}

func (s *Sandbox) setUp(opts Options) error {
	dir, err := filepath.EvalSymlinks(s.dir)
	if err != nil {
		return err
	}
	s.dir = dir
	if err := writeOwner(dir); err != nil {
		return err
	}
	name := filepath.Base(s.Source)
	if name == string(filepath.Separator) || name == "." || name == ownerFile || name == groupsFile {
		name = "repo"
	}
	s.Root = filepath.Join(dir, name)
	out := outsideConfigs(s.Source)
	above := configAbove(s.Source, s.given, opts.Config)
	for _, f := range above {
		if !slices.Contains(out.files, f) {
			out.files = append(out.files, f)
		}
	}
	slices.Sort(out.files)
	top, mirror := s.Source, "" // the deepest directory holding the repository and what its tsconfig files point to, and its place in the sandbox
	for _, p := range slices.Concat(out.files, out.dirs) {
		for {
			if _, ok := within(top, p); ok {
				break
			}
			top = filepath.Dir(top)
		}
	}
	if top != s.Source {
		// The copy sits where the repository sits below top, so that the
		// relative paths of its tsconfig files lead where they lead in the
		// checkout.
		topName := filepath.Base(top)
		if topName == string(filepath.Separator) || topName == "." || topName == ownerFile || topName == groupsFile || topName == "tmp" || topName == "node_modules" {
			topName = "workspace"
		}
		rel, _ := within(top, s.Source)
		mirror = filepath.Join(dir, topName)
		s.Root = filepath.Join(mirror, rel)
		if err := os.MkdirAll(filepath.Dir(s.Root), 0o755); err != nil {
			return err
		}
	}
	if err := s.copyRepo(opts.Exclude); err != nil {
		return err
	}
	if top != s.Source {
		if err := s.placeOutside(top, mirror, out); err != nil {
			return err
		}
	}
	if len(above) > 0 {
		if err := s.mirrorHoisted(top, mirror); err != nil {
			return err
		}
	}
	return s.linkHoisted()
}

// mirrorHoisted gives the workspace's directories placed in the sandbox
// (a config above the repository, Options.Config) the node_modules of the
// checkout's workspace, at its place: vitest, run from the config's
// directory, resolves the config's imports and finds itself there (the
// placed package.json that declares the workspace ends the search for
// vitest, internal/vitestloc). Like a node_modules of the repository, it is
// a real directory with a link per entry, so that vite's caches are made in
// the sandbox, never written into the checkout.
func (s *Sandbox) mirrorHoisted(top, mirror string) error {
	for d := filepath.Dir(s.Source); ; d = filepath.Dir(d) {
		rel, in := within(top, d)
		if !in {
			return nil
		}
		nm := filepath.Join(d, "node_modules")
		if fi, err := os.Stat(nm); err == nil && fi.IsDir() {
			dest := filepath.Join(mirror, rel, "node_modules")
			if _, err := os.Lstat(dest); err == nil {
				return nil // placed already (a tsconfig extends into it)
			}
			c := &copier{s: s}
			return c.linkModules(nm, dest)
		}
		if d == top {
			return nil
		}
	}
}

// placeOutside puts what the repository's tsconfig files point to out of it
// (out, below top) at the same place relative to the copy (below mirror,
// top's place in the sandbox): each tsconfig file an `extends` names is
// copied (its relative baseUrl, paths and include resolve in the sandbox as
// in the checkout), each directory a `references` names (a sibling package
// of the workspace) is linked to the original, read-only for the sandbox
// like node_modules. Nothing is placed inside a linked directory.
func (s *Sandbox) placeOutside(top, mirror string, out outside) error {
	var linked []string
	inLinked := func(p string) bool {
		return slices.ContainsFunc(linked, func(d string) bool { _, in := within(d, p); return in })
	}
	for _, d := range out.dirs { // sorted: a directory comes before those inside it
		if inLinked(d) {
			continue
		}
		linked = append(linked, d)
		rel, _ := within(top, d)
		dest := filepath.Join(mirror, rel)
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return err
		}
		if err := os.Symlink(d, dest); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	for _, f := range out.files {
		if inLinked(f) {
			continue // in a linked package
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		rel, _ := within(top, f)
		dest := filepath.Join(mirror, rel)
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dest, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// linkHoisted gives the copy the packages the checkout resolves from above
// its root: a repository that is one package of a workspace finds the
// packages hoisted to the workspace's node_modules by walking up, which the
// copy, alone in its sandbox, cannot. The nearest node_modules above the
// checkout is linked beside the copy's root (the sandbox directory), so node
// and vite walk up from the copy into it as they do from the checkout.
func (s *Sandbox) linkHoisted() error {
	for d := filepath.Dir(s.Source); ; d = filepath.Dir(d) {
		nm := filepath.Join(d, "node_modules")
		if fi, err := os.Stat(nm); err == nil && fi.IsDir() {
			return os.Symlink(nm, filepath.Join(s.dir, "node_modules"))
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// Dir is the sandbox directory: Root and the owner marker are in it, and it is
// what Close removes.
func (s *Sandbox) Dir() string { return s.dir }

// TempDirFor is where a process working at path (inside a sandbox's Root)
// keeps its temporary files: a directory inside the sandbox directory, made
// on first use, removed with the sandbox, so that nothing a run writes (the
// runner's files, vitest's $TMPDIR/<id>/ssr transforms of the user's code)
// is left in the system's temp directory. "" when path is in no sandbox.
func TempDirFor(path string) string {
	for dir := path; ; dir = filepath.Dir(dir) {
		if fi, err := os.Lstat(filepath.Join(dir, ownerFile)); err == nil && fi.Mode().IsRegular() {
			tmp := filepath.Join(dir, "tmp")
			if err := os.MkdirAll(tmp, 0o700); err != nil {
				return ""
			}
			return tmp
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// Within reports whether path lies physically (after its links are
// followed) inside a sandbox directory: a run working there may write its own
// files beside the user's code, which the sandbox's removal takes away, and
// never into the user's checkout.
func Within(path string) bool {
	rp, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	for dir := rp; ; dir = filepath.Dir(dir) {
		if fi, err := os.Lstat(filepath.Join(dir, ownerFile)); err == nil && fi.Mode().IsRegular() {
			return true
		}
		if filepath.Dir(dir) == dir {
			return false
		}
	}
}

// Path returns the absolute path inside the sandbox of rel, a path relative to
// the repository root, after following the links inside the sandbox it goes
// through. It returns ErrOutside for an absolute path, a path that leaves
// Root with "..", and a path that resolves through a link to a place outside
// the sandbox (any path into a node_modules entry that links to the checkout).
// The file need not exist. Paths that Path accepts are the ones that
// WriteFile may write; to read through node_modules links (such as
// node_modules/.bin/vitest), join Root yourself.
func (s *Sandbox) Path(rel string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", ErrClosed
	}
	return s.resolve(rel)
}

// resolve maps rel to a physical path under Root, or fails with ErrOutside.
func (s *Sandbox) resolve(rel string) (string, error) {
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("sandbox: %q: %w", rel, ErrOutside)
	}
	p := filepath.Join(s.Root, rel)
	// The deepest part of p that exists can hold links; the rest cannot.
	existing := p
	for {
		_, err := os.Lstat(existing)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) || existing == s.Root {
			return "", fmt.Errorf("sandbox: %q: %w", rel, err)
		}
		existing = filepath.Dir(existing)
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		// A dangling link or a loop: where a write would land is unknown.
		return "", fmt.Errorf("sandbox: %q: %w (%v)", rel, ErrOutside, err)
	}
	if _, ok := within(s.Root, real); !ok {
		return "", fmt.Errorf("sandbox: %q resolves to %s: %w", rel, real, ErrOutside)
	}
	rest, err := filepath.Rel(existing, p)
	if err != nil {
		return "", err
	}
	return filepath.Join(real, rest), nil
}

// WriteFile writes data to the file rel (relative to the repository root)
// inside the sandbox, making missing parent directories. rel is checked as by
// Path; nothing is ever written outside the sandbox. The first write to a
// file remembers its content, mode, or absence, for Restore; two paths to
// the same file through a link inside the sandbox (node_modules/@acme/core/x.ts
// and packages/core/x.ts) are one file. The mode of an
// existing file is kept (a read-only file is written all the same); a new
// file gets mode 0644.
func (s *Sandbox) WriteFile(rel string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	p, err := s.resolve(rel)
	if err != nil {
		return err
	}
	orig, seen := s.originals[p]
	if !seen {
		orig = &original{}
		fi, err := os.Lstat(p)
		switch {
		case err == nil && !fi.Mode().IsRegular():
			return fmt.Errorf("sandbox: %s is not a regular file", rel)
		case err == nil:
			b, err := os.ReadFile(p)
			if err != nil {
				return fmt.Errorf("sandbox: %w", err)
			}
			orig.existed, orig.data, orig.mode = true, b, fi.Mode().Perm()
		case errors.Is(err, fs.ErrNotExist):
			for d := filepath.Dir(p); d != s.Root; d = filepath.Dir(d) {
				if _, err := os.Lstat(d); err == nil {
					break
				}
				orig.created = append(orig.created, d)
			}
		default:
			return fmt.Errorf("sandbox: %w", err)
		}
		if len(orig.created) > 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return fmt.Errorf("sandbox: %w", err)
			}
		}
		s.originals[p] = orig
	}
	mode := fs.FileMode(0o644)
	if orig.existed {
		mode = orig.mode
	}
	if err := writeKeepingMode(p, data, mode); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	return nil
}

// Restore puts back the file rel as it was before the first WriteFile to it
// (a file WriteFile created is removed, with the directories it made). It
// fails for a file not written since the sandbox was made or last restored.
func (s *Sandbox) Restore(rel string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	p, err := s.resolve(rel)
	if err != nil {
		return err
	}
	orig, ok := s.originals[p]
	if !ok {
		return fmt.Errorf("sandbox: restore %s: not written", rel)
	}
	if orig.existed {
		if err := writeKeepingMode(p, orig.data, orig.mode); err != nil {
			return fmt.Errorf("sandbox: restore %s: %w", rel, err)
		}
		if err := os.Chmod(p, orig.mode); err != nil {
			return fmt.Errorf("sandbox: restore %s: %w", rel, err)
		}
	} else {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("sandbox: restore %s: %w", rel, err)
		}
		for _, d := range orig.created {
			os.Remove(d) // only if empty: something else may have put files there
		}
	}
	delete(s.originals, p)
	return nil
}

// Close removes the sandbox directory, read-only files and directories
// included, without following links (node_modules entries are unlinked, the
// originals untouched). Close is idempotent; after it the other methods
// return ErrClosed.
func (s *Sandbox) Close() error {
	s.abort.Store(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.removed {
		return nil
	}
	if s.dir != "" {
		if !strings.HasPrefix(filepath.Base(s.dir), Prefix) { // never remove anything else
			return fmt.Errorf("sandbox: refusing to remove %s", s.dir)
		}
		if err := removeTree(s.dir); err != nil {
			return fmt.Errorf("sandbox: close: %w", err)
		}
	}
	s.removed = true
	unregister(s)
	return nil
}

// writeKeepingMode writes data to the existing or new file p, granting itself
// write permission for the time of the write if the file is read-only.
func writeKeepingMode(p string, data []byte, mode fs.FileMode) error {
	err := os.WriteFile(p, data, mode)
	if err == nil || !errors.Is(err, fs.ErrPermission) {
		return err
	}
	if cerr := os.Chmod(p, mode|0o200); cerr != nil {
		return err
	}
	err = os.WriteFile(p, data, mode)
	if cerr := os.Chmod(p, mode); err == nil {
		err = cerr
	}
	return err
}

// removeTree removes dir and everything under it. os.RemoveAll unlinks links
// rather than following them; when it fails on directories without write or
// search permission, they are made accessible (real directories only: WalkDir
// does not follow links) and the removal retried.
func removeTree(dir string) error {
	var err error
	for range 3 {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o700)
			}
			return nil
		})
	}
	return err
}

// within returns p relative to root when p is root or below it (both clean
// and absolute).
func within(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// Pool holds the sandboxes of one run of the lab: one at first, more (up to
// Max) when mutants are left to run alone and can run at once.
type Pool struct {
	Root, TempDir string // the repository and Options.TempDir of each sandbox
	Config        string // Options.Config of each sandbox
	Max           int
	// CloseDir, when set, is called with each sandbox's root before it is
	// removed (the runner stops the vitest it keeps there).
	CloseDir func(root string)
	List     []*Sandbox
	Spent    time.Duration // creating them
}

// Grow makes up to n more sandboxes (within Max) and returns them.
func (p *Pool) Grow(n int) ([]*Sandbox, error) {
	t0 := time.Now()
	defer func() { p.Spent += time.Since(t0) }()
	var out []*Sandbox
	for range min(n, p.Max-len(p.List)) {
		sb, err := New(p.Root, Options{TempDir: p.TempDir, Config: p.Config})
		if err != nil {
			return out, err // "sandbox: ..."
		}
		p.List = append(p.List, sb)
		out = append(out, sb)
	}
	return out, nil
}

// Close stops what runs in each sandbox, then removes it.
func (p *Pool) Close() {
	for _, sb := range p.List {
		if p.CloseDir != nil {
			p.CloseDir(sb.Root)
		}
		sb.Close()
	}
}
