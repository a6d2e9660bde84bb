package analyzer

import "strings"

// mocks records every `vi.mock(spec, factory?)` and `vi.doMock(...)` (and
// their `vitest.` spellings).
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
		if call != "vi.mock" && call != "vi.doMock" && call != "vitest.mock" && call != "vitest.doMock" {
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
			factory := list[1]
			text := x.text(factory)
			m.Partial = strings.Contains(text, "importOriginal") || strings.Contains(text, "importActual")
			if m.Partial {
				m.Overrides = x.overrides(factory)
			}
		}
		x.file.Mocks = append(x.file.Mocks, m)
	}
}

// overrides lists the keys set by the object literals of a partial mock's
// factory that spread the original module, with whether each value still
// calls the original (`vi.fn(mod.f)`, `vi.fn(original.f)`).
func (x *extraction) overrides(factory int32) []Override {
	var out []Override
	x.preorder(factory, func(i int32) bool {
		if x.nodes[i].kind != "object" {
			return true
		}
		spreads := false
		for c := x.nodes[i].first; c >= 0; c = x.nodes[c].next {
			if x.nodes[c].kind == "spread_element" {
				spreads = true
			}
		}
		if !spreads {
			return true
		}
		for c := x.nodes[i].first; c >= 0; c = x.nodes[c].next {
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
					through = x.callsThrough(v)
				}
			case "shorthand_property_identifier":
				key = x.text(c)
			default:
				continue
			}
			out = append(out, Override{Name: key, CallThrough: through})
		}
		return false
	})
	return out
}

// callsThrough reports whether a mock's value is `vi.fn(<something>)` (a
// call-through wrapper of the original, as oracle's own oracles write it),
// possibly followed by `.mockName(...)`.
func (x *extraction) callsThrough(v int32) bool {
	for v >= 0 && x.nodes[v].kind == "call_expression" {
		fnc := x.child(v, "function")
		if fnc < 0 {
			return false
		}
		if joinSpace(x.text(fnc)) == "vi.fn" {
			args := x.child(v, "arguments")
			return args >= 0 && x.firstNamed(args) >= 0
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
