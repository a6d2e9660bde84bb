package callgraph

import (
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// This file follows a callee through a call's result and element accesses
// (analyzer.Callee.Chain): `this.nullable().optional()` through the
// callee's declared return type (or, without one, the `this`, `new X()` or
// const of a known class every return statement of its body returns),
// `this.#tries[method].insert()` through the element type of an array, a
// Record, a Map (`.get(k)`) or an index signature. Only what is written
// decides: a union, `any`, an overload that the arguments would choose, a
// type parameter the call infers stay unresolved with the reason.

// resolveChain resolves a callee Chain from its root.
func (p *Program) resolveChain(f *analyzer.File, cl analyzer.Callee) symbol {
	v := cl.Chain
	var start tref
	static := false
	what := v.Root
	switch {
	case v.Root == "this":
		switch {
		case cl.ThisClass != "":
			c := classByName(f, cl.ThisClass)
			if c == nil {
				return unresolved("class %s not found in %s", cl.ThisClass, f.Path)
			}
			val := classType(f.Path, c)
			start, static = tref{val: &val}, cl.ThisStatic
		case cl.ThisType != "":
			start = tref{file: f.Path, text: cl.ThisType}
			if strings.HasPrefix(cl.ThisFrom, "the object literal") {
				start = p.methodsThis(start)
			}
		default:
			return unresolved("this is not a class instance here (the own this of a plain function)")
		}
	case v.Root == "":
		start, what = tref{file: f.Path, text: v.Type}, "(… as "+short(v.Type)+")"
		if strings.HasPrefix(v.Type, analyzer.NewPrefix) {
			what = "new " + strings.TrimPrefix(v.Type, analyzer.NewPrefix) + "()"
		}
	default:
		b := v.Binding
		switch b.Kind {
		case analyzer.BindLocal:
			switch {
			case b.Class != "":
				c := classByName(f, b.Class)
				if c == nil {
					return unresolved("class %s not found in %s", b.Class, f.Path)
				}
				val := classType(f.Path, c)
				start, static = tref{val: &val}, true
			case b.Type != "":
				if b.Narrowed {
					return unresolved("%s is bound inside the function by %s, of declared type %s, and narrowed in this module (by instanceof or a type guard: its type at the call may be another)", v.Root, b.Detail, short(b.Type))
				}
				start = tref{file: f.Path, text: b.Type}
				if val, why := p.evalType(start, 0); why == "" {
					if guard, ok := p.thisGuard(val, 0); ok {
						return unresolved("%s is bound inside the function by %s, of declared type %s, whose %s narrows it (a type predicate on this)", v.Root, b.Detail, short(b.Type), guard)
					}
				}
			default:
				return unresolved("%s is bound inside the function by %s", v.Root, b.Detail)
			}
		case analyzer.BindModule:
			sym, _ := p.resolveModuleScope(f, v.Root, nil)
			var df *analyzer.File
			if sym.reason == "" && sym.external == "" && !sym.namespace {
				df, _ = p.Module(sym.file)
			}
			if df != nil {
				if c := classByName(df, sym.name); c != nil && !c.Interface {
					val := classType(df.Path, c)
					start, static = tref{val: &val}, true
					break
				}
				if d := declByName(df, sym.name); d != nil && d.Kind == analyzer.DeclVariable && d.Type != "" {
					start = tref{file: df.Path, text: d.Type}
					break
				}
			}
			// A function's result: `f().m()`, `ns.f().m()`, `z.number().int()`.
			k := 0
			for k < len(v.Steps) && v.Steps[k].Kind == analyzer.StepMember {
				k++
			}
			var names []string
			for _, st := range v.Steps[:k] {
				names = append(names, st.Name)
			}
			fsym, _ := p.resolveModuleScope(f, v.Root, names)
			return p.resolveFromCall(f, cl, fsym)
		default:
			return unresolved("%s is bound by a dynamic import", v.Root)
		}
	}
	return p.finishChain(start, static, v.Steps, f.Path, what)
}

// finishChain walks steps from a value of type start to the member the
// last one names.
func (p *Program) finishChain(start tref, static bool, steps []analyzer.Step, file, what string) symbol {
	n := len(steps)
	cur, what, why := p.chainType(start, static, steps[:n-1], file, what, 0)
	if why != "" {
		return unresolved("%s", why)
	}
	val, why := p.evalType(cur, 0)
	if why != "" {
		if sym, ok := p.intersectionMember(cur, steps[n-1].Name, what); ok {
			return sym
		}
		return unresolved("the type of %s: %s", what, why)
	}
	sym := p.walkMembers(val, []string{steps[n-1].Name}, static && n == 1, what)
	sym.through = what
	return sym
}

// intersectionMember resolves member name of a value of type t when t is
// an intersection (`ProviderV4 & WithVideo`) of which exactly one part
// declares it, every part being a class or interface of the repository
// (one the graph cannot read might declare it too).
func (p *Program) intersectionMember(t tref, name, what string) (symbol, bool) {
	t, _ = p.expandType(t)
	parts := analyzer.SplitTop(strings.TrimSpace(t.text), '&')
	if t.val != nil || len(parts) < 2 {
		return symbol{}, false
	}
	var hit *symbol
	for _, part := range parts {
		v, why := p.evalType(tref{file: t.file, text: part, env: t.env}, 0)
		if why != "" || v.class == nil {
			return symbol{}, false
		}
		fd, ok := p.lookupMember(v, name, false, 0)
		if !ok {
			if _, complete, _, _ := p.KnownTypeMembers(v.file, v.class.Name); !complete {
				return symbol{}, false // a base the graph cannot read may declare it
			}
			continue
		}
		if hit != nil {
			return unresolved("%s.%s is declared by more than one part of the intersection %s", what, name, short(t.text)), true
		}
		sym := memberSymbol(fd)
		hit = &sym
	}
	if hit == nil {
		return symbol{}, false
	}
	hit.through = what
	return *hit, true
}

// resolveFromCall resolves a Chain whose first call is a call of fsym, what
// the root and the member steps before that call name: a function with a
// declared return type (not overloaded), whose type parameters the call's
// explicit type arguments bind (else they are inferred: not followed).
func (p *Program) resolveFromCall(f *analyzer.File, cl analyzer.Callee, fsym symbol) symbol {
	v := cl.Chain
	k := 0
	what := v.Root
	for k < len(v.Steps) && v.Steps[k].Kind == analyzer.StepMember {
		what += "." + v.Steps[k].Name
		k++
	}
	what += "()"
	switch {
	case fsym.reason != "":
		return unresolved("%s: %s", what, fsym.reason)
	case fsym.external != "":
		return unresolved("%s is a function of package %s", what, fsym.external)
	case fsym.namespace:
		return unresolved("%s calls the module namespace of %s, not a function", what, fsym.file)
	case k+1 >= len(v.Steps):
		return unresolved("%s is not a call of a member", what)
	}
	df, _ := p.Module(fsym.file)
	if df == nil {
		return unresolved("module %s is not analyzed", fsym.file)
	}
	fn := functionByQual(df, fsym.name)
	if fn == nil || fn.Kind != analyzer.FuncTop {
		return unresolved("%s: %s#%s is not a function declaration (a value, a member)", what, fsym.file, fsym.name)
	}
	for _, d := range df.Decls {
		if d.Kind == analyzer.DeclFunction && d.Overloaded && d.Name == fn.Name {
			return unresolved("%s: %s#%s is overloaded: the overload the arguments choose is not followed", what, fsym.file, fsym.name)
		}
	}
	if fn.Returns == "" {
		return unresolved("%s: %s#%s declares no return type", what, fsym.file, fsym.name)
	}
	var env map[string]tref
	if len(fn.TypeParams) > 0 {
		env = map[string]tref{}
		args := v.Steps[k].TypeArgs
		for i, tp := range fn.TypeParams {
			if len(args) == len(fn.TypeParams) {
				env[tp.Name] = tref{file: f.Path, text: args[i]}
			} else {
				env[tp.Name] = tref{why: "the type parameter " + tp.Name + " of " + fsym.name + " is inferred at the call"}
			}
		}
	}
	return p.finishChain(tref{file: df.Path, text: fn.Returns, env: env}, false, v.Steps[k+1:], f.Path, what)
}

// chainType evaluates steps from a value of type cur (static: the first
// step is a static member) to the type of the value they give; what names
// the value in the reasons. file is where the steps are written (explicit
// type arguments of a call are read there).
func (p *Program) chainType(cur tref, static bool, steps []analyzer.Step, file, what string, depth int) (tref, string, string) {
	if depth > maxTypeDepth {
		return tref{}, what, "the types of " + what + " refer to each other too deep"
	}
	for i := 0; i < len(steps); i++ {
		st := steps[i]
		switch st.Kind {
		case analyzer.StepIndex:
			elem, ok := p.elementType(cur)
			if !ok {
				return tref{}, what, what + "[…]: the type of " + what + " declares no element type (an array, a Record, an index signature)"
			}
			cur, what = elem, what+"[…]"
			continue
		case analyzer.StepCall:
			return tref{}, what, what + " is called as a value, not as a method of a declared type"
		}
		call := i+1 < len(steps) && steps[i+1].Kind == analyzer.StepCall
		if call && st.Name == "get" {
			if v, ok := p.mapValue(cur); ok {
				cur, what = v, what+".get()"
				i++
				continue
			}
		}
		if !call {
			if v, ok := p.recordValue(cur); ok {
				cur, what = v, what+"."+st.Name
				continue
			}
		}
		val, why := p.evalType(cur, 0)
		if why != "" {
			return tref{}, what, "the type of " + what + ": " + why
		}
		if val.class == nil {
			if call {
				return tref{}, what, what + "." + st.Name + " is a method of an object type literal, whose return type is not followed"
			}
			mems, ok := objectMembers(val.obj)
			if !ok {
				return tref{}, what, what + ": the object type " + short(val.obj) + " is not read"
			}
			m, ok := mems[st.Name]
			if !ok || m == "" {
				return tref{}, what, what + " has no property " + st.Name + " of declared type"
			}
			cur, what = tref{file: val.file, text: m, env: val.env}, what+"."+st.Name
			continue
		}
		fd, ok := p.lookupMember(val, st.Name, static && i == 0, 0)
		if !ok {
			return tref{}, what, what + " (" + val.class.Name + " of " + val.file + ") has no member " + st.Name + " (nor a base of the repository)"
		}
		if call {
			cur, why = p.callResult(val, fd, steps[i+1].TypeArgs, file, depth)
			what += "." + st.Name + "()"
			i++
		} else {
			cur, why = p.memberType(fd, val, depth)
			what += "." + st.Name
		}
		if why != "" {
			return tref{}, what, why
		}
	}
	return cur, what, ""
}

// withThis is env with the polymorphic `this` type bound to recv: what
// `this` means in the declared types of a member read through recv.
func withThis(env map[string]tref, recv tval) map[string]tref {
	out := make(map[string]tref, len(env)+1)
	for k, v := range env {
		out[k] = v
	}
	out["this"] = tref{val: &recv}
	return out
}

// memberType is the type of the value member fd holds, read through a
// value of type recv: its declared type, else what decides it (a field's
// initializer or constructor assignment).
func (p *Program) memberType(fd found, recv tval, depth int) (tref, string) {
	switch {
	case fd.m.Type != "":
		return tref{file: fd.file, text: fd.m.Type, env: withThis(fd.env, recv)}, ""
	case fd.m.Field && fd.m.Inferred != nil:
		return p.inferredType(fd, recv, *fd.m.Inferred, fd.env, depth)
	case fd.m.Function != "":
		return tref{}, fd.owner.Name + "." + fd.m.Name + " is a method of " + fd.owner.Name + ", not a field"
	}
	return tref{}, fd.owner.Name + "." + fd.m.Name + " has no declared type"
}

// inferredType is the type of value v (a member's Inferred) written in
// fd's class, with this of type recv.
func (p *Program) inferredType(fd found, recv tval, v analyzer.Value, env map[string]tref, depth int) (tref, string) {
	if v.Root == "this" {
		t, _, why := p.chainType(tref{val: &recv}, false, v.Steps, fd.file, "this", depth+1)
		return t, why
	}
	return tref{file: fd.file, text: v.Type, env: withThis(env, recv)}, ""
}

// callResult is the type a call of method fd returns, called through a
// value of type recv with the explicit type arguments args (written in
// file): its declared return type (the same for every overload), else
// what its body returns (`this`, `new X()`, a const of a known class).
func (p *Program) callResult(recv tval, fd found, args []string, file string, depth int) (tref, string) {
	name := fd.owner.Name + "." + fd.m.Name
	sig := fd.m
	if fd.m.Field {
		// `static create = (x): T => ...`: the arrow's declared return type.
		df, _ := p.Module(fd.file)
		var fn *analyzer.Function
		if df != nil && fd.m.Function != "" {
			fn = functionByQual(df, fd.m.Function)
		}
		if fn == nil || fn.Returns == "" {
			return tref{}, name + " is a field holding a function without a declared return type: the type of its result is not followed"
		}
		sig = analyzer.Member{Name: fd.m.Name, Returns: fn.Returns, TypeParams: fn.TypeParams}
	}
	var sigs []analyzer.Member
	for _, m := range fd.owner.Members {
		if !fd.m.Field && m.Name == fd.m.Name && !m.Field && (fd.owner.Interface || m.Static == fd.m.Static && m.Function == "") {
			sigs = append(sigs, m)
		}
	}
	if len(sigs) > 0 {
		sig = sigs[0]
	}
	for _, s := range sigs[min(1, len(sigs)):] {
		if s.Returns != sig.Returns || s.Returns == "" {
			return tref{}, name + " is overloaded with different return types: the overload the arguments choose is not followed"
		}
	}
	env := withThis(fd.env, recv)
	for i, tp := range sig.TypeParams {
		if i < len(args) && len(args) == len(sig.TypeParams) {
			env[tp.Name] = tref{file: file, text: args[i]}
		} else {
			env[tp.Name] = tref{why: "the type parameter " + tp.Name + " of " + name + " is inferred at the call"}
		}
	}
	switch {
	case sig.Returns != "":
		return tref{file: fd.file, text: sig.Returns, env: env}, ""
	case sig.Inferred != nil && len(sigs) == 0:
		return p.inferredType(fd, recv, *sig.Inferred, env, depth)
	}
	return tref{}, name + " declares no return type (and its returns are not all this, new X() or a const of a known class)"
}

// expandType follows t through the type parameters bound in its
// environment and the type aliases of the repository, dropping parentheses,
// `readonly` and `| undefined`/`| null`, to the type it stands for (which
// may be a type of the standard library); ok is false for a union.
func (p *Program) expandType(t tref) (tref, bool) {
	for depth := 0; depth < maxTypeDepth && t.val == nil && t.why == ""; depth++ {
		text := strings.TrimSpace(t.text)
		for strings.HasPrefix(text, "(") && strings.HasSuffix(text, ")") && len(analyzer.SplitTop(text[1:len(text)-1], ')')) == 1 {
			text = strings.TrimSpace(text[1 : len(text)-1])
		}
		var keep []string
		for _, part := range analyzer.SplitTop(text, '|') {
			if part != "" && part != "undefined" && part != "null" {
				keep = append(keep, part)
			}
		}
		if len(keep) != 1 {
			return t, false
		}
		text = strings.TrimSpace(strings.TrimPrefix(keep[0], "readonly "))
		if strings.HasPrefix(text, analyzer.NewPrefix) {
			return t, true // a class: no array, Record or Map of the standard library
		}
		t.text = text
		name, args, ok := analyzer.TypeReference(text)
		if !ok {
			return t, true
		}
		if b, ok := t.env[name]; ok && !strings.Contains(name, ".") {
			t = b
			continue
		}
		file, _, a, _ := p.typeDecl(t.file, name)
		if a == nil {
			return t, true
		}
		t = tref{file: file, text: a.Type, env: bindTypeParams(a.TypeParams, args, t, file)}
	}
	return t, t.val == nil && t.why == ""
}

// libType reports whether name, written in file, is the standard library's
// global type of that name (not a declaration or an import of the
// repository or of a package).
func (p *Program) libType(file, name string) bool {
	_, c, a, why := p.typeDecl(file, name)
	return c == nil && a == nil && strings.HasPrefix(why, "not a class, interface or type alias declared or imported")
}

// elementType is the type of an element of a value of type t read with a
// key that is not a literal: T of T[], Array<T>, ReadonlyArray<T>,
// Record<K, T> and of an object type with an index signature [k: K]: T.
func (p *Program) elementType(t tref) (tref, bool) {
	t, ok := p.expandType(t)
	if !ok || t.val != nil {
		return tref{}, false
	}
	text := t.text
	if strings.HasSuffix(text, "[]") {
		return tref{file: t.file, text: text[:len(text)-2], env: t.env}, true
	}
	if name, args, ok := analyzer.TypeReference(text); ok {
		switch {
		case (name == "Array" || name == "ReadonlyArray") && len(args) == 1 && p.libType(t.file, name):
			return tref{file: t.file, text: args[0], env: t.env}, true
		case name == "Record" && len(args) == 2 && p.libType(t.file, name):
			return tref{file: t.file, text: args[1], env: t.env}, true
		}
		return tref{}, false
	}
	if v, ok := indexSignature(text); ok {
		return tref{file: t.file, text: v, env: t.env}, true
	}
	return tref{}, false
}

// recordValue is the type of a property of a value of type t when t is
// a Record<K, T> or an object type whose only member is an index
// signature: T.
func (p *Program) recordValue(t tref) (tref, bool) {
	t, ok := p.expandType(t)
	if !ok || t.val != nil {
		return tref{}, false
	}
	if n, args, ok := analyzer.TypeReference(t.text); ok {
		if n == "Record" && len(args) == 2 && p.libType(t.file, n) {
			return tref{file: t.file, text: args[1], env: t.env}, true
		}
		return tref{}, false
	}
	if v, ok := indexSignature(t.text); ok {
		return tref{file: t.file, text: v, env: t.env}, true
	}
	return tref{}, false
}

// mapValue is V when t is the standard library's Map<K, V>, ReadonlyMap<K,
// V> or WeakMap<K, V>: the type `get(k)` returns (with undefined).
func (p *Program) mapValue(t tref) (tref, bool) {
	t, ok := p.expandType(t)
	if !ok || t.val != nil {
		return tref{}, false
	}
	n, args, ok := analyzer.TypeReference(t.text)
	if !ok || len(args) != 2 || n != "Map" && n != "ReadonlyMap" && n != "WeakMap" || !p.libType(t.file, n) {
		return tref{}, false
	}
	return tref{file: t.file, text: args[1], env: t.env}, true
}

// indexSignature is T when obj is an object type literal whose only
// member is an index signature `[k: string]: T` (or number, symbol).
func indexSignature(obj string) (string, bool) {
	body := strings.TrimSpace(obj)
	if !strings.HasPrefix(body, "{") || !strings.HasSuffix(body, "}") {
		return "", false
	}
	body = strings.TrimSpace(body[1 : len(body)-1])
	var members []string
	for _, semi := range analyzer.SplitTop(body, ';') {
		for _, part := range analyzer.SplitTop(semi, ',') {
			if part = strings.TrimSpace(part); part != "" {
				members = append(members, part)
			}
		}
	}
	if len(members) != 1 {
		return "", false
	}
	m := strings.TrimSpace(strings.TrimPrefix(members[0], "readonly "))
	if !strings.HasPrefix(m, "[") {
		return "", false
	}
	end := strings.Index(m, "]")
	if end < 0 || strings.Contains(m[:end], " in ") {
		return "", false // a mapped type
	}
	key := strings.TrimSpace(m[1:end])
	if _, kt, ok := strings.Cut(key, ":"); !ok || !map[string]bool{"string": true, "number": true, "symbol": true}[strings.TrimSpace(kt)] {
		return "", false
	}
	rest := strings.TrimSpace(m[end+1:])
	if !strings.HasPrefix(rest, ":") {
		return "", false
	}
	return strings.TrimSpace(rest[1:]), true
}
