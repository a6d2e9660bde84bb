package analyzer

import (
	"sort"
	"strconv"
	"strings"
)

// This file finds the functions below the top level: named functions nested
// in function bodies, functions of namespaces, and class members with a body
// (methods, accessors, constructors, fields holding a function); and the
// classes and interfaces a member call through a declared type needs.
//
// A name path is built from the enclosing named declarations: functions,
// classes (their own name, or the variable a class expression is bound to,
// or "default"), namespaces. Anonymous functions (callbacks) add nothing to
// the path and are no graph functions: their calls belong to the enclosing
// named function.

type frame struct {
	node   int32
	prefix string    // the name path of the enclosing named declarations; "" at module level
	parent *Function // the nearest enclosing graph function
	ns     bool      // directly inside a namespace body (no function in between)
	// expr is set in module-level code (the module's or a namespace's
	// statements, outside any function and class body): there every
	// function expression, arrow and object-literal method is a graph
	// function of its own, named from bind.
	expr bool
	bind string // the name path that binds the expression being visited ("" when nothing names it)
}

// discover records every function below the top level and every class and
// interface, then orders File.Functions by position.
func (x *extraction) discover() {
	if len(x.nodes) == 0 {
		return
	}
	x.fnOf = map[int32]*Function{}
	x.classOf = map[int32]string{}
	x.bindName = map[int32]string{}
	for _, fi := range x.funcs {
		x.fnOf[fi.node] = fi.fn
	}
	seen := map[string]int{}
	for _, fn := range x.file.Functions {
		seen[fn.Qual]++
	}
	stack := []frame{{node: 0, expr: true}}
	push := func(n int32, f frame) {
		start := len(stack)
		for c := x.nodes[n].first; c >= 0; c = x.nodes[c].next {
			if x.nodes[c].named || x.nodes[c].first >= 0 {
				f.node = c
				stack = append(stack, f)
			}
		}
		for a, b := start, len(stack)-1; a < b; a, b = a+1, b-1 {
			stack[a], stack[b] = stack[b], stack[a]
		}
	}
	newFn := func(qual, name string, kind FuncKind, n, declStart int32, parent *Function) *Function {
		seen[qual]++
		if k := seen[qual]; k > 1 {
			qual += "~" + strconv.Itoa(k)
		}
		line, col := x.pos(x.nodes[declStart].start)
		fn := &Function{Name: name, Qual: qual, Kind: kind, Parent: parent,
			Async: x.hasToken(n, "async"), Line: line, Column: col,
			StartByte: uint(x.nodes[declStart].start), EndByte: uint(x.nodes[n].end)}
		if b := x.child(n, "body"); b >= 0 {
			fn.BodyStartByte, fn.BodyEndByte = uint(x.nodes[b].start), uint(x.nodes[b].end)
		}
		fn.Params = x.params(n)
		x.file.Functions = append(x.file.Functions, fn)
		x.funcs = append(x.funcs, fnInfo{fn: fn, node: n})
		x.fnOf[n] = fn
		return fn
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := f.node
		if fn := x.fnOf[n]; fn != nil {
			if fn.Parent == nil && fn.Kind != FuncTop {
				fn.Parent = f.parent
			}
			push(n, frame{prefix: fn.Qual, parent: fn})
			continue
		}
		if f.expr && x.moduleLevel(n, &f, push, newFn) {
			continue
		}
		switch k := x.nodes[n].kind; k {
		case "function_declaration", "generator_function_declaration":
			name := x.child(n, "name")
			if f.prefix != "" && name >= 0 && x.child(n, "body") >= 0 {
				kind := FuncNested
				if f.ns {
					kind = FuncNamespace
				}
				newFn(f.prefix+"."+x.text(name), x.text(name), kind, n, x.exportStart(n), f.parent)
				stack = append(stack, f) // visit it again as a function
				continue
			}
		case "variable_declarator":
			name, v := x.child(n, "name"), x.unwrap(x.child(n, "value"))
			if name >= 0 && v >= 0 && x.nodes[name].kind == "identifier" {
				switch x.nodes[v].kind {
				case "arrow_function", "function_expression", "generator_function", "function":
					if f.prefix != "" && x.fnOf[v] == nil {
						kind := FuncNested
						if f.ns {
							kind = FuncNamespace
						}
						decl := x.exportStart(x.nodes[n].parent)
						newFn(f.prefix+"."+x.text(name), x.text(name), kind, v, decl, f.parent)
					}
				case "class":
					x.bindName[v] = x.text(name)
				}
			}
		case "class_declaration", "abstract_class_declaration", "class":
			if qual := x.className(n, f.prefix); qual != "" {
				x.class(n, qual, f.parent, newFn)
				push(n, frame{prefix: qual, parent: f.parent})
				continue
			}
		case "interface_declaration":
			if name := x.child(n, "name"); name >= 0 {
				x.iface(n, join(f.prefix, x.text(name)))
			}
			continue
		case "type_alias_declaration":
			if name, v := x.child(n, "name"), x.child(n, "value"); name >= 0 && v >= 0 {
				x.file.TypeAliases = append(x.file.TypeAliases, &TypeAlias{Name: join(f.prefix, x.text(name)),
					TypeParams: x.typeParams(n), Type: annotation(x.text(v)), Line: x.line(x.nodes[n].start)})
			}
			continue
		case "internal_module", "module":
			if name := x.child(n, "name"); name >= 0 && x.nodes[name].kind != "string" {
				qual := join(f.prefix, strings.Join(strings.Fields(x.text(name)), ""))
				push(n, frame{prefix: qual, parent: f.parent, ns: f.parent == nil, expr: f.parent == nil, bind: qual})
				continue
			}
		}
		if isFunctionLike(x.nodes[n].kind) {
			f.ns = false
		}
		push(n, f)
	}
	sort.SliceStable(x.file.Functions, func(i, j int) bool {
		return x.file.Functions[i].StartByte < x.file.Functions[j].StartByte
	})
	// Members of an exported top-level class are exported.
	exported := map[string]bool{}
	for _, ex := range x.file.Exports {
		if ex.Kind == ExportLocal && !ex.TypeOnly {
			exported[ex.Local] = true
		}
	}
	for _, fn := range x.file.Functions {
		if fn.Class != "" && !strings.Contains(fn.Class, ".") {
			fn.Exported = exported[fn.Class] || fn.Class == "default"
		}
		if (fn.Kind == FuncProperty || fn.Kind == FuncExpression) && fn.Parent == nil {
			// Module-level code: exported when what binds it is.
			root, _, _ := strings.Cut(fn.Qual, ".")
			fn.Exported = exported[root] || root == "default"
		}
	}
	for i := range x.file.Decls {
		d := &x.file.Decls[i]
		if d.Kind != DeclClass && d.Kind != DeclVariable && d.Kind != DeclType {
			continue
		}
		for _, c := range x.file.Classes {
			if c.Name == d.Name && (d.Kind == DeclType) == c.Interface {
				d.Class = c
			}
		}
		if d.Kind == DeclType && d.Class == nil {
			for _, a := range x.file.TypeAliases {
				if a.Name == d.Name {
					d.Alias = a
				}
			}
		}
	}
}

// exportStart is the `export` statement around declaration n (in a
// namespace), else n: a function's line is its statement's.
func (x *extraction) exportStart(n int32) int32 {
	if p := x.nodes[n].parent; p >= 0 && x.nodes[p].kind == "export_statement" {
		return p
	}
	return n
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// className is the name path of class node n: its own name, the variable a
// class expression is bound to, or "default" for `export default class {}`;
// "" for an anonymous class (an argument, a returned value).
func (x *extraction) className(n int32, prefix string) string {
	if name := x.child(n, "name"); name >= 0 {
		return join(prefix, x.text(name))
	}
	if b, ok := x.bindName[n]; ok {
		return join(prefix, b)
	}
	if p := x.nodes[n].parent; p >= 0 && x.nodes[p].kind == "export_statement" && x.hasToken(p, "default") && prefix == "" {
		return "default"
	}
	return ""
}

// class records class node n named qual: its heritage and members, and a
// graph function for every member with a body.
func (x *extraction) class(n int32, qual string, parent *Function,
	newFn func(qual, name string, kind FuncKind, n, declStart int32, parent *Function) *Function) {
	c := &Class{Name: qual, Line: x.line(x.nodes[n].start), TypeParams: x.typeParams(n)}
	x.classOf[n] = qual
	if h := x.childKind(n, "class_heritage"); h >= 0 {
		if ext := x.childKind(h, "extends_clause"); ext >= 0 {
			if v := x.child(ext, "value"); v >= 0 {
				c.Extends = []string{x.typeName(x.text(v))}
				full := strings.Join(strings.Fields(x.text(v)), "")
				if ta := x.child(ext, "type_arguments"); ta >= 0 {
					full += annotation(x.text(ta))
				}
				c.Heritage = []string{full}
			}
		}
	}
	body := x.child(n, "body")
	if body < 0 {
		x.file.Classes = append(x.file.Classes, c)
		return
	}
	declStart := int32(-1) // the first decorator before the member, if any
	var inits [][2]int32   // the instance fields with an initializer that is not a function: their node and start
	for m := x.nodes[body].first; m >= 0; m = x.nodes[m].next {
		start := m
		if declStart >= 0 {
			start = declStart
		}
		switch x.nodes[m].kind {
		case "decorator":
			if declStart < 0 {
				declStart = m
			}
			continue
		case "method_definition":
			name, ok := x.memberName(x.child(m, "name"))
			if !ok {
				break
			}
			static := x.hasToken(m, "static")
			kind, fname := FuncMethod, name
			switch {
			case name == "constructor" && !static:
				kind = FuncConstructor
			case x.hasToken(m, "get"):
				kind = FuncGetter
			case x.hasToken(m, "set"):
				kind, fname = FuncSetter, name+"="
			}
			mem := Member{Name: name, Static: static, Line: x.line(x.nodes[m].start), Abstract: x.hasToken(m, "abstract"),
				ThisGuard: x.thisGuard(m)}
			if kind == FuncGetter {
				if t := x.child(m, "return_type"); t >= 0 {
					mem.Type = annotation(x.text(t))
				}
			}
			if kind == FuncMethod {
				x.signature(m, &mem)
			}
			if x.child(m, "body") >= 0 {
				fn := newFn(qual+"."+fname, name, kind, m, start, parent)
				fn.Class, fn.Static = qual, static
				mem.Function = fn.Qual
			}
			if kind == FuncConstructor {
				c.Members = append(c.Members, x.parameterProperties(m)...)
			}
			if kind == FuncMethod && mem.Returns == "" && mem.Function != "" {
				x.pending = append(x.pending, pendingMember{class: c, index: len(c.Members), node: m, body: body})
			}
			c.Members = append(c.Members, mem)
		case "public_field_definition":
			name, ok := x.memberName(x.child(m, "name"))
			if !ok {
				break
			}
			mem := Member{Name: name, Static: x.hasToken(m, "static"), Line: x.line(x.nodes[m].start),
				Field: true, Abstract: x.hasToken(m, "abstract")}
			if t := x.child(m, "type"); t >= 0 {
				mem.Type = annotation(x.text(t))
			} else {
				mem.Type = x.newType(x.child(m, "value"))
			}
			if mem.Type == "" && x.child(m, "type") < 0 && !mem.Static {
				x.pending = append(x.pending, pendingMember{class: c, index: len(c.Members), node: x.child(m, "value"), body: body})
			}
			if v := x.unwrap(x.child(m, "value")); v >= 0 {
				switch x.nodes[v].kind {
				case "arrow_function", "function_expression", "generator_function", "function":
					fn := newFn(qual+"."+name, name, FuncField, v, start, parent)
					fn.Class, fn.Static = qual, mem.Static
					mem.Function = fn.Qual
				default:
					if !mem.Static {
						inits = append(inits, [2]int32{m, start})
					}
				}
			}
			c.Members = append(c.Members, mem)
		case "class_static_block":
			fn := newFn(qual+".<static>", "<static>", FuncStatic, m, start, parent)
			fn.Class, fn.Static = qual, true
		case "abstract_method_signature", "method_signature":
			if name, ok := x.memberName(x.child(m, "name")); ok {
				mem := Member{Name: name, Static: x.hasToken(m, "static"), Line: x.line(x.nodes[m].start),
					Abstract: x.nodes[m].kind == "abstract_method_signature", ThisGuard: x.thisGuard(m)}
				x.signature(m, &mem)
				c.Members = append(c.Members, mem)
			}
		}
		declStart = -1
	}
	if len(inits) > 0 {
		x.fieldsFunction(qual, inits, parent, newFn)
	}
	x.file.Classes = append(x.file.Classes, c)
}

// signature records a method's declared return type and type parameters.
func (x *extraction) signature(m int32, mem *Member) {
	if t := x.child(m, "return_type"); t >= 0 {
		mem.Returns = annotation(x.text(t))
	}
	mem.TypeParams = x.typeParams(m)
}

// fieldsFunction adds Class.<fields>, the instance field initializers of
// the class qual (inits: each field's node and start), which run when the
// class is constructed: its code is the fields' (StartByte to EndByte: from
// the first to the last, the members between them not its own), its body
// the first initializer a marker can wrap (an expression that does not
// start with `{`; none: no body), and the calls of every initializer are
// its calls.
func (x *extraction) fieldsFunction(qual string, inits [][2]int32, parent *Function, newFn func(qual, name string, kind FuncKind, n, declStart int32, parent *Function) *Function) {
	first, last := inits[0][0], inits[len(inits)-1][0]
	fn := newFn(qual+".<fields>", "<fields>", FuncFields, first, inits[0][1], parent)
	fn.Class = qual
	fn.EndByte = uint(x.nodes[last].end)
	fn.BodyStartByte, fn.BodyEndByte = 0, 0
	for _, in := range inits {
		v := x.child(in[0], "value")
		if fn.BodyEndByte == 0 && x.src[x.nodes[v].start] != '{' {
			fn.BodyStartByte, fn.BodyEndByte = uint(x.nodes[v].start), uint(x.nodes[v].end)
		}
		x.fnOf[in[0]] = fn
	}
}

// parameterProperties lists the constructor parameters that declare fields:
// `constructor(private readonly repo: Repo)`.
func (x *extraction) parameterProperties(ctor int32) []Member {
	ps := x.child(ctor, "parameters")
	if ps < 0 {
		return nil
	}
	var out []Member
	for p := x.nodes[ps].first; p >= 0; p = x.nodes[p].next {
		k := x.nodes[p].kind
		if k != "required_parameter" && k != "optional_parameter" {
			continue
		}
		if x.childKind(p, "accessibility_modifier") < 0 && !x.hasToken(p, "readonly") && x.childKind(p, "override_modifier") < 0 {
			continue
		}
		pat := x.child(p, "pattern")
		if pat < 0 || x.nodes[pat].kind != "identifier" {
			continue
		}
		m := Member{Name: x.text(pat), Line: x.line(x.nodes[p].start), Field: true}
		if t := x.child(p, "type"); t >= 0 {
			m.Type = annotation(x.text(t))
		} else {
			m.Type = x.newType(x.child(p, "value"))
		}
		out = append(out, m)
	}
	return out
}

// iface records an interface declaration and its member signatures.
func (x *extraction) iface(n int32, qual string) {
	c := &Class{Name: qual, Interface: true, Line: x.line(x.nodes[n].start), TypeParams: x.typeParams(n)}
	for h := x.nodes[n].first; h >= 0; h = x.nodes[h].next {
		if x.nodes[h].kind != "extends_type_clause" {
			continue
		}
		for _, t := range x.namedChildren(h) {
			c.Extends = append(c.Extends, x.typeName(x.text(t)))
			c.Heritage = append(c.Heritage, strings.Join(strings.Fields(x.text(t)), " "))
		}
	}
	if body := x.child(n, "body"); body >= 0 {
		for m := x.nodes[body].first; m >= 0; m = x.nodes[m].next {
			switch x.nodes[m].kind {
			case "method_signature", "property_signature":
				name, ok := x.memberName(x.child(m, "name"))
				if !ok {
					continue
				}
				mem := Member{Name: name, Line: x.line(x.nodes[m].start), Field: x.nodes[m].kind == "property_signature", ThisGuard: x.thisGuard(m)}
				if t := x.child(m, "type"); t >= 0 {
					mem.Type = annotation(x.text(t))
				}
				if !mem.Field {
					x.signature(m, &mem)
				}
				c.Members = append(c.Members, mem)
			}
		}
	}
	x.file.Classes = append(x.file.Classes, c)
}

// memberName is the name of a class or interface member: an identifier,
// `#private`, a string or a number; computed names (`[Symbol.iterator]`)
// are their source text.
func (x *extraction) memberName(n int32) (string, bool) {
	if n < 0 {
		return "", false
	}
	switch x.nodes[n].kind {
	case "string":
		return x.stringValue(n)
	}
	s := x.text(n)
	return s, s != ""
}

// annotation is the type of a `: T` annotation as written, trimmed and
// made one line (typeText).
func annotation(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, ":")
	return typeText(s)
}

// typeName drops type arguments and whitespace from a heritage or type
// reference: `Base<T>` is "Base", `ns . Base` is "ns.Base".
func (x *extraction) typeName(s string) string {
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), "")
}

// thisClass is the class `this` refers to at node n: the class of the
// enclosing method, accessor, constructor, field or static block, seen
// through arrow functions. ok is false when `this` belongs to a plain
// function (or to the module).
func (x *extraction) thisClass(n int32) (qual string, static bool, ok bool) {
	for a := x.nodes[n].parent; a >= 0; a = x.nodes[a].parent {
		switch x.nodes[a].kind {
		case "arrow_function":
			continue
		case "method_definition", "public_field_definition", "class_static_block":
			body := x.nodes[a].parent
			if body < 0 || x.nodes[body].kind != "class_body" {
				return "", false, false // an object literal's method
			}
			qual, ok := x.classOf[x.nodes[body].parent]
			static := x.nodes[a].kind == "class_static_block" || x.hasToken(a, "static")
			return qual, static, ok
		case "function_declaration", "generator_function_declaration", "function_expression",
			"generator_function", "function", "class_body", "program":
			return "", false, false
		}
	}
	return "", false, false
}

// ObjectTypeProperties lists the property names an object type literal
// written as text declares at its top level (`{ skip?: boolean; readonly
// n: number; m(): void }`), and reports false when typ is not one (a type
// name, a union with something else than undefined or null, an
// intersection...). Index signatures make it unreadable (any name fits).
func ObjectTypeProperties(typ string) ([]string, bool) {
	t := strings.TrimSpace(typ)
	for _, suffix := range []string{"| undefined", "| null"} {
		t = strings.TrimSpace(strings.TrimSuffix(t, suffix))
	}
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") {
		return nil, false
	}
	body := t[1 : len(t)-1]
	var names []string
	depth := 0
	start := true // at the start of a member
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch c {
		case '"', '\'', '`': // a literal type: its text is no member
			i += len(typeToken(body[i:])) - 1
			start = false
			continue
		case '{', '(', '[', '<':
			if depth == 0 && start && c == '[' {
				return nil, false // an index signature: any key fits
			}
			depth++
			start = false
			continue
		case '}', ')', ']', '>':
			if c == '>' && i > 0 && body[i-1] == '=' {
				continue // the arrow of a function type
			}
			depth--
			continue
		case ';', ',', '\n':
			if depth == 0 {
				start = true
			}
			continue
		case ' ', '\t', '\r':
			continue
		}
		if depth != 0 || !start {
			continue
		}
		j := i
		for j < len(body) && isIdentByte(body[j]) {
			j++
		}
		if j == i {
			start = false
			continue
		}
		name := body[i:j]
		k := j
		for k < len(body) && body[k] == ' ' {
			k++
		}
		if name == "readonly" && k < len(body) && isIdentByte(body[k]) {
			i = k - 1
			continue
		}
		names = append(names, name)
		start = false
		i = j - 1
	}
	return names, true
}

// moduleLevel handles node n of module-level code (f.expr): it names the
// expressions below a binding (a variable, `export default`, an assignment,
// an object literal's property, the callee of a call nothing binds), and
// records every function expression, arrow and object-literal method that
// no other rule records as a graph function of its own (FuncProperty,
// FuncExpression). It reports whether it pushed n's children itself.
func (x *extraction) moduleLevel(n int32, f *frame, push func(int32, frame),
	newFn func(qual, name string, kind FuncKind, n, declStart int32, parent *Function) *Function) bool {
	g := *f
	switch k := x.nodes[n].kind; k {
	case "variable_declarator":
		name, v := x.child(n, "name"), x.unwrap(x.child(n, "value"))
		if name < 0 || x.nodes[name].kind != "identifier" || v >= 0 && (isFunctionLike(x.nodes[v].kind) || x.nodes[v].kind == "class") {
			return false
		}
		g.bind = join(f.prefix, x.text(name))
	case "export_statement":
		if x.child(n, "value") < 0 || !x.hasToken(n, "default") || f.prefix != "" {
			return false
		}
		g.bind = "default"
	case "assignment_expression":
		name := x.chainName(x.child(n, "left"))
		if name == "" {
			return false
		}
		g.bind = join(f.prefix, name)
	case "call_expression", "new_expression":
		field := "function"
		if k == "new_expression" {
			field = "constructor"
		}
		if root, _, _ := strings.Cut(x.chainName(x.child(n, field)), "."); k == "call_expression" && x.testAPI(root) {
			// describe/it/test/hooks: the test's code, as before, no functions.
			push(n, frame{prefix: f.prefix, parent: f.parent})
			return true
		}
		if f.bind != "" {
			return false
		}
		if name := x.chainName(x.child(n, field)); name != "" {
			g.bind = join(f.prefix, name)
		}
	case "pair":
		key, ok := x.propertyName(x.child(n, "key"))
		if !ok {
			return false
		}
		g.bind = join(f.bind, key)
		if v := x.unwrap(x.child(n, "value")); v >= 0 && isFunctionLike(x.nodes[v].kind) && x.fnOf[v] == nil {
			x.expressionFn(g.bind, key, FuncProperty, v, n, newFn)
		}
	case "method_definition":
		if p := x.nodes[n].parent; p < 0 || x.nodes[p].kind != "object" || x.child(n, "body") < 0 {
			return false
		}
		name, ok := x.propertyName(x.child(n, "name"))
		if !ok {
			return false
		}
		qual := join(f.bind, name)
		if x.hasToken(n, "set") {
			qual += "="
		}
		fn := x.expressionFn(qual, name, FuncProperty, n, n, newFn)
		push(n, frame{prefix: fn.Qual, parent: fn})
		return true
	case "arrow_function", "function_expression", "generator_function", "function":
		if x.fnOf[n] != nil {
			return false
		}
		name := "<arrow>"
		if k != "arrow_function" {
			name = "<function>"
		}
		qual := ""
		if id := x.child(n, "name"); id >= 0 {
			name = x.text(id)
		}
		if p := x.nodes[n].parent; p >= 0 && x.nodes[p].kind == "assignment_expression" && x.nodes[n].field == "right" && f.bind != "" {
			qual = f.bind // exports.handler = () => ...
		} else {
			qual = join(f.bind, name)
		}
		fn := x.expressionFn(qual, name, FuncExpression, n, n, newFn)
		push(n, frame{prefix: fn.Qual, parent: fn})
		return true
	case "class", "class_declaration", "abstract_class_declaration":
		if x.className(n, f.prefix) != "" {
			return false
		}
		// An anonymous class: its members are no module-level code.
		push(n, frame{prefix: f.prefix, parent: f.parent})
		return true
	default:
		return false
	}
	push(n, g)
	return true
}

// expressionFn records function-like node n (its declaration starting at
// decl) as the module-level graph function qual.
func (x *extraction) expressionFn(qual, name string, kind FuncKind, n, decl int32,
	newFn func(qual, name string, kind FuncKind, n, declStart int32, parent *Function) *Function) *Function {
	if fn := x.fnOf[n]; fn != nil {
		return fn
	}
	return newFn(qual, name, kind, n, decl, nil)
}

// propertyName is the name of an object literal's key: an identifier, a
// string or a number; a computed key is its source text (`[Symbol.iterator]`).
func (x *extraction) propertyName(n int32) (string, bool) {
	if n >= 0 && x.nodes[n].kind == "computed_property_name" {
		s := strings.Join(strings.Fields(x.text(n)), "")
		return s, s != ""
	}
	return x.memberName(n)
}

// chainName is the dotted name of a callee or an assigned target made of
// names only (`app.get`, `exports.handler`, `this.x`); for a callee that is
// itself a call (`describe.each([...])`) the name of that call's callee;
// "" otherwise.
func (x *extraction) chainName(n int32) string {
	n = x.unwrap(n)
	if n < 0 {
		return ""
	}
	switch x.nodes[n].kind {
	case "identifier", "this", "property_identifier", "private_property_identifier", "super":
		return x.text(n)
	case "member_expression":
		obj, prop := x.chainName(x.child(n, "object")), x.child(n, "property")
		if obj == "" || prop < 0 {
			return ""
		}
		return obj + "." + x.text(prop)
	case "call_expression":
		return x.chainName(x.child(n, "function"))
	}
	return ""
}

// testFrameworks are the modules a test API is imported from.
var testFrameworks = map[string]bool{"vitest": true, "@jest/globals": true, "bun:test": true, "node:test": true, "mocha": true}

// testAPI reports whether name is a test framework's function whose
// callbacks are test code (describe, it, test, suite, bench and the hooks):
// a global, or imported from the framework; not the module's own.
func (x *extraction) testAPI(name string) bool {
	switch name {
	case "describe", "it", "test", "suite", "bench", "beforeAll", "beforeEach", "afterAll", "afterEach":
	default:
		return false
	}
	for _, im := range x.file.Imports {
		if im.Local == name {
			return testFrameworks[im.Specifier]
		}
	}
	for _, d := range x.file.Decls {
		if d.Name == name && d.Kind != DeclType {
			return false
		}
	}
	return true
}
