package sandbox

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	cp "github.com/otiai10/copy"
)

// skippedDirs are left out at every depth: version control and tool caches.
var skippedDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".bzr": true, ".jj": true, "_darcs": true, ".fossil": true,
	".turbo": true, ".next": true, ".nuxt": true, ".output": true, ".svelte-kit": true, ".angular": true,
	".cache": true, ".parcel-cache": true, ".vite": true, ".vitest": true, ".nx": true, ".nyc_output": true,
}

// outputDirs are left out where they are build outputs: next to a
// package.json that does not name them as its entry points (src/build/ of a
// package is source and is kept; so is the dist/ of a workspace package whose
// "main" is dist/index.js, or imports of it by name would break).
var outputDirs = map[string]bool{"dist": true, "build": true, "coverage": true}

// moduleCaches are the node_modules entries that tools write to while tests
// run; the sandbox leaves them out so that they are made inside it, never
// written through a link into the checkout.
var moduleCaches = map[string]bool{".vite": true, ".vitest": true, ".vite-temp": true, ".cache": true}

// copyWorkers is how many files the copy writes at once.
const copyWorkers = 4

// link is a symbolic link of the repository to recreate in the sandbox.
type link struct{ src, dest string }

// copier collects, while otiai10/copy walks the repository, what it must not
// copy file by file: symbolic links and node_modules directories.
type copier struct {
	s        *Sandbox
	names    map[string]bool // Options.Exclude entries without a slash
	paths    map[string]bool // Options.Exclude entries with a slash, slash-separated
	mu       sync.Mutex
	links    []link
	modules  []link
	repoints []link // links pointed into the sandbox: fixed up if they dangle there
	dirModes []dirMode
}

// dirMode is the permission a copied directory gets once the copy is done.
type dirMode struct {
	path string
	mode fs.FileMode
}

// permissions is the otiai10/copy PermissionControl: files get their mode at
// once, directories are made writable and get theirs at the end. The copy is
// always writable by its owner (a read-only checkout, a CI cache, `chmod
// a-w`): files get u+w and directories u+rwx on top of the source's bits, so
// that mutants can be written and the sandbox removed.
func (c *copier) permissions(info fs.FileInfo, dest string) (func(*error), error) {
	if !info.IsDir() {
		return func(err *error) {
			if cerr := os.Chmod(dest, info.Mode()|0o200); *err == nil {
				*err = cerr
			}
		}, nil
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return func(*error) {}, err
	}
	if mode := info.Mode()&fs.ModePerm | 0o700; mode != 0o755 {
		c.mu.Lock()
		c.dirModes = append(c.dirModes, dirMode{dest, info.Mode() | 0o700})
		c.mu.Unlock()
	}
	return func(*error) {}, nil
}

func (s *Sandbox) copyRepo(exclude []string) (err error) {
	c := &copier{s: s, names: map[string]bool{}, paths: map[string]bool{}}
	for _, e := range exclude {
		e = strings.Trim(filepath.ToSlash(filepath.Clean(e)), "/")
		if strings.Contains(e, "/") {
			c.paths[e] = true
		} else {
			c.names[e] = true
		}
	}
	err = cp.Copy(s.Source, s.Root, cp.Options{
		Skip:              c.skip,
		OnSymlink:         func(string) cp.SymlinkAction { return cp.Skip }, // all links are handled by skip
		PermissionControl: c.permissions,
		NumOfWorkers:      copyWorkers,
	})
	if err != nil {
		return err
	}
	// Directories get their modes last: links go into them first.
	defer func() {
		sort.Slice(c.dirModes, func(i, j int) bool { return c.dirModes[i].path > c.dirModes[j].path })
		for _, d := range c.dirModes {
			if cerr := os.Chmod(d.path, d.mode); err == nil {
				err = cerr
			}
		}
	}()
	// Links are made once every file is in place, so that whether a link
	// dangles in the sandbox can be told.
	sortLinks(c.links)
	sortLinks(c.modules)
	for _, l := range c.links {
		if err := c.copyLink(l.src, l.dest); err != nil {
			return err
		}
	}
	for _, m := range c.modules {
		if err := c.linkModules(m.src, m.dest); err != nil {
			return err
		}
	}
	return c.fixDangling()
}

// skip is called for every entry below the repository root; it reports
// whether otiai10/copy must leave the entry alone.
func (c *copier) skip(info os.FileInfo, src, dest string) (bool, error) {
	if c.s.abort.Load() {
		return true, errAborted
	}
	name := info.Name()
	mode := info.Mode()
	if src == c.s.dir { // TempDir inside the repository: do not copy the sandbox into itself
		return true, nil
	}
	if c.excluded(name, src) {
		return true, nil
	}
	switch {
	case mode&fs.ModeSymlink != 0:
		c.mu.Lock()
		if name == "node_modules" {
			c.modules = append(c.modules, link{src, dest})
		} else {
			c.links = append(c.links, link{src, dest})
		}
		c.mu.Unlock()
		return true, nil
	case mode.IsDir():
		if name == "node_modules" {
			c.mu.Lock()
			c.modules = append(c.modules, link{src, dest})
			c.mu.Unlock()
			return true, nil
		}
		if skippedDirs[name] {
			return true, nil
		}
		if outputDirs[name] {
			return isBuildOutput(filepath.Dir(src), name), nil
		}
		return false, nil
	case mode.IsRegular():
		return false, nil
	default: // sockets, devices, named pipes
		return true, nil
	}
}

func (c *copier) excluded(name, src string) bool {
	if c.names[name] {
		return true
	}
	if len(c.paths) == 0 {
		return false
	}
	rel, ok := within(c.s.Source, src)
	return ok && c.paths[filepath.ToSlash(rel)]
}

// inRepo returns the path relative to the repository root of the absolute
// path p, when p is inside the repository (as given or symlink-free).
func (c *copier) inRepo(p string) (string, bool) {
	if rel, ok := within(c.s.Source, p); ok {
		return rel, true
	}
	return within(c.s.given, p)
}

// copyLink recreates the link src at dest: a target inside the repository is
// the same place inside the sandbox, a target outside is the same absolute
// place.
func (c *copier) copyLink(src, dest string) error {
	target, err := os.Readlink(src)
	if err != nil {
		return err
	}
	abs := target
	if !filepath.IsAbs(target) {
		abs = filepath.Join(filepath.Dir(src), target)
	}
	newTarget := abs
	if rel, ok := c.inRepo(abs); ok {
		inside := filepath.Join(c.s.Root, rel)
		newTarget = inside
		if !filepath.IsAbs(target) {
			if r, err := filepath.Rel(filepath.Dir(dest), inside); err == nil {
				newTarget = r
			}
		}
		c.repoints = append(c.repoints, link{src, dest})
	}
	return os.Symlink(newTarget, dest)
}

// linkModules makes dest a real directory holding one link per entry of the
// node_modules directory src (which may itself be a link).
func (c *copier) linkModules(src, dest string) error {
	phys, err := filepath.EvalSymlinks(src)
	if err != nil {
		return c.copyLink(src, dest) // a dangling node_modules link: copy it as it is
	}
	if fi, err := os.Stat(phys); err != nil || !fi.IsDir() {
		return c.copyLink(src, dest)
	}
	if err := os.Mkdir(dest, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(phys)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if c.s.abort.Load() {
			return errAborted
		}
		name := e.Name()
		if moduleCaches[name] {
			continue
		}
		orig := filepath.Join(phys, name)
		if strings.HasPrefix(name, "@") && e.IsDir() { // a real @scope directory
			if err := os.Mkdir(filepath.Join(dest, name), 0o755); err != nil {
				return err
			}
			pkgs, err := os.ReadDir(orig)
			if err != nil {
				return err
			}
			for _, p := range pkgs {
				if err := c.linkEntry(filepath.Join(orig, p.Name()), filepath.Join(dest, name, p.Name())); err != nil {
					return err
				}
			}
			continue
		}
		if err := c.linkEntry(orig, filepath.Join(dest, name)); err != nil {
			return err
		}
	}
	return nil
}

// linkEntry links dest to the node_modules entry orig, or, when orig is a link
// to a workspace package (inside the repository, outside any node_modules),
// to that package inside the sandbox.
func (c *copier) linkEntry(orig, dest string) error {
	target := orig
	if fi, err := os.Lstat(orig); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if t, err := os.Readlink(orig); err == nil {
			abs := t
			if !filepath.IsAbs(t) {
				abs = filepath.Join(filepath.Dir(orig), t)
			}
			if rel, ok := c.inRepo(abs); ok && !inNodeModules(rel) {
				target = filepath.Join(c.s.Root, rel)
				c.repoints = append(c.repoints, link{orig, dest})
			}
		}
	}
	return os.Symlink(target, dest)
}

// fixDangling points at the original every link pointed into the sandbox that
// resolves in the checkout but not in the sandbox (its target was left out,
// like a link into dist/): a link that works in the checkout works in the
// sandbox.
func (c *copier) fixDangling() error {
	for _, l := range c.repoints {
		if _, err := os.Stat(l.dest); err == nil {
			continue
		}
		if _, err := os.Stat(l.src); err != nil {
			continue // dangles (or loops) in the checkout too
		}
		if err := os.Remove(l.dest); err != nil {
			return err
		}
		if err := os.Symlink(l.src, l.dest); err != nil {
			return err
		}
	}
	return nil
}

// isBuildOutput reports whether the directory name in dir is the build output
// of a package: dir holds a package.json, and none of its entry-point fields
// (main, module, types, exports, bin...) points into the directory.
func isBuildOutput(dir, name string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return false
	}
	var pkg map[string]any
	if json.Unmarshal(b, &pkg) != nil {
		return true
	}
	var refers func(v any) bool
	refers = func(v any) bool {
		switch v := v.(type) {
		case string:
			p := path.Clean(strings.TrimPrefix(v, "./"))
			return p == name || strings.HasPrefix(p, name+"/")
		case []any:
			return slices.ContainsFunc(v, refers)
		case map[string]any:
			for _, e := range v {
				if refers(e) {
					return true
				}
			}
		}
		return false
	}
	for _, field := range []string{"main", "module", "browser", "types", "typings", "exports", "bin", "imports"} {
		if refers(pkg[field]) {
			return false
		}
	}
	return true
}

func inNodeModules(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if part == "node_modules" {
			return true
		}
	}
	return false
}

// sortLinks orders links found by the concurrent copy, for reproducible
// results.
func sortLinks(ls []link) {
	sort.Slice(ls, func(i, j int) bool { return ls[i].src < ls[j].src })
}
