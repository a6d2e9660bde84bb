package callgraph

import (
	"fmt"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// This file follows declared types through property chains: `this.a.b.m()`,
// `x.dep.m()` where x is a typed parameter or variable, through classes,
// interfaces, type aliases (of object types too), the type arguments given
// to a generic declaration and the constraints of type parameters. Only
// what is written decides: an inferred type, a union, an intersection, a
// mapped or conditional type stays unresolved with the reason.

// maxTypeDepth bounds the evaluation of one type (and ends cycles).
const maxTypeDepth = 24

// tref is a type as written in a module, with the type parameters in scope
// bound to what they stand for.
type tref struct {
	file string
	text string
	env  map[string]tref
	why  string // set when the type is known not to be declared (a type parameter without a constraint)
	val  *tval  // set when the type is already evaluated (the receiver a polymorphic `this` stands for)
}

// tval is a type resolved to a declaration of the repository: a class or
// interface (with its type parameters bound), or an object type literal.
type tval struct {
	file  string
	class *analyzer.Class
	env   map[string]tref
	obj   string // an object type literal, as written (class == nil)
}

// libWrappers are the standard library's homomorphic mapped types: a member
// of Partial<T> is T's member.
var libWrappers = map[string]bool{"Partial": true, "Readonly": true, "Required": true, "NonNullable": true}

// libPicks are the standard library's mapped types that keep some of T's
// members: a member of Pick<T, K> or Omit<T, K> a program can read is T's.
var libPicks = map[string]bool{"Pick": true, "Omit": true}

func (p *Program) evalType(t tref, depth int) (tval, string) {
	if t.why != "" {
		return tval{}, t.why
	}
	if t.val != nil {
		return *t.val, ""
	}
	if depth > maxTypeDepth {
		return tval{}, "the type nests too deep (or refers to itself)"
	}
	text := strings.TrimSpace(t.text)
	if text == "" {
		return tval{}, "no declared type"
	}
	inferred := strings.HasPrefix(text, analyzer.NewPrefix) // new X(...): X's type arguments are inferred
	text = strings.TrimPrefix(text, analyzer.NewPrefix)
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
		return tval{}, fmt.Sprintf("%s is a union", short(text))
	}
	text = keep[0]
	if len(analyzer.SplitTop(text, '&')) > 1 {
		return tval{}, fmt.Sprintf("%s is an intersection", short(text))
	}
	if strings.HasPrefix(text, "{") && strings.HasSuffix(text, "}") {
		if strings.HasPrefix(strings.TrimSpace(text[1:]), "[") && strings.Contains(text, " in ") {
			return tval{}, fmt.Sprintf("%s is a mapped type", short(text))
		}
		return tval{file: t.file, obj: text, env: t.env}, ""
	}
	name, args, ok := analyzer.TypeReference(text)
	if !ok {
		return tval{}, fmt.Sprintf("%s is not a class, interface or type alias name", short(text))
	}
	if !strings.Contains(name, ".") {
		if b, ok := t.env[name]; ok {
			return p.evalType(b, depth+1)
		}
	}
	file, c, a, why := p.typeDecl(t.file, name)
	if c == nil && a == nil {
		if (libWrappers[name] && len(args) == 1 || libPicks[name] && len(args) == 2) && strings.HasPrefix(why, "not a class") {
			return p.evalType(tref{file: t.file, text: args[0], env: t.env}, depth+1)
		}
		return tval{}, name + ": " + why
	}
	params := []analyzer.TypeParam(nil)
	if c != nil {
		params = c.TypeParams
	} else {
		params = a.TypeParams
	}
	env := bindTypeParams(params, args, t, file)
	if inferred && c != nil {
		for _, tp := range params {
			env[tp.Name] = tref{why: "the type argument " + tp.Name + " of " + name + " is inferred from the arguments of new " + name + "()"}
		}
	}
	if a != nil {
		return p.evalType(tref{file: file, text: a.Type, env: env}, depth+1)
	}
	return tval{file: file, class: c, env: env}, ""
}

// bindTypeParams binds the type parameters of a declaration of declFile to
// the type arguments a reference (written in ref.file) gives, else to their
// defaults, else to their constraints.
func bindTypeParams(params []analyzer.TypeParam, args []string, ref tref, declFile string) map[string]tref {
	if len(params) == 0 {
		return nil
	}
	env := map[string]tref{}
	for i, tp := range params {
		switch {
		case i < len(args):
			env[tp.Name] = tref{file: ref.file, text: args[i], env: ref.env}
		case tp.Default != "":
			env[tp.Name] = tref{file: declFile, text: tp.Default, env: env}
		default:
			env[tp.Name] = constraintRef(tp, declFile, env)
		}
	}
	return env
}

// insideEnv binds the type parameters of a class seen from inside it (the
// type of `this`): each stands for any type meeting its constraint.
func insideEnv(params []analyzer.TypeParam, file string) map[string]tref {
	if len(params) == 0 {
		return nil
	}
	env := map[string]tref{}
	for _, tp := range params {
		env[tp.Name] = constraintRef(tp, file, env)
	}
	return env
}

func constraintRef(tp analyzer.TypeParam, file string, env map[string]tref) tref {
	if tp.Constraint == "" {
		return tref{why: "the type parameter " + tp.Name + " has no constraint"}
	}
	return tref{file: file, text: tp.Constraint, env: env}
}

func short(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// typeDecl finds the class, interface or type alias of the repository a type
// name written in file refers to: a local declaration, an import (type-only
// included), a member of a namespace (`ns.Foo`, `util.Foo`).
func (p *Program) typeDecl(file, name string) (string, *analyzer.Class, *analyzer.TypeAlias, string) {
	f, why := p.Module(file)
	if f == nil {
		return "", nil, nil, "module " + file + " is not analyzed: " + why
	}
	if c := classByName(f, name); c != nil {
		return f.Path, c, nil, ""
	}
	if a := aliasByName(f, name); a != nil {
		return f.Path, nil, a, ""
	}
	parts := strings.Split(name, ".")
	for _, im := range f.Imports {
		if im.Local != parts[0] || im.Kind == analyzer.ImportSideEffect {
			continue
		}
		mod := p.resolveModule(f.Path, im.Specifier)
		if mod.external != "" {
			return "", nil, nil, "a type of package " + mod.external
		}
		if mod.reason != "" {
			return "", nil, nil, mod.reason
		}
		var sym symbol
		rest := parts[1:]
		switch im.Kind {
		case analyzer.ImportNamespace, analyzer.ImportEquals:
			if len(rest) == 0 {
				return "", nil, nil, "a module, not a type"
			}
			sym, rest = p.exportTypeOf(mod.file, rest[0]), rest[1:]
		case analyzer.ImportNamed, analyzer.ImportDefault:
			sym = p.exportTypeOf(mod.file, im.Imported)
		default:
			return "", nil, nil, "not a class or interface name"
		}
		for len(rest) > 0 && sym.namespace && sym.reason == "" && sym.external == "" {
			sym, rest = p.exportTypeOf(sym.file, rest[0]), rest[1:]
		}
		if sym.reason != "" {
			return "", nil, nil, sym.reason
		}
		if sym.external != "" {
			return "", nil, nil, "a type of package " + sym.external
		}
		if sym.namespace {
			return "", nil, nil, "a module, not a type"
		}
		qual := sym.name
		if len(rest) > 0 {
			qual += "." + strings.Join(rest, ".")
		}
		tf, _ := p.Module(sym.file)
		if tf == nil {
			break
		}
		if c := classByName(tf, qual); c != nil {
			return tf.Path, c, nil, ""
		}
		if a := aliasByName(tf, qual); a != nil {
			return tf.Path, nil, a, ""
		}
		return "", nil, nil, sym.file + "#" + qual + " is not a class, interface or type alias"
	}
	return "", nil, nil, "not a class, interface or type alias declared or imported in " + file
}

func aliasByName(f *analyzer.File, name string) *analyzer.TypeAlias {
	for _, a := range f.TypeAliases {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// found is a member found in a type: where it is declared, and the type
// parameters of its owner as bound in this lookup.
type found struct {
	file  string
	owner *analyzer.Class
	m     analyzer.Member
	env   map[string]tref
}

// lookupMember finds member name of the class or interface v, then of its
// bases (their type arguments bound).
func (p *Program) lookupMember(v tval, name string, static bool, depth int) (found, bool) {
	c := v.class
	best := -1
	for i, m := range c.Members {
		if m.Name == name && m.Name != "" && (c.Interface || m.Static == static) {
			if best < 0 || m.Function != "" && c.Members[best].Function == "" {
				best = i
			}
		}
	}
	if best >= 0 {
		return found{file: v.file, owner: c, m: c.Members[best], env: v.env}, true
	}
	if depth >= maxHeritage {
		return found{}, false
	}
	heritage := c.Heritage
	if len(heritage) != len(c.Extends) {
		heritage = c.Extends
	}
	for _, h := range heritage {
		bv, why := p.evalType(tref{file: v.file, text: h, env: v.env}, 0)
		if why != "" || bv.class == nil {
			continue
		}
		if fd, ok := p.lookupMember(bv, name, static, depth+1); ok {
			return fd, true
		}
	}
	return found{}, false
}

// memberSymbol is the declaration a call of member fd pins to: the method
// with a body; for an interface its member signature; for a class member
// without a body (abstract, a field, an overload signature) its declaration.
func memberSymbol(fd found) symbol {
	switch {
	case fd.owner.Interface:
		return symbol{file: fd.file, name: fd.owner.Name + "." + fd.m.Name, iface: fd.owner.Name}
	case fd.m.Function != "":
		return symbol{file: fd.file, name: fd.m.Function}
	}
	sig := "signature"
	switch {
	case fd.m.Abstract:
		sig = "abstract"
	case fd.m.Field:
		sig = "field"
	}
	return symbol{file: fd.file, name: fd.owner.Name + "." + fd.m.Name, declared: sig}
}

// walkMembers walks path from a value of type start (what names it in the
// reasons: "this", "x"). static looks the first step up among static members.
func (p *Program) walkMembers(start tval, path []string, static bool, what string) symbol {
	cur := start
	for i := 0; i < len(path); i++ {
		step := path[i]
		last := i == len(path)-1
		if cur.class == nil {
			mems, ok := objectMembers(cur.obj)
			if v, isIndex := indexSignature(cur.obj); !ok && isIndex {
				mems, ok = map[string]string{step: v}, true
			}
			if !ok {
				return unresolved("%s: the object type %s is not read (an index signature, or members not separated by ; or ,)", what, short(cur.obj))
			}
			m, ok := mems[step]
			switch {
			case !ok:
				return unresolved("%s has no member %s (its object type %s declares none)", what, step, short(cur.obj))
			case last:
				return unresolved("%s.%s is a member of an object type literal (%s), not a declaration the graph names", what, step, short(cur.obj))
			case m == "":
				return unresolved("%s.%s is a method of an object type, not a property", what, step)
			}
			next, why := p.evalType(tref{file: cur.file, text: m, env: cur.env}, 0)
			if why != "" {
				return unresolved("the declared type %s of %s.%s: %s", short(m), what, step, why)
			}
			cur, what = next, what+"."+step
			continue
		}
		fd, ok := p.lookupMember(cur, step, static && i == 0, 0)
		if !ok {
			return unresolved("%s (%s of %s) has no member %s (nor a base of the repository)", what, cur.class.Name, cur.file, step)
		}
		if last {
			return memberSymbol(fd)
		}
		if fd.m.Type == "" && (fd.m.Inferred == nil || !fd.m.Field) {
			if fd.m.Function != "" {
				return unresolved("%s.%s is a method of %s, not a field", what, step, fd.owner.Name)
			}
			return unresolved("%s.%s has no declared type", what, step)
		}
		t, why := p.memberType(fd, cur, 0)
		if why != "" {
			return unresolved("the type of %s.%s: %s", what, step, why)
		}
		next, why := p.evalType(t, 0)
		if why != "" && i+2 < len(path) {
			if rv, ok := p.recordValue(t); ok {
				// this.providers.openai.languageModel() with providers: Record<K, T>
				if next, why = p.evalType(rv, 0); why != "" {
					return unresolved("the type of %s.%s.%s: %s", what, step, path[i+1], why)
				}
				cur, what = next, what+"."+step+"."+path[i+1]
				i++
				continue
			}
		}
		if why != "" {
			if fd.m.Type == "" || strings.HasPrefix(fd.m.Type, analyzer.NewPrefix) {
				return unresolved("the type of %s.%s (inferred from its initializer): %s", what, step, why)
			}
			return unresolved("the declared type %s of %s.%s: %s", short(fd.m.Type), what, step, why)
		}
		cur, what = next, what+"."+step
	}
	return unresolved("%s is not a call of a member", what)
}

// objectMembers reads the members of an object type literal as written:
// property name to declared type ("" for a method). It reports false when
// the type cannot be read member by member (an index signature, members
// not separated by `;` or `,`).
func objectMembers(obj string) (map[string]string, bool) {
	body := strings.TrimSpace(obj)
	body = strings.TrimSpace(body[1 : len(body)-1])
	out := map[string]string{}
	for _, semi := range analyzer.SplitTop(body, ';') {
		for _, part := range analyzer.SplitTop(semi, ',') {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if strings.HasPrefix(part, "readonly ") {
				part = strings.TrimSpace(part[len("readonly "):])
			}
			if strings.HasPrefix(part, "[") || strings.HasPrefix(part, "(") || strings.HasPrefix(part, "new ") || strings.HasPrefix(part, "<") {
				if strings.HasPrefix(part, "[") {
					return nil, false
				}
				continue // call and construct signatures
			}
			j := 0
			for j < len(part) && (isIdent(part[j])) {
				j++
			}
			name := part[:j]
			if name == "" {
				return nil, false
			}
			rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(part[j:]), "?"))
			switch {
			case strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "<"):
				out[name] = ""
			case strings.HasPrefix(rest, ":"):
				typ := strings.TrimSpace(rest[1:])
				if len(analyzer.SplitTop(typ, ':')) > 1 {
					return nil, false // two members run together
				}
				out[name] = typ
			default:
				return nil, false
			}
		}
	}
	return out, true
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// classType is the type of `this` in class c of file (static: the class
// itself; members looked up among static ones).
func classType(file string, c *analyzer.Class) tval {
	return tval{file: file, class: c, env: insideEnv(c.TypeParams, file)}
}

// methodsThis is the type of `this` in the methods of an object literal of
// declared type t. When t is (through aliases and Partial-like wrappers) a
// mapped type whose every function type declares the same `this: X`
// parameter (`{ [K in keyof T]: ... (this: T, ...args: A) => R ... }`),
// the methods' this is X; otherwise it is t itself.
func (p *Program) methodsThis(t tref) tref {
	cur := t
	for depth := 0; depth < maxTypeDepth; depth++ {
		text := strings.TrimSpace(cur.text)
		name, args, ok := analyzer.TypeReference(text)
		if !ok {
			break
		}
		if b, ok := cur.env[name]; ok && !strings.Contains(name, ".") {
			cur = b
			continue
		}
		file, c, a, why := p.typeDecl(cur.file, name)
		switch {
		case a != nil:
			cur = tref{file: file, text: a.Type, env: bindTypeParams(a.TypeParams, args, cur, file)}
			continue
		case c == nil && libWrappers[name] && len(args) == 1 && strings.HasPrefix(why, "not a class"):
			cur = tref{file: cur.file, text: args[0], env: cur.env}
			continue
		}
		return t
	}
	text := strings.TrimSpace(cur.text)
	if !strings.HasPrefix(text, "{") || !strings.HasSuffix(text, "}") {
		return t
	}
	body := strings.TrimSpace(text[1 : len(text)-1])
	if !strings.HasPrefix(body, "[") {
		return t
	}
	end := strings.Index(body, "]")
	if end < 0 || !strings.Contains(body[:end], " in ") {
		return t
	}
	template := strings.TrimSpace(body[end+1:])
	template = strings.TrimPrefix(strings.TrimPrefix(template, "-?"), "?")
	template = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(template), ":"))
	template = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(template, ";"), ","))
	var this string
	for _, b := range conditionalBranches(template, 0) {
		if b == "never" {
			continue
		}
		if !strings.HasPrefix(b, "(this:") {
			return t
		}
		typ := paramType(b[len("(this:"):])
		if this != "" && typ != this {
			return t
		}
		this = typ
	}
	if this == "" {
		return t
	}
	return tref{file: cur.file, text: this, env: cur.env}
}

// paramType is the type at the start of s up to the `,` or `)` that ends a
// parameter (not one nested in brackets).
func paramType(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{', '<':
			depth++
		case ']', '}':
			depth--
		case '>':
			if i == 0 || s[i-1] != '=' {
				depth--
			}
		case ')', ',':
			if depth == 0 {
				return strings.TrimSpace(s[:i])
			}
			if c == ')' {
				depth--
			}
		}
	}
	return strings.TrimSpace(s)
}

// conditionalBranches lists the result types of a conditional type as
// written (`A extends B ? X : Y`, nested in Y too), or the type itself.
func conditionalBranches(t string, depth int) []string {
	t = strings.TrimSpace(t)
	q := analyzer.SplitTop(t, '?')
	if len(q) < 2 || depth > maxTypeDepth || topKeywordIn(q[0], "extends") < 0 {
		return []string{t}
	}
	rest := strings.Join(q[1:], "?")
	parts := analyzer.SplitTop(rest, ':')
	if len(parts) < 2 {
		return []string{t}
	}
	return append([]string{strings.TrimSpace(parts[0])}, conditionalBranches(strings.Join(parts[1:], ":"), depth+1)...)
}

func topKeywordIn(s, kw string) int { return strings.Index(" "+s+" ", " "+kw+" ") }

// thisGuard finds a method of v (or of its bases) declared as a type
// predicate on this: calling it narrows a value of type v, so that the
// checker may see another type there than the declared one.
func (p *Program) thisGuard(v tval, depth int) (string, bool) {
	if v.class == nil || depth >= maxHeritage {
		return "", false
	}
	for _, m := range v.class.Members {
		if m.ThisGuard {
			return v.class.Name + "." + m.Name, true
		}
	}
	heritage := v.class.Heritage
	if len(heritage) != len(v.class.Extends) {
		heritage = v.class.Extends
	}
	for _, h := range heritage {
		if bv, why := p.evalType(tref{file: v.file, text: h, env: v.env}, 0); why == "" {
			if g, ok := p.thisGuard(bv, depth+1); ok {
				return g, true
			}
		}
	}
	return "", false
}
