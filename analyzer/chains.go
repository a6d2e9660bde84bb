package analyzer

import "strings"

// This file reads the value chains the graph follows through types: a
// callee reached through a call's result or an element access
// (`this.nullable().optional()`, `this.#tries[method].insert()`), and what
// decides the type of a member that declares none (a method's returned
// value, a field's initializer or constructor assignment).

// valueOf reads expression e as a chain of member reads, calls and element
// accesses from `this`, an identifier or `new X()`; nil for anything else.
func (x *extraction) valueOf(e int32) *Value {
	var steps []Step
loop:
	for {
		for e >= 0 && x.nodes[e].kind == "non_null_expression" {
			e = x.rightmost(x.firstNamed(e))
		}
		if e < 0 {
			return nil
		}
		switch x.nodes[e].kind {
		case "member_expression":
			prop := x.child(e, "property")
			if prop < 0 || x.nodes[prop].kind != "property_identifier" && x.nodes[prop].kind != "private_property_identifier" {
				return nil
			}
			steps = append(steps, Step{Kind: StepMember, Name: x.text(prop)})
			e = x.child(e, "object")
		case "subscript_expression":
			if key, ok := x.stringValue(x.child(e, "index")); ok {
				steps = append(steps, Step{Kind: StepMember, Name: key})
			} else {
				steps = append(steps, Step{Kind: StepIndex})
			}
			e = x.child(e, "object")
		case "call_expression":
			f := x.child(e, "function")
			if f < 0 || x.nodes[f].kind == "import" || x.nodes[f].kind == "super" {
				return nil
			}
			if a := x.child(e, "arguments"); a >= 0 && x.nodes[a].kind == "template_string" {
				return nil
			}
			st := Step{Kind: StepCall}
			if ta := x.child(e, "type_arguments"); ta >= 0 {
				t := annotation(x.text(ta))
				for _, a := range SplitTop(t[1:len(t)-1], ',') {
					st.TypeArgs = append(st.TypeArgs, strings.TrimSpace(a))
				}
			}
			steps = append(steps, st)
			e = f
		case "parenthesized_expression":
			in := x.firstNamed(e)
			if in < 0 {
				return nil
			}
			switch x.nodes[in].kind {
			case "member_expression", "subscript_expression", "call_expression", "non_null_expression", "this", "identifier":
				e = in
			case "as_expression":
				// (x as T).m(): the value has the type written, T.
				t := x.lastNamed(in)
				if t < 0 || t == x.firstNamed(in) || x.text(t) == "const" {
					return nil
				}
				typ := x.declaredType(t)
				if typ == "" {
					return nil
				}
				for a, b := 0, len(steps)-1; a < b; a, b = a+1, b-1 {
					steps[a], steps[b] = steps[b], steps[a]
				}
				return &Value{Type: typ, Steps: steps}
			default:
				return nil
			}
		default:
			break loop
		}
	}
	for a, b := 0, len(steps)-1; a < b; a, b = a+1, b-1 {
		steps[a], steps[b] = steps[b], steps[a]
	}
	v := &Value{Steps: steps}
	switch x.nodes[e].kind {
	case "this":
		v.Root = "this"
	case "identifier":
		v.Root = x.text(e)
		v.Binding = x.resolve(v.Root, e)
		if v.Binding.Type != "" {
			v.Binding.Narrowed = x.narrowedIn(v.Root, e)
		}
	case "new_expression":
		if v.Type = x.newType(e); v.Type == "" {
			return nil
		}
	default:
		return nil
	}
	return v
}

// chainCallee is the callee fnc as a chain through a call's result or an
// element access (Callee.Chain), when it is one that ends in a member.
func (x *extraction) chainCallee(fnc int32) Callee {
	v := x.valueOf(fnc)
	if v == nil || len(v.Steps) == 0 || v.Steps[len(v.Steps)-1].Kind != StepMember {
		return Callee{Kind: CalleeOther}
	}
	through := v.Root == "" // new X().m()
	for _, s := range v.Steps[:len(v.Steps)-1] {
		through = through || s.Kind != StepMember
	}
	if !through {
		return Callee{Kind: CalleeOther}
	}
	cl := Callee{Kind: CalleeOther, Chain: v}
	if v.Root == "this" {
		var this int32 = fnc
		for this >= 0 && x.nodes[this].kind != "this" {
			this = x.chainRoot(this)
		}
		if this >= 0 {
			cl.ThisClass, cl.ThisStatic, _ = x.thisClass(this)
			if cl.ThisClass == "" {
				cl.ThisType, cl.ThisFrom = x.thisType(this)
			}
		}
	} else if v.Root != "" {
		cl.Root, cl.Binding = v.Root, v.Binding
	}
	return cl
}

// chainRoot is the next node inward in a chain (what valueOf walks).
func (x *extraction) chainRoot(e int32) int32 {
	switch x.nodes[e].kind {
	case "non_null_expression":
		return x.rightmost(x.firstNamed(e))
	case "member_expression", "subscript_expression":
		return x.child(e, "object")
	case "call_expression":
		return x.child(e, "function")
	case "parenthesized_expression":
		return x.firstNamed(e)
	}
	return -1
}

// pendingMember is a class member whose type inference waits until the
// scopes are complete (after the calls are extracted).
type pendingMember struct {
	class *Class
	index int   // in class.Members
	node  int32 // the method_definition, or the field's value (-1: none)
	body  int32 // the class body (a field without a value: its constructor is looked for there)
}

// inferMembers fills Member.Inferred of the members class() set aside,
// and every function's declared return type and type parameters.
func (x *extraction) inferMembers() {
	for _, fi := range x.funcs {
		if t := x.child(fi.node, "return_type"); t >= 0 {
			fi.fn.Returns = annotation(x.text(t))
		}
		fi.fn.TypeParams = x.typeParams(fi.node)
	}
	for _, pm := range x.pending {
		m := &pm.class.Members[pm.index]
		switch {
		case !m.Field:
			m.Inferred = x.returned(pm.node, pm.class)
		case pm.node >= 0:
			m.Inferred = x.fieldValue(pm.node)
		default:
			m.Inferred = x.constructorAssigned(pm.body, m.Name)
		}
	}
}

// fieldValue is a field initializer the graph can follow: a chain from
// `this` (`b = this.a.child`, `c = this.make()`).
func (x *extraction) fieldValue(v int32) *Value {
	val := x.valueOf(v)
	if val == nil || val.Root != "this" || len(val.Steps) == 0 {
		return nil
	}
	return val
}

// constructorAssigned is what the constructor of class body assigns to
// this.name when it does so exactly once, outside any nested function
// (TypeScript infers such a field's type from its constructor's
// assignments): a chain from `this`, or `new X()`.
func (x *extraction) constructorAssigned(body int32, name string) *Value {
	ctor := int32(-1)
	for m := x.nodes[body].first; m >= 0; m = x.nodes[m].next {
		if x.nodes[m].kind == "method_definition" && !x.hasToken(m, "static") {
			if n := x.child(m, "name"); n >= 0 && x.text(n) == "constructor" {
				ctor = m
			}
		}
	}
	if ctor < 0 {
		return nil
	}
	b := x.child(ctor, "body")
	if b < 0 {
		return nil
	}
	var found []int32
	nested := false
	x.preorder(b, func(n int32) bool {
		k := x.nodes[n].kind
		if n != b && (isFunctionLike(k) || k == "class_body") {
			// An assignment in a nested function: not one the
			// constructor's own flow decides.
			x.preorder(n, func(m int32) bool {
				if x.thisAssignment(m, name) >= 0 {
					nested = true
				}
				return !nested
			})
			return false
		}
		if v := x.thisAssignment(n, name); v >= 0 {
			found = append(found, v)
		}
		return true
	})
	if nested || len(found) != 1 {
		return nil
	}
	v := x.parens(found[0])
	if t := x.newType(v); t != "" {
		return &Value{Type: t}
	}
	return x.fieldValue(v)
}

// thisAssignment is the value of n when n is `this.name = value` (plain
// `=`), else -1.
func (x *extraction) thisAssignment(n int32, name string) int32 {
	if x.nodes[n].kind != "assignment_expression" {
		return -1
	}
	left := x.child(n, "left")
	if left < 0 || x.nodes[left].kind != "member_expression" {
		return -1
	}
	obj, prop := x.child(left, "object"), x.child(left, "property")
	if obj < 0 || prop < 0 || x.nodes[obj].kind != "this" || x.text(prop) != name {
		return -1
	}
	return x.child(n, "right")
}

// returned is what every return statement of method m returns when they
// all return the same: `this`, `new X()` (its type), or a const local
// initialized with one or annotated (its type; only where no type
// parameter is in scope, which the local's type could name). nil when a
// return has no value or another expression, or there is none; async
// methods and generators return a Promise or a Generator: nil.
func (x *extraction) returned(m int32, c *Class) *Value {
	if x.hasToken(m, "async") || x.hasToken(m, "*") || x.child(m, "return_type") >= 0 {
		return nil
	}
	body := x.child(m, "body")
	if body < 0 || x.nodes[body].kind != "statement_block" {
		return nil
	}
	var out *Value
	ok, any := true, false
	x.preorder(body, func(n int32) bool {
		if !ok {
			return false
		}
		k := x.nodes[n].kind
		if n != body && (isFunctionLike(k) || k == "class_body" || k == "class") {
			return false
		}
		if k != "return_statement" {
			return true
		}
		any = true
		e := x.parens(x.firstNamed(n))
		var v *Value
		switch {
		case e < 0:
		case x.nodes[e].kind == "this":
			v = &Value{Root: "this"}
		case x.nodes[e].kind == "new_expression":
			if t := x.newType(e); t != "" {
				v = &Value{Type: t}
			}
		case x.nodes[e].kind == "identifier":
			b := x.resolve(x.text(e), e)
			if b.Kind == BindLocal && strings.HasPrefix(b.Detail, "const ") && b.Type != "" && b.Function == "" && b.Class == "" &&
				len(c.TypeParams) == 0 && x.child(m, "type_parameters") < 0 && !x.narrowedIn(x.text(e), e) {
				v = &Value{Type: b.Type}
			}
		}
		switch {
		case v == nil:
			ok = false
		case out == nil:
			out = v
		case out.Root != v.Root || out.Type != v.Type:
			ok = false
		}
		return false
	})
	if !ok || !any {
		return nil
	}
	return out
}

// parens skips parentheses, `!` and `satisfies` around an expression: what
// keeps its type (unlike unwrap, which also skips `as` and `<T>x`).
func (x *extraction) parens(i int32) int32 {
	for i >= 0 {
		switch x.nodes[i].kind {
		case "parenthesized_expression", "satisfies_expression", "non_null_expression":
			i = x.firstNamed(i)
		default:
			return i
		}
	}
	return i
}
