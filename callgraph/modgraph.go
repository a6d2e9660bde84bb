package callgraph

import (
	"path"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph/modules"
)

// The module graph: which repository modules a file loads at run time, and
// what loads what. Fixtures (what a fixture stands up), the generator (what a
// callee's module loads) and audit (which tests reach a module, and through
// which vi.mock they do not) all read it here.

// Import is one repository module a file loads at run time, with the names
// it takes from it ("*" the whole module, "default", none for a side effect).
type Import struct {
	Module string
	Names  []string
}

// RuntimeImports lists the repository modules f loads at run time: its
// static imports (type-only ones erase), re-exports, dynamic imports
// anywhere in it, and the modules its import.meta.glob calls match (eager
// or lazy: modules.ViteGlob; the whole module, or the `import` option's
// export), in source order. Packages outside the repository are not
// listed.
func (p *Program) RuntimeImports(f *analyzer.File) []Import {
	if v, ok := p.imports.Load(f.Path); ok {
		return v.([]Import)
	}
	out := p.runtimeImports(f, nil, false)
	p.imports.Store(f.Path, out)
	return out
}

// TakenImports is RuntimeImports with the names f's code reads only: an
// import whose local is never read loads its module and takes no name,
// and a namespace read only as `ns.name` takes those names, not the whole
// module (analyzer's Import.Unused and Import.Members). The function walk
// (ReachFunctions) takes what it names.
func (p *Program) TakenImports(f *analyzer.File) []Import {
	if v, ok := p.taken.Load(f.Path); ok {
		return v.([]Import)
	}
	out := p.runtimeImports(f, nil, true)
	p.taken.Store(f.Path, out)
	return out
}

// runtimeImports lists what f imports at run time; skip, when set, leaves
// out the dynamic imports it refuses; read takes the names f reads only
// (TakenImports).
func (p *Program) runtimeImports(f *analyzer.File, skip func(start uint) bool, read bool) []Import {
	byModule := map[string]int{}
	var out []Import
	add := func(spec, name string) {
		r := p.Resolver().Resolve(f.Path, spec)
		if r.Kind != modules.KindFile {
			return
		}
		i, ok := byModule[r.Path]
		if !ok {
			i = len(out)
			byModule[r.Path] = i
			out = append(out, Import{Module: r.Path})
		}
		if name != "" && !contains(out[i].Names, name) {
			out[i].Names = append(out[i].Names, name)
		}
	}
	for _, im := range f.Imports {
		if im.TypeOnly {
			continue
		}
		if read && im.Unused {
			add(im.Specifier, "") // loaded: its module-level code runs
			continue
		}
		if read && im.Kind == analyzer.ImportNamespace && im.Members != nil {
			for _, m := range im.Members {
				add(im.Specifier, m)
			}
			continue
		}
		switch im.Kind {
		case analyzer.ImportNamed:
			add(im.Specifier, im.Imported)
		case analyzer.ImportDefault:
			add(im.Specifier, "default")
		case analyzer.ImportSideEffect:
			add(im.Specifier, "")
		default:
			add(im.Specifier, "*")
		}
	}
	for _, ex := range f.Exports {
		if ex.Specifier != "" && !ex.TypeOnly {
			add(ex.Specifier, "")
		}
	}
	for _, d := range f.DynamicImports {
		if skip != nil && skip(d.StartByte) {
			continue
		}
		if len(d.Names) == 0 {
			add(d.Specifier, "*")
		}
		for _, n := range d.Names {
			add(d.Specifier, n)
		}
	}
	for _, g := range f.Globs {
		if skip != nil && skip(g.StartByte) {
			continue
		}
		name := g.Import
		if name == "" {
			name = "*"
		}
		for _, m := range p.Resolver().ViteGlob(f.Path, g.Patterns) {
			if _, ok := analyzer.ScriptLangFor(m); ok {
				add("./"+relativeTo(path.Dir(f.Path), m), name)
			}
		}
	}
	return out
}

// relativeTo is repo-relative file m written from directory dir, without
// its leading "./" ("../lib/x.ts").
func relativeTo(dir, m string) string {
	up := ""
	for dir != "." && m != dir && !strings.HasPrefix(m, dir+"/") {
		dir, up = path.Dir(dir), up+"../"
	}
	if dir == "." {
		return up + m
	}
	return up + strings.TrimPrefix(m, dir+"/")
}

// RuntimeModules is RuntimeImports without the names.
func (p *Program) RuntimeModules(f *analyzer.File) []string {
	var out []string
	for _, im := range p.RuntimeImports(f) {
		out = append(out, im.Module)
	}
	return out
}

// Reach walks the module graph from the modules a file loads, breadth first:
// it returns every module reached (sorted), and for each module stop refused
// (stop returns true: it is not entered, as a module replaced by a mock is
// not), the modules that led to it. from is the file the walk starts at.
func (p *Program) Reach(from *analyzer.File, stop func(module string) bool) (reached []string, stopped map[string][]string) {
	seen := map[string]bool{from.Path: true}
	stopped = map[string][]string{}
	type step struct{ module, via string }
	var queue []step
	for _, im := range p.RuntimeImports(from) {
		queue = append(queue, step{im.Module, from.Path})
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if stop != nil && stop(s.module) {
			if !contains(stopped[s.module], s.via) {
				stopped[s.module] = append(stopped[s.module], s.via)
			}
			continue
		}
		if seen[s.module] {
			continue
		}
		seen[s.module] = true
		reached = append(reached, s.module)
		if f, _ := p.Module(s.module); f != nil {
			for _, im := range p.RuntimeImports(f) {
				queue = append(queue, step{im.Module, s.module})
			}
		}
	}
	sort.Strings(reached)
	return reached, stopped
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Stub says what a test replaces: a whole module (export "") or one export
// of a module a partial mock keeps.
type Stub func(module, export string) bool

// ExportedDeclaration follows export name of module (re-exports, barrels)
// to the declaration that defines it: its file and name. ok is false only
// when the module does not export the name at all; a name that leads out of
// the repository or cannot be followed gives ok with an empty file.
func (p *Program) ExportedDeclaration(module, name string) (file, decl string, ok bool) {
	sym := p.exportOf(module, name)
	switch {
	case sym.reason != "" && (strings.Contains(sym.reason, "has no export") || strings.Contains(sym.reason, "has no default export")):
		return "", "", false
	case sym.reason != "" || sym.external != "" || sym.namespace:
		return "", "", true
	}
	return sym.file, sym.name, true
}

// target is a resolved call's target, for the walks over the graph.
type target struct{ id, module, export string }

// callTargets resolves calls (of the function key, or the module-level
// code) once: the walks of every test file share the answers.
func (p *Program) callTargets(f *analyzer.File, key string, calls []analyzer.Call) []target {
	if v, ok := p.targets.Load(key); ok {
		return v.([]target)
	}
	var out []target
	for i := range calls {
		e := p.ResolveCall(f, &calls[i])
		if e.Target == nil {
			continue
		}
		module, _, _ := strings.Cut(*e.Target, "#")
		out = append(out, target{id: *e.Target, module: module, export: e.Export})
	}
	p.targets.Store(key, out)
	return out
}

// functionOf finds the function of f with the id name qual (indexed once
// per file).
func (p *Program) functionOf(f *analyzer.File, qual string) *analyzer.Function {
	v, ok := p.funcIndex.Load(f.Path)
	if !ok {
		idx := make(map[string]*analyzer.Function, len(f.Functions))
		for _, fn := range f.Functions {
			if _, dup := idx[fn.Qual]; !dup {
				idx[fn.Qual] = fn
			}
		}
		v, _ = p.funcIndex.LoadOrStore(f.Path, idx)
	}
	return v.(map[string]*analyzer.Function)[qual]
}
