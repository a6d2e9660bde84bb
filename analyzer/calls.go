package analyzer

// This file extracts the calls in a function's body and resolves the
// callee's root identifier through the lexical scopes between the call and
// module scope.

func isFunctionLike(kind string) bool {
	switch kind {
	case "function_declaration", "generator_function_declaration", "function_expression",
		"generator_function", "arrow_function", "method_definition", "function":
		return true
	}
	return false
}

// context holds, for every node, facts computed top-down in one linear pass
// (nodes are in pre-order: a parent's index is below its children's).
type context struct {
	scope []int32 // nearest enclosing scope node (strict ancestor), or -1
	stmt  []int32 // innermost ancestor-or-self that is a statement of a statement list, or -1
	fn    []int32 // nearest strict ancestor that is a function or a class body, or -1
}

func (x *extraction) context() *context {
	if x.ctx != nil {
		return x.ctx
	}
	n := len(x.nodes)
	c := &context{scope: make([]int32, n), stmt: make([]int32, n), fn: make([]int32, n)}
	for i := range x.nodes {
		p := x.nodes[i].parent
		if p < 0 {
			c.scope[i], c.stmt[i], c.fn[i] = -1, -1, -1
			continue
		}
		pk := x.nodes[p].kind
		c.scope[i] = c.scope[p]
		if isScope(pk) {
			c.scope[i] = p
		}
		c.stmt[i] = c.stmt[p]
		if pk == "statement_block" || (pk == "switch_case" || pk == "switch_default") && x.nodes[i].field == "body" {
			c.stmt[i] = int32(i)
		}
		c.fn[i] = c.fn[p]
		if isFunctionLike(pk) || pk == "class_body" {
			c.fn[i] = p
		}
	}
	x.ctx = c
	return c
}

// calls gives every graph function the calls in its body, in source order:
// each call expression (and `new` expression) is classified once, then
// listed in every enclosing graph function whose body holds it (a call in
// a nested function is also a call of the functions around it, with Nested
// set). Calls in parameter default values belong to no function.
func (x *extraction) calls() {
	ctx := x.context()
	owner := make([]*Function, len(x.nodes)) // nearest enclosing graph function (strict ancestor)
	for i := range x.nodes {
		p := x.nodes[i].parent
		if p < 0 {
			continue
		}
		owner[i] = owner[p]
		if fn := x.fnOf[p]; fn != nil {
			owner[i] = fn
		}
	}
	nodeOf := make(map[*Function]int32, len(x.fnOf))
	for n, fn := range x.fnOf {
		nodeOf[fn] = n
	}
	// Each function's list is allocated once at its final size (growing
	// them by appends was a fifth of the extraction's allocations).
	count := make(map[*Function]int, len(x.fnOf))
	for i := range x.nodes {
		if k := x.nodes[i].kind; k == "call_expression" || k == "new_expression" {
			start := uint(x.nodes[i].start)
			for fn := owner[i]; fn != nil; fn = fn.Parent {
				if inBody(fn, start) {
					count[fn]++
				}
			}
		}
	}
	for fn, n := range count {
		fn.Calls = make([]Call, 0, n)
	}
	for i := range x.nodes {
		n := int32(i)
		k := x.nodes[i].kind
		if k != "call_expression" && k != "new_expression" {
			continue
		}
		c, ok := x.call(n)
		if !ok {
			continue
		}
		if owner[i] == nil || moduleCode(owner[i]) {
			// Module-level code, and the functions it holds (what runs
			// when the module loads or when what it builds is used).
			tc := c
			tc.Nested = ctx.fn[i] >= 0
			x.file.TopCalls = append(x.file.TopCalls, tc)
			if owner[i] == nil {
				continue
			}
		}
		start := uint(x.nodes[i].start)
		for fn := owner[i]; fn != nil; fn = fn.Parent {
			if !inBody(fn, start) {
				continue
			}
			cc := c
			if st := ctx.stmt[i]; st >= 0 && uint(x.nodes[st].start) >= fn.BodyStartByte {
				cc.StatementStartByte, cc.StatementEndByte = uint(x.nodes[st].start), uint(x.nodes[st].end)
			}
			cc.Nested = ctx.fn[i] != nodeOf[fn]
			fn.Calls = append(fn.Calls, cc)
		}
	}
}

// inBody reports whether the byte at start is in fn's body (a class's
// <fields>: in any of its initializers, which are the only code it owns).
func inBody(fn *Function, start uint) bool {
	if fn.Kind == FuncFields {
		return start >= fn.StartByte && start < fn.EndByte
	}
	return start >= fn.BodyStartByte && start < fn.BodyEndByte
}

// moduleCode reports whether fn is, or is nested in, a function of
// module-level code (FuncProperty, FuncExpression): its calls are also the
// module's TopCalls, as they were before such functions were graph functions.
func moduleCode(fn *Function) bool {
	for ; fn != nil; fn = fn.Parent {
		if fn.Kind == FuncProperty || fn.Kind == FuncExpression {
			return true
		}
	}
	return false
}

// preorder visits root and its descendants in source order; visit returns
// whether to descend into a node.
func (x *extraction) preorder(root int32, visit func(int32) bool) {
	stack := append(x.stack[:0], root)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !visit(i) {
			continue
		}
		// Push the children in reverse so that the first is visited first.
		n := len(stack)
		for c := x.nodes[i].first; c >= 0; c = x.nodes[c].next {
			stack = append(stack, c)
		}
		for a, b := n, len(stack)-1; a < b; a, b = a+1, b-1 {
			stack[a], stack[b] = stack[b], stack[a]
		}
	}
	x.stack = stack
}

// call builds the Call for call or new expression i, or reports false for
// the call shapes that are not calls here: import("m"), super(), tagged
// templates. Statement range and Nested are the caller's (they depend on
// the function the call is listed in).
func (x *extraction) call(i int32) (Call, bool) {
	isNew := x.nodes[i].kind == "new_expression"
	field := "function"
	if isNew {
		field = "constructor"
	}
	fnc := x.child(i, field)
	if fnc < 0 {
		return Call{}, false
	}
	switch x.nodes[fnc].kind {
	case "import", "super":
		return Call{}, false
	case "await_expression":
		// `await f<T>(x)`: the grammar reads the callee as `await f`; the call
		// is `f<T>(x)`, awaited.
		if x.child(i, "type_arguments") < 0 {
			break
		}
		if op := x.firstNamed(fnc); op >= 0 {
			fnc = op
		}
	}
	if a := x.child(i, "arguments"); a >= 0 && x.nodes[a].kind == "template_string" {
		return Call{}, false
	}
	start := x.nodes[i].start
	text := x.calleeText(fnc)
	calleeStart := x.nodes[fnc].start
	if root, fixed := x.chainStart(fnc); fixed {
		// `a ?? b!.c()`: the grammar reads `(a ?? b)!.c()`; the call is `b!.c()`.
		calleeStart = root
		text = joinSpace(string(x.src[root:x.nodes[fnc].end]))
	}
	if !isNew {
		start = calleeStart
	}
	line, col := x.pos(start)
	c := Call{
		Text:            text,
		Line:            line,
		Column:          col,
		New:             isNew,
		StartByte:       uint(start),
		EndByte:         uint(x.nodes[i].end),
		CalleeStartByte: uint(calleeStart),
		CalleeEndByte:   uint(x.nodes[fnc].end),
	}
	c.Callee = x.callee(fnc)
	return c, true
}

// callee classifies the callee expression fnc.
func (x *extraction) callee(fnc int32) Callee {
	if cl := x.simpleCallee(fnc); cl.Kind != CalleeOther {
		return cl
	}
	return x.chainCallee(fnc)
}

// simpleCallee classifies a callee made of names (CalleeOther for the rest).
func (x *extraction) simpleCallee(fnc int32) Callee {
	var path []string
	e := fnc
	for {
		for e >= 0 && x.nodes[e].kind == "non_null_expression" {
			e = x.rightmost(x.firstNamed(e))
		}
		if e < 0 {
			break
		}
		if x.nodes[e].kind == "subscript_expression" {
			// o["k"] names the property k, like o.k; o[k] is not a name.
			key, ok := x.stringValue(x.child(e, "index"))
			if !ok {
				return Callee{Kind: CalleeOther}
			}
			path = append(path, key)
			e = x.child(e, "object")
			continue
		}
		if x.nodes[e].kind != "member_expression" {
			break
		}
		prop := x.child(e, "property")
		if prop < 0 || x.nodes[prop].kind != "property_identifier" && x.nodes[prop].kind != "private_property_identifier" {
			return Callee{Kind: CalleeOther}
		}
		path = append(path, x.text(prop))
		e = x.child(e, "object")
	}
	if e < 0 {
		return Callee{Kind: CalleeOther}
	}
	// path was collected from the outside in.
	for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
		path[a], path[b] = path[b], path[a]
	}
	switch x.nodes[e].kind {
	case "identifier":
		root := x.text(e)
		cl := Callee{Kind: CalleeIdent, Root: root, Binding: x.resolve(root, e)}
		if len(path) > 0 {
			cl.Kind, cl.Path = CalleeMember, path
			if cl.Binding.Type != "" {
				cl.Binding.Narrowed = x.narrowedIn(root, e)
			}
		}
		return cl
	case "this":
		if len(path) > 0 {
			cl := Callee{Kind: CalleeThis, Path: path}
			cl.ThisClass, cl.ThisStatic, _ = x.thisClass(e)
			if cl.ThisClass == "" {
				cl.ThisType, cl.ThisFrom = x.thisType(e)
			}
			return cl
		}
	case "parenthesized_expression":
		if len(path) > 0 {
			if aw := x.firstNamed(e); aw >= 0 && x.nodes[aw].kind == "await_expression" {
				if spec, ok := x.importCall(x.firstNamed(aw)); ok {
					return Callee{Kind: CalleeDynamicMember, Path: path, Specifier: spec}
				}
			}
		}
	}
	return Callee{Kind: CalleeOther}
}

// rightmost undoes a grammar gap: tree-sitter gives postfix `!` a lower
// precedence than binary, unary, await and conditional operators, reading
// `a ?? b!.c()` as `(a ?? b)!.c()` and `!x!.y()` as `(!x)!.y()`. The
// operand the `!` really applies to is the rightmost operand of e.
func (x *extraction) rightmost(e int32) int32 {
	for e >= 0 {
		var next int32 = -1
		switch x.nodes[e].kind {
		case "binary_expression", "assignment_expression", "augmented_assignment_expression":
			next = x.child(e, "right")
		case "unary_expression":
			next = x.child(e, "argument")
		case "ternary_expression":
			next = x.child(e, "alternative")
		case "await_expression", "yield_expression":
			next = x.firstNamed(e)
		}
		if next < 0 {
			return e
		}
		e = next
	}
	return e
}

// chainStart is where the callee chain of fnc really starts when rightmost
// had to undo a misread `!` in it (fixed), else fnc's own start.
func (x *extraction) chainStart(fnc int32) (uint32, bool) {
	fixed := false
	e := fnc
	for e >= 0 {
		switch x.nodes[e].kind {
		case "member_expression", "subscript_expression":
			e = x.child(e, "object")
			continue
		case "call_expression":
			e = x.child(e, "function")
			continue
		case "non_null_expression":
			op := x.firstNamed(e)
			if r := x.rightmost(op); r != op {
				fixed = true
				e = r
				continue
			}
			e = op
			continue
		}
		break
	}
	if !fixed || e < 0 {
		return x.nodes[fnc].start, false
	}
	return x.nodes[e].start, true
}

// importCall reports whether i is `import("m")` with a literal specifier.
func (x *extraction) importCall(i int32) (string, bool) {
	i = x.unwrap(i)
	if i < 0 || x.nodes[i].kind != "call_expression" {
		return "", false
	}
	f := x.child(i, "function")
	if f < 0 || x.nodes[f].kind != "import" {
		return "", false
	}
	args := x.child(i, "arguments")
	if args < 0 {
		return "", false
	}
	return x.stringValue(x.firstNamed(args))
}

// awaitImport reports whether i is `await import("m")` (parentheses allowed).
func (x *extraction) awaitImport(i int32) (string, bool) {
	i = x.unwrap(i)
	if i < 0 || x.nodes[i].kind != "await_expression" {
		return "", false
	}
	return x.importCall(x.firstNamed(i))
}

type scope map[string]Binding

// resolve finds what name refers to at node from, looking through the scopes
// from the innermost out to module scope (excluded: a name no function,
// block or class around the call declares is BindModule). Answers are
// memoized per scope and name, so deep nesting stays linear.
func (x *extraction) resolve(name string, from int32) Binding {
	if x.scopes == nil {
		x.scopes = map[int32]scope{}
		x.resolved = map[scopeName]int32{}
	}
	ctx := x.context()
	var visited []int32
	result := int32(-1) // the module scope
	for a := ctx.scope[from]; a >= 0; a = ctx.scope[a] {
		if i, ok := x.resolved[scopeName{a, name}]; ok {
			result = i
			break
		}
		visited = append(visited, a)
		s, ok := x.scopes[a]
		if !ok {
			s = x.scopeOf(a)
			x.scopes[a] = s
		}
		if b, ok := s[name]; ok {
			x.found = append(x.found, b)
			result = int32(len(x.found) - 1)
			break
		}
	}
	// The cache holds indexes into x.found: a Binding is a dozen words,
	// and copying it into every visited scope's entry made growing the map
	// a tenth of the extraction (profiled).
	for _, a := range visited {
		x.resolved[scopeName{a, name}] = result
	}
	if result < 0 {
		return Binding{Kind: BindModule}
	}
	return x.found[result]
}

type scopeName struct {
	scope int32
	name  string
}

// isScope reports whether nodes of this kind introduce names.
func isScope(kind string) bool {
	switch kind {
	case "statement_block", "switch_body", "for_statement", "for_in_statement", "class", "catch_clause", "class_static_block":
		return true
	}
	return isFunctionLike(kind)
}

// scopeOf computes the names scope node a declares.
func (x *extraction) scopeOf(a int32) scope {
	s := scope{}
	switch k := x.nodes[a].kind; k {
	case "statement_block":
		for c := x.nodes[a].first; c >= 0; c = x.nodes[c].next {
			x.blockStatement(s, c)
		}
	case "switch_body":
		for cs := x.nodes[a].first; cs >= 0; cs = x.nodes[cs].next {
			for c := x.nodes[cs].first; c >= 0; c = x.nodes[c].next {
				if x.nodes[c].field == "body" {
					x.blockStatement(s, c)
				}
			}
		}
	case "for_statement":
		if init := x.child(a, "initializer"); init >= 0 {
			switch x.nodes[init].kind {
			case "lexical_declaration":
				x.declarators(s, init, x.declKind(init))
			case "assignment_expression", "sequence_expression":
				// for (using x = ...; ;)
				for _, n := range x.usingNamesExpr(init) {
					x.bind(s, n, "using")
				}
			}
		}
	case "for_in_statement":
		left := x.child(a, "left")
		kind := ""
		if kn := x.child(a, "kind"); kn >= 0 {
			kind = x.text(kn)
		} else if x.repairs != nil {
			for off := range x.repairs.using {
				if off >= x.nodes[a].start && off < x.nodes[a].end && (left < 0 || off < x.nodes[left].start) {
					kind = "using"
				}
			}
		}
		if kind != "" && kind != "var" {
			for _, n := range x.patternNames(left) {
				x.bind(s, n, kind)
			}
		}
	case "catch_clause":
		for _, n := range x.patternNames(x.child(a, "parameter")) {
			x.bind(s, n, "catch parameter")
		}
	case "class":
		if n := x.child(a, "name"); n >= 0 {
			x.bind(s, n, "class")
		}
	case "class_static_block":
		x.hoistVars(s, x.child(a, "body"))
	default: // function-like
		if p := x.child(a, "parameter"); p >= 0 {
			x.bind(s, p, "parameter")
		}
		if ps := x.child(a, "parameters"); ps >= 0 {
			for c := x.nodes[ps].first; c >= 0; c = x.nodes[c].next {
				if pat := x.child(c, "pattern"); pat >= 0 {
					for _, n := range x.patternNames(pat) {
						x.bind(s, n, "parameter")
					}
					if x.nodes[pat].kind == "identifier" {
						x.setType(s, pat, x.declaredType(x.child(c, "type")))
					}
				}
			}
		}
		x.hoistVars(s, x.child(a, "body"))
		if k == "function_expression" || k == "generator_function" || k == "function" {
			if n := x.child(a, "name"); n >= 0 {
				x.bind(s, n, "function")
			}
		}
	}
	return s
}

// bind declares the identifier node n in s unless the name is already bound
// there (the first declaration wins).
func (x *extraction) bind(s scope, n int32, detail string) {
	name := x.text(n)
	if _, ok := s[name]; ok || name == "" {
		return
	}
	s[name] = Binding{Kind: BindLocal, Detail: detail + " " + name, Line: x.line(x.nodes[n].start)}
}

// bindFunction marks the name node n of scope s as declaring the graph
// function of node fnNode, if it is one.
func (x *extraction) bindFunction(s scope, n, fnNode int32) {
	if fnNode < 0 {
		return
	}
	fn := x.fnOf[fnNode]
	if fn == nil {
		return
	}
	name := x.text(n)
	if b, ok := s[name]; ok && b.Kind == BindLocal && b.Line == x.line(x.nodes[n].start) && b.Function == "" {
		b.Function = fn.Qual
		s[name] = b
	}
}

// setType gives the binding the name node n declares in s its declared type.
func (x *extraction) setType(s scope, n int32, typ string) {
	if typ == "" {
		return
	}
	name := x.text(n)
	if b, ok := s[name]; ok && b.Kind == BindLocal && b.Line == x.line(x.nodes[n].start) && b.Type == "" {
		b.Type = typ
		s[name] = b
	}
}

func (x *extraction) declKind(decl int32) string {
	if kn := x.child(decl, "kind"); kn >= 0 {
		return x.text(kn)
	}
	if x.nodes[decl].kind == "variable_declaration" {
		return "var"
	}
	return "let"
}

// blockStatement declares what statement c binds in its block: let, const,
// using, and (hoisted within the block) functions and classes.
func (x *extraction) blockStatement(s scope, c int32) {
	switch x.nodes[c].kind {
	case "lexical_declaration":
		x.declarators(s, c, x.declKind(c))
	case "function_declaration", "generator_function_declaration":
		if n := x.child(c, "name"); n >= 0 {
			x.bind(s, n, "function")
			x.bindFunction(s, n, c)
		}
	case "class_declaration", "abstract_class_declaration":
		if n := x.child(c, "name"); n >= 0 {
			x.bind(s, n, "class")
			if qual, ok := x.classOf[c]; ok {
				if b := s[x.text(n)]; b.Kind == BindLocal && b.Class == "" {
					b.Class = qual
					s[x.text(n)] = b
				}
			}
		}
	case "export_statement":
		// a namespace's exported declarations are its block's names too
		if d := x.child(c, "declaration"); d >= 0 {
			x.blockStatement(s, d)
		}
	case "enum_declaration":
		if n := x.child(c, "name"); n >= 0 {
			x.bind(s, n, "enum")
		}
	case "expression_statement":
		for _, n := range x.usingNames(c) {
			x.bind(s, n, "using")
		}
	}
}

// usingNamesExpr returns the names bound by the expression e when it is the
// grammar's reading of `using x = ...` (an assignment with a `using` token).
func (x *extraction) usingNamesExpr(e int32) []int32 {
	var assigns []int32
	switch x.nodes[e].kind {
	case "assignment_expression":
		assigns = []int32{e}
	case "sequence_expression":
		for c := x.nodes[e].first; c >= 0; c = x.nodes[c].next {
			if x.nodes[c].kind == "assignment_expression" {
				assigns = append(assigns, c)
			}
		}
	}
	if len(assigns) == 0 || !x.hasToken(assigns[0], "using") {
		return nil
	}
	var out []int32
	for _, a := range assigns {
		if l := x.child(a, "left"); l >= 0 && x.nodes[l].kind == "identifier" {
			out = append(out, l)
		}
	}
	return out
}

// declarators declares the names of a lexical or variable declaration,
// recognising `const m = await import("m")` and `const { a } = await import("m")`.
func (x *extraction) declarators(s scope, decl int32, kind string) {
	for c := x.nodes[decl].first; c >= 0; c = x.nodes[c].next {
		if x.nodes[c].kind != "variable_declarator" {
			continue
		}
		name := x.child(c, "name")
		if name < 0 {
			continue
		}
		spec, dyn := x.awaitImport(x.child(c, "value"))
		if !dyn {
			for _, n := range x.patternNames(name) {
				x.bind(s, n, kind)
			}
			if x.nodes[name].kind == "identifier" {
				x.bindFunction(s, name, x.unwrap(x.child(c, "value")))
				if t := x.child(c, "type"); t >= 0 {
					x.setType(s, name, x.declaredType(t))
				} else {
					x.setType(s, name, x.newType(x.child(c, "value")))
				}
			}
			continue
		}
		x.dynamicPattern(s, name, spec, kind)
	}
}

// dynamicPattern declares the names of the pattern p bound to
// `await import(spec)`.
func (x *extraction) dynamicPattern(s scope, p int32, spec, kind string) {
	dyn := func(n int32, imported string) {
		name := x.text(n)
		if _, ok := s[name]; ok || name == "" {
			return
		}
		b := Binding{Kind: BindDynamicNamed, Specifier: spec, Imported: imported,
			Detail: kind + " " + name, Line: x.line(x.nodes[n].start)}
		if imported == "" {
			b.Kind = BindDynamicNamespace
		}
		s[name] = b
	}
	switch x.nodes[p].kind {
	case "identifier":
		dyn(p, "")
		return
	case "object_pattern":
	default:
		for _, n := range x.patternNames(p) {
			x.bind(s, n, kind)
		}
		return
	}
	for c := x.nodes[p].first; c >= 0; c = x.nodes[c].next {
		switch x.nodes[c].kind {
		case "shorthand_property_identifier_pattern":
			dyn(c, x.text(c))
		case "object_assignment_pattern":
			if l := x.child(c, "left"); l >= 0 {
				dyn(l, x.text(l))
			}
		case "pair_pattern":
			key, val := x.child(c, "key"), x.child(c, "value")
			imported := ""
			if key >= 0 {
				switch x.nodes[key].kind {
				case "property_identifier":
					imported = x.text(key)
				case "string":
					imported, _ = x.stringValue(key)
				}
			}
			if val >= 0 && x.nodes[val].kind == "assignment_pattern" {
				val = x.child(val, "left")
			}
			if imported != "" && val >= 0 && x.nodes[val].kind == "identifier" {
				dyn(val, imported)
			} else {
				for _, n := range x.patternNames(val) {
					x.bind(s, n, kind)
				}
			}
		case "rest_pattern":
			// const { a, ...rest } = await import("m"): rest holds the other exports.
			if n := x.firstNamed(c); n >= 0 && x.nodes[n].kind == "identifier" {
				dyn(n, "")
			}
		}
	}
}

// hoistVars declares the `var` declarations of a function body (in any
// nested block or loop, not in nested functions).
func (x *extraction) hoistVars(s scope, body int32) {
	if body < 0 {
		return
	}
	// A separate stack: hoistVars runs while calls() is walking.
	stack := []int32{body}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch k := x.nodes[i].kind; {
		case k == "variable_declaration":
			x.declarators(s, i, "var")
		case k == "for_in_statement":
			if kn := x.child(i, "kind"); kn >= 0 && x.text(kn) == "var" {
				for _, n := range x.patternNames(x.child(i, "left")) {
					x.bind(s, n, "var")
				}
			}
		case i != body && (isFunctionLike(k) || k == "class_static_block" || k == "class_body"):
			continue
		}
		n := len(stack)
		for c := x.nodes[i].first; c >= 0; c = x.nodes[c].next {
			if x.nodes[c].named {
				stack = append(stack, c)
			}
		}
		for a, b := n, len(stack)-1; a < b; a, b = a+1, b-1 {
			stack[a], stack[b] = stack[b], stack[a]
		}
	}
}
