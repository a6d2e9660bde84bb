package analyzer

import (
	"sort"
	"strings"
)

// This file extracts the module level: imports, exports, top-level
// declarations and the functions they define. Decisions where TypeScript
// leaves a choice:
//
//   - Functions are the top-level function declarations with a body
//     (exported or not, generators included) and the top-level
//     `const/let/var f = <arrow or function expression>`, also when wrapped in
//     parentheses, `as`, `satisfies` or `<T>`. Overload signatures and
//     `declare function` are not functions (they are Decls without Function).
//     An anonymous `export default function () {}` or `export default () => {}`
//     is named "default". Line, Column and StartByte are those of the whole
//     top-level statement (`export` included).
//   - Calls are those in the body; calls in default parameter values are not.
//     Statement ranges are zero when the call is in no statement list of the
//     body (an arrow's expression body).
//   - `export = foo` is ExportLocal{Name: "default", Local: "foo"} (what
//     `import foo from` sees with esModuleInterop); `export = <expression>`
//     is ExportExpression "default".
//   - `export default class {}` (anonymous) is ExportExpression.
//   - `export import x = require("m")` is an ImportEquals plus ExportLocal x.
//   - `import q = A.B` is a DeclVariable q.
//   - Import, Export and Decl lines: the statement's line for imports and
//     exports, the bound name's line for declarations.
//   - Namespaces whose bodies hold only types are DeclType (erased).
//   - Ambient declarations (`declare const x`, `declare function f()`) are
//     Decls: they bind a name in module scope.
//   - Identical exports (overloads of an exported function) are listed once.
//   - Function.Default is set where the declaration itself is the default
//     export (`export default function f`, anonymous default functions);
//     `export default f` and `export { f as default }` set only Exported, so
//     that f keeps its own name, as the TypeScript checker names it.

// fnInfo ties an extracted Function to its node, for the call pass.
type fnInfo struct {
	fn   *Function
	node int32 // the function-like node (declaration, arrow, function expression)
}

type extraction struct {
	*tree
	funcs     []fnInfo
	fnOf      map[int32]*Function // function-like node -> its graph function
	classOf   map[int32]string    // class node -> its name path
	bindName  map[int32]string    // class expression -> the variable it is bound to
	exportKey map[Export]bool
	scopes    map[int32]scope     // names declared by each scope node, computed on demand
	resolved  map[scopeName]int32 // index in found, -1: the module scope
	found     []Binding
	ctx       *context
	stack     []int32 // reused by preorder
	// scoping is set while boundLocally computes scopes: the types of the
	// names they bind are not needed then (and would recurse).
	scoping  bool
	narrowed map[scopeName]bool // narrowedIn's answers
	names    map[int32]scope    // boundLocally's scopes
	pending  []pendingMember    // members whose type inferMembers infers
}

func (t *tree) extract() {
	x := &extraction{tree: t, exportKey: map[Export]bool{}}
	if len(t.nodes) > 0 {
		for c := t.nodes[0].first; c >= 0; c = t.nodes[c].next {
			x.statement(c)
		}
	}
	f := t.file
	byName := map[string][]*Function{}
	for _, fn := range f.Functions { // the top-level ones: discover() adds the rest
		byName[fn.Name] = append(byName[fn.Name], fn)
	}
	for _, ex := range f.Exports {
		if ex.Kind != ExportLocal || ex.TypeOnly {
			continue
		}
		for _, fn := range byName[ex.Local] {
			fn.Exported = true
		}
	}
	for _, fn := range f.Functions {
		fn.Kind, fn.Qual = FuncTop, fn.Name
		if fn.Default {
			fn.Qual = "default"
		}
	}
	x.discover()
	x.calls()
	x.inferMembers()
	x.dynamicImports()
	x.mocks()
	x.importUses()
	x.heldBy()
	f.Errors = t.errors()
}

// importUses marks the imports whose local name the file's code never
// reads (Import.Unused), and the names read of a namespace import read
// only as `ns.name` (Import.Members). A read is any identifier of that
// name outside the import statements, shadowing bindings included (more
// reads, never fewer); types are not code. A file with JSX or decorators
// reads names its text does not show: nothing is marked there.
func (x *extraction) importUses() {
	locals := map[string]bool{}
	for _, im := range x.file.Imports {
		if im.Local != "" && im.Kind != ImportEquals {
			locals[im.Local] = true
		}
	}
	if len(locals) == 0 {
		return
	}
	reads := map[string]int{}
	whole := map[string]bool{}
	members := map[string]map[string]bool{}
	for i := range x.nodes {
		n := int32(i)
		k := x.nodes[n].kind
		if strings.HasPrefix(k, "jsx_") || k == "decorator" {
			return
		}
		if k != "identifier" && k != "shorthand_property_identifier" && k != "shorthand_property_identifier_pattern" {
			continue
		}
		name := x.text(n)
		if !locals[name] {
			continue
		}
		up := x.nodes[n].parent
		if up >= 0 {
			switch x.nodes[up].kind {
			case "import_specifier", "import_clause", "namespace_import":
				continue
			}
		}
		reads[name]++
		if up >= 0 && x.nodes[up].kind == "member_expression" && x.child(up, "object") == n {
			if prop := x.child(up, "property"); prop >= 0 && x.nodes[prop].kind == "property_identifier" {
				if members[name] == nil {
					members[name] = map[string]bool{}
				}
				members[name][x.text(prop)] = true
				continue
			}
		}
		whole[name] = true
	}
	for i := range x.file.Imports {
		im := &x.file.Imports[i]
		if im.Local == "" || im.Kind == ImportEquals {
			continue
		}
		im.Unused = reads[im.Local] == 0
		if im.Kind == ImportNamespace && !im.Unused && !whole[im.Local] {
			for m := range members[im.Local] {
				im.Members = append(im.Members, m)
			}
			sort.Strings(im.Members)
		}
	}
}

// statement handles one top-level statement.
func (x *extraction) statement(i int32) {
	switch x.nodes[i].kind {
	case "ERROR":
		// Salvage what parsed inside a broken region.
		for c := x.nodes[i].first; c >= 0; c = x.nodes[c].next {
			if x.nodes[c].named {
				x.statement(c)
			}
		}
	case "import_statement":
		x.importStatement(i)
	case "export_statement":
		x.exportStatement(i)
	default:
		x.declare(i, i, false)
	}
}

func (x *extraction) importStatement(i int32) {
	f := x.file
	typeOnly := x.hasToken(i, "type")
	line := x.line(x.nodes[i].start)
	spec, _ := x.stringValue(x.child(i, "source"))
	if rc := x.childKind(i, "import_require_clause"); rc >= 0 {
		spec, _ = x.stringValue(x.child(rc, "source"))
		if id := x.childKind(rc, "identifier"); id >= 0 {
			f.Imports = append(f.Imports, Import{Kind: ImportEquals, Local: x.text(id), Imported: "default",
				Specifier: spec, TypeOnly: typeOnly, Line: line})
		}
		return
	}
	clause := x.childKind(i, "import_clause")
	if clause < 0 {
		f.Imports = append(f.Imports, Import{Kind: ImportSideEffect, Specifier: spec, TypeOnly: typeOnly, Line: line})
		return
	}
	for c := x.nodes[clause].first; c >= 0; c = x.nodes[c].next {
		switch x.nodes[c].kind {
		case "identifier":
			f.Imports = append(f.Imports, Import{Kind: ImportDefault, Local: x.text(c), Imported: "default",
				Specifier: spec, TypeOnly: typeOnly, Line: line})
		case "namespace_import":
			if id := x.childKind(c, "identifier"); id >= 0 {
				f.Imports = append(f.Imports, Import{Kind: ImportNamespace, Local: x.text(id),
					Specifier: spec, TypeOnly: typeOnly, Line: line})
			}
		case "named_imports":
			for s := x.nodes[c].first; s >= 0; s = x.nodes[s].next {
				if x.nodes[s].kind != "import_specifier" {
					continue
				}
				name := x.nameOf(x.child(s, "name"))
				local := name
				if a := x.child(s, "alias"); a >= 0 {
					local = x.nameOf(a)
				}
				if name == "" || local == "" {
					continue
				}
				f.Imports = append(f.Imports, Import{Kind: ImportNamed, Local: local, Imported: name,
					Specifier: spec, TypeOnly: typeOnly || x.hasToken(s, "type"), Line: line})
			}
		}
	}
}

// nameOf is the text of an identifier, or the value of a string used as a
// module export name (`import { "a b" as c }`).
func (x *extraction) nameOf(i int32) string {
	if i < 0 {
		return ""
	}
	if s, ok := x.stringValue(i); ok {
		return s
	}
	return x.text(i)
}

func (x *extraction) addExport(e Export) {
	key := e
	key.Line = 0
	if x.exportKey[key] {
		return
	}
	x.exportKey[key] = true
	x.file.Exports = append(x.file.Exports, e)
}

func (x *extraction) exportStatement(i int32) {
	line := x.line(x.nodes[i].start)
	isDefault := x.hasToken(i, "default")
	typeOnly := x.hasToken(i, "type")
	if x.repairs != nil {
		for off := range x.repairs.typeStar {
			if off >= x.nodes[i].start && off < x.nodes[i].end {
				typeOnly = true
			}
		}
	}
	source := x.child(i, "source")
	spec, _ := x.stringValue(source)

	// export = foo
	if x.hasToken(i, "=") {
		if v := x.unwrap(x.firstNamed(i)); v >= 0 && x.nodes[v].kind == "identifier" {
			x.addExport(Export{Kind: ExportLocal, Name: "default", Local: x.text(v), Line: line})
		} else {
			x.addExport(Export{Kind: ExportExpression, Name: "default", Line: line})
		}
		return
	}
	if d := x.child(i, "declaration"); d >= 0 {
		if isDefault {
			x.exportDefaultDeclaration(i, d, line)
			return
		}
		if x.nodes[d].kind == "import_alias" && x.exportImportRequire(i, d, line) {
			return
		}
		for _, n := range x.declare(d, i, false) {
			x.addExport(Export{Kind: ExportLocal, Name: n.name, Local: n.name, TypeOnly: n.typeOnly, Line: line})
		}
		return
	}
	if v := x.child(i, "value"); v >= 0 {
		u := x.unwrap(v)
		switch x.nodes[u].kind {
		case "identifier":
			x.addExport(Export{Kind: ExportLocal, Name: "default", Local: x.text(u), Line: line})
		case "arrow_function", "function_expression", "generator_function", "function":
			x.newFunction("default", u, i).Default = true
			x.addExport(Export{Kind: ExportLocal, Name: "default", Local: "default", Line: line})
		default:
			x.addExport(Export{Kind: ExportExpression, Name: "default", Line: line})
		}
		return
	}
	if clause := x.childKind(i, "export_clause"); clause >= 0 {
		for s := x.nodes[clause].first; s >= 0; s = x.nodes[s].next {
			if x.nodes[s].kind != "export_specifier" {
				continue
			}
			name := x.nameOf(x.child(s, "name"))
			alias := name
			if a := x.child(s, "alias"); a >= 0 {
				alias = x.nameOf(a)
			}
			if name == "" || alias == "" {
				continue
			}
			e := Export{Kind: ExportLocal, Name: alias, Local: name, TypeOnly: typeOnly || x.hasToken(s, "type"), Line: line}
			if source >= 0 {
				e.Kind, e.Specifier = ExportFrom, spec
			}
			x.addExport(e)
		}
		return
	}
	if ns := x.childKind(i, "namespace_export"); ns >= 0 {
		name := ""
		for c := x.nodes[ns].first; c >= 0; c = x.nodes[c].next {
			if x.nodes[c].named && x.nodes[c].kind != "comment" {
				name = x.nameOf(c)
			}
		}
		x.addExport(Export{Kind: ExportAllAs, Name: name, Specifier: spec, TypeOnly: typeOnly, Line: line})
		return
	}
	if x.hasToken(i, "*") && source >= 0 {
		x.addExport(Export{Kind: ExportAll, Specifier: spec, TypeOnly: typeOnly, Line: line})
	}
	// `export as namespace X` (UMD global in a declaration file) exports nothing.
}

// exportDefaultDeclaration: `export default function f() {}`, `export default
// class C {}`, `export default interface I {}`.
func (x *extraction) exportDefaultDeclaration(stmt, d int32, line int) {
	before := len(x.funcs)
	names := x.declare(d, stmt, false)
	for _, fi := range x.funcs[before:] {
		fi.fn.Default = true
	}
	if len(names) == 0 {
		x.addExport(Export{Kind: ExportExpression, Name: "default", Line: line})
		return
	}
	x.addExport(Export{Kind: ExportLocal, Name: "default", Local: names[0].name, TypeOnly: names[0].typeOnly, Line: line})
}

// exportImportRequire handles `export import x = require("m")`, which the
// grammar reads as `export import x = require` followed by a statement `("m")`.
func (x *extraction) exportImportRequire(stmt, alias int32, line int) bool {
	var id, val int32 = -1, -1
	for c := x.nodes[alias].first; c >= 0; c = x.nodes[c].next {
		if !x.nodes[c].named || x.nodes[c].kind == "comment" {
			continue
		}
		if id < 0 {
			id = c
		} else {
			val = c
		}
	}
	if id < 0 {
		return false
	}
	name := x.text(id)
	if val >= 0 && x.nodes[val].kind == "identifier" && x.text(val) == "require" {
		next := x.nodes[stmt].next
		for next >= 0 && x.nodes[next].kind == "comment" {
			next = x.nodes[next].next
		}
		if next >= 0 && x.nodes[next].kind == "expression_statement" {
			if p := x.firstNamed(next); p >= 0 && x.nodes[p].kind == "parenthesized_expression" {
				if spec, ok := x.stringValue(x.firstNamed(p)); ok {
					x.file.Imports = append(x.file.Imports, Import{Kind: ImportEquals, Local: name, Imported: "default",
						Specifier: spec, TypeOnly: x.hasToken(alias, "type"), Line: line})
					x.addExport(Export{Kind: ExportLocal, Name: name, Local: name, Line: line})
					x.nodes[next].kind = "empty_statement" // consumed
					// The grammar wants a `;` after `require`: not an error here.
					x.quiet = append(x.quiet, [2]uint32{x.nodes[stmt].start, x.nodes[next].end})
					return true
				}
			}
		}
	}
	return false
}

type declared struct {
	name     string
	typeOnly bool
}

// declare records the top-level declaration d (the statement stmt, or inside
// it) and returns the names it binds.
func (x *extraction) declare(d, stmt int32, ambient bool) []declared {
	var out []declared
	add := func(nameNode int32, kind DeclKind, fn *Function) {
		if nameNode < 0 {
			return
		}
		name := x.text(nameNode)
		if name == "" {
			return
		}
		x.addDecl(Decl{Name: name, Kind: kind, Line: x.line(x.nodes[nameNode].start), Function: fn})
		out = append(out, declared{name: name, typeOnly: kind == DeclType})
	}
	switch x.nodes[d].kind {
	case "function_declaration", "generator_function_declaration":
		name := x.child(d, "name")
		if name < 0 {
			return nil
		}
		var fn *Function
		if !ambient && x.child(d, "body") >= 0 {
			fn = x.newFunction(x.text(name), d, stmt)
		}
		add(name, DeclFunction, fn)
	case "function_signature":
		add(x.child(d, "name"), DeclFunction, nil)
	case "lexical_declaration", "variable_declaration":
		for c := x.nodes[d].first; c >= 0; c = x.nodes[c].next {
			if x.nodes[c].kind != "variable_declarator" {
				continue
			}
			name := x.child(c, "name")
			if name < 0 {
				continue
			}
			if x.nodes[name].kind == "identifier" && !ambient {
				if v := x.unwrap(x.child(c, "value")); v >= 0 {
					switch x.nodes[v].kind {
					case "arrow_function", "function_expression", "generator_function", "function":
						add(name, DeclFunction, x.newFunction(x.text(name), v, stmt))
						continue
					}
				}
			}
			for _, n := range x.patternNames(name) {
				add(n, DeclVariable, nil)
			}
			if x.nodes[name].kind == "identifier" && len(x.file.Decls) > 0 && x.file.Decls[len(x.file.Decls)-1].Name == x.text(name) {
				d := &x.file.Decls[len(x.file.Decls)-1]
				if t := x.child(c, "type"); t >= 0 {
					d.Type = x.declaredType(t)
				} else {
					d.Type = x.newType(x.child(c, "value"))
				}
			}
			if v := x.unwrap(x.child(c, "value")); v >= 0 && x.nodes[v].kind == "object" && x.nodes[name].kind == "identifier" {
				d := &x.file.Decls[len(x.file.Decls)-1]
				d.Keys, d.Values = x.objectKeys(v)
				for e := x.nodes[v].first; e >= 0; e = x.nodes[e].next {
					if x.nodes[e].kind == "spread_element" {
						if id := x.unwrap(x.firstNamed(e)); id >= 0 && x.nodes[id].kind == "identifier" {
							d.Spreads = append(d.Spreads, x.text(id))
						}
					}
				}
			}
		}
	case "class_declaration", "abstract_class_declaration":
		add(x.child(d, "name"), DeclClass, nil)
	case "enum_declaration":
		add(x.child(d, "name"), DeclEnum, nil)
	case "interface_declaration", "type_alias_declaration":
		add(x.child(d, "name"), DeclType, nil)
	case "internal_module", "module":
		name := x.child(d, "name")
		for name >= 0 && x.nodes[name].kind == "nested_identifier" || name >= 0 && x.nodes[name].kind == "member_expression" {
			name = x.firstNamed(name) // namespace A.B.C binds A
		}
		if name < 0 || x.nodes[name].kind != "identifier" {
			return nil // declare module "m" {}: augments another module
		}
		kind := DeclType
		if x.instantiated(x.child(d, "body")) {
			kind = DeclModule
		}
		add(name, kind, nil)
	case "ambient_declaration":
		for c := x.nodes[d].first; c >= 0; c = x.nodes[c].next {
			if x.nodes[c].named && x.nodes[c].kind != "comment" && x.nodes[c].kind != "statement_block" {
				out = append(out, x.declare(c, stmt, true)...)
			}
		}
	case "import_alias":
		// import q = A.B: a local alias of a namespace member.
		add(x.firstNamed(d), DeclVariable, nil)
	case "expression_statement":
		e := x.firstNamed(d)
		if e >= 0 && x.nodes[e].kind == "internal_module" {
			return x.declare(e, stmt, ambient)
		}
		for _, n := range x.usingNames(d) {
			add(n, DeclVariable, nil)
		}
	}
	return out
}

// addDecl appends a declaration. An implementation replaces the overload
// signatures declared before it.
func (x *extraction) addDecl(d Decl) {
	f := x.file
	if d.Kind == DeclFunction {
		for k := range f.Decls {
			e := &f.Decls[k]
			if e.Name != d.Name || e.Kind != DeclFunction {
				continue
			}
			if e.Function == nil && d.Function != nil {
				*e = d
				e.Overloaded = true
				return
			}
			if d.Function == nil {
				e.Overloaded = true
				return // another overload signature, or a signature after the body
			}
		}
	}
	f.Decls = append(f.Decls, d)
}

// instantiated reports whether a namespace body has run-time content
// (anything but types, type-only namespaces and empty statements).
func (x *extraction) instantiated(body int32) bool {
	if body < 0 {
		return false
	}
	for c := x.nodes[body].first; c >= 0; c = x.nodes[c].next {
		if !x.nodes[c].named {
			continue
		}
		s := c
		if x.nodes[s].kind == "export_statement" {
			if d := x.child(s, "declaration"); d >= 0 {
				s = d
			}
		}
		if x.nodes[s].kind == "expression_statement" {
			if e := x.firstNamed(s); e >= 0 && x.nodes[e].kind == "internal_module" {
				s = e
			}
		}
		switch x.nodes[s].kind {
		case "comment", "empty_statement", "interface_declaration", "type_alias_declaration":
		case "internal_module", "module":
			if x.instantiated(x.child(s, "body")) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// patternNames returns the identifier nodes a binding pattern binds.
func (x *extraction) patternNames(i int32) []int32 {
	var out []int32
	var walk func(i int32)
	walk = func(i int32) {
		if i < 0 {
			return
		}
		switch x.nodes[i].kind {
		case "identifier", "shorthand_property_identifier_pattern":
			out = append(out, i)
		case "pair_pattern":
			walk(x.child(i, "value"))
		case "assignment_pattern", "object_assignment_pattern":
			walk(x.child(i, "left"))
		case "rest_pattern", "object_pattern", "array_pattern":
			for c := x.nodes[i].first; c >= 0; c = x.nodes[c].next {
				if x.nodes[c].named {
					walk(c)
				}
			}
		}
	}
	walk(i)
	return out
}

// usingNames returns the names bound by `using x = ...` / `await using x = ...`
// (the grammar reads them as assignments with a `using` token), or nil.
func (x *extraction) usingNames(stmt int32) []int32 {
	e := x.firstNamed(stmt)
	if e >= 0 && x.nodes[e].kind == "await_expression" {
		e = x.firstNamed(e)
	}
	if e < 0 {
		return nil
	}
	return x.usingNamesExpr(e)
}

// newFunction records a top-level function: n is the function-like node,
// stmt the whole top-level statement.
func (x *extraction) newFunction(name string, n, stmt int32) *Function {
	line, col := x.pos(x.nodes[stmt].start)
	fn := &Function{
		Name:      name,
		Async:     x.hasToken(n, "async"),
		Line:      line,
		Column:    col,
		StartByte: uint(x.nodes[stmt].start),
		EndByte:   uint(x.nodes[stmt].end),
	}
	if b := x.child(n, "body"); b >= 0 {
		fn.BodyStartByte, fn.BodyEndByte = uint(x.nodes[b].start), uint(x.nodes[b].end)
	}
	fn.Params = x.params(n)
	x.file.Functions = append(x.file.Functions, fn)
	x.funcs = append(x.funcs, fnInfo{fn: fn, node: n})
	return fn
}

// params extracts the formal parameters of a function-like node.
func (x *extraction) params(n int32) []Param {
	if p := x.child(n, "parameter"); p >= 0 { // x => ...
		return []Param{{Name: x.text(p), Bound: []string{x.text(p)}, Line: x.line(x.nodes[p].start)}}
	}
	ps := x.child(n, "parameters")
	if ps < 0 {
		return nil
	}
	var out []Param
	for c := x.nodes[ps].first; c >= 0; c = x.nodes[c].next {
		k := x.nodes[c].kind
		if k != "required_parameter" && k != "optional_parameter" {
			continue
		}
		pat := x.child(c, "pattern")
		if pat < 0 || x.nodes[pat].kind == "this" {
			continue
		}
		p := Param{Line: x.line(x.nodes[c].start),
			Optional: k == "optional_parameter" || x.child(c, "value") >= 0}
		if t := x.child(c, "type"); t >= 0 {
			p.Type = annotation(x.text(t))
		}
		if x.nodes[pat].kind == "rest_pattern" {
			p.Rest = true
			pat = x.firstNamed(pat)
		}
		if pat >= 0 && x.nodes[pat].kind == "identifier" {
			p.Name = x.text(pat)
		}
		for _, b := range x.patternNames(pat) {
			p.Bound = append(p.Bound, x.text(b))
		}
		out = append(out, p)
	}
	return out
}

// calleeText is the callee's source as written, whitespace runs collapsed
// to one space: `audit . write` stays "audit . write", a callee over
// several lines is one line.
func (x *extraction) calleeText(i int32) string {
	return joinSpace(x.text(i))
}

func joinSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, isSpace), " ")
}

func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', 0xA0, 0xFEFF, 0x2028, 0x2029:
		return true
	}
	return r >= 0x2000 && r <= 0x200A || r == 0x1680 || r == 0x202F || r == 0x205F || r == 0x3000
}

// objectKeys lists the property names of an object literal (identifier and
// string keys, shorthand properties, methods), in source order, and for each
// the identifier its value is, or "".
func (x *extraction) objectKeys(obj int32) (keys, values []string) {
	for c := x.nodes[obj].first; c >= 0; c = x.nodes[c].next {
		var k int32 = -1
		value := ""
		switch x.nodes[c].kind {
		case "pair", "method_definition":
			k = x.child(c, "key")
			if k < 0 {
				k = x.child(c, "name")
			}
			if v := x.unwrap(x.child(c, "value")); v >= 0 && x.nodes[c].kind == "pair" && x.nodes[v].kind == "identifier" {
				value = x.text(v)
			}
		case "shorthand_property_identifier":
			k = c
			value = x.text(c)
		}
		if k < 0 {
			continue
		}
		switch x.nodes[k].kind {
		case "property_identifier", "shorthand_property_identifier", "identifier":
			keys = append(keys, x.text(k))
		case "string":
			v, ok := x.stringValue(k)
			if !ok {
				continue
			}
			keys = append(keys, v)
		default:
			continue
		}
		values = append(values, value)
	}
	return keys, values
}

// dynamicImports records every import("m") with a literal specifier, and the
// names taken when it is destructured: `const { a, b: c } = await import("m")`.
func (x *extraction) dynamicImports() {
	for i := range x.nodes {
		n := int32(i)
		if x.nodes[n].kind != "call_expression" {
			continue
		}
		if spec, ok := x.requireCall(n); ok {
			// require("m") of a written specifier loads m whole, as import("m").
			x.file.DynamicImports = append(x.file.DynamicImports, DynamicImport{Specifier: spec, Line: x.line(x.nodes[n].start), StartByte: uint(x.nodes[n].start)})
			continue
		}
		if g, ok := x.glob(n); ok {
			x.file.Globs = append(x.file.Globs, g)
			continue
		}
		if kind := x.opaqueLoad(n); kind != "" {
			x.file.OpaqueLoads = append(x.file.OpaqueLoads, OpaqueLoad{Kind: kind, Line: x.line(x.nodes[n].start)})
			continue
		}
		spec, ok := x.importCall(n)
		if !ok {
			continue
		}
		d := DynamicImport{Specifier: spec, Line: x.line(x.nodes[n].start), StartByte: uint(x.nodes[n].start)}
		up := x.nodes[n].parent
		for up >= 0 && (x.nodes[up].kind == "parenthesized_expression" || x.nodes[up].kind == "await_expression") {
			up = x.nodes[up].parent
		}
		if up >= 0 && x.nodes[up].kind == "variable_declarator" {
			if pat := x.child(up, "name"); pat >= 0 && x.nodes[pat].kind == "object_pattern" {
				d.Names = x.patternKeys(pat)
			}
		}
		x.file.DynamicImports = append(x.file.DynamicImports, d)
	}
}

// opaqueLoad says which kind of load call n is whose module is not written
// down ("" for any other call): require(...), import(<not a string
// literal>), import.meta.glob(...) and import.meta.globEager(...).
func (x *extraction) opaqueLoad(n int32) string {
	if _, ok := x.requireCall(n); ok {
		return "" // its module is written down
	}
	f := x.child(n, "function")
	if f < 0 {
		return ""
	}
	switch x.nodes[f].kind {
	case "import":
		if _, ok := x.importCall(n); !ok {
			return "import()"
		}
	case "identifier":
		if x.text(f) == "require" {
			return "require"
		}
	case "member_expression":
		if t := joinSpace(x.text(f)); t == "import.meta.glob" || t == "import.meta.globEager" {
			return "import.meta.glob"
		}
	}
	return ""
}

// glob reads call n when it is import.meta.glob (or import.meta.globEager)
// with its patterns written down: a string literal or an array of them,
// and options, if any, an object literal whose `eager` and `import` are
// literals and that has no `base` (which moves the patterns elsewhere).
func (x *extraction) glob(n int32) (Glob, bool) {
	f := x.child(n, "function")
	args := x.child(n, "arguments")
	if f < 0 || args < 0 || x.nodes[f].kind != "member_expression" {
		return Glob{}, false
	}
	g := Glob{Line: x.line(x.nodes[n].start), StartByte: uint(x.nodes[n].start)}
	switch joinSpace(x.text(f)) {
	case "import.meta.glob":
	case "import.meta.globEager":
		g.Eager = true
	default:
		return Glob{}, false
	}
	as := x.namedChildren(args)
	if len(as) == 0 || len(as) > 2 {
		return Glob{}, false
	}
	pats := []int32{x.unwrap(as[0])}
	if pats[0] >= 0 && x.nodes[pats[0]].kind == "array" {
		pats = x.namedChildren(pats[0])
	}
	for _, p := range pats {
		v, ok := x.stringValue(x.unwrap(p))
		if !ok {
			return Glob{}, false
		}
		g.Patterns = append(g.Patterns, v)
	}
	if len(g.Patterns) == 0 {
		return Glob{}, false
	}
	if len(as) == 2 && !x.globOptions(x.unwrap(as[1]), &g) {
		return Glob{}, false
	}
	return g, true
}

// globOptions reads an import.meta.glob's options object into g; false
// when it cannot (not an object literal, a spread, `base`, an `eager` or
// `import` that is not a literal).
func (x *extraction) globOptions(obj int32, g *Glob) bool {
	if obj < 0 || x.nodes[obj].kind != "object" {
		return false
	}
	for _, c := range x.namedChildren(obj) {
		if x.nodes[c].kind != "pair" {
			return false
		}
		k := x.child(c, "key")
		key := x.text(k)
		if s, ok := x.stringValue(k); ok {
			key = s
		}
		v := x.unwrap(x.child(c, "value"))
		if k < 0 || v < 0 {
			return false
		}
		switch key {
		case "base":
			return false
		case "eager":
			switch x.text(v) {
			case "true":
				g.Eager = true
			case "false":
				g.Eager = false
			default:
				return false
			}
		case "import":
			s, ok := x.stringValue(v)
			if !ok {
				return false
			}
			g.Import = s
		}
	}
	return true
}

// requireCall reports whether n is require("m") with a written specifier
// (one string argument, no substitution), and m.
func (x *extraction) requireCall(n int32) (string, bool) {
	f := x.child(n, "function")
	if f < 0 || x.nodes[f].kind != "identifier" || x.text(f) != "require" {
		return "", false
	}
	args := x.child(n, "arguments")
	if args < 0 {
		return "", false
	}
	a := x.firstNamed(args)
	if a < 0 || x.nodes[a].next >= 0 && x.nodes[x.nodes[a].next].kind != ")" {
		return "", false
	}
	return x.stringValue(a)
}

// patternKeys lists the property names an object pattern takes.
func (x *extraction) patternKeys(pat int32) []string {
	var keys []string
	for c := x.nodes[pat].first; c >= 0; c = x.nodes[c].next {
		switch x.nodes[c].kind {
		case "shorthand_property_identifier_pattern":
			keys = append(keys, x.text(c))
		case "object_assignment_pattern":
			if l := x.child(c, "left"); l >= 0 {
				keys = append(keys, x.text(l))
			}
		case "pair_pattern":
			if k := x.child(c, "key"); k >= 0 {
				if x.nodes[k].kind == "string" {
					if v, ok := x.stringValue(k); ok {
						keys = append(keys, v)
					}
				} else {
					keys = append(keys, x.text(k))
				}
			}
		}
	}
	return keys
}
