package modules

import (
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// readWorkspaces maps the names of the repository's workspace packages to
// their directories: the root package.json "workspaces" (an array, or an
// object with "packages") and pnpm-workspace.yaml "packages", glob patterns
// with "*", "**", "?", "{a,b}" alternatives and "!" negations (what npm's
// and pnpm's glob libraries match). The root package itself is included
// (a package may import itself by name). On a duplicate name the first
// directory in sorted order wins, with a Diagnostic.
func (r *Resolver) readWorkspaces() map[string]string {
	var patterns []string
	rootPkg := r.packageJSON(".")
	if ws := rootPkg.get("workspaces"); ws != nil {
		list := ws
		if ws.kind == jObj {
			list = ws.get("packages")
		}
		if list != nil && list.kind == jArr {
			for _, e := range list.arr {
				if s, ok := e.str(); ok {
					patterns = append(patterns, s)
				}
			}
		} else if ws.kind != jNull {
			r.diag("package.json", 1, "\"workspaces\" is neither an array nor an object with a \"packages\" array")
		}
	}
	for _, name := range []string{"pnpm-workspace.yaml", "pnpm-workspace.yml"} {
		if r.stat(name) != kindFile {
			continue
		}
		src := r.readConfig(name)
		if src == nil {
			continue
		}
		var doc struct {
			Packages []string `yaml:"packages"`
		}
		if err := yaml.Unmarshal(src, &doc); err != nil {
			r.diag(name, yamlLine(err), "invalid YAML: %v", err)
			continue
		}
		patterns = append(patterns, doc.Packages...)
	}
	var include, exclude []string
	for _, p := range patterns {
		if neg, ok := strings.CutPrefix(p, "!"); ok {
			exclude = append(exclude, expandBraces(neg)...)
		} else {
			include = append(include, expandBraces(p)...)
		}
	}
	dirSet := map[string]bool{}
	for _, p := range include {
		for _, d := range expandDirGlob(r.root, p) {
			dirSet[d] = true
		}
	}
	dirs := make([]string, 0, len(dirSet))
	for d := range dirSet {
		excluded := false
		for _, x := range exclude {
			if matchGlob(splitGlob(x), splitGlob(d)) {
				excluded = true
				break
			}
		}
		if !excluded {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	out := map[string]string{}
	for _, d := range dirs {
		name, ok := r.packageJSON(d).get("name").str()
		if !ok || name == "" {
			continue
		}
		if prev, dup := out[name]; dup {
			r.diag(path.Join(d, "package.json"), 1, "workspace package name %q is also used by %s; that one is used", name, prev)
			continue
		}
		out[name] = d
	}
	if name, ok := rootPkg.get("name").str(); ok && name != "" {
		if _, dup := out[name]; !dup {
			out[name] = "."
		}
	}
	return out
}

var yamlLineRe = regexp.MustCompile(`line (\d+)`)

func yamlLine(err error) int {
	if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
		if n, e := strconv.Atoi(m[1]); e == nil {
			return n
		}
	}
	return 1
}
