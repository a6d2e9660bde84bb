package gate

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/atomicfile"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
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

type resultCache struct {
	path    string
	off     bool
	inputs  *Inputs
	mu      sync.Mutex
	entries map[string]lab.Decision // by key: a mutant's outcome, as its run decided it
	used    map[string]bool
	changed bool
	hashes  map[string]string // file -> content hash, for the keys
}

func openCache(root string, off bool, inputs *Inputs) *resultCache {
	c := &resultCache{path: filepath.Join(root, filepath.FromSlash(cacheFile)), off: off, inputs: inputs,
		entries: map[string]lab.Decision{}, used: map[string]bool{}, hashes: map[string]string{}}
	if off {
		return c
	}
	c.entries = readEntries(c.path)
	return c
}

func readEntries(path string) map[string]lab.Decision {
	entries := map[string]lab.Decision{}
	if b, err := os.ReadFile(path); err == nil {
		if json.Unmarshal(b, &entries) != nil {
			return map[string]lab.Decision{} // a broken cache is an empty one
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
	if c.inputs != nil {
		h.Write([]byte("\x00data\x00" + c.inputs.dataDigest()))
		for _, kv := range c.inputs.environment(files) {
			h.Write([]byte("\x00env\x00" + kv))
		}
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
	reads   map[string]envReads // file -> the environment variables it reads

	dataOnce sync.Once
	data     string
	// Env is the environment the runs inherit (nil: os.Environ()).
	Env []string
}

// configNames are the files vitest reads its config from, at the root, and
// jest's (jest.config.*; package.json's "jest" key is in package.json).
var configNames = []string{"vitest.config", "vite.config", "vitest.workspace", "vitest.projects", "jest.config"}

// sharedNames are files whose change changes every run: the lockfiles, the
// package manifest, the TypeScript config.
var sharedNames = []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
	"pnpm-workspace.yaml", "bun.lock", "bun.lockb", "tsconfig.json", ".env", ".env.local", ".env.test", ".env.test.local"}

// KeyInputs gathers the cache key's inputs of a run of the repository of p:
// version is oracle's (its release and a digest of its executable), setup
// the vitest setupFiles (repo-relative). The config files are found at the
// root; a module each of them loads is an input too.
func KeyInputs(p *callgraph.Program, setup []string, version string) *Inputs {
	in := &Inputs{Version: version, p: p, closure: map[string][]string{}, reads: map[string]envReads{}}
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

func (c *resultCache) get(key string) (lab.Decision, bool) {
	if c.off {
		return lab.Decision{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if ok {
		c.used[key] = true
	}
	return e, ok
}

func (c *resultCache) put(key string, e lab.Decision) {
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

// What a run reads besides its modules (SPEC "oracle gate", the cache: "the
// content of everything its related test files load or read ... the
// environment"). Two inputs join the key:
//
//   - the data files: every file of the repository that is not a module
//     (the modules a run loads are in the key through the runtime-import
//     closure), as git knows them (tracked, and untracked but not
//     ignored), by content: a JSON or text fixture a test reads with
//     readFileSync is in no import graph. Without git, every such file
//     under the root (not in node_modules or a dot directory).
//   - the environment variables the run's files read: those named in
//     process.env.X, process.env["X"], import.meta.env.X or a destructuring
//     of either, in the files of the key; those that change what any
//     JavaScript does (TZ, the locale, NODE_ENV, NODE_OPTIONS, VITE_* and
//     VITEST*); and all of the environment, but for the variables a shell,
//     the sandbox or a CI service's run sets (volatileEnv), when one of the
//     files reads it whole
//     (process.env passed, spread, indexed by a variable, listed).

// moduleExts are the files the runtime-import closure accounts for.
var moduleExts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// dataDigest is the digest of the repository's data files (computed once).
func (in *Inputs) dataDigest() string {
	in.dataOnce.Do(func() {
		root := in.p.Root()
		h := sha256.New()
		files, blobs, ok := gitFiles(root)
		if !ok {
			files = walkFiles(root)
		}
		for _, f := range files {
			if slices.Contains(moduleExts, strings.ToLower(filepath.Ext(f))) || strings.HasPrefix(f, ".oracle/") {
				continue
			}
			sum, ok := blobs[f] // git's hash of a file the working tree has as the index does
			if !ok {
				sum = "missing"
				if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f))); err == nil {
					sum = blobID(b)
				}
			}
			h.Write([]byte(f + "\x00" + sum + "\x00"))
		}
		in.data = hex.EncodeToString(h.Sum(nil))
	})
	return in.data
}

// blobID is git's name of content b ("git:" and the SHA-1 of the blob): a
// file read from the working tree and the same content in the index have
// one name, so a commit of a data file does not change the key.
func blobID(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return "git:" + hex.EncodeToString(h.Sum(nil))
}

// gitFiles are the files git knows under root (tracked, and untracked but
// not ignored), root-relative, sorted, with git's blob hash of each tracked
// file whose working-tree content is the index's (the others are read);
// false when root is not in a git working tree.
func gitFiles(root string) ([]string, map[string]string, bool) {
	split := func(b []byte) []string {
		var out []string
		for _, f := range strings.Split(string(b), "\x00") {
			if f != "" {
				out = append(out, f)
			}
		}
		return out
	}
	staged, err := gitOut(root, "ls-files", "-z", "--stage")
	if err != nil {
		return nil, nil, false
	}
	modified, err := gitOut(root, "ls-files", "-z", "--modified")
	if err != nil {
		return nil, nil, false
	}
	others, err := gitOut(root, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, nil, false
	}
	blobs := map[string]string{}
	var files []string
	for _, line := range split(staged) { // "mode blob stage\tpath"
		meta, path, ok := strings.Cut(line, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 {
			files = append(files, path)
			blobs[path] = "git:" + f[1]
		}
	}
	for _, f := range split(modified) {
		delete(blobs, f)
	}
	files = append(files, split(others)...)
	sort.Strings(files)
	return slices.Compact(files), blobs, true
}

// walkFiles are the regular files under root outside node_modules and dot
// directories, root-relative, sorted.
func walkFiles(root string) []string {
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			if rel, err := filepath.Rel(root, p); err == nil {
				files = append(files, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	sort.Strings(files)
	return files
}

// envReads are the environment variables a file reads: by name, or all of
// them.
type envReads struct {
	names []string
	all   bool
}

var (
	envUse      = regexp.MustCompile(`\b(?:process\.env|import\.meta\.env)\b`)
	envDot      = regexp.MustCompile(`^\s*\??\.\s*([A-Za-z_$][\w$]*)`)
	envIndex    = regexp.MustCompile("^\\s*\\??\\.?\\[\\s*[\"'\x60]([^\"'\x60]+)[\"'\x60]\\s*\\]")
	envDestruct = regexp.MustCompile(`\{([^{}]*)\}\s*=\s*$`)
	identStart  = regexp.MustCompile(`^\s*([A-Za-z_$][\w$]*)`)
	// vite's loadEnv hands a config the environment, all of it with an
	// empty prefix.
	envLoad = regexp.MustCompile(`\bloadEnv\s*\(`)
)

// readsOf is what the file rel reads of the environment (cached; in.mu
// held).
func (in *Inputs) readsOf(rel string) envReads {
	if r, ok := in.reads[rel]; ok {
		return r
	}
	var r envReads
	src, err := os.ReadFile(filepath.Join(in.p.Root(), filepath.FromSlash(rel)))
	if err == nil {
		r = scanEnvReads(string(src))
	}
	in.reads[rel] = r
	return r
}

// scanEnvReads finds the environment variables src reads: a use of
// process.env (or import.meta.env) followed by a name or a quoted index
// reads that name; one that a destructuring takes apart reads the names it
// takes (all, with a rest element); any other use (passed, spread, indexed
// by a variable, listed), and vite's loadEnv, read all of it.
func scanEnvReads(src string) envReads {
	var r envReads
	for _, loc := range envUse.FindAllStringIndex(src, -1) {
		after := src[loc[1]:]
		if m := envDot.FindStringSubmatch(after); m != nil {
			r.names = append(r.names, m[1])
			continue
		}
		if m := envIndex.FindStringSubmatch(after); m != nil {
			r.names = append(r.names, m[1])
			continue
		}
		if m := envDestruct.FindStringSubmatch(src[max(0, loc[0]-500):loc[0]]); m != nil {
			for _, part := range strings.Split(m[1], ",") {
				if strings.Contains(part, "...") {
					r.all = true
				} else if id := identStart.FindStringSubmatch(part); id != nil {
					r.names = append(r.names, id[1])
				}
			}
			continue
		}
		r.all = true
	}
	r.all = r.all || envLoad.MatchString(src)
	return r
}

// alwaysEnv are the variables that change what any code does.
func alwaysEnv(name string) bool {
	switch name {
	case "TZ", "LANG", "LANGUAGE", "NODE_ENV", "NODE_OPTIONS", "NODE_PATH", "MODE":
		return true
	}
	return strings.HasPrefix(name, "LC_") || strings.HasPrefix(name, "VITE_") || strings.HasPrefix(name, "VITEST")
}

// volatileEnv are the variables left out when a file reads the whole
// environment: a shell's, a terminal's, a session's, and those the sandbox
// sets for every run (vitestenv.For: PWD, HOME, the temporary
// directory, CI).
func volatileEnv(name string) bool {
	switch name {
	case "PWD", "OLDPWD", "INIT_CWD", "HOME", "USERPROFILE", "SHLVL", "_", "TERM", "COLORTERM", "COLUMNS", "LINES", "DISPLAY", "WINDOWID",
		"TMPDIR", "TMP", "TEMP", "CI", "PS1", "PROMPT_COMMAND", "LS_COLORS", "GPG_TTY", "DBUS_SESSION_BUS_ADDRESS", "MAIL", "LOGNAME", "STY",
		"HISTFILE", "HISTSIZE", "HOSTNAME", "npm_config_offline":
		return true
	}
	for _, p := range []string{"SSH_", "TERM_", "TMUX", "XDG_", "KITTY_", "WT_", "VSCODE_", "ITERM_", "ORACLE_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return ciRunEnv(name)
}

// ciRunEnv are the variables a CI service sets anew for every run, job or
// commit (its id and number, the commit and ref, the event, per-run
// tokens and paths: GitHub Actions and GitLab CI): left out of a key that
// takes the whole environment, or no run on a runner with a restored cache
// would find anything in it (bench/cache27.md). A file that names one
// (process.env.GITHUB_SHA) still has it in its key.
func ciRunEnv(name string) bool {
	switch name {
	case "GITHUB_SHA", "GITHUB_REF", "GITHUB_REF_NAME", "GITHUB_REF_TYPE", "GITHUB_HEAD_REF", "GITHUB_BASE_REF", "GITHUB_JOB",
		"GITHUB_ACTION", "GITHUB_ACTION_PATH", "GITHUB_ACTION_REF", "GITHUB_ACTION_REPOSITORY", "GITHUB_EVENT_NAME", "GITHUB_EVENT_PATH",
		"GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_STATE", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_TOKEN", "GITHUB_ACTOR",
		"GITHUB_ACTOR_ID", "GITHUB_TRIGGERING_ACTOR", "GITHUB_WORKFLOW_REF", "GITHUB_WORKFLOW_SHA", "GITHUB_RETENTION_DAYS":
		return true
	}
	for _, p := range []string{"GITHUB_RUN_", "RUNNER_", "ACTIONS_", "CI_JOB_", "CI_PIPELINE_", "CI_COMMIT_", "CI_RUNNER_", "CI_MERGE_REQUEST_", "CI_CONCURRENT_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// environment is the part of the environment the runs of a mutant whose
// key covers files read: "NAME=value" (or "NAME" unset), sorted.
func (in *Inputs) environment(files []string) []string {
	in.mu.Lock()
	defer in.mu.Unlock()
	env := in.Env
	if env == nil {
		env = os.Environ()
	}
	values := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		values[k] = v
	}
	names := map[string]bool{}
	all := false
	for _, f := range files {
		r := in.readsOf(f)
		all = all || r.all
		for _, n := range r.names {
			names[n] = true
		}
	}
	for k := range values {
		if alwaysEnv(k) || all && !volatileEnv(k) {
			names[k] = true
		}
	}
	out := make([]string, 0, len(names))
	for n := range names {
		if v, ok := values[n]; ok {
			out = append(out, n+"="+v)
		} else {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
