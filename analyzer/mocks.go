package analyzer

import (
	"slices"
	"strings"
)

// mocks records every `vi.mock(spec, factory?)` and `vi.doMock(...)` (and
// their `vitest.` spellings), and jest's `jest.mock` and `jest.doMock`
// (recorded as such: a factory that calls jest.requireActual is partial).
func (x *extraction) mocks() {
	for i := range x.nodes {
		n := int32(i)
		if x.nodes[n].kind != "call_expression" {
			continue
		}
		fnc := x.child(n, "function")
		if fnc < 0 || x.nodes[fnc].kind != "member_expression" {
			continue
		}
		call := joinSpace(x.text(fnc))
		if call == "vi.spyOn" {
			x.spyStub(n)
			continue
		}
		switch call {
		case "vi.mock", "vi.doMock", "vitest.mock", "vitest.doMock", "jest.mock", "jest.doMock":
		default:
			continue
		}
		args := x.child(n, "arguments")
		if args < 0 {
			continue
		}
		list := x.namedChildren(args)
		if len(list) == 0 {
			continue
		}
		spec, ok := x.stringValue(list[0])
		if !ok {
			if s, ok2 := x.importCall(list[0]); ok2 { // vi.mock(import("./m"), ...)
				spec, ok = s, true
			}
		}
		if !ok {
			continue
		}
		m := Mock{Call: strings.TrimPrefix(call, "vitest."), Specifier: spec, Line: x.line(x.nodes[n].start), Node: Node(n)}
		if m.Call == "mock" || m.Call == "doMock" {
			m.Call = "vi." + m.Call
		}
		if len(list) > 1 {
			m.Factory = true
			factory := x.unwrap(list[1])
			switch x.nodes[factory].kind {
			case "arrow_function", "function_expression", "function":
				m.FactoryStartByte, m.FactoryEndByte = uint(x.nodes[factory].start), uint(x.nodes[factory].end)
				m.Partial, m.Overrides = x.mockFactory(factory)
			case "object": // vi.mock(path, { spy: true }): every export a spy on the original
				m.Partial = x.spyOption(factory)
			}
		}
		x.file.Mocks = append(x.file.Mocks, m)
	}
}

// mockFactory reads a vi.mock factory: partial when it gets the original
// module (a call of its first parameter, whatever it is named:
// `importOriginal`, `orig`, `io<typeof import("m")>`; or vi.importActual),
// which loads the real module; and the exports its objects set (the object
// it returns, and any object that spreads something: `({ ...(await
// orig()), f: vi.fn() })`), each with whether it still runs the original
// (`vi.fn(mod.f)`, `mod.f`, a name destructured from the original). A
// factory that only names the parameter replaces the module whole.
func (x *extraction) mockFactory(factory int32) (partial bool, overrides []Override) {
	switch x.nodes[factory].kind {
	case "arrow_function", "function_expression", "function":
	default:
		return false, nil
	}
	param := ""
	if ps := x.params(factory); len(ps) > 0 {
		param = ps[0].Name
	}
	body := x.child(factory, "body")
	if body < 0 {
		return false, nil
	}
	getsOriginal := func(e int32) bool { // e: a call of the original
		fnc := x.typedCallee(e)
		if fnc < 0 {
			return false
		}
		switch callee := joinSpace(x.text(fnc)); callee {
		case "vi.importActual", "vitest.importActual", "jest.requireActual":
			return true
		default:
			return param != "" && callee == param
		}
	}
	bound := map[string]bool{} // names holding the original module, or a part of it
	var original func(e int32) bool
	original = func(e int32) bool {
		e = x.unwrapValue(e)
		switch {
		case e < 0:
			return false
		case x.nodes[e].kind == "identifier":
			return bound[x.text(e)]
		case x.nodes[e].kind == "member_expression": // mod.default, (await orig()).f
			return original(x.child(e, "object"))
		}
		return getsOriginal(e)
	}
	var objects []int32 // the objects that may set exports
	returned := func(e int32) {
		if e = x.unwrapValue(e); e >= 0 && x.nodes[e].kind == "object" {
			objects = append(objects, e)
		}
	}
	if x.nodes[body].kind != "statement_block" {
		returned(body) // () => ({ ... })
	}
	x.preorder(body, func(i int32) bool {
		switch x.nodes[i].kind {
		case "arrow_function", "function_expression", "function", "method_definition":
			return false // a stand-in's own body: not what the factory returns
		case "return_statement":
			returned(x.firstNamed(i))
		case "object":
			for c := x.nodes[i].first; c >= 0; c = x.nodes[c].next {
				if x.nodes[c].kind == "spread_element" && !slices.Contains(objects, i) {
					objects = append(objects, i)
				}
			}
		case "variable_declarator": // source order: a name is bound before it is used
			name, v := x.child(i, "name"), x.child(i, "value")
			if name >= 0 && v >= 0 && original(v) {
				for _, n := range x.patternNames(name) { // const m = ..., const { f, ...rest } = ...
					bound[x.text(n)] = true
				}
			}
		}
		return true
	})
	// Anywhere in the factory, a stand-in's body included (it loads the
	// real module when called), unless a function there names its own
	// parameter like the factory's.
	x.preorder(body, func(i int32) bool {
		switch x.nodes[i].kind {
		case "arrow_function", "function_expression", "function", "method_definition":
			for _, p := range x.params(i) {
				if slices.Contains(p.Bound, param) {
					return false
				}
			}
		case "call_expression", "binary_expression":
			partial = partial || getsOriginal(i)
		}
		return !partial
	})
	if !partial {
		return false, nil
	}
	for _, o := range objects {
		for c := x.nodes[o].first; c >= 0; c = x.nodes[c].next {
			var key string
			through := false
			switch x.nodes[c].kind {
			case "pair":
				k := x.child(c, "key")
				if k < 0 {
					continue
				}
				if v, ok := x.stringValue(k); ok {
					key = v
				} else {
					key = x.text(k)
				}
				if v := x.child(c, "value"); v >= 0 {
					through = x.callsThrough(v) || original(v)
				}
			case "shorthand_property_identifier":
				key = x.text(c)
				through = bound[key]
			default:
				continue
			}
			overrides = append(overrides, Override{Name: key, CallThrough: through})
		}
	}
	return true, overrides
}

// spyOption reports whether a vi.mock options object sets `spy: true`
// (automocked exports that call the original).
func (x *extraction) spyOption(obj int32) bool {
	for c := x.nodes[obj].first; c >= 0; c = x.nodes[c].next {
		if x.nodes[c].kind != "pair" {
			continue
		}
		if k, v := x.child(c, "key"), x.child(c, "value"); k >= 0 && v >= 0 && x.text(k) == "spy" && x.text(v) == "true" {
			return true
		}
	}
	return false
}

// typedCallee returns the callee of call e, or -1. `await io<T>()` parses
// as a call of `await io` (the callee is io), and `await vi.importActual<T>("m")`
// as the comparisons `await vi.importActual < T > ("m")`: its callee is
// vi.importActual.
func (x *extraction) typedCallee(e int32) int32 {
	switch x.nodes[e].kind {
	case "call_expression":
		return x.unwrapValue(x.child(e, "function"))
	case "binary_expression":
		l, r := x.child(e, "left"), x.child(e, "right")
		if l < 0 || r < 0 || x.nodes[l].kind != "binary_expression" || x.nodes[r].kind != "parenthesized_expression" {
			return -1
		}
		if op := x.child(e, "operator"); op < 0 || x.text(op) != ">" {
			return -1
		}
		if op := x.child(l, "operator"); op < 0 || x.text(op) != "<" {
			return -1
		}
		return x.unwrapValue(x.child(l, "left"))
	}
	return -1
}

// unwrapValue strips what does not change an expression's value:
// parentheses, await, `as T`, `satisfies T`, `<T>e` and `e!`.
func (x *extraction) unwrapValue(e int32) int32 {
	for e = x.unwrap(e); e >= 0 && x.nodes[e].kind == "await_expression"; e = x.unwrap(e) {
		e = x.firstNamed(e)
	}
	return e
}

// callsThrough reports whether a mock's value is `vi.fn(<something>)` (a
// call-through wrapper of the original, as oracle's own oracles write it),
// possibly followed by `.mockName(...)`; `vi.fn(() => 0)`, a function
// written there, is a stub of its own.
func (x *extraction) callsThrough(v int32) bool {
	for v >= 0 && x.nodes[v].kind == "call_expression" {
		fnc := x.child(v, "function")
		if fnc < 0 {
			return false
		}
		if joinSpace(x.text(fnc)) == "vi.fn" {
			args := x.child(v, "arguments")
			if args < 0 || x.firstNamed(args) < 0 {
				return false
			}
			switch x.nodes[x.unwrap(x.firstNamed(args))].kind {
			case "arrow_function", "function_expression", "function":
				return false // vi.fn(() => 0): a stub of its own
			}
			return true
		}
		if x.nodes[fnc].kind != "member_expression" {
			return false
		}
		v = x.child(fnc, "object") // vi.fn(f).mockName("f"): look at vi.fn(f)
	}
	return false
}

// spyStub records `vi.spyOn(ns, "f").mockImplementation(...)` (or
// mockReturnValue, mockResolvedValue...) on a namespace import `ns` of a
// module: the export f is replaced by a stub, like a partial vi.mock that
// sets it. A spy that only observes (no mock* call on it) replaces nothing.
func (x *extraction) spyStub(call int32) {
	args := x.child(call, "arguments")
	if args < 0 {
		return
	}
	list := x.namedChildren(args)
	if len(list) < 2 || x.nodes[list[0]].kind != "identifier" {
		return
	}
	name, ok := x.stringValue(list[1])
	if !ok {
		return
	}
	// The spy's result must be stubbed: vi.spyOn(...).mockX(...).
	p := x.nodes[call].parent
	if p < 0 || x.nodes[p].kind != "member_expression" {
		return
	}
	prop := x.child(p, "property")
	if prop < 0 || !strings.HasPrefix(x.text(prop), "mock") || x.text(prop) == "mockName" || x.text(prop) == "mockClear" || x.text(prop) == "mockReset" {
		return
	}
	ns := x.text(list[0])
	for _, im := range x.file.Imports {
		if im.Local == ns && im.Kind == ImportNamespace {
			x.file.Mocks = append(x.file.Mocks, Mock{Call: "vi.spyOn", Specifier: im.Specifier, Line: x.line(x.nodes[call].start), Node: Node(call),
				Factory: true, Partial: true, Overrides: []Override{{Name: name}}})
			return
		}
	}
}
