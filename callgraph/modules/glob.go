package modules

import (
	"os"
	"path"
	"sort"
	"strings"
)

// splitGlob splits a slash pattern into its segments, dropping "." and empty
// ones ("./packages/*/" is "packages", "*").
func splitGlob(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s != "" && s != "." {
			out = append(out, s)
		}
	}
	return out
}

// skippedByDoubleStar names the directories "**" never enters.
func skippedByDoubleStar(name string) bool {
	switch name {
	case "node_modules", "bower_components", "jspm_packages":
		return true
	}
	return strings.HasPrefix(name, ".")
}

// matchGlob reports whether the path segments p match the pattern segments
// pat: "**" is any number of directories, "*" any run of characters but "/",
// "?" one character. Brackets are literal (Next.js routes like "[id]").
func matchGlob(pat, p []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; ; i++ {
				if matchGlob(pat[1:], p[i:]) {
					return true
				}
				if i >= len(p) || skippedByDoubleStar(p[i]) {
					return false
				}
			}
		}
		if len(p) == 0 || !matchSegment(pat[0], p[0]) {
			return false
		}
		pat, p = pat[1:], p[1:]
	}
	return len(p) == 0
}

// matchSegment matches one path segment against a pattern of "*" and "?".
func matchSegment(pat, s string) bool {
	// Iterative wildcard matching with backtracking to the last "*".
	pi, si, star, mark := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case pi < len(pat) && (pat[pi] == '?' || pat[pi] == s[si]) && pat[pi] != '*':
			pi++
			si++
		case pi < len(pat) && pat[pi] == '*':
			star, mark = pi, si
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(pat) && pat[pi] == '*' {
		pi++
	}
	return pi == len(pat)
}

func hasWildcard(s string) bool { return strings.ContainsAny(s, "*?") }

// expandDirGlob lists the directories (slash paths relative to root, sorted)
// that a workspace pattern matches. Hidden directories and node_modules are
// never entered by a wildcard.
func expandDirGlob(root string, pattern string) []string {
	segs := splitGlob(pattern)
	seen := map[string]bool{}
	var out []string
	var walk func(rel string, segs []string, depth int)
	walk = func(rel string, segs []string, depth int) {
		if depth > 64 {
			return
		}
		if len(segs) == 0 {
			if !seen[rel] {
				seen[rel] = true
				out = append(out, rel)
			}
			return
		}
		seg := segs[0]
		if seg == ".." {
			return // never outside the repository
		}
		if !hasWildcard(seg) {
			next := path.Join(rel, seg)
			if st, err := os.Stat(osPath(root, next)); err == nil && st.IsDir() {
				walk(next, segs[1:], depth+1)
			}
			return
		}
		entries, err := os.ReadDir(osPath(root, rel))
		if err != nil {
			return
		}
		if seg == "**" {
			walk(rel, segs[1:], depth+1)
		}
		for _, e := range entries {
			name := e.Name()
			if skippedByDoubleStar(name) || !isDirEntry(root, rel, e) {
				continue
			}
			next := path.Join(rel, name)
			if seg == "**" {
				if e.IsDir() { // "**" does not follow symbolic links (cycles)
					walk(next, segs, depth+1)
				}
			} else if matchSegment(seg, name) {
				walk(next, segs[1:], depth+1)
			}
		}
	}
	walk("", segs, 0)
	sort.Strings(out)
	return out
}

func isDirEntry(root, rel string, e os.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&os.ModeSymlink != 0 {
		st, err := os.Stat(osPath(root, path.Join(rel, e.Name())))
		return err == nil && st.IsDir()
	}
	return false
}

// maxBraceExpansions bounds what one pattern expands to.
const maxBraceExpansions = 1024

// expandBraces expands "{a,b}" alternatives, nested ones included:
// "packages/{a,b}" is "packages/a" and "packages/b". A brace without a comma
// ("{a}") or without its closing brace is literal, as in the glob libraries
// npm and pnpm use.
func expandBraces(p string) []string {
	if len(p) > 4096 || strings.Count(p, "{") > 64 {
		return []string{p} // not a workspace pattern anyone writes: taken literally
	}
	out := []string{}
	var expand func(s string)
	expand = func(s string) {
		if len(out) >= maxBraceExpansions {
			return
		}
		open, close, commas := braceGroup(s)
		if open < 0 {
			out = append(out, s)
			return
		}
		prefix, suffix := s[:open], s[close+1:]
		start := open + 1
		for _, c := range append(commas, close) {
			expand(prefix + s[start:c] + suffix)
			start = c + 1
		}
	}
	expand(p)
	return out
}

// braceGroup finds the first "{...}" with a top-level comma in s: the
// offsets of its braces and of its top-level commas; open is -1 when none.
func braceGroup(s string) (open, close int, commas []int) {
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		depth := 0
		var cs []int
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					if len(cs) > 0 {
						return i, j, cs
					}
					j = len(s) // no comma: literal; look for the next group
				}
			case ',':
				if depth == 1 {
					cs = append(cs, j)
				}
			}
		}
	}
	return -1, -1, nil
}
