package callgraph

import (
	"fmt"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph/modules"
)

// symbol is what a name resolves to: a declaration of a module, a module
// namespace object, a package outside the repository, or nothing (with why).
type symbol struct {
	file      string // defining module (declaration or namespace)
	name      string // declaration's id name; "" for a namespace
	export    string // the name the defining module exports it under ("" when reached locally)
	namespace bool   // the module object of file (import * as ns, export * as ns)
	external  string // package name, when the name comes from outside the repository
	reason    string // unresolved: why
	via       Via    // when set, how the call reaches it whatever the path (ViaMember, ViaNamespace)
	iface     string // a member declared by this interface
	declared  string // a class member without a body: "abstract", "field" or "signature"
	through   string // a member reached through a value of declared type: the value's name
}

func unresolved(format string, a ...any) symbol { return symbol{reason: fmt.Sprintf(format, a...)} }

// ResolveCall pins one call of a function of module f to its defining
// declaration. Text, position and Call are left for the caller to fill.
func (p *Program) ResolveCall(f *analyzer.File, c *analyzer.Call) CallEdge {
	var sym symbol
	var via Via
	if c.Callee.Kind == analyzer.CalleeThis {
		sym, via = p.resolveThis(f, c.Callee), ViaMember
	} else if c.Callee.Chain != nil {
		if c.New {
			return CallEdge{Via: ViaUnresolved, Reason: "new of a member reached through a call's result or an element access"}
		}
		sym, via = p.resolveChain(f, c.Callee), ViaMember
	} else {
		sym, via = p.resolveCallee(f, c.Callee)
	}
	if c.New {
		sym = p.constructorOf(sym)
	}
	return edge(sym, via)
}

func edge(sym symbol, via Via) CallEdge {
	if sym.via != "" {
		via = sym.via
	}
	switch {
	case sym.reason != "":
		return CallEdge{Via: ViaUnresolved, Reason: sym.reason}
	case sym.external != "":
		return CallEdge{Via: ViaExternal, Package: sym.external}
	case sym.namespace:
		return CallEdge{Via: ViaUnresolved, Reason: fmt.Sprintf("calls the module namespace of %s, not a function", sym.file)}
	}
	t := sym.file + "#" + sym.name
	return CallEdge{Target: &t, Via: via, Export: sym.export, Interface: sym.iface, Declared: sym.declared, Through: sym.through}
}

func (p *Program) resolveCallee(f *analyzer.File, cl analyzer.Callee) (symbol, Via) {
	switch cl.Kind {
	case analyzer.CalleeDynamicMember:
		mod := p.resolveModule(f.Path, cl.Specifier)
		return p.member(mod, cl.Path), ViaDynamicImport
	case analyzer.CalleeIdent, analyzer.CalleeMember:
	default:
		return unresolved("the callee is not a name (a computed member, a call's result, or super)"), ViaUnresolved
	}
	b := cl.Binding
	switch b.Kind {
	case analyzer.BindLocal:
		if b.Function != "" && len(cl.Path) == 0 {
			return symbol{file: f.Path, name: b.Function}, ViaLocal
		}
		if b.Class != "" {
			sym := symbol{file: f.Path, name: b.Class}
			if len(cl.Path) > 0 {
				return p.memberOf(sym, cl.Path), ViaMember
			}
			return sym, ViaLocal
		}
		if b.Type != "" && len(cl.Path) > 0 {
			v, why := p.evalType(tref{file: f.Path, text: b.Type}, 0)
			if why != "" {
				return unresolved("%s is bound inside the function by %s, of declared type %s: %s", cl.Root, b.Detail, short(b.Type), why), ViaUnresolved
			}
			if b.Narrowed {
				return unresolved("%s is bound inside the function by %s, of declared type %s, and narrowed in this module (by instanceof or a type guard: its type at the call may be another)", cl.Root, b.Detail, short(b.Type)), ViaUnresolved
			}
			if guard, ok := p.thisGuard(v, 0); ok {
				return unresolved("%s is bound inside the function by %s, of declared type %s, whose %s narrows it (a type predicate on this)", cl.Root, b.Detail, short(b.Type), guard), ViaUnresolved
			}
			sym := p.walkMembers(v, cl.Path, false, cl.Root)
			sym.through = cl.Root
			return sym, ViaMember
		}
		where := b.Detail
		if b.Line > 0 {
			where = fmt.Sprintf("%s (line %d)", b.Detail, b.Line)
		}
		return unresolved("%s is bound inside the function by %s", cl.Root, where), ViaUnresolved
	case analyzer.BindDynamicNamed:
		mod := p.resolveModule(f.Path, b.Specifier)
		return p.member(mod, append([]string{b.Imported}, cl.Path...)), ViaDynamicImport
	case analyzer.BindDynamicNamespace:
		mod := p.resolveModule(f.Path, b.Specifier)
		return p.member(mod, cl.Path), ViaDynamicImport
	}
	return p.resolveModuleScope(f, cl.Root, cl.Path)
}

// resolveModuleScope resolves root.path... where root is a name of f's module
// scope: an import or a top-level declaration.
func (p *Program) resolveModuleScope(f *analyzer.File, root string, path []string) (symbol, Via) {
	for _, im := range f.Imports {
		if im.Local != root || im.Kind == analyzer.ImportSideEffect {
			continue
		}
		if im.TypeOnly {
			return unresolved("%s is a type-only import of %q (erased at run time)", root, im.Specifier), ViaUnresolved
		}
		mod := p.resolveModule(f.Path, im.Specifier)
		switch im.Kind {
		case analyzer.ImportNamespace:
			return p.member(mod, path), ViaNamespace
		case analyzer.ImportEquals:
			if len(path) > 0 {
				return p.member(mod, path), ViaNamespace
			}
			return p.member(mod, []string{"default"}), ViaImport
		default: // named, default
			sym := p.member(mod, append([]string{im.Imported}, path...))
			if len(path) > 0 && sym.reason == "" && sym.external == "" {
				return sym, ViaNamespace
			}
			return sym, ViaImport
		}
	}
	isType := false // a type of that name: TypeScript lets a type and a value share a name
	for _, d := range f.Decls {
		if d.Name != root {
			continue
		}
		if d.Kind == analyzer.DeclType {
			isType = true
			continue
		}
		sym := symbol{file: f.Path, name: declName(d)}
		if len(path) > 0 {
			return p.memberOf(sym, path), ViaNamespace
		}
		return sym, ViaLocal
	}
	if isType {
		return unresolved("%s is a type, not a value", root), ViaUnresolved
	}
	return unresolved("%s is not declared or imported in this module (a global?)", root), ViaUnresolved
}

func declName(d analyzer.Decl) string {
	if d.Function != nil {
		return FunctionName(d.Function)
	}
	return d.Name
}

// resolveModule turns a specifier written in importer into a module symbol.
func (p *Program) resolveModule(importer, spec string) symbol {
	r := p.resolver.Resolve(importer, spec)
	switch r.Kind {
	case modules.KindFile:
		return symbol{file: r.Path, namespace: true}
	case modules.KindExternal:
		return symbol{external: r.Package}
	}
	return unresolved("cannot resolve %q: %s", spec, r.Reason)
}

// member walks a property path from a module namespace: each step looks the
// name up among the module's exports.
func (p *Program) member(sym symbol, path []string) symbol {
	for len(path) > 0 {
		name := path[0]
		if sym.reason != "" || sym.external != "" {
			return sym
		}
		if !sym.namespace {
			return p.memberOf(sym, path)
		}
		path = path[1:]
		sym = p.exportOf(sym.file, name)
	}
	return sym
}

// exportOf is export with a fresh cycle guard, memoized: the answer for
// (module, name) depends on nothing else, and barrels make every call of a
// large repository walk the same chains.
func (p *Program) exportOf(file, name string) symbol {
	key := file + "#" + name
	if v, ok := p.exports.Load(key); ok {
		return v.(symbol)
	}
	sym := p.export(file, name, false, map[string]bool{})
	p.exports.Store(key, sym)
	return sym
}

// exportTypeOf is exportOf for a name used as a type: type-only exports and
// imports, interfaces and classes are followed (memoized apart).
func (p *Program) exportTypeOf(file, name string) symbol {
	key := "type:" + file + "#" + name
	if v, ok := p.exports.Load(key); ok {
		return v.(symbol)
	}
	sym := p.export(file, name, true, map[string]bool{})
	p.exports.Store(key, sym)
	return sym
}

// export finds the declaration behind export `name` of module file, following
// re-exports, `export *` and imports re-exported by name. visited ends cycles.
func (p *Program) export(file, name string, types bool, visited map[string]bool) symbol {
	key := file + "#" + name
	if visited[key] {
		return unresolved("export %s of %s is part of a re-export cycle", name, file)
	}
	visited[key] = true
	f, why := p.Module(file)
	if f == nil {
		return unresolved("module %s is not analyzed: %s", file, why)
	}
	typeOnly := false // a type of that name is exported: TypeScript lets a type and a value share a name
	for _, ex := range f.Exports {
		if ex.Name != name || ex.Kind == analyzer.ExportAll {
			continue
		}
		if ex.TypeOnly && !types {
			typeOnly = true
			continue
		}
		switch ex.Kind {
		case analyzer.ExportExpression:
			return symbol{file: file, name: "default", export: "default"}
		case analyzer.ExportFrom:
			return p.reexport(p.resolveModule(file, ex.Specifier), ex.Local, types, visited)
		case analyzer.ExportAllAs:
			return p.resolveModule(file, ex.Specifier)
		case analyzer.ExportLocal:
			sym := p.localBinding(f, ex.Local, types, visited)
			if sym.file == file && !sym.namespace && sym.export == "" {
				sym.export = name
			}
			return sym
		}
	}
	if typeOnly {
		return unresolved("export %s of %s is type-only (erased at run time)", name, file)
	}
	if name == "default" {
		return unresolved("module %s has no default export", file)
	}
	// `export *` never re-exports default; the first module that has the name
	// wins. A name found in no module of the repository may come from a star
	// export of one outside package.
	var external symbol
	externals := 0
	for _, ex := range f.Exports {
		if ex.Kind != analyzer.ExportAll || ex.TypeOnly && !types {
			continue
		}
		mod := p.resolveModule(file, ex.Specifier)
		if mod.external != "" {
			external, externals = mod, externals+1
			continue
		}
		if mod.reason != "" {
			continue
		}
		sym := p.export(mod.file, name, types, visited)
		if sym.reason == "" && sym.external == "" {
			return sym
		}
		if sym.external != "" {
			external, externals = sym, externals+1
		}
	}
	if externals == 1 {
		return external
	}
	return unresolved("module %s has no export %s", file, name)
}

func (p *Program) reexport(mod symbol, name string, types bool, visited map[string]bool) symbol {
	if mod.reason != "" || mod.external != "" {
		return mod
	}
	if name == "*" {
		return mod
	}
	return p.export(mod.file, name, types, visited)
}

// localBinding resolves a name of f's module scope that f exports.
func (p *Program) localBinding(f *analyzer.File, local string, types bool, visited map[string]bool) symbol {
	for _, d := range f.Decls {
		if d.Name == local && (d.Kind != analyzer.DeclType || types && (d.Class != nil || d.Alias != nil)) {
			return symbol{file: f.Path, name: declName(d)}
		}
	}
	for _, im := range f.Imports {
		if im.Local != local || im.Kind == analyzer.ImportSideEffect {
			continue
		}
		if im.TypeOnly && !types {
			return unresolved("%s is a type-only import (erased at run time)", local)
		}
		mod := p.resolveModule(f.Path, im.Specifier)
		switch im.Kind {
		case analyzer.ImportNamespace, analyzer.ImportEquals:
			return mod
		default:
			return p.reexport(mod, im.Imported, types, visited)
		}
	}
	for _, fn := range f.Functions {
		if fn.Kind == analyzer.FuncTop && fn.Name == local {
			return symbol{file: f.Path, name: FunctionName(fn)}
		}
	}
	return unresolved("module %s exports %s, which it does not declare", f.Path, local)
}
