package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/oracle-ts/oracle/internal/atomicfile"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// The result cache: in the repository's .oracle/ directory (which ignores
// itself for git), a mutant's outcome keyed by a hash of the mutant (its
// file, operator and diff), the file's source and the related test files'
// contents. A re-run after a fix runs only what the fix can change.

const cacheFile = ".oracle/cache/gate.json"

type cached struct {
	Outcome   string   `json:"outcome"`
	Detail    string   `json:"detail,omitempty"`
	KilledBy  string   `json:"killedBy,omitempty"`
	CoveredBy []string `json:"coveredBy,omitempty"`
}

type resultCache struct {
	path    string
	off     bool
	mu      sync.Mutex
	entries map[string]cached
	used    map[string]bool
	changed bool
	hashes  map[string]string // file -> content hash, for the keys
}

func openCache(root string, off bool) *resultCache {
	c := &resultCache{path: filepath.Join(root, filepath.FromSlash(cacheFile)), off: off,
		entries: map[string]cached{}, used: map[string]bool{}, hashes: map[string]string{}}
	if off {
		return c
	}
	if b, err := os.ReadFile(c.path); err == nil {
		_ = json.Unmarshal(b, &c.entries) // a broken cache is an empty one
	}
	return c
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
	ts := append([]string(nil), tests...)
	sort.Strings(ts)
	for _, t := range ts {
		h.Write([]byte("\x00" + t + "\x00" + c.fileHash(root, t)))
	}
	return hex.EncodeToString(h.Sum(nil))
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
	b, err := json.MarshalIndent(c.entries, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(c.path, b, 0o644)
}
