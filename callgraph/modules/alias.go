package modules

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Alias is one entry of a vite/vitest configuration's resolve.alias, as
// vitest resolved it (every written form, an object or an array of
// { find, replacement }, comes out as this list): a string Find matches the
// specifier itself or the specifier followed by "/..."; a Regex matches
// where it matches (JavaScript's syntax, the subset Go's regexp shares).
// The first match, in order, replaces: Find (or the Regex's first match,
// with $1, $& expanded) becomes Replacement, which is then resolved as
// written: an absolute path, a relative path or a package name.
type Alias struct {
	Find        string
	Regex       string
	Replacement string
}

// AliasScope is the aliases of one vitest project: they apply to the files
// under Dir (repo-relative, "." for the whole repository); a file under
// several takes the deepest Dir.
type AliasScope struct {
	Dir     string
	Aliases []Alias
}

type alias struct {
	find string
	re   *regexp.Regexp
	repl string // for a regex: a Go template (${1})
}

type aliasScope struct {
	dir     string
	aliases []alias
}

// SetAliases gives the resolver the vitest projects' resolve.alias: a
// specifier an alias matches is replaced before anything else (as vite's
// alias plugin runs first), and the replacement resolved without aliases.
// Call it before the first Resolve; a regex Go cannot compile is left out,
// with a Diagnostic naming it (file is the config it came from).
func (r *Resolver) SetAliases(file string, scopes []AliasScope) {
	var out []aliasScope
	at := map[string]int{} // dir → its scope in out: projects of one root share it, the first's aliases first
	for _, s := range scopes {
		dir := path.Clean(s.Dir)
		i, ok := at[dir]
		if !ok {
			i, at[dir] = len(out), len(out)
			out = append(out, aliasScope{dir: dir})
		}
		as := &out[i]
		for _, a := range s.Aliases {
			if a.Regex == "" {
				if a.Find != "" {
					as.aliases = append(as.aliases, alias{find: a.Find, repl: a.Replacement})
				}
				continue
			}
			re, err := regexp.Compile(a.Regex)
			if err != nil {
				r.diag(file, 1, "resolve.alias %s: not followed: %v", fmt.Sprintf("/%s/", a.Regex), err)
				continue
			}
			as.aliases = append(as.aliases, alias{re: re, repl: jsReplacement(a.Replacement)})
		}
	}
	// Deepest first, so the first scope holding a file is its own.
	slices.SortStableFunc(out, func(a, b aliasScope) int { return strings.Count(b.dir, "/") - strings.Count(a.dir, "/") })
	r.aliases = out
	r.results.Clear()
}

// jsReplacement turns a JavaScript replacement string ($1, $&, $$) into a
// Go regexp template.
func jsReplacement(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch c := s[i+1]; {
		case c == '$':
			b.WriteString("$$")
			i++
		case c == '&':
			b.WriteString("${0}")
			i++
		case c >= '0' && c <= '9':
			j := i + 2
			if j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			b.WriteString("${" + s[i+1:j] + "}")
			i = j - 1
		default:
			b.WriteString("$$")
		}
	}
	return b.String()
}

// applyAlias replaces spec by the first alias that matches it, as vite's
// alias plugin does, in the deepest scope holding dir that has one (then
// the scopes around it: a module two projects load resolves as either
// would, so the walk misses neither). root is the matching scope's
// directory: the vite root a replacement written from the root ("/src")
// is under.
func (r *Resolver) applyAlias(dir, spec string) (to, root string, ok bool) {
	for i := range r.aliases {
		s := &r.aliases[i]
		if s.dir != "." && dir != s.dir && !strings.HasPrefix(dir, s.dir+"/") {
			continue
		}
		for _, a := range s.aliases {
			if a.re == nil {
				if spec == a.find || strings.HasPrefix(spec, strings.TrimSuffix(a.find, "/")+"/") {
					return a.repl + spec[len(a.find):], s.dir, true
				}
				continue
			}
			m := a.re.FindStringSubmatchIndex(spec)
			if m == nil {
				continue
			}
			var b []byte
			b = a.re.ExpandString(b, a.repl, spec, m)
			return spec[:m[0]] + string(b) + spec[m[1]:], s.dir, true
		}
	}
	return spec, "", false
}

// viteRoot is the vite root of the files in dir: the deepest vitest
// project (SetAliases) holding it, "." without one.
func (r *Resolver) viteRoot(dir string) string {
	root := "."
	for i := range r.aliases {
		d := r.aliases[i].dir
		if (dir == d || strings.HasPrefix(dir, d+"/")) && len(d) > len(root) {
			root = d
		}
	}
	return root
}

// fromRoot is where vite looks first for an absolute id outside the vite
// root (its resolve plugin: "/src/x" is <root>/src/x when that exists, the
// file system's /src/x only after): the repo-relative path, and false when
// to is not such an id or that path leaves the repository.
func (r *Resolver) fromRoot(root, to string) (string, bool) {
	if !path.IsAbs(to) || !outside(path.Clean(r.relOf(to))) {
		return "", false
	}
	rel := path.Join(root, strings.TrimPrefix(path.Clean(to), "/"))
	if outside(rel) || rel == "." {
		return "", false
	}
	return rel, true
}
