package callgraph

import (
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// This file resolves calls of members: `this.m()`, `this.dep.m()` through
// declared types, `Class.staticMethod()`, `new Class()`, functions of a
// TypeScript namespace, and the members an object literal takes from the
// namespaces spread into it. What declared types do not decide stays
// unresolved with the reason: no type is ever inferred.

// maxHeritage bounds a walk up `extends` (and ends cycles).
const maxHeritage = 32

// memberOf walks path from a declaration of the repository (sym names a
// top-level declaration of sym.file).
func (p *Program) memberOf(sym symbol, path []string) symbol {
	f, why := p.Module(sym.file)
	if f == nil {
		return unresolved("module %s is not analyzed: %s", sym.file, why)
	}
	name := sym.name
	for i, step := range path {
		last := i == len(path)-1
		qual := name + "." + step
		if c := classByName(f, name); c != nil && !c.Interface {
			fd, ok := p.lookupMember(classType(f.Path, c), step, true, 0)
			switch {
			case !ok:
				return unresolved("class %s#%s has no static member %s", f.Path, name, step)
			case !last:
				sym := p.walkMembers(classType(f.Path, c), path[i:], true, name)
				sym.via = ViaMember
				return sym
			}
			sym := memberSymbol(fd)
			sym.via = ViaMember
			return sym
		}
		// A function of a namespace, or a namespace inside it.
		if fn := functionByQual(f, qual); fn != nil && fn.Kind == analyzer.FuncNamespace {
			if !last {
				return unresolved("%s is a member of the function %s#%s", path[i+1], f.Path, qual)
			}
			return symbol{file: f.Path, name: qual, via: ViaNamespace}
		}
		if hasQualPrefix(f, qual+".") && classByName(f, qual) == nil {
			name = qual
			continue
		}
		if d := declByName(f, name); d != nil && (len(d.Spreads) > 0 || len(d.Keys) > 0) {
			for j, k := range d.Keys {
				if k != step {
					continue
				}
				if v := d.Values[j]; v != "" && !last {
					// `z.iso.date()` with `z = { iso }`: a member of what the name is. (The
					// property itself, `z.iso()`, is the object's, not a declaration.)
					s, _ := p.resolveModuleScope(f, v, path[i+1:])
					if s.reason == "" && !s.namespace {
						if s.via == "" {
							s.via = ViaMember
						}
						return s
					}
					return s
				}
				return unresolved("%s is a property of the object literal %s (%s:%d), not a declaration", step, name, f.Path, d.Line)
			}
			// Later spreads override earlier ones, as at run time.
			for j := len(d.Spreads) - 1; j >= 0; j-- {
				s, _ := p.resolveModuleScope(f, d.Spreads[j], path[i:])
				if s.reason == "" && !s.namespace {
					if s.via == "" {
						s.via = ViaMember
					}
					return s
				}
			}
			return unresolved("%s is not a member of the object literal %s (%s:%d) nor of what it spreads", step, name, f.Path, d.Line)
		}
		if d := declByName(f, name); d != nil && d.Kind == analyzer.DeclVariable && d.Type != "" {
			v, why := p.evalType(tref{file: f.Path, text: d.Type}, 0)
			if why != "" {
				return unresolved("%s#%s has the declared type %s: %s", f.Path, name, short(d.Type), why)
			}
			sym := p.walkMembers(v, path[i:], false, name)
			sym.via, sym.through = ViaMember, name
			return sym
		}
		return unresolved("%s is a member of %s#%s, a value, not a module export", step, f.Path, name)
	}
	return symbol{file: f.Path, name: name, namespace: false}
}

// resolveThis resolves `this.m()` and `this.a.b.m()`: in a class, and where
// `this` has a declared type (a `this: T` parameter, a method of an object
// literal of declared type).
func (p *Program) resolveThis(f *analyzer.File, cl analyzer.Callee) symbol {
	if cl.ThisClass == "" {
		if cl.ThisType != "" {
			t := tref{file: f.Path, text: cl.ThisType}
			if strings.HasPrefix(cl.ThisFrom, "the object literal") {
				t = p.methodsThis(t)
			}
			v, why := p.evalType(t, 0)
			if why != "" {
				return unresolved("this has the declared type %s (from %s): %s", short(cl.ThisType), cl.ThisFrom, why)
			}
			sym := p.walkMembers(v, cl.Path, false, "this")
			sym.through = "this"
			return sym
		}
		return unresolved("this is not a class instance here (the own this of a plain function)")
	}
	c := classByName(f, cl.ThisClass)
	if c == nil {
		return unresolved("class %s not found in %s", cl.ThisClass, f.Path)
	}
	if _, ok := p.lookupMember(classType(f.Path, c), cl.Path[0], cl.ThisStatic, 0); !ok {
		return unresolved("class %s has no member %s (nor a base class of the repository)", cl.ThisClass, cl.Path[0])
	}
	return p.walkMembers(classType(f.Path, c), cl.Path, cl.ThisStatic, "this")
}

// constructorOf turns the class a `new` expression names into its
// constructor (declared by the class or its nearest base of the
// repository). A function called with new stays the function.
func (p *Program) constructorOf(sym symbol) symbol {
	if sym.reason != "" || sym.external != "" || sym.namespace {
		return sym
	}
	f, _ := p.Module(sym.file)
	if f == nil {
		return sym
	}
	c := classByName(f, sym.name)
	if c == nil || c.Interface {
		return sym
	}
	file, _, m, ok := p.findMember(f.Path, c, "constructor", false, 0)
	if !ok || m.Function == "" {
		return unresolved("class %s#%s declares no constructor (nor does a base class of the repository)", sym.file, sym.name)
	}
	return symbol{file: file, name: m.Function, via: ViaMember}
}

// findMember looks a member up in class c of file and then in its bases (the
// interfaces it extends, for an interface). Static members are looked up
// with static set; an interface's members match either way.
func (p *Program) findMember(file string, c *analyzer.Class, name string, static bool, depth int) (string, *analyzer.Class, analyzer.Member, bool) {
	found := -1
	for i, m := range c.Members {
		if m.Name == name && (c.Interface || m.Static == static) && m.Name != "" {
			if found < 0 || m.Function != "" && c.Members[found].Function == "" {
				found = i // an implementation wins over its overload signatures
			}
		}
	}
	if found >= 0 {
		return file, c, c.Members[found], true
	}
	if depth >= maxHeritage {
		return "", nil, analyzer.Member{}, false
	}
	for _, ext := range c.Extends {
		bf, bc, _ := p.resolveType(file, ext)
		if bc == nil {
			continue
		}
		if f2, c2, m, ok := p.findMember(bf, bc, name, static, depth+1); ok {
			return f2, c2, m, true
		}
	}
	return "", nil, analyzer.Member{}, false
}

// resolveType finds the class or interface of the repository a type name
// written in file refers to: a local declaration, an import (type-only
// included), or a member of a namespace import (`ns.Foo`).
func (p *Program) resolveType(file, name string) (string, *analyzer.Class, string) {
	if i := strings.IndexByte(name, '<'); i >= 0 {
		name = strings.TrimSpace(name[:i])
	}
	if strings.ContainsAny(name, "|&[]{}()'\"`=>,? ") {
		return "", nil, "not a class or interface name"
	}
	f, why := p.Module(file)
	if f == nil {
		return "", nil, "module " + file + " is not analyzed: " + why
	}
	parts := strings.Split(name, ".")
	if len(parts) == 1 {
		if c := classByName(f, name); c != nil {
			return f.Path, c, ""
		}
	}
	for _, im := range f.Imports {
		if im.Local != parts[0] || im.Kind == analyzer.ImportSideEffect {
			continue
		}
		mod := p.resolveModule(f.Path, im.Specifier)
		if mod.external != "" {
			return "", nil, "a type of package " + mod.external
		}
		if mod.reason != "" {
			return "", nil, mod.reason
		}
		var sym symbol
		switch {
		case im.Kind == analyzer.ImportNamespace && len(parts) == 2:
			sym = p.exportTypeOf(mod.file, parts[1])
		case (im.Kind == analyzer.ImportNamed || im.Kind == analyzer.ImportDefault) && len(parts) == 1:
			sym = p.exportTypeOf(mod.file, im.Imported)
		default:
			return "", nil, "not a class or interface name"
		}
		if sym.reason != "" {
			return "", nil, sym.reason
		}
		if sym.external != "" {
			return "", nil, "a type of package " + sym.external
		}
		tf, _ := p.Module(sym.file)
		if tf == nil {
			break
		}
		if c := classByName(tf, sym.name); c != nil {
			return tf.Path, c, ""
		}
		return "", nil, sym.file + "#" + sym.name + " is not a class or interface"
	}
	return "", nil, "not a class or interface declared or imported in " + file
}

func classByName(f *analyzer.File, name string) *analyzer.Class {
	for _, c := range f.Classes {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func functionByQual(f *analyzer.File, qual string) *analyzer.Function {
	for _, fn := range f.Functions {
		if fn.Qual == qual {
			return fn
		}
	}
	return nil
}

func hasQualPrefix(f *analyzer.File, prefix string) bool {
	for _, fn := range f.Functions {
		// The functions of module-level code are named after a variable
		// or a property (`util.isInteger.<arrow>`): no namespace.
		if fn.Kind != analyzer.FuncProperty && fn.Kind != analyzer.FuncExpression && strings.HasPrefix(fn.Qual, prefix) {
			return true
		}
	}
	return false
}

func declByName(f *analyzer.File, name string) *analyzer.Decl {
	for i := range f.Decls {
		if f.Decls[i].Name == name {
			return &f.Decls[i]
		}
	}
	return nil
}

// TypeMembers lists the members (properties, fields, methods, inherited ones
// included) of the class or interface of the repository that the type name
// written in file names; ok is false, with why, when the name is not one
// (a type alias, a type of a package, a generic parameter...).
func (p *Program) TypeMembers(file, typeName string) (names []string, ok bool, why string) {
	names, _, ok, why = p.KnownTypeMembers(file, typeName)
	return names, ok, why
}

// KnownTypeMembers is TypeMembers, with complete false when some type it
// extends is not one of the repository (an interface of a package, a
// mapped type): the members listed are then only the known part.
func (p *Program) KnownTypeMembers(file, typeName string) (names []string, complete, ok bool, why string) {
	tf, c, why := p.resolveType(file, typeName)
	if c == nil {
		return nil, false, false, why
	}
	complete = true
	seen := map[string]bool{}
	var walk func(file string, c *analyzer.Class, depth int)
	walk = func(file string, c *analyzer.Class, depth int) {
		for _, m := range c.Members {
			if !m.Static && m.Name != "constructor" && !seen[m.Name] {
				seen[m.Name] = true
				names = append(names, m.Name)
			}
		}
		if depth >= maxHeritage {
			complete = complete && len(c.Extends) == 0
			return
		}
		for _, ext := range c.Extends {
			if bf, bc, _ := p.resolveType(file, ext); bc != nil {
				walk(bf, bc, depth+1)
			} else {
				complete = false
			}
		}
	}
	walk(tf, c, 0)
	return names, complete, true, ""
}

// TypeAlias finds the type alias of the repository that typeName (written in
// file, without type arguments) names: a local declaration, an import or a
// namespace member, as for TypeMembers. It returns the file declaring it and
// the declaration, or nil when typeName is not a type alias of the repository.
func (p *Program) TypeAlias(file, typeName string) (string, *analyzer.TypeAlias) {
	tf, _, a, _ := p.typeDecl(file, typeName)
	if a == nil {
		return "", nil
	}
	return tf, a
}
