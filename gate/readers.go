package gate

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/callgraph/modules"
	"github.com/oracle-ts/oracle/internal/change"
)

// A declaration the change deleted that nothing reads has no revert: put
// back, it changes no behaviour (SPEC "oracle gate", the change's own
// code; issue 41). Within its file the head's code decides (the Revert
// operator's, mutate/operators); an exported one may be read by any other
// file of the repository, at the base (the reader the change rewrote with
// it) or at the head (an import the change left behind): readElsewhere
// walks their imports, resolved as the call graph resolves them.

// readElsewhere are those of names (exports of file's base) that another
// file of the repository reads, at the base revision o.Base or at the
// head: a file that mentions the name (git grep, a word) and whose
// imports, re-exports or dynamic imports take it from file, or from a
// module that re-exports file's names (one barrel), or take file's module
// whole (a namespace: any of its names may be read); a code file outside
// the gate's root that mentions it may read it. With no git origin (a list
// of files) every name is read.
func readElsewhere(p *callgraph.Program, o *change.Origin, file string, names []string) map[string]bool {
	read := map[string]bool{}
	for _, n := range names {
		if o == nil {
			read[n] = true
			continue
		}
		for _, rev := range []string{o.Base, ""} {
			if !read[n] && readsIn(p, rev, file, n) {
				read[n] = true
			}
		}
	}
	return read
}

// readsIn reports whether a file other than file, at revision rev ("":
// the working tree), reads name from file's module.
func readsIn(p *callgraph.Program, rev, file, name string) bool {
	root := p.Root()
	args := []string{"grep", "-l", "-w", "-I", "--full-name", "-e", name}
	if name == "default" {
		args = append(args[:len(args)-2], "-e", "import") // a default import names no `default`
	}
	if rev != "" {
		args = append(args, rev)
	} else {
		args = append(args, "--untracked") // --worktree: a new file is the change's too
	}
	out, err := gitOut(root, append(args, "--", ":/")...) // the whole repository, not only the gate's root
	if err != nil {
		return !strings.HasSuffix(err.Error(), "exit status 1: ") // git grep exits 1 when nothing matches; an error reads all
	}
	prefix, _ := gitOut(root, "rev-parse", "--show-prefix") // --full-name paths are the repository's
	dir := strings.TrimSuffix(strings.TrimSpace(string(prefix)), "/")
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		rel := strings.TrimPrefix(line, rev+":")
		if dir != "" {
			if !strings.HasPrefix(rel, dir+"/") {
				if _, ok := analyzer.LangFor(rel); ok {
					return true // a module beyond the root, which its resolution does not see: it may read it
				}
				continue
			}
			rel = strings.TrimPrefix(rel, dir+"/")
		}
		if _, ok := analyzer.LangFor(rel); !ok || rel == file {
			continue
		}
		src := revSource(root, rev, rel)
		if src != nil && takes(p, rev, analyzer.Parse(rel, src), file, name, 1) {
			return true
		}
	}
	return false
}

// revSource is file rel at revision rev ("": the working tree); nil when
// it cannot be read.
func revSource(root, rev, rel string) []byte {
	if rev == "" {
		b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		return b
	}
	b, _ := gitOut(root, "show", rev+":./"+rel)
	return b
}

// takes reports whether f takes name from module file: imports it (or the
// whole module), re-exports it, or imports it from a module that
// re-exports file (barrels: depth more of them followed).
func takes(p *callgraph.Program, rev string, f *analyzer.File, file, name string, depth int) bool {
	from := func(spec string) string { return resolved(p, f.Path, spec) }
	barrel := func(spec string) bool {
		m := from(spec)
		if m == "" || m == file || depth == 0 {
			return false
		}
		src := revSource(p.Root(), rev, m)
		if src == nil {
			return false
		}
		bf := analyzer.Parse(m, src)
		return slices.ContainsFunc(bf.Exports, func(e analyzer.Export) bool {
			return !e.TypeOnly && (e.Kind == analyzer.ExportAll || e.Kind == analyzer.ExportFrom && e.Local == name) && resolved(p, m, e.Specifier) == file
		})
	}
	for _, im := range f.Imports {
		if im.TypeOnly || im.Kind == analyzer.ImportSideEffect {
			continue
		}
		wants := im.Kind != analyzer.ImportNamed && im.Kind != analyzer.ImportDefault || im.Imported == name
		if wants && (from(im.Specifier) == file || barrel(im.Specifier)) {
			return true
		}
	}
	for _, e := range f.Exports {
		if !e.TypeOnly && (e.Kind == analyzer.ExportAll || e.Kind == analyzer.ExportAllAs || e.Kind == analyzer.ExportFrom && e.Local == name) && from(e.Specifier) == file {
			return true
		}
	}
	for _, d := range f.DynamicImports {
		if (len(d.Names) == 0 || slices.Contains(d.Names, name)) && from(d.Specifier) == file {
			return true
		}
	}
	return false
}

// resolved is the repository file spec resolves to from file m, "" when
// it is none (a package, a builtin, nothing).
func resolved(p *callgraph.Program, m, spec string) string {
	r := p.Resolver().Resolve(m, spec)
	if r.Kind != modules.KindFile {
		return ""
	}
	return path.Clean(r.Path)
}
