package callgraph

import (
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
// static imports (type-only ones erase), re-exports, and dynamic imports
// anywhere in it, in source order. Packages outside the repository are not
// listed.
func (p *Program) RuntimeImports(f *analyzer.File) []Import {
	if v, ok := p.imports.Load(f.Path); ok {
		return v.([]Import)
	}
	out := p.runtimeImports(f, nil)
	p.imports.Store(f.Path, out)
	return out
}

// runtimeImports lists what f imports at run time; skip, when set, leaves
// out the dynamic imports it refuses.
func (p *Program) runtimeImports(f *analyzer.File, skip func(start uint) bool) []Import {
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
	return out
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
	for _, m := range p.RuntimeModules(from) {
		queue = append(queue, step{m, from.Path})
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
			for _, next := range p.RuntimeModules(f) {
				queue = append(queue, step{next, s.module})
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

// ReachFunctions is what a file runs, as far as names and declarations
// decide: the module-level code of every module it loads (and the functions
// it holds: object-literal methods, arrows passed to calls), the functions it
// takes by name from them (a whole module when it takes the namespace or
// does not destructure a dynamic import), every member of a class it takes,
// and, transitively, every function those call (resolved call edges). A
// module stub replaces is not entered; an export it replaces is not taken.
// What only from's vi.mock factories call or import is not run by from.
// It returns the function ids reached and the stubbed modules the walk met.
func (p *Program) ReachFunctions(from *analyzer.File, stub Stub) (fns map[string]bool, stubbed map[string]bool) {
	fns, stubbed = map[string]bool{}, map[string]bool{}
	loaded := map[string]bool{}
	files := map[string]*analyzer.File{}
	module := func(path string) *analyzer.File {
		f, ok := files[path]
		if !ok {
			f, _ = p.Module(path)
			files[path] = f
		}
		return f
	}
	takenAll := map[string]bool{}
	var fnQueue []string
	addFn := func(id string) {
		if !fns[id] {
			fns[id] = true
			fnQueue = append(fnQueue, id)
		}
	}
	isStubbed := func(module, export string) bool {
		if stub == nil {
			return false
		}
		if stub(module, "") {
			stubbed[module] = true
			return true
		}
		return export != "" && stub(module, export)
	}
	// The vi.mock factories of the file are its scaffolding: what only a
	// factory's code calls or imports is not run by the file (SPEC: a
	// function called only inside a vi.mock factory is not tested by it).
	var factories [][2]uint
	for _, m := range from.Mocks {
		if m.FactoryEndByte > m.FactoryStartByte {
			factories = append(factories, [2]uint{m.FactoryStartByte, m.FactoryEndByte})
		}
	}
	inFactory := func(start uint) bool {
		for _, r := range factories {
			if start >= r[0] && start < r[1] {
				return true
			}
		}
		return false
	}
	var load func(f *analyzer.File)
	var take func(module, name string)
	// addClass counts every method of class c (of file) and of its bases in
	// the repository as run: an instance exists (a test imports the class,
	// or code it runs constructs one), and its methods are called through
	// it in ways calls are not followed (a local variable, a factory's
	// result, an interface).
	classes := map[string]bool{}
	var addClass func(file string, c *analyzer.Class, depth int)
	addClass = func(file string, c *analyzer.Class, depth int) {
		if depth > 16 || c.Interface || classes[file+"#"+c.Name] {
			return
		}
		classes[file+"#"+c.Name] = true
		for _, m := range c.Members {
			if m.Function != "" {
				addFn(file + "#" + m.Function)
			}
		}
		for _, ext := range c.Extends {
			if tf, tc, _ := p.resolveType(file, ext); tc != nil {
				if mf := module(tf); mf != nil {
					load(mf)
				}
				addClass(tf, tc, depth+1)
			}
		}
	}
	// edges follows the resolved calls of a list (module-level code, a body).
	edges := func(f *analyzer.File, key string, calls []analyzer.Call) {
		for _, t := range p.callTargets(f, key, calls) {
			if isStubbed(t.module, t.export) {
				continue
			}
			mf := module(t.module)
			if mf != nil {
				load(mf)
			}
			addFn(t.id)
			if cls, ok := strings.CutSuffix(t.id[len(t.module)+1:], ".constructor"); ok && mf != nil {
				if c := classByName(mf, cls); c != nil {
					addClass(mf.Path, c, 0)
				}
			}
		}
	}
	load = func(f *analyzer.File) {
		if loaded[f.Path] {
			return
		}
		loaded[f.Path] = true
		key, calls, imports := f.Path+"#", f.TopCalls, []Import(nil)
		if f == from && len(factories) > 0 {
			key, calls, imports = f.Path+"# outside vi.mock factories", nil, p.runtimeImports(f, inFactory)
			for _, c := range f.TopCalls {
				if !inFactory(c.StartByte) {
					calls = append(calls, c)
				}
			}
		} else {
			imports = p.RuntimeImports(f)
		}
		edges(f, key, calls)
		for _, fn := range f.Functions {
			// The functions of module-level code: their calls are the
			// module's TopCalls, followed above.
			if fn.Parent == nil && (fn.Kind == analyzer.FuncProperty || fn.Kind == analyzer.FuncExpression) {
				fns[f.Path+"#"+fn.Qual] = true
			}
		}
		for _, im := range imports {
			if isStubbed(im.Module, "") {
				continue
			}
			if len(im.Names) == 0 {
				if mf := module(im.Module); mf != nil {
					load(mf)
				}
			}
			for _, n := range im.Names {
				take(im.Module, n)
			}
		}
	}
	take = func(mod, name string) {
		if isStubbed(mod, name) {
			return
		}
		mf := module(mod)
		if mf == nil {
			return
		}
		load(mf)
		if name == "*" {
			if takenAll[mod] {
				return
			}
			takenAll[mod] = true
			for _, ex := range mf.Exports {
				switch {
				case ex.TypeOnly:
				case ex.Kind == analyzer.ExportAll || ex.Kind == analyzer.ExportAllAs:
					if r := p.resolveModule(mod, ex.Specifier); r.file != "" && r.reason == "" {
						take(r.file, "*")
					}
				case ex.Name != "":
					take(mod, ex.Name)
				}
			}
			return
		}
		sym := p.exportOf(mod, name)
		if sym.reason != "" || sym.external != "" || sym.file == "" {
			return
		}
		if sym.namespace {
			take(sym.file, "*")
			return
		}
		df := module(sym.file)
		if df == nil {
			return
		}
		load(df)
		if c := classByName(df, sym.name); c != nil {
			addClass(sym.file, c, 0)
			return
		}
		addFn(sym.file + "#" + sym.name)
	}
	load(from)
	for _, fn := range from.Functions { // a test file's own helpers
		addFn(from.Path + "#" + fn.Qual)
	}
	for len(fnQueue) > 0 {
		id := fnQueue[0]
		fnQueue = fnQueue[1:]
		file, qual, _ := strings.Cut(id, "#")
		f := module(file)
		if f == nil {
			continue
		}
		if fn := p.functionOf(f, qual); fn != nil {
			edges(f, id, fn.Calls)
		}
	}
	return fns, stubbed
}

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
