package modules

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Kind says what an import specifier resolved to.
type Kind string

// The kinds of Result.
const (
	// KindFile: a file of the repository, in Result.Path.
	KindFile Kind = "file"
	// KindExternal: a package outside the repository (never followed), named
	// in Result.Package.
	KindExternal Kind = "external"
	// KindUnresolved: nothing matched; Result.Reason says why.
	KindUnresolved Kind = "unresolved"
)

// Result is the resolution of one import specifier.
type Result struct {
	Kind Kind
	// Path is the resolved file, a slash path relative to the repository
	// root (KindFile).
	Path string
	// Package is the external package's name: "zod", "@scope/pkg", "node:fs"
	// (KindExternal).
	Package string
	// Reason says precisely why the specifier could not be resolved
	// (KindUnresolved).
	Reason string
}

// Diagnostic is a problem found in a configuration file (tsconfig,
// package.json, pnpm-workspace.yaml).
type Diagnostic struct {
	File    string // slash path relative to the repository root
	Line    int    // 1-based; 1 when the problem concerns the whole file
	Message string
}

func (d Diagnostic) String() string { return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Message) }

// Resolver resolves import specifiers of one repository. Create it with New;
// it is safe for concurrent use.
type Resolver struct {
	root       string            // absolute, OS form
	workspaces map[string]string // package name → directory (repo-relative)

	stats    sync.Map     // rel path → fileKind
	jsons    sync.Map     // rel path → *jsonFile
	nearest  sync.Map     // dir + "\x00" + file name → rel path of the nearest such file, or ""
	raws     sync.Map     // rel path of a tsconfig → *rawConfig
	projects sync.Map     // rel path of a leaf tsconfig → *project
	owners   sync.Map     // importer file → *project
	results  sync.Map     // resultKey → Result
	aliases  []aliasScope // vitest's resolve.alias per project (SetAliases), deepest first
	realOnce sync.Once
	realRoot string // root with its symbolic links resolved ("" when it cannot be)

	mu    sync.Mutex
	diags map[Diagnostic]struct{}
}

type resultKey struct{ config, dir, spec string }

// New returns a resolver for the repository at root (made absolute). It reads
// the workspace packages declared by the root package.json "workspaces" (an
// array, or an object with "packages") and by pnpm-workspace.yaml.
func New(root string) (*Resolver, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("modules: %s is not a directory", abs)
	}
	r := &Resolver{root: abs, diags: map[Diagnostic]struct{}{}}
	r.workspaces = r.readWorkspaces()
	return r, nil
}

// Diagnostics returns the configuration problems found so far (configuration
// files are read when a resolution first needs them), sorted by file, line
// and message.
func (r *Resolver) Diagnostics() []Diagnostic {
	r.mu.Lock()
	out := make([]Diagnostic, 0, len(r.diags))
	for d := range r.diags {
		out = append(out, d)
	}
	r.mu.Unlock()
	slices.SortFunc(out, func(a, b Diagnostic) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Message, b.Message))
	})
	return out
}

func (r *Resolver) diag(file string, line int, format string, args ...any) {
	if line < 1 {
		line = 1
	}
	d := Diagnostic{File: file, Line: line, Message: fmt.Sprintf(format, args...)}
	r.mu.Lock()
	r.diags[d] = struct{}{}
	r.mu.Unlock()
}

// Resolve resolves specifier as imported by importer, a slash path relative to
// the repository root.
func (r *Resolver) Resolve(importer, specifier string) Result {
	imp, ok := r.normImporter(importer)
	if !ok {
		return unresolved("importer %q is outside the repository", importer)
	}
	proj := r.owner(imp)
	key := resultKey{proj.config, path.Dir(imp), specifier}
	if v, ok := r.results.Load(key); ok {
		return v.(Result)
	}
	res := r.resolve(path.Dir(imp), proj, specifier)
	if res.Kind == KindFile {
		res = r.canonical(res)
	}
	r.results.Store(key, res)
	return res
}

func (r *Resolver) normImporter(importer string) (string, bool) {
	imp := filepath.ToSlash(importer)
	if filepath.IsAbs(importer) {
		rel, err := filepath.Rel(r.root, importer)
		if err != nil {
			return "", false
		}
		imp = filepath.ToSlash(rel)
	}
	imp = path.Clean(imp)
	if imp == "." || outside(imp) || path.IsAbs(imp) {
		return "", false
	}
	return imp, true
}

func unresolved(format string, args ...any) Result {
	return Result{Kind: KindUnresolved, Reason: fmt.Sprintf(format, args...)}
}

func external(name string) Result { return Result{Kind: KindExternal, Package: name} }

// fileResult is a found file, unless it lies in a node_modules directory: that
// is a package outside the repository's own code, reported as external.
func fileResult(rel string) Result {
	segs := strings.Split(rel, "/")
	for i := len(segs) - 2; i >= 0; i-- {
		if segs[i] == "node_modules" {
			name := segs[i+1]
			if strings.HasPrefix(name, "@") && i+2 < len(segs)-1 {
				name += "/" + segs[i+2]
			}
			return external(name)
		}
	}
	return Result{Kind: KindFile, Path: rel}
}

// canonical names a found file by its real path, as vite does (its module
// ids are real paths): a file reached through a symbolic link to a directory
// of the repository (src/shared -> ../shared) is the file the link leads to,
// the one a change to it names. A link that leaves the repository keeps the
// path it was found by.
func (r *Resolver) canonical(res Result) Result {
	real, err := filepath.EvalSymlinks(osPath(r.root, res.Path))
	if err != nil {
		return res
	}
	r.realOnce.Do(func() {
		r.realRoot, _ = filepath.EvalSymlinks(r.root)
	})
	if r.realRoot == "" {
		return res
	}
	rel, err := filepath.Rel(r.realRoot, real)
	if err != nil || !filepath.IsLocal(rel) {
		return res
	}
	if rel = filepath.ToSlash(rel); rel != res.Path {
		return fileResult(rel)
	}
	return res
}

// outside reports whether a cleaned relative slash path leaves the root.
func outside(rel string) bool { return rel == ".." || strings.HasPrefix(rel, "../") }

func osPath(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

// relOf converts an absolute path to a repo-relative slash path (possibly
// starting with "../" when outside).
func (r *Resolver) relOf(abs string) string {
	rel, err := filepath.Rel(r.root, filepath.FromSlash(abs))
	if err != nil {
		return "../" + abs
	}
	return filepath.ToSlash(rel)
}

func isRelativeSpec(s string) bool {
	return s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../")
}

func (r *Resolver) resolve(dir string, p *project, spec string) Result {
	if spec == "" {
		return unresolved("empty specifier")
	}
	if strings.ContainsRune(spec, 0) {
		return unresolved("specifier contains a NUL byte")
	}
	if to, root, ok := r.applyAlias(dir, spec); ok {
		if to == "" {
			return unresolved("resolve.alias replaces %q by nothing", spec)
		}
		if strings.HasPrefix(to, "/@fs/") || strings.HasPrefix(to, "\x00") {
			return external(spec) // vite's own modules (@vite/env, @vite/client)
		}
		if rel, ok := r.fromRoot(root, to); ok {
			// A replacement written from the vite root ("@": "/src"): vite
			// tries <root>/src first.
			if res := r.resolvePlain(".", p, "./"+rel); res.Kind == KindFile {
				return res
			}
		}
		if (path.IsAbs(to) || filepath.IsAbs(to)) && outside(path.Clean(r.relOf(to))) {
			return external(spec) // a replacement outside the repository is not its code
		}
		res := r.resolvePlain(dir, p, to)
		if res.Kind == KindUnresolved {
			res.Reason = fmt.Sprintf("resolve.alias replaces %q by %q: %s", spec, to, res.Reason)
		}
		return res
	}
	return r.resolvePlain(dir, p, spec)
}

// resolvePlain resolves spec without aliases.
func (r *Resolver) resolvePlain(dir string, p *project, spec string) Result {
	if isRelativeSpec(spec) || path.IsAbs(spec) || filepath.IsAbs(spec) {
		var target string
		if isRelativeSpec(spec) {
			target = path.Join(dir, spec)
		} else {
			target = path.Clean(r.relOf(spec))
		}
		if outside(target) {
			if isRelativeSpec(spec) {
				return unresolved("%q from %q leaves the repository root", spec, dir)
			}
			return unresolved("absolute path %q is outside the repository", spec)
		}
		dirOnly := strings.HasSuffix(spec, "/") || spec == "." || spec == ".." ||
			strings.HasSuffix(spec, "/.") || strings.HasSuffix(spec, "/..")
		tr := &trace{}
		if f, ok := r.load([]string{target}, dirOnly, tr); ok {
			return fileResult(f)
		}
		return unresolved("no file for %q (tried %s)", spec, tr.list())
	}
	return r.resolveBare(dir, p, spec)
}

func (r *Resolver) resolveBare(dir string, p *project, spec string) Result {
	// 1. tsconfig paths: the exact pattern, else the wildcard pattern with
	// the longest prefix; its substitutions are fallbacks in order.
	var pathsMiss string
	if pe, star, ok := p.matchPaths(spec); ok {
		tr := &trace{}
		cands := make([]string, 0, len(pe.subs))
		for _, s := range pe.subs {
			if pe.star {
				s = strings.Replace(s, "*", star, 1)
			}
			c := path.Clean(s)
			if !outside(c) {
				cands = append(cands, c)
			}
		}
		if f, ok := r.load(cands, false, tr); ok {
			return fileResult(f)
		}
		if pe.prefix != "" || !pe.star {
			pathsMiss = fmt.Sprintf("tsconfig paths pattern %q of %s matched but no substitution exists (tried %s)",
				pe.pattern, p.config, tr.list())
		}
	}
	// 2. baseUrl.
	if p.baseURL != "" {
		if c := path.Join(p.baseURL, spec); !outside(c) {
			if f, ok := r.load([]string{c}, false, &trace{}); ok {
				return fileResult(f)
			}
		}
	}
	// 3. package.json "imports" of the importer's package.
	if strings.HasPrefix(spec, "#") {
		return r.resolveImports(dir, p, spec)
	}
	res := r.resolvePackage(p, spec)
	if res.Kind == KindExternal && pathsMiss != "" {
		return Result{Kind: KindUnresolved, Reason: pathsMiss}
	}
	return res
}

// resolvePackage resolves a bare specifier that is not a paths/baseUrl
// match: a workspace package through its package.json, else external.
func (r *Resolver) resolvePackage(p *project, spec string) Result {
	if strings.Contains(spec, ":") {
		return external(spec) // node:fs, data:, https: ... never a package of ours
	}
	name, sub := splitPackage(spec)
	if dir, ok := r.workspaces[name]; ok {
		return r.resolveInPackage(name, dir, sub, p.conditions())
	}
	return external(name)
}

// splitPackage splits a bare specifier into its package name and subpath
// ("." or "./rest").
func splitPackage(spec string) (name, sub string) {
	segs := strings.SplitN(spec, "/", 3)
	n := 1
	if strings.HasPrefix(spec, "@") && len(segs) > 1 {
		n = 2
	}
	name = strings.Join(segs[:min(n, len(segs))], "/")
	rest := strings.TrimPrefix(spec[len(name):], "/")
	if rest == "" {
		return name, "."
	}
	return name, "./" + rest
}

// ---- file-system probes ----

type fileKind uint8

const (
	kindMissing fileKind = iota
	kindFile
	kindDir
)

func (r *Resolver) stat(rel string) fileKind {
	if outside(rel) || path.IsAbs(rel) {
		return kindMissing
	}
	if v, ok := r.stats.Load(rel); ok {
		return v.(fileKind)
	}
	k := kindMissing
	if st, err := os.Stat(osPath(r.root, rel)); err == nil {
		if st.IsDir() {
			k = kindDir
		} else {
			k = kindFile
		}
	}
	r.stats.Store(rel, k)
	return k
}

// trace records the candidates a resolution tried, for the reason of a
// failure.
type trace struct {
	tried []string
	seen  map[string]bool
}

func (t *trace) add(rel string) {
	if t.seen == nil {
		t.seen = map[string]bool{}
	}
	if !t.seen[rel] {
		t.seen[rel] = true
		t.tried = append(t.tried, rel)
	}
}

const maxTried = 12

func (t *trace) list() string {
	if len(t.tried) == 0 {
		return "nothing"
	}
	if len(t.tried) > maxTried {
		return strings.Join(t.tried[:maxTried], ", ") + fmt.Sprintf(", ... %d more", len(t.tried)-maxTried)
	}
	return strings.Join(t.tried, ", ")
}

type probeMode uint8

const (
	modeTS probeMode = iota // TypeScript sources and declarations
	modeJS                  // then JavaScript, as tsc does after a TS pass
)

// load resolves the first candidate that names a file (or, unless dirOnly, a
// directory with an entry point): all candidates with TypeScript extensions
// first, then all with JavaScript ones.
func (r *Resolver) load(cands []string, dirOnly bool, tr *trace) (string, bool) {
	for _, m := range []probeMode{modeTS, modeJS} {
		for _, c := range cands {
			if !dirOnly {
				if f, ok := r.loadFile(c, m, tr); ok {
					return f, true
				}
			}
			if f, ok := r.loadDir(c, m, tr, 0); ok {
				return f, true
			}
		}
	}
	return "", false
}

// splitExt splits a recognized script extension (".d.ts" counts as one) off
// a path; other extensions are returned as path.Ext does.
func splitExt(p string) (base, ext string) {
	for _, e := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(p, e) {
			return p[:len(p)-len(e)], e
		}
	}
	e := path.Ext(p)
	return p[:len(p)-len(e)], e
}

func (r *Resolver) tryFile(rel string, tr *trace) bool {
	tr.add(rel)
	return r.stat(rel) == kindFile
}

// loadFile resolves rel as a file: a TS extension names itself; a JS
// extension names its TS source first (./x.js → x.ts, x.tsx, x.d.ts; .mjs →
// .mts; .cjs → .cts; .jsx → .tsx), then itself; no (or another) extension
// gets .ts, .tsx, .d.ts, then .js, .jsx appended, then names itself.
func (r *Resolver) loadFile(rel string, m probeMode, tr *trace) (string, bool) {
	base, ext := splitExt(rel)
	var cands []string
	switch ext {
	case ".ts", ".tsx", ".mts", ".cts", ".d.ts", ".d.mts", ".d.cts":
		if m == modeTS {
			cands = []string{rel}
		}
	case ".js":
		if m == modeTS {
			cands = []string{base + ".ts", base + ".tsx", base + ".d.ts"}
		} else {
			cands = []string{rel, base + ".jsx"}
		}
	case ".jsx":
		if m == modeTS {
			cands = []string{base + ".tsx", base + ".d.ts"}
		} else {
			cands = []string{rel}
		}
	case ".mjs":
		if m == modeTS {
			cands = []string{base + ".mts", base + ".d.mts"}
		} else {
			cands = []string{rel}
		}
	case ".cjs":
		if m == modeTS {
			cands = []string{base + ".cts", base + ".d.cts"}
		} else {
			cands = []string{rel}
		}
	default:
		if m == modeTS {
			cands = []string{rel + ".ts", rel + ".tsx", rel + ".d.ts"}
		} else {
			cands = []string{rel + ".js", rel + ".jsx"}
			if ext != "" {
				cands = append(cands, rel) // ./data.json, ./styles.css
			}
		}
	}
	for _, c := range cands {
		if r.tryFile(c, tr) {
			return c, true
		}
	}
	return "", false
}

// loadDir resolves a directory: its package.json types/typings (TS pass) or
// main, each probed as a file then a directory, then its index file.
func (r *Resolver) loadDir(rel string, m probeMode, tr *trace, depth int) (string, bool) {
	if r.stat(rel) != kindDir {
		idx := path.Join(rel, "index")
		if m == modeTS {
			tr.add(idx + ".ts")
		}
		return "", false
	}
	if pkg := r.packageJSON(rel); pkg != nil {
		fields := []string{"main"}
		if m == modeTS {
			fields = []string{"types", "typings", "main"}
		}
		for _, fld := range fields {
			s, ok := pkg.get(fld).str()
			if !ok || s == "" {
				continue
			}
			t := path.Join(rel, s)
			if t == rel || outside(t) {
				continue
			}
			if f, ok := r.loadFile(t, m, tr); ok {
				return f, true
			}
			if depth < 4 {
				if f, ok := r.loadDir(t, m, tr, depth+1); ok {
					return f, true
				}
			}
		}
	}
	return r.loadFile(path.Join(rel, "index"), m, tr)
}

// ---- configuration files ----

type jsonFile struct{ v *jval }

// readJSON reads and parses a JSON(C) file, cached; nil when missing or
// broken (a Diagnostic says why).
func (r *Resolver) readJSON(rel string) *jval {
	if v, ok := r.jsons.Load(rel); ok {
		return v.(*jsonFile).v
	}
	var v *jval
	if r.stat(rel) == kindFile {
		if src := r.readConfig(rel); src != nil {
			var err error
			v, err = parseJSONC(src)
			if err != nil {
				je, _ := err.(*jsonError)
				line := 1
				if je != nil {
					line = lineOf(src, je.off)
				}
				r.diag(rel, line, "invalid JSON: %v", err)
				v = nil
			}
		}
	}
	act, _ := r.jsons.LoadOrStore(rel, &jsonFile{v})
	return act.(*jsonFile).v
}

// readConfig reads a configuration file, refusing huge or binary ones.
func (r *Resolver) readConfig(rel string) []byte {
	f, err := os.Open(osPath(r.root, rel))
	if err != nil {
		r.diag(rel, 1, "cannot read: %v", err)
		return nil
	}
	defer f.Close()
	buf, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	if err != nil {
		r.diag(rel, 1, "cannot read: %v", err)
		return nil
	}
	if len(buf) > maxConfigSize {
		r.diag(rel, 1, "file larger than %d bytes, ignored", maxConfigSize)
		return nil
	}
	if i := bytes.IndexByte(buf, 0); i >= 0 {
		r.diag(rel, lineOf(buf, i), "binary file (NUL byte), ignored")
		return nil
	}
	return buf
}

func (r *Resolver) packageJSON(dir string) *jval { return r.readJSON(path.Join(dir, "package.json")) }

// nearestFile finds the nearest file called name in dir or its ancestors up
// to the root; "" when there is none.
func (r *Resolver) nearestFile(dir, name string) string {
	key := dir + "\x00" + name
	if v, ok := r.nearest.Load(key); ok {
		return v.(string)
	}
	var found string
	if c := path.Join(dir, name); r.stat(c) == kindFile {
		found = c
	} else if dir != "." && !outside(dir) {
		found = r.nearestFile(path.Dir(dir), name)
	}
	r.nearest.Store(key, found)
	return found
}
