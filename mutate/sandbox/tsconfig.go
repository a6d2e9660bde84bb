package sandbox

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// outside is what the tsconfig files of a repository that is one package of
// a workspace point to out of it: a TypeScript transform (vite's, vitest's)
// reads a test file's tsconfig.json with its `extends` chain and its
// `references`, and fails on one it cannot find, so that every test file of
// a copy without them fails to load.
type outside struct {
	files []string // tsconfig files its `extends` name (copied: their relative settings resolve in the copy)
	dirs  []string // the directories its `references` name (linked: a sibling package), and the node_modules an `extends` goes into
}

// outsideConfigs follows the relative `extends` and `references` of the
// tsconfig*.json and jsconfig*.json files at the root of source and in its
// directories one level down (test/tsconfig.json), and, transitively, of
// the tsconfig files out of source they extend: what lies out of source.
// Paths are absolute and symlink-free, sorted; a directory that holds
// source is never one of them.
func outsideConfigs(source string) outside {
	var queue []string
	add := func(dir string) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".json") && (strings.HasPrefix(n, "tsconfig") || strings.HasPrefix(n, "jsconfig")) {
				queue = append(queue, filepath.Join(dir, n))
			}
		}
	}
	add(source)
	entries, _ := os.ReadDir(source)
	for _, e := range entries {
		if e.IsDir() && e.Name() != "node_modules" && !skippedDirs[e.Name()] {
			add(filepath.Join(source, e.Name()))
		}
	}
	var out outside
	seen := map[string]bool{}
	isOut := func(p string) bool {
		_, in := within(source, p)
		_, holds := within(p, source)
		return !in && !holds
	}
	for len(queue) > 0 {
		file := queue[0]
		queue = queue[1:]
		if seen[file] {
			continue
		}
		seen[file] = true
		extends, refs := tsconfigLinks(file)
		for _, e := range extends {
			p := realPath(e)
			if nm, ok := nodeModulesDir(p); ok && isOut(nm) { // ../../node_modules/@tsconfig/node20/tsconfig.json
				if !slices.Contains(out.dirs, nm) {
					out.dirs = append(out.dirs, nm)
				}
				continue
			}
			if p != "" && isOut(p) && !slices.Contains(out.files, p) {
				out.files = append(out.files, p)
			}
			if p := realPath(e); p != "" && !seen[p] {
				queue = append(queue, p) // its own extends and references
			}
		}
		for _, r := range refs {
			p := realPath(r)
			if p == "" {
				continue
			}
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				p = filepath.Dir(p) // a reference to its tsconfig file: the package is its directory
			}
			if isOut(p) && !slices.Contains(out.dirs, p) {
				out.dirs = append(out.dirs, p)
			}
		}
	}
	slices.Sort(out.files)
	slices.Sort(out.dirs)
	return out
}

// tsconfigLinks reads the relative `extends` (a string or, since TypeScript
// 5.0, a list; a name without ".json" gets it, as tsc does) and the
// `references[].path` (always a path) of a tsconfig file (JSON with comments and trailing
// commas), as absolute paths. A package name (`@tsconfig/node20/...`) is
// not followed: it resolves through node_modules, which the sandbox links.
func tsconfigLinks(file string) (extends, refs []string) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, nil
	}
	var cfg struct {
		Extends    json.RawMessage `json:"extends"`
		References []struct {
			Path string `json:"path"`
		} `json:"references"`
	}
	if json.Unmarshal(plainJSON(b), &cfg) != nil {
		return nil, nil
	}
	dir := filepath.Dir(file)
	local := func(p string) (string, bool) {
		if p == "" || !(filepath.IsAbs(p) || p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../")) {
			return "", false
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return p, true
	}
	var names []string
	if json.Unmarshal(cfg.Extends, &names) != nil {
		var one string
		if json.Unmarshal(cfg.Extends, &one) == nil && one != "" {
			names = []string{one}
		}
	}
	for _, n := range names {
		p, ok := local(n)
		if !ok {
			continue
		}
		if fi, err := os.Stat(p); (err != nil || fi.IsDir()) && !strings.HasSuffix(p, ".json") {
			p += ".json"
		}
		extends = append(extends, p)
	}
	for _, r := range cfg.References { // always a path, relative to the file
		switch {
		case r.Path == "":
		case filepath.IsAbs(r.Path):
			refs = append(refs, filepath.Clean(r.Path))
		default:
			refs = append(refs, filepath.Join(dir, r.Path))
		}
	}
	return extends, refs
}

// nodeModulesDir is the outermost node_modules directory p is in.
func nodeModulesDir(p string) (string, bool) {
	parts := strings.Split(p, string(filepath.Separator))
	for i, part := range parts {
		if part == "node_modules" && i > 0 {
			return strings.Join(parts[:i+1], string(filepath.Separator)), true
		}
	}
	return "", false
}

// realPath is p absolute and symlink-free, "" when it does not exist.
func realPath(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return r
}

// plainJSON strips the comments and trailing commas of JSON with comments
// (tsconfig's dialect), outside strings.
func plainJSON(b []byte) []byte {
	return jsonPass(jsonPass(b, true), false)
}

// jsonPass copies b, strings whole, without its comments (comments) or
// without the commas before a closing bracket (!comments).
func jsonPass(b []byte, comments bool) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(b)-1)
			out = append(out, b[i:j+1]...)
			i = j
		case comments && c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i+1 < len(b) && b[i+1] != '\n' {
				i++
			}
		case comments && c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := strings.Index(string(b[i+2:]), "*/")
			if end < 0 {
				return out
			}
			i += end + 3
			out = append(out, ' ')
		case !comments && c == ',':
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
