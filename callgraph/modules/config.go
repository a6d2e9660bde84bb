package modules

import (
	"path"
	"path/filepath"
	"strings"
)

// defaultConditions follow a project's customConditions: an ESM TypeScript
// importer under moduleResolution bundler/node16.
var defaultConditions = []string{"types", "import", "default"}

// project is the resolution-relevant part of a tsconfig, with extends applied
// and every path made repo-relative.
type project struct {
	config  string // repo-relative path of the tsconfig; "" when none owns the file
	baseURL string // "" when unset
	paths   []pathEntry
	conds   []string // customConditions

	files      map[string]bool
	hasFiles   bool
	include    [][]string // glob segments, repo-relative
	hasInclude bool
	exclude    [][]string
	hasExclude bool
	references []string // repo-relative tsconfig paths
	refLines   []int    // their lines in config
}

type pathEntry struct {
	pattern        string
	star           bool
	prefix, suffix string
	subs           []string // repo-relative, "*" still in place
}

var noProject = &project{}

// conditions returns the exports conditions in effect for the project.
func (p *project) conditions() []string {
	if len(p.conds) == 0 {
		return defaultConditions
	}
	out := make([]string, 0, len(p.conds)+len(defaultConditions))
	out = append(out, p.conds...)
	return append(out, defaultConditions...)
}

// matchPaths picks the paths entry for spec as TypeScript does: an exact
// pattern first, else the wildcard pattern with the longest prefix (the first
// such in declaration order on a tie). It returns the text "*" matched.
func (p *project) matchPaths(spec string) (*pathEntry, string, bool) {
	var best *pathEntry
	var star string
	for i := range p.paths {
		e := &p.paths[i]
		if !e.star {
			if e.pattern == spec {
				return e, "", true
			}
			continue
		}
		if len(spec) >= len(e.prefix)+len(e.suffix) && strings.HasPrefix(spec, e.prefix) &&
			strings.HasSuffix(spec, e.suffix) && (best == nil || len(e.prefix) > len(best.prefix)) {
			best, star = e, spec[len(e.prefix):len(spec)-len(e.suffix)]
		}
	}
	return best, star, best != nil
}

// includes reports whether the project's files/include/exclude cover file.
func (p *project) includes(file string) bool {
	if p.files[file] {
		return true
	}
	segs := strings.Split(file, "/")
	var inc [][]string
	switch {
	case p.hasInclude:
		inc = p.include
	case p.hasFiles:
		return false
	default:
		inc = [][]string{append(splitGlob(path.Dir(p.config)), "**", "*")}
	}
	matched := false
	for _, g := range inc {
		if matchGlob(g, segs) {
			matched = true
			break
		}
	}
	if !matched {
		return false
	}
	// Exclude patterns name files or whole directories.
	for _, g := range p.exclude {
		for i := 1; i <= len(segs); i++ {
			if matchGlob(g, segs[:i]) {
				return false
			}
		}
	}
	return true
}

// owner returns the project that owns the importer file: the nearest
// tsconfig.json; when that one does not include the file and has
// references (a solution config), the referenced project that does.
func (r *Resolver) owner(file string) *project {
	if v, ok := r.owners.Load(file); ok {
		return v.(*project)
	}
	p := noProject
	if cfg := r.nearestFile(path.Dir(file), "tsconfig.json"); cfg != "" {
		p = r.project(cfg)
		if !p.includes(file) && len(p.references) > 0 {
			if q := r.searchReferences(p, file, map[string]bool{p.config: true}); q != nil {
				p = q
			}
		}
	}
	r.owners.Store(file, p)
	return p
}

func (r *Resolver) searchReferences(p *project, file string, seen map[string]bool) *project {
	for i, ref := range p.references {
		if seen[ref] || len(seen) > 256 {
			continue
		}
		seen[ref] = true
		if !r.rawConfig(ref).ok {
			if r.stat(ref) != kindFile {
				r.diag(p.config, p.refLines[i], "referenced project %s not found", ref)
			}
			continue
		}
		q := r.project(ref)
		if q.includes(file) {
			return q
		}
		if found := r.searchReferences(q, file, seen); found != nil {
			return found
		}
	}
	return nil
}

// ---- raw tsconfig files and extends ----

// optVal is an option as declared, with the directory of the declaring
// config (relative paths resolve against it; ${configDir} against the leaf).
type optVal struct {
	v    *jval
	dir  string
	file string
	src  []byte
}

func (o *optVal) line() int {
	if o == nil || o.v == nil {
		return 1
	}
	return lineOf(o.src, o.v.off)
}

type extendsRef struct {
	spec string
	line int
}

type rawConfig struct {
	rel     string
	ok      bool // parsed
	extends []extendsRef
	own     layer
	refs    []string
	refLine []int
}

// layer holds the options one config contributes; a later layer wins per
// option (compilerOptions are merged option by option; files, include and
// exclude replace).
type layer struct {
	baseURL, paths, conds, files, include, exclude *optVal
}

func (l *layer) apply(o *layer) {
	for _, f := range [][2]**optVal{
		{&l.baseURL, &o.baseURL}, {&l.paths, &o.paths}, {&l.conds, &o.conds},
		{&l.files, &o.files}, {&l.include, &o.include}, {&l.exclude, &o.exclude},
	} {
		if *f[1] != nil {
			*f[0] = *f[1]
		}
	}
}

func (r *Resolver) rawConfig(rel string) *rawConfig {
	if v, ok := r.raws.Load(rel); ok {
		return v.(*rawConfig)
	}
	rc := &rawConfig{rel: rel}
	if r.stat(rel) != kindFile {
		r.raws.Store(rel, rc)
		return rc
	}
	src := r.readConfig(rel)
	var root *jval
	if src != nil {
		var err error
		root, err = parseJSONC(src)
		if err != nil {
			line := 1
			if je, ok := err.(*jsonError); ok {
				line = lineOf(src, je.off)
			}
			r.diag(rel, line, "invalid JSONC: %v", err)
			root = nil
		}
	}
	if root != nil {
		if root.kind != jObj {
			r.diag(rel, lineOf(src, root.off), "tsconfig is not a JSON object")
		} else {
			rc.ok = true
			r.parseRaw(rc, root, src)
		}
	}
	act, _ := r.raws.LoadOrStore(rel, rc)
	return act.(*rawConfig)
}

func (r *Resolver) parseRaw(rc *rawConfig, root *jval, src []byte) {
	dir := path.Dir(rc.rel)
	mk := func(v *jval) *optVal {
		if v == nil {
			return nil
		}
		return &optVal{v: v, dir: dir, file: rc.rel, src: src}
	}
	switch ext := root.get("extends"); {
	case ext == nil || ext.kind == jNull:
	case ext.kind == jStr:
		rc.extends = append(rc.extends, extendsRef{ext.s, lineOf(src, ext.off)})
	case ext.kind == jArr:
		for _, e := range ext.arr {
			if s, ok := e.str(); ok {
				rc.extends = append(rc.extends, extendsRef{s, lineOf(src, e.off)})
			} else {
				r.diag(rc.rel, lineOf(src, e.off), "extends entry is not a string")
			}
		}
	default:
		r.diag(rc.rel, lineOf(src, ext.off), "extends is neither a string nor an array")
	}
	if co := root.get("compilerOptions"); co != nil && co.kind == jObj {
		rc.own.baseURL = mk(co.get("baseUrl"))
		rc.own.paths = mk(co.get("paths"))
		rc.own.conds = mk(co.get("customConditions"))
	}
	rc.own.files = mk(root.get("files"))
	rc.own.include = mk(root.get("include"))
	rc.own.exclude = mk(root.get("exclude"))
	if refs := root.get("references"); refs != nil && refs.kind == jArr {
		for _, ref := range refs.arr {
			p, ok := ref.get("path").str()
			if !ok || p == "" {
				r.diag(rc.rel, lineOf(src, ref.off), "reference without a \"path\"")
				continue
			}
			var t string
			if filepath.IsAbs(p) || path.IsAbs(p) {
				t = r.relOf(p)
			} else {
				t = path.Join(dir, p)
			}
			if !strings.HasSuffix(t, ".json") {
				t = path.Join(t, "tsconfig.json")
			}
			rc.refs = append(rc.refs, t)
			rc.refLine = append(rc.refLine, lineOf(src, ref.off))
		}
	}
}

// project returns the tsconfig at rel, extends applied and paths resolved, as
// the leaf config (cached per leaf: ${configDir} is the leaf's directory).
func (r *Resolver) project(rel string) *project {
	if v, ok := r.projects.Load(rel); ok {
		return v.(*project)
	}
	rc := r.rawConfig(rel)
	p := noProject
	if rc.ok {
		l := r.merge(rel, nil)
		p = r.finalize(rel, l, rc)
	} else {
		p = &project{config: rel}
	}
	act, _ := r.projects.LoadOrStore(rel, p)
	return act.(*project)
}

// merge computes the options of the config at rel: its extends in order
// (later ones winning), then its own. stack holds the configs being merged,
// to break cycles.
func (r *Resolver) merge(rel string, stack []string) *layer {
	rc := r.rawConfig(rel)
	acc := &layer{}
	if !rc.ok {
		return acc
	}
	stack = append(stack, rel)
	for _, ext := range rc.extends {
		base, ok := r.resolveExtends(rc, ext)
		if !ok {
			continue
		}
		if i := indexOf(stack, base); i >= 0 {
			cycle := append(append([]string{}, stack[i:]...), base)
			r.diag(rel, ext.line, "extends cycle: %s", strings.Join(cycle, " -> "))
			continue
		}
		if len(stack) > 32 {
			r.diag(rel, ext.line, "extends chain deeper than 32 configs")
			continue
		}
		if !r.rawConfig(base).ok {
			continue // its own diagnostic says why
		}
		acc.apply(r.merge(base, stack))
	}
	acc.apply(&rc.own)
	return acc
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// resolveExtends finds the config an "extends" entry names: a path relative
// to the config (with or without ".json"), or a package in a node_modules
// directory between the config and the root (its package.json "exports",
// its "tsconfig" field, its tsconfig.json, or a file below it).
func (r *Resolver) resolveExtends(rc *rawConfig, ext extendsRef) (string, bool) {
	dir := path.Dir(rc.rel)
	spec := ext.spec
	if spec == "" {
		r.diag(rc.rel, ext.line, "empty extends")
		return "", false
	}
	if isRelativeSpec(spec) || path.IsAbs(spec) || filepath.IsAbs(spec) {
		var t string
		if isRelativeSpec(spec) {
			t = path.Join(dir, spec)
		} else {
			t = path.Clean(r.relOf(spec))
		}
		cands := []string{t}
		if !strings.HasSuffix(t, ".json") {
			cands = append(cands, t+".json")
		}
		for _, c := range cands {
			if r.stat(c) == kindFile {
				return c, true
			}
		}
		if outside(t) {
			r.diag(rc.rel, ext.line, "extends %q leaves the repository", spec)
		} else {
			r.diag(rc.rel, ext.line, "extends %q not found (tried %s)", spec, strings.Join(cands, ", "))
		}
		return "", false
	}
	name, sub := splitPackage(spec)
	for d := dir; ; d = path.Dir(d) {
		pkgDir := path.Join(d, "node_modules", name)
		if r.stat(pkgDir) == kindDir {
			if t, ok := r.extendsInPackage(pkgDir, sub); ok {
				return t, true
			}
			r.diag(rc.rel, ext.line, "extends %q: no config file in %s", spec, pkgDir)
			return "", false
		}
		if d == "." {
			break
		}
	}
	r.diag(rc.rel, ext.line, "extends %q: package not found in a node_modules directory of the repository", spec)
	return "", false
}

var extendsConditions = []string{"node", "require", "types", "default"}

func (r *Resolver) extendsInPackage(pkgDir, sub string) (string, bool) {
	pkg := r.packageJSON(pkgDir)
	if exp := pkg.get("exports"); exp != nil && exp.kind != jNull {
		if t, ok := r.exportsFile(pkgDir, exp, sub, extendsConditions); ok {
			return t, true
		}
	}
	var cands []string
	if sub == "." {
		if s, ok := pkg.get("tsconfig").str(); ok && s != "" {
			cands = append(cands, path.Join(pkgDir, s))
		}
		cands = append(cands, path.Join(pkgDir, "tsconfig.json"))
	} else {
		t := path.Join(pkgDir, sub)
		cands = append(cands, t)
		if !strings.HasSuffix(t, ".json") {
			cands = append(cands, t+".json")
		}
		cands = append(cands, path.Join(t, "tsconfig.json"))
	}
	for _, c := range cands {
		if !outside(c) && r.stat(c) == kindFile {
			return c, true
		}
	}
	return "", false
}

// finalize resolves the merged options of the leaf config at rel.
func (r *Resolver) finalize(rel string, l *layer, rc *rawConfig) *project {
	leafDir := path.Dir(rel)
	p := &project{config: rel, references: rc.refs, refLines: rc.refLine}
	resolve := func(s string, o *optVal) string {
		if rest, ok := strings.CutPrefix(s, "${configDir}"); ok {
			return path.Join(leafDir, "./"+rest)
		}
		if path.IsAbs(s) || filepath.IsAbs(s) {
			return path.Clean(r.relOf(s))
		}
		return path.Join(o.dir, s)
	}
	strs := func(o *optVal, what string) []string {
		if o == nil || o.v.kind == jNull {
			return nil
		}
		if o.v.kind != jArr {
			r.diag(o.file, o.line(), "%s is not an array", what)
			return nil
		}
		var out []string
		for _, e := range o.v.arr {
			if s, ok := e.str(); ok {
				out = append(out, s)
			} else {
				r.diag(o.file, lineOf(o.src, e.off), "%s entry is not a string", what)
			}
		}
		return out
	}
	if o := l.baseURL; o != nil {
		if s, ok := o.v.str(); ok {
			p.baseURL = resolve(s, o)
		} else if o.v.kind != jNull {
			r.diag(o.file, o.line(), "baseUrl is not a string")
		}
	}
	if o := l.paths; o != nil && o.v.kind == jObj {
		base := p.baseURL
		if base == "" {
			base = o.dir
		}
		for i, k := range o.v.keys {
			e := pathEntry{pattern: k}
			switch n := strings.Count(k, "*"); n {
			case 0:
			case 1:
				e.star = true
				e.prefix, e.suffix, _ = strings.Cut(k, "*")
			default:
				r.diag(o.file, lineOf(o.src, o.v.vals[i].off), "paths pattern %q has more than one \"*\"", k)
				continue
			}
			sub := &optVal{v: o.v.vals[i], dir: base, file: o.file, src: o.src}
			for _, s := range strs(sub, "paths substitution list") {
				if e.star && strings.Count(s, "*") > 1 {
					r.diag(o.file, sub.line(), "paths substitution %q has more than one \"*\"", s)
					continue
				}
				e.subs = append(e.subs, resolve(s, sub))
			}
			p.paths = append(p.paths, e)
		}
	} else if o != nil && o.v.kind != jNull {
		r.diag(o.file, o.line(), "paths is not an object")
	}
	p.conds = strs(l.conds, "customConditions")
	if l.files != nil {
		p.hasFiles = true
		p.files = map[string]bool{}
		for _, s := range strs(l.files, "files") {
			p.files[resolve(s, l.files)] = true
		}
	}
	if l.include != nil {
		p.hasInclude = true
		for _, s := range strs(l.include, "include") {
			g := splitGlob(resolve(s, l.include))
			if n := len(g); n > 0 && !hasWildcard(g[n-1]) && !strings.Contains(g[n-1], ".") {
				g = append(g, "**", "*") // a directory
			}
			p.include = append(p.include, g)
		}
	}
	if l.exclude != nil {
		p.hasExclude = true
		for _, s := range strs(l.exclude, "exclude") {
			p.exclude = append(p.exclude, splitGlob(resolve(s, l.exclude)))
		}
	}
	return p
}
