package analyzer

import "strings"

// callsAtOnce are the callees (a member's name, or a global function's) known
// to call a function passed to them during the call, or soon after in the
// same process: the array and string methods that iterate, the promise
// methods, JSON's reviver and replacer, the timers. A callback passed to any
// other call may only be registered there (commander's `.action(cb)`, zod's
// `.refine(cb)`): it runs when the value the call returns is used.
var callsAtOnce = map[string]bool{
	"map": true, "filter": true, "forEach": true, "reduce": true, "reduceRight": true,
	"some": true, "every": true, "find": true, "findIndex": true, "findLast": true,
	"findLastIndex": true, "flatMap": true, "sort": true, "toSorted": true, "from": true,
	"replace": true, "replaceAll": true, "then": true, "catch": true, "finally": true,
	"parse": true, "stringify": true, "setTimeout": true, "setInterval": true,
	"setImmediate": true, "queueMicrotask": true, "nextTick": true, "Promise": true,
}

// heldBy sets Function.HeldBy on the module-level function values (FuncProperty,
// FuncExpression) that run only through the top-level variable whose initializer
// holds them: an object literal's method, or a callback its initializer passes to a
// call not known to call it at once (callsAtOnce). Loading the module does not run
// them; using the variable may. A value the initializer calls itself (an IIFE), one
// not in a variable's initializer (a statement's, `export default`'s), and one of a
// variable the module reads anywhere else (its own functions may hand it on) keep
// HeldBy "": loading the module counts as running them, as before.
func (x *extraction) heldBy() {
	holders := map[*Function]string{}
	for n, fn := range x.fnOf {
		if fn.Parent == nil && (fn.Kind == FuncProperty || fn.Kind == FuncExpression) {
			if name := x.holder(n); name != "" {
				holders[fn] = name
			}
		}
	}
	if len(holders) == 0 {
		return
	}
	names := map[string]bool{}
	for _, name := range holders {
		names[name] = true
	}
	read := x.readElsewhere(names)
	for fn, name := range holders {
		if !read[name] {
			fn.HeldBy = name
		}
	}
}

// holder is the top-level variable whose initializer holds function node n and
// does not call it at once, or "".
func (x *extraction) holder(n int32) string {
	for cur := n; ; {
		p := x.nodes[cur].parent
		if p < 0 {
			return ""
		}
		switch x.nodes[p].kind {
		case "call_expression", "new_expression":
			if x.nodes[cur].field == "function" || x.nodes[cur].field == "constructor" {
				return "" // called right here: (() => ...)()
			}
		case "arguments":
			if x.atOnce(x.nodes[p].parent) {
				return ""
			}
		case "variable_declarator":
			if x.nodes[cur].field != "value" {
				return ""
			}
			return x.topLevelName(p)
		case "expression_statement", "export_statement", "assignment_expression",
			"augmented_assignment_expression", "program", "statement_block", "class_body":
			return ""
		}
		cur = p
	}
}

// atOnce reports whether call (a call or new expression) is one of callsAtOnce.
func (x *extraction) atOnce(call int32) bool {
	if call < 0 {
		return true
	}
	field := "function"
	if x.nodes[call].kind == "new_expression" {
		field = "constructor"
	}
	callee := x.unwrap(x.child(call, field))
	if callee < 0 {
		return true
	}
	switch x.nodes[callee].kind {
	case "identifier":
		return callsAtOnce[x.text(callee)]
	case "member_expression":
		if prop := x.child(callee, "property"); prop >= 0 {
			return callsAtOnce[x.text(prop)]
		}
	}
	return true // a computed callee: it may be anything
}

// topLevelName is the name declarator d binds when its declaration is a
// statement of the module (exported or not), "" otherwise.
func (x *extraction) topLevelName(d int32) string {
	name := x.child(d, "name")
	if name < 0 || x.nodes[name].kind != "identifier" {
		return ""
	}
	decl := x.nodes[d].parent
	if decl < 0 {
		return ""
	}
	up := x.nodes[decl].parent
	if up >= 0 && x.nodes[up].kind == "export_statement" {
		up = x.nodes[up].parent
	}
	if up != 0 {
		return ""
	}
	return x.text(name)
}

// readElsewhere reports which of names the module's code reads anywhere but in
// their own declarator's name and an `export { name }` (`as` another name too:
// taking that export takes the variable): any identifier of
// that name counts, shadowing ones included (more reads, never fewer). A file
// with JSX or decorators reads names its text does not show: every name counts
// as read there.
func (x *extraction) readElsewhere(names map[string]bool) map[string]bool {
	read := map[string]bool{}
	for i := range x.nodes {
		n := int32(i)
		k := x.nodes[n].kind
		if strings.HasPrefix(k, "jsx_") || k == "decorator" {
			return names
		}
		if k != "identifier" && k != "shorthand_property_identifier" {
			continue
		}
		name := x.text(n)
		if !names[name] {
			continue
		}
		p := x.nodes[n].parent
		switch {
		case p >= 0 && x.nodes[p].kind == "variable_declarator" && x.nodes[n].field == "name":
		case p >= 0 && x.nodes[p].kind == "export_specifier" && x.nodes[n].field == "name":
		default:
			read[name] = true
		}
	}
	return read
}
