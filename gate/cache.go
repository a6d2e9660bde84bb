package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/atomicfile"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// The result cache: in the repository's .oracle/ directory (which ignores
// itself for git), a mutant's outcome keyed by a hash of the mutant (its
// file, operator and diff), the file's source, and the content of
// everything the outcome depends on (KeyInputs): every module the related
// test files load at run time (their runtime-import closure: shared
// assertion helpers, fixtures, the code the target calls), the vitest
// config and setupFiles (and what they load), the lockfile and package
// manifests, and oracle's own version. A re-run after a fix runs only what
// the fix can change; the baselines always run (Run), so a red related test
// is reported, never a cached PASS.

const cacheFile = ".oracle/cache/gate.json"

type cached struct {
	Outcome   string   `json:"outcome"`
	Detail    string   `json:"detail,omitempty"`
	KilledBy  string   `json:"killedBy,omitempty"`
	CoveredBy []string `json:"coveredBy,omitempty"`
	// KilledByTest is the id of the test that killed it (TestCase.ID).
	KilledByTest string `json:"killedByTest,omitempty"`
}

type resultCache struct {
	path    string
	off     bool
	inputs  *Inputs
	mu      sync.Mutex
	entries map[string]cached
	used    map[string]bool
	changed bool
	hashes  map[string]string // file -> content hash, for the keys
}

func openCache(root string, off bool, inputs *Inputs) *resultCache {
	c := &resultCache{path: filepath.Join(root, filepath.FromSlash(cacheFile)), off: off, inputs: inputs,
		entries: map[string]cached{}, used: map[string]bool{}, hashes: map[string]string{}}
	if off {
		return c
	}
	c.entries = readEntries(c.path)
	return c
}

func readEntries(path string) map[string]cached {
	entries := map[string]cached{}
	if b, err := os.ReadFile(path); err == nil {
		if json.Unmarshal(b, &entries) != nil {
			return map[string]cached{} // a broken cache is an empty one
		}
	}
	return entries
}

// CheckCacheWritable says whether the cache of the repository at root can
// be written, before any mutant runs: nil when it can (or when the cache is
// off), else why not; the gate then runs without saving and says so.
func CheckCacheWritable(root string) error {
	dir := filepath.Dir(filepath.Join(root, filepath.FromSlash(cacheFile)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".oracle-check-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

func (c *resultCache) fileHash(root, rel string) string {
	if h, ok := c.hashes[rel]; ok {
		return h
	}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	h := "missing"
	if err == nil {
		sum := sha256.Sum256(b)
		h = hex.EncodeToString(sum[:])
	}
	c.hashes[rel] = h
	return h
}

func (c *resultCache) key(root string, m edit.Mutant, tests []string) string {
	h := sha256.New()
	h.Write([]byte(m.Path + "\x00" + string(m.Operator) + "\x00" + m.Diff + "\x00" + c.fileHash(root, m.Path)))
	files := tests
	if c.inputs != nil {
		h.Write([]byte("\x00version\x00" + c.inputs.Version))
		files = c.inputs.Files(tests)
	} else {
		files = append([]string(nil), tests...)
		sort.Strings(files)
	}
	for _, f := range files {
		h.Write([]byte("\x00" + f + "\x00" + c.fileHash(root, f)))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Inputs are what a cached outcome depends on beyond the mutant and its
// file: oracle's version, the files every run loads (the vitest config and
// setupFiles with what they load, the lockfile, package.json, tsconfig),
// and per related test file, the repository modules it loads at run time.
type Inputs struct {
	Version string
	Shared  []string // repo-relative, sorted

	p       *callgraph.Program
	mu      sync.Mutex
	closure map[string][]string // test file -> itself and its runtime-import closure
}

// configNames are the files vitest reads its config from, at the root.
var configNames = []string{"vitest.config", "vite.config", "vitest.workspace", "vitest.projects"}

// sharedNames are files whose change changes every run: the lockfiles, the
// package manifest, the TypeScript config.
var sharedNames = []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
	"pnpm-workspace.yaml", "bun.lock", "bun.lockb", "tsconfig.json", ".env", ".env.test"}

// KeyInputs gathers the cache key's inputs of a run of the repository of p:
// version is oracle's (its release and a digest of its executable), setup
// the vitest setupFiles (repo-relative). The config files are found at the
// root; a module each of them loads is an input too.
func KeyInputs(p *callgraph.Program, setup []string, version string) *Inputs {
	in := &Inputs{Version: version, p: p, closure: map[string][]string{}}
	seen := map[string]bool{}
	add := func(rel string) {
		if !seen[rel] {
			seen[rel] = true
			in.Shared = append(in.Shared, rel)
		}
	}
	withClosure := func(rel string) {
		add(rel)
		for _, m := range in.reach(rel) {
			add(m)
		}
	}
	for _, name := range sharedNames {
		if _, err := os.Stat(filepath.Join(p.Root(), name)); err == nil {
			add(name)
		}
	}
	entries, _ := os.ReadDir(p.Root())
	for _, e := range entries {
		for _, n := range configNames {
			if strings.HasPrefix(e.Name(), n+".") && !e.IsDir() {
				withClosure(e.Name())
			}
		}
	}
	for _, s := range setup {
		withClosure(s)
	}
	sort.Strings(in.Shared)
	return in
}

// reach is rel's runtime-import closure (without rel), sorted.
func (in *Inputs) reach(rel string) []string {
	f, _ := in.p.Module(rel)
	if f == nil {
		return nil
	}
	reached, _ := in.p.Reach(f, nil)
	return reached
}

// Files are the inputs of a mutant run against tests: the shared files and
// each test file with its runtime-import closure, sorted, once each.
func (in *Inputs) Files(tests []string) []string {
	in.mu.Lock()
	defer in.mu.Unlock()
	set := map[string]bool{}
	for _, f := range in.Shared {
		set[f] = true
	}
	for _, t := range tests {
		cl, ok := in.closure[t]
		if !ok {
			cl = append([]string{t}, in.reach(t)...)
			in.closure[t] = cl
		}
		for _, f := range cl {
			set[f] = true
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func (c *resultCache) get(key string) (cached, bool) {
	if c.off {
		return cached{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if ok {
		c.used[key] = true
	}
	return e, ok
}

func (c *resultCache) put(key string, e cached) {
	if c.off {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = e
	c.used[key] = true
	c.changed = true
}

// save writes the cache (atomically), with .oracle/.gitignore so that git
// ignores the directory.
func (c *resultCache) save() error {
	if c.off || !c.changed {
		return nil
	}
	dir := filepath.Dir(filepath.Dir(c.path))
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	ignore := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(ignore); err != nil {
		if err := os.WriteFile(ignore, []byte("# oracle's caches: not part of the repository\n*\n"), 0o644); err != nil {
			return err
		}
	}
	// Another run may have saved since this one read the cache: under a
	// lock, its entries are read again and kept beside this run's (this
	// run's win on the same key), so two concurrent runs merge.
	unlock, err := lockFile(c.path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	merged := readEntries(c.path)
	c.mu.Lock()
	for k, e := range c.entries {
		merged[k] = e
	}
	c.mu.Unlock()
	b, err := json.MarshalIndent(merged, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(c.path, b, 0o644)
}

// lockFile takes the lock at path (a file made with O_EXCL; one older than
// lockStale is a crashed run's, taken over), waiting up to lockWait.
func lockFile(path string) (unlock func(), err error) {
	deadline := time.Now().Add(lockWait)
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) > lockStale {
			os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the cache %s is locked by another run (remove the lock if no gate runs)", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var lockWait, lockStale = 30 * time.Second, 2 * time.Minute
