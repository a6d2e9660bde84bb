package analyzer

import "strings"

// This file reads the declared types a member call through a declared type
// needs, from their text (the parser keeps no children of type nodes): type
// parameters, the type of `this`, and the types of fields, parameters and
// variables, including the class of a `new X()` that initializes one.

// SplitTop splits a type written as text at sep where it is not nested in
// brackets, parentheses, braces, angle brackets or a string; the parts are
// trimmed. The `>` of an arrow `=>` closes nothing.
func SplitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'', '`':
			quote = c
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i > 0 && s[i-1] == '=' {
				continue
			}
			depth--
		default:
			if c == sep && depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// topKeyword finds the keyword kw (a whole word) at depth 0 of s, or -1.
func topKeyword(s, kw string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i == 0 || s[i-1] != '=' {
				depth--
			}
		default:
			if depth == 0 && strings.HasPrefix(s[i:], kw) && (i == 0 || !isIdentByte(s[i-1])) &&
				(i+len(kw) == len(s) || !isIdentByte(s[i+len(kw)])) {
				return i
			}
		}
	}
	return -1
}

// ParseTypeParams reads a type parameter list as written: `<T extends A =
// B, const U>`.
func ParseTypeParams(text string) []TypeParam {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "<") || !strings.HasSuffix(t, ">") {
		return nil
	}
	var out []TypeParam
	for _, part := range SplitTop(t[1:len(t)-1], ',') {
		if part == "" {
			continue
		}
		for _, mod := range []string{"const ", "in ", "out "} {
			part = strings.TrimSpace(strings.TrimPrefix(part, mod))
		}
		j := 0
		for j < len(part) && isIdentByte(part[j]) {
			j++
		}
		tp := TypeParam{Name: part[:j]}
		rest := part[j:]
		if eq := SplitTop(rest, '='); len(eq) > 1 {
			rest, tp.Default = eq[0], strings.TrimSpace(strings.Join(eq[1:], "="))
		}
		if k := topKeyword(rest, "extends"); k >= 0 {
			tp.Constraint = strings.TrimSpace(rest[k+len("extends"):])
		}
		if tp.Name != "" {
			out = append(out, tp)
		}
	}
	return out
}

// TypeReference reads a type reference as written, `ns.Name<A, B>`, into
// its dotted name and its type arguments; ok is false for any other type
// (a union, an object type, an array, a function type, a literal...).
func TypeReference(s string) (name string, args []string, ok bool) {
	s = strings.TrimSpace(s)
	j := 0
	for j < len(s) && (isIdentByte(s[j]) || s[j] == '.') {
		j++
	}
	name = s[:j]
	if name == "" || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || name[0] >= '0' && name[0] <= '9' {
		return "", nil, false
	}
	switch name {
	case "typeof", "keyof", "unique", "readonly", "infer", "asserts", "new", "abstract":
		return "", nil, false
	}
	rest := strings.TrimSpace(s[j:])
	if rest == "" {
		return name, nil, true
	}
	if !strings.HasPrefix(rest, "<") || !strings.HasSuffix(rest, ">") || len(SplitTop(rest, '|')) > 1 || len(SplitTop(rest, '&')) > 1 {
		return "", nil, false
	}
	// `<...>` must close at the end (not `A<B>[]`, not `A<B> | C`).
	if parts := SplitTop(rest[1:len(rest)-1], ','); len(parts) > 0 {
		inner := rest[1 : len(rest)-1]
		depth := 0
		for i := 0; i < len(inner); i++ {
			switch inner[i] {
			case '<', '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case '>':
				if i == 0 || inner[i-1] != '=' {
					depth--
				}
			}
			if depth < 0 {
				return "", nil, false
			}
		}
		return name, parts, true
	}
	return name, nil, true
}

// typeParams reads the type parameters of declaration n, if any.
func (x *extraction) typeParams(n int32) []TypeParam {
	if tp := x.child(n, "type_parameters"); tp >= 0 {
		return ParseTypeParams(x.text(tp))
	}
	return nil
}

// declaredType is the type written by the annotation node t (a
// type_annotation or a type), whitespace collapsed. A type parameter of a
// declaration around t is replaced by its constraint ("" without one): what
// the members of a value of that type are.
func (x *extraction) declaredType(t int32) string {
	if t < 0 {
		return ""
	}
	typ := annotation(x.text(t))
	name, args, ok := TypeReference(typ)
	if !ok || args != nil || strings.Contains(name, ".") {
		return typ
	}
	for a := x.nodes[t].parent; a >= 0; a = x.nodes[a].parent {
		for _, tp := range x.typeParams(a) {
			if tp.Name == name {
				return tp.Constraint
			}
		}
	}
	return typ
}

// newType is the type of value node v when it is `new X(...)` (or
// `new ns.X<A>(...)`), X a name of the module scope: "X<A>" with its type
// arguments as written, "new X" (NewPrefix) without; else "".
func (x *extraction) newType(v int32) string {
	for v >= 0 && (x.nodes[v].kind == "parenthesized_expression" || x.nodes[v].kind == "non_null_expression") {
		v = x.firstNamed(v)
	}
	if v < 0 || x.nodes[v].kind != "new_expression" || x.scoping {
		return ""
	}
	c := x.child(v, "constructor")
	if c < 0 {
		return ""
	}
	root := c
	for x.nodes[root].kind == "member_expression" {
		if p := x.child(root, "property"); p < 0 || x.nodes[p].kind != "property_identifier" {
			return ""
		}
		root = x.child(root, "object")
		if root < 0 {
			return ""
		}
	}
	if x.nodes[root].kind != "identifier" || x.boundLocally(x.text(root), root) {
		return "" // a local value (a parameter holding a class): not a declared type
	}
	typ := strings.Join(strings.Fields(x.text(c)), "")
	if ta := x.child(v, "type_arguments"); ta >= 0 {
		return typ + annotation(x.text(ta))
	}
	return NewPrefix + typ
}

// NewPrefix starts a type taken from `new X(...)` without type arguments
// ("new X"): X's type parameters, if it has any, are inferred from the
// constructor's arguments, so what they stand for is not written.
const NewPrefix = "new "

// thisType is the declared type of `this` at node n when it is not a
// class's: the explicit `this: T` parameter of the enclosing function, or
// the declared type of the object literal whose method (or function-valued
// property) encloses n. from says where the type comes from.
func (x *extraction) thisType(n int32) (typ, from string) {
	fn := int32(-1)
	for a := x.nodes[n].parent; a >= 0; a = x.nodes[a].parent {
		k := x.nodes[a].kind
		if k == "arrow_function" {
			continue
		}
		if isFunctionLike(k) {
			fn = a
			break
		}
		if k == "class_body" || k == "program" || k == "class_static_block" {
			return "", ""
		}
	}
	if fn < 0 {
		return "", ""
	}
	if ps := x.child(fn, "parameters"); ps >= 0 {
		for c := x.nodes[ps].first; c >= 0; c = x.nodes[c].next {
			if pat := x.child(c, "pattern"); pat >= 0 && x.nodes[pat].kind == "this" {
				if t := x.child(c, "type"); t >= 0 {
					return x.declaredType(t), "the this parameter"
				}
				return "", ""
			}
		}
	}
	// A method of an object literal, or a function expression that is the
	// value of one of its properties.
	obj := x.nodes[fn].parent
	if obj >= 0 && x.nodes[obj].kind == "pair" && x.nodes[fn].kind != "method_definition" {
		obj = x.nodes[obj].parent
	}
	if obj < 0 || x.nodes[obj].kind != "object" {
		return "", ""
	}
	line := x.line(x.nodes[obj].start)
	where := "the object literal at line " + itoa(line)
	e := obj
	for {
		p := x.nodes[e].parent
		if p < 0 {
			return "", ""
		}
		switch x.nodes[p].kind {
		case "parenthesized_expression":
			e = p
			continue
		case "satisfies_expression":
			if t := x.lastNamed(p); t >= 0 && t != e {
				return x.contextualThis(x.declaredType(t)), where + " (satisfies)"
			}
		case "variable_declarator":
			if x.child(p, "value") == e {
				if t := x.child(p, "type"); t >= 0 {
					return x.contextualThis(x.declaredType(t)), where + " (typed variable)"
				}
			}
		case "return_statement":
			for a := x.nodes[p].parent; a >= 0; a = x.nodes[a].parent {
				if isFunctionLike(x.nodes[a].kind) {
					if t := x.child(a, "return_type"); t >= 0 {
						return x.contextualThis(x.declaredType(t)), where + " (declared return type)"
					}
					break
				}
			}
		case "arrow_function":
			if x.child(p, "body") == e {
				if t := x.child(p, "return_type"); t >= 0 {
					return x.contextualThis(x.declaredType(t)), where + " (declared return type)"
				}
			}
		}
		return "", ""
	}
}

// contextualThis is the type of `this` in the methods of an object literal
// of declared type typ: X when typ is, or is an intersection with,
// ThisType<X>; else typ itself.
func (x *extraction) contextualThis(typ string) string {
	for _, part := range SplitTop(typ, '&') {
		if name, args, ok := TypeReference(part); ok && name == "ThisType" && len(args) == 1 {
			return args[0]
		}
	}
	return typ
}

func (t *tree) lastNamed(i int32) int32 {
	last := int32(-1)
	for c := t.nodes[i].first; c >= 0; c = t.nodes[c].next {
		if t.nodes[c].named && t.nodes[c].kind != "comment" {
			last = c
		}
	}
	return last
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// boundLocally reports whether name is declared in a scope around node from
// (not at module scope). It may run while the functions are still being
// discovered, so it keeps its scopes apart from resolve's (x.names: names
// only, without the functions and types resolve's bindings carry).
func (x *extraction) boundLocally(name string, from int32) bool {
	ctx := x.context()
	x.scoping = true
	defer func() { x.scoping = false }()
	for a := ctx.scope[from]; a >= 0; a = ctx.scope[a] {
		if s, ok := x.scopes[a]; ok {
			if _, ok := s[name]; ok {
				return true
			}
			continue
		}
		s, ok := x.names[a]
		if !ok {
			s = x.scopeOf(a)
			if x.names == nil {
				x.names = map[int32]scope{}
			}
			x.names[a] = s
		}
		if _, ok := s[name]; ok {
			return true
		}
	}
	return false
}

// thisGuard reports whether method m declares a type predicate on this as
// its return type (`this is T`, `asserts this is T`, `asserts this`).
func (x *extraction) thisGuard(m int32) bool {
	t := x.child(m, "return_type")
	if t < 0 {
		return false
	}
	r := annotation(x.text(t))
	return strings.HasPrefix(r, "this is ") || strings.HasPrefix(r, "asserts this")
}

// narrowedIn reports whether name is the left operand of an `instanceof`,
// or an argument of a call in a condition (a user-defined type guard), anywhere
// in the module (narrowing reaches into closures), memoized.
func (x *extraction) narrowedIn(name string, n int32) bool {
	fn := int32(0)
	key := scopeName{fn, name}
	if v, ok := x.narrowed[key]; ok {
		return v
	}
	if x.narrowed == nil {
		x.narrowed = map[scopeName]bool{}
	}
	found := false
	stack := []int32{fn}
	for len(stack) > 0 && !found {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x.nodes[i].kind {
		case "binary_expression":
			if x.hasToken(i, "instanceof") {
				if l := x.unwrap(x.child(i, "left")); l >= 0 && x.nodes[l].kind == "identifier" && x.text(l) == name {
					found = true
				}
			}
		case "call_expression":
			// `if (isSub(x))`, `isSub(x) && ...`: a user-defined type guard may narrow x.
			if a := x.child(i, "arguments"); a >= 0 && x.inCondition(i) {
				for c := x.nodes[a].first; c >= 0; c = x.nodes[c].next {
					if u := x.unwrap(c); u >= 0 && x.nodes[u].kind == "identifier" && x.text(u) == name {
						found = true
					}
				}
			}
		}
		for c := x.nodes[i].first; c >= 0; c = x.nodes[c].next {
			if x.nodes[c].named {
				stack = append(stack, c)
			}
		}
	}
	x.narrowed[key] = found
	return found
}

// inCondition reports whether expression e is (part of) a condition: of an
// if, a loop or a ?:, or an operand of && or ||.
func (x *extraction) inCondition(e int32) bool {
	for p := x.nodes[e].parent; p >= 0; e, p = p, x.nodes[p].parent {
		switch x.nodes[p].kind {
		case "parenthesized_expression", "unary_expression":
			continue
		case "binary_expression":
			if x.hasToken(p, "&&") || x.hasToken(p, "||") {
				return true
			}
			return false
		case "if_statement", "while_statement", "do_statement", "for_statement":
			return true
		case "ternary_expression":
			return x.child(p, "condition") == e
		}
		return false
	}
	return false
}
