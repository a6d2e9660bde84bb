package modules

import (
	"fmt"
	"path"
	"strings"
)

// outcome of resolving an exports/imports target.
type outcome uint8

const (
	noMatch outcome = iota // no condition or no file: the caller may try its next alternative
	found
	blocked // a null target: the subpath is deliberately not exported
)

// pkgMap resolves subpaths through a package.json "exports" or "imports"
// value, as Node and TypeScript do.
type pkgMap struct {
	r       *Resolver
	pkgDir  string
	conds   []string
	imports bool     // the "imports" field: bare targets are packages
	proj    *project // for bare "imports" targets
	tr      *trace
	notes   []string
}

func (m *pkgMap) note(format string, args ...any) {
	if len(m.notes) < 8 {
		m.notes = append(m.notes, fmt.Sprintf(format, args...))
	}
}

// lookup finds the target for sub ("." / "./x" / "#x") in the map value v:
// an exact key first, else the pattern key ("./x/*") with the longest prefix
// before "*", then the longest key. A string, array or conditions object is
// the target of ".".
func (m *pkgMap) lookup(v *jval, sub string) (target *jval, star string, key string, ok bool) {
	isMap := false
	if v.kind == jObj {
		for _, k := range v.keys {
			if strings.HasPrefix(k, ".") || strings.HasPrefix(k, "#") {
				isMap = true
				break
			}
		}
	}
	if !isMap {
		if sub == "." && !m.imports {
			return v, "", ".", true
		}
		return nil, "", "", false
	}
	if t := v.get(sub); t != nil && !strings.Contains(sub, "*") {
		return t, "", sub, true
	}
	best := -1
	var bestPrefix int
	for i, k := range v.keys {
		pre, suf, has := strings.Cut(k, "*")
		if !has || strings.Contains(suf, "*") {
			continue
		}
		if !strings.HasPrefix(sub, pre) || sub == pre || !strings.HasSuffix(sub, suf) ||
			len(sub) < len(k) {
			continue
		}
		if best < 0 || len(pre) > bestPrefix || (len(pre) == bestPrefix && len(k) > len(v.keys[best])) {
			best, bestPrefix = i, len(pre)
			star = sub[len(pre) : len(sub)-len(suf)]
		}
	}
	if best < 0 {
		return nil, "", "", false
	}
	return v.vals[best], star, v.keys[best], true
}

// target resolves one target value: a string (with "*" replaced), an array
// (the first alternative that resolves; null blocks), or a conditions object
// (its keys in object order; the first in the condition set, or "default",
// whose value resolves).
func (m *pkgMap) target(t *jval, star string, depth int) (Result, outcome) {
	if depth > maxDepth {
		m.note("conditions nested deeper than %d", maxDepth)
		return Result{}, noMatch
	}
	switch t.kind {
	case jNull:
		return Result{}, blocked
	case jStr:
		return m.stringTarget(t.s, star)
	case jArr:
		for _, e := range t.arr {
			res, oc := m.target(e, star, depth+1)
			if oc != noMatch {
				return res, oc
			}
		}
		return Result{}, noMatch
	case jObj:
		matched := false
		for i, k := range t.keys {
			if k != "default" && indexOf(m.conds, k) < 0 {
				continue
			}
			matched = true
			res, oc := m.target(t.vals[i], star, depth+1)
			if oc != noMatch {
				return res, oc
			}
		}
		if !matched {
			m.note("no condition of [%s] among [%s]", strings.Join(m.conds, " "), strings.Join(t.keys, " "))
		}
		return Result{}, noMatch
	default:
		m.note("target is not a string, array, object or null")
		return Result{}, noMatch
	}
}

func (m *pkgMap) stringTarget(s, star string) (Result, outcome) {
	if !strings.HasPrefix(s, "./") {
		if m.imports && s != "" && !strings.HasPrefix(s, "../") && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "#") {
			// An "imports" target may name a package.
			spec := strings.ReplaceAll(s, "*", star)
			return m.r.resolvePackage(m.proj, spec), found
		}
		m.note("invalid target %q (must start with \"./\")", s)
		return Result{}, noMatch
	}
	s = strings.ReplaceAll(s, "*", star)
	for _, seg := range strings.Split(s[2:], "/") {
		if seg == ".." || seg == "." || seg == "node_modules" {
			m.note("invalid target %q (segment %q)", s, seg)
			return Result{}, noMatch
		}
	}
	rel := path.Join(m.pkgDir, s)
	if outside(rel) {
		m.note("target %q leaves the repository", s)
		return Result{}, noMatch
	}
	for _, mode := range []probeMode{modeTS, modeJS} {
		if f, ok := m.r.loadFile(rel, mode, m.tr); ok {
			return fileResult(f), found
		}
	}
	if src, ok := m.source(rel); ok {
		return fileResult(src), found
	}
	m.note("target %q has no file", s)
	return Result{}, noMatch
}

// source finds the TypeScript source of a build output the target names
// when the package is not built (a workspace package is read from its
// sources, as its own tests and tsc's project references do): the target
// under the package's outDir (its tsconfig.json's, else "dist") maps to the
// same path under its rootDir (else "src"), `.js` or `.d.ts` to `.ts`.
func (m *pkgMap) source(rel string) (string, bool) {
	if m.imports {
		return "", false
	}
	opts := m.r.readJSON(path.Join(m.pkgDir, "tsconfig.json")).get("compilerOptions")
	dir := func(key, def string) string {
		if v := opts.get(key); v != nil && v.kind == jStr && v.s != "" {
			return path.Clean(v.s)
		}
		return def
	}
	out, root := dir("outDir", "dist"), dir("rootDir", "src")
	rest, ok := strings.CutPrefix(rel, path.Join(m.pkgDir, out)+"/")
	if !ok || strings.HasPrefix(out, "..") || strings.HasPrefix(root, "..") || out == root {
		return "", false
	}
	base, _ := splitExt(rest)
	return m.r.loadFile(path.Join(m.pkgDir, root, base)+".js", modeTS, m.tr)
}

// resolveInPackage resolves subpath sub ("." or "./x") of the workspace
// package name in directory dir.
func (r *Resolver) resolveInPackage(name, dir, sub string, conds []string) Result {
	return r.resolveInPackageJSON(name, dir, r.packageJSON(dir), sub, conds)
}

// resolveInPackageJSON is resolveInPackage with the package.json given.
func (r *Resolver) resolveInPackageJSON(name, dir string, pkg *jval, sub string, conds []string) Result {
	pj := path.Join(dir, "package.json")
	tr := &trace{}
	if exp := pkg.get("exports"); exp != nil && exp.kind != jNull {
		m := &pkgMap{r: r, pkgDir: dir, conds: conds, tr: tr}
		t, star, key, ok := m.lookup(exp, sub)
		if !ok {
			return unresolved("workspace package %q (%s) exports no subpath %q", name, pj, sub)
		}
		res, oc := m.target(t, star, 0)
		switch oc {
		case found:
			return res
		case blocked:
			return unresolved("workspace package %q (%s) blocks subpath %q (exports %q is null)", name, pj, sub, key)
		}
		why := strings.Join(m.notes, "; ")
		if len(tr.tried) > 0 {
			why += fmt.Sprintf(" (tried %s)", tr.list())
		}
		return unresolved("workspace package %q (%s) exports %q for %q but nothing resolves: %s", name, pj, key, sub, why)
	}
	if sub == "." {
		if f, ok := r.load([]string{dir}, true, tr); ok {
			return fileResult(f)
		}
		if main := pkg.get("main"); main != nil && main.kind == jStr { // "main": "./dist/index.js", not built
			m := &pkgMap{r: r, pkgDir: dir, conds: conds, tr: tr}
			if f, ok := m.source(path.Join(dir, main.s)); ok {
				return fileResult(f)
			}
		}
		return unresolved("workspace package %q (%s) has no entry point (no exports; tried %s)", name, pj, tr.list())
	}
	if f, ok := r.load([]string{path.Join(dir, sub)}, false, tr); ok {
		return fileResult(f)
	}
	return unresolved("workspace package %q (%s) has no file for %q (tried %s)", name, pj, sub, tr.list())
}

// exportsFile resolves a subpath of a package's exports to an existing file
// (used for tsconfig extends): the file as named, no extension probing.
func (r *Resolver) exportsFile(pkgDir string, exp *jval, sub string, conds []string) (string, bool) {
	m := &pkgMap{r: r, pkgDir: pkgDir, conds: conds, tr: &trace{}}
	t, star, _, ok := m.lookup(exp, sub)
	if !ok {
		return "", false
	}
	var walk func(t *jval, depth int) (string, bool)
	walk = func(t *jval, depth int) (string, bool) {
		if depth > maxDepth {
			return "", false
		}
		switch t.kind {
		case jStr:
			if !strings.HasPrefix(t.s, "./") {
				return "", false
			}
			f := path.Join(pkgDir, strings.ReplaceAll(t.s, "*", star))
			if outside(f) {
				return "", false
			}
			for _, c := range []string{f, f + ".json"} {
				if r.stat(c) == kindFile {
					return c, true
				}
			}
		case jArr:
			for _, e := range t.arr {
				if f, ok := walk(e, depth+1); ok {
					return f, true
				}
			}
		case jObj:
			for i, k := range t.keys {
				if k == "default" || indexOf(conds, k) >= 0 {
					if f, ok := walk(t.vals[i], depth+1); ok {
						return f, true
					}
				}
			}
		}
		return "", false
	}
	return walk(t, 0)
}

// resolveImports resolves a "#name" specifier through the "imports" field of
// the package.json nearest to the importer's directory.
func (r *Resolver) resolveImports(dir string, p *project, spec string) Result {
	pj := r.nearestFile(dir, "package.json")
	if pj == "" {
		return unresolved("no package.json above %q for %q", dir, spec)
	}
	pkg := r.readJSON(pj)
	imp := pkg.get("imports")
	if imp == nil || imp.kind != jObj {
		return unresolved("%s has no \"imports\" field for %q", pj, spec)
	}
	tr := &trace{}
	m := &pkgMap{r: r, pkgDir: path.Dir(pj), conds: p.conditions(), imports: true, proj: p, tr: tr}
	t, star, key, ok := m.lookup(imp, spec)
	if !ok {
		return unresolved("no \"imports\" entry of %s matches %q", pj, spec)
	}
	res, oc := m.target(t, star, 0)
	switch oc {
	case found:
		return res
	case blocked:
		return unresolved("\"imports\" entry %q of %s is null", key, pj)
	}
	why := strings.Join(m.notes, "; ")
	if len(tr.tried) > 0 {
		why += fmt.Sprintf(" (tried %s)", tr.list())
	}
	return unresolved("\"imports\" entry %q of %s matches %q but nothing resolves: %s", key, pj, spec, why)
}
