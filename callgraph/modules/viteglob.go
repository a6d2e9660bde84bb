package modules

import (
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
)

// maxGlobFiles bounds what one import.meta.glob lists (a pattern that
// lists more is not one anyone writes for modules).
const maxGlobFiles = 10000

// ViteGlob lists the repository files an `import.meta.glob(patterns)` of
// importer loads, as vite expands it (its importMetaGlob plugin): a pattern
// is relative to the importer ("./", "../"), to the vite root ("/"), or
// starts with a resolve.alias (whose replacement is the repository's path,
// or written from the vite root: "/src"); one starting with "**" is under
// the vite root. A leading "!" excludes what it matches. `*`, `?`, `**`,
// `{a,b}`, `[abc]` and `@(a|b)` match as picomatch does: a wildcard does not
// match a name starting with "."; node_modules is never listed; nor is the
// importer itself. A pattern vite refuses (a bare name no alias matches)
// lists nothing. The answer is sorted: slash paths relative to the
// repository root, files only.
func (r *Resolver) ViteGlob(importer string, patterns []string) []string {
	imp, ok := r.normImporter(importer)
	if !ok {
		return nil
	}
	dir := path.Dir(imp)
	var include, exclude []*regexp.Regexp
	dotFiles := false // a pattern whose file name starts with ".": a wildcard matches no other such name
	var bases []string
	for _, raw := range patterns {
		neg := strings.HasPrefix(raw, "!")
		for _, p := range expandBraces(strings.TrimPrefix(raw, "!")) {
			rel, ok := r.globFrom(dir, p)
			if !ok {
				continue
			}
			re := globRegexp(rel)
			if re == nil {
				continue
			}
			if neg {
				exclude = append(exclude, re)
				continue
			}
			include = append(include, re)
			dotFiles = dotFiles || strings.HasPrefix(path.Base(rel), ".")
			bases = append(bases, globBase(rel))
		}
	}
	seen := map[string]bool{imp: true}
	var out []string
	for _, base := range bases {
		r.listFiles(base, 0, func(f string) bool {
			hidden := strings.HasPrefix(path.Base(f), ".") && !dotFiles
			if seen[f] || hidden || !matchesAny(include, f) || matchesAny(exclude, f) {
				return len(out) < maxGlobFiles
			}
			seen[f] = true
			out = append(out, f)
			return len(out) < maxGlobFiles
		})
	}
	slices.Sort(out)
	return out
}

// globFrom is pattern p written from the repository root (false when vite
// would refuse it, or it leaves the repository).
func (r *Resolver) globFrom(dir, p string) (string, bool) {
	var rel string
	switch {
	case strings.HasPrefix(p, "/"):
		rel = path.Join(r.viteRoot(dir), p[1:])
	case strings.HasPrefix(p, "./"), strings.HasPrefix(p, "../"):
		rel = path.Join(dir, p)
	case strings.HasPrefix(p, "**"):
		rel = path.Join(r.viteRoot(dir), p)
	default:
		to, root, ok := r.applyAlias(dir, p)
		if !ok || !path.IsAbs(to) {
			return "", false
		}
		if fr, ok := r.fromRoot(root, to); ok && r.globHasFiles(fr) {
			rel = fr
		} else {
			rel = path.Clean(r.relOf(to))
		}
	}
	if outside(rel) || path.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// globHasFiles reports whether the directory a pattern starts from exists
// (vite's root-relative try comes first when it does).
func (r *Resolver) globHasFiles(rel string) bool {
	st, err := os.Stat(osPath(r.root, globBase(rel)))
	return err == nil && st.IsDir()
}

// globBase is the directory before a pattern's first wildcard segment.
func globBase(rel string) string {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		if strings.ContainsAny(s, "*?[]{}()!+@") {
			if i == 0 {
				return "."
			}
			return strings.Join(segs[:i], "/")
		}
	}
	return path.Dir(rel)
}

// listFiles calls yield with every file under the repo-relative dir
// (hidden directories under it and node_modules left out; symbolic links to
// directories not followed), until it returns false.
func (r *Resolver) listFiles(dir string, depth int, yield func(string) bool) bool {
	if depth > 64 {
		return true
	}
	entries, err := os.ReadDir(osPath(r.root, dir))
	if err != nil {
		return true
	}
	for _, e := range entries {
		name := e.Name()
		rel := path.Join(dir, name)
		switch {
		case name == "node_modules", e.IsDir() && strings.HasPrefix(name, "."):
		case e.IsDir():
			if !r.listFiles(rel, depth+1, yield) {
				return false
			}
		case e.Type()&os.ModeSymlink != 0:
			if st, err := os.Stat(osPath(r.root, rel)); err == nil && st.Mode().IsRegular() && !yield(rel) {
				return false
			}
		case e.Type().IsRegular():
			if !yield(rel) {
				return false
			}
		}
	}
	return true
}

func matchesAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// globRegexp is a picomatch pattern (braces already expanded) as a regular
// expression over slash paths: "**" any directories (none whose name
// starts with "."), "*" and "?" within one name (not a leading "."),
// "[...]" a class, "@(a|b)", "?(a)", "*(a)", "+(a)" the extglobs ("!(a)"
// matches as "*": more, never fewer); nil when it does not compile.
func globRegexp(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	segs := strings.Split(p, "/")
	for i, s := range segs {
		last := i == len(segs)-1
		if s == "**" {
			if last {
				b.WriteString(`(?:[^./][^/]*(?:/[^./][^/]*)*)?`)
			} else {
				b.WriteString(`(?:[^./][^/]*/)*`)
			}
			continue
		}
		b.WriteString(segmentRegexp(s))
		if !last {
			b.WriteString("/")
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// segmentRegexp is one path segment of a glob as a regular expression.
func segmentRegexp(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '!' && i+1 < len(s) && s[i+1] == '(' {
			// "!(a)": any name but a; matched as "*", more, never fewer.
			end := strings.IndexByte(s[i:], ')')
			if end < 0 {
				end = len(s) - i - 1
			}
			b.WriteString(`[^/]*`)
			i += end
			continue
		}
		if i+1 < len(s) && s[i+1] == '(' && strings.IndexByte("@?*+", c) >= 0 {
			b.WriteString("(?:")
			depth++
			i++
			continue
		}
		switch {
		case c == ')' && depth > 0:
			b.WriteString(")")
			depth--
			if i+1 < len(s) && strings.IndexByte("?*+", s[i+1]) >= 0 {
				b.WriteByte(s[i+1])
				i++
			}
		case c == '|' && depth > 0:
			b.WriteString("|")
		case c == '*':
			b.WriteString(`[^/]*`)
		case c == '?':
			b.WriteString(`[^/]`)
		case c == '[':
			end := strings.IndexByte(s[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := s[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}
