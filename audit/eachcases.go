package audit

import (
	"fmt"

	"github.com/oracle-ts/oracle/analyzer"
)

// The cases of a `.each` test (test.each, it.each, or a test in a
// describe.each) are tests of their own: vitest runs and reports each, so
// the integration test integrity table has a row for each, judged on its
// own. A case whose arguments make every assertion of the test body
// unreachable (`if (check) expect(...)` with check false for it) asserts
// nothing: FAIL, whatever the other cases do.

// testCase is one case of a test block: its name (the suites' titles and
// the test's, each level's case formatted), the line of its row, and what
// its callbacks' parameters are bound to.
type testCase struct {
	name  string
	line  int                         // its row's line; 0 for a test that is no .each case
	bound map[string]analyzer.EachArg // parameter names of the .each callbacks around it
}

// testCases are the cases of test block bi: one (its plain name) when
// neither it nor a suite around it is a `.each` with its table in place.
func testCases(tf *analyzer.TestFile, syn *analyzer.Syntax, bi int) []testCase {
	var chain []int
	for i := bi; i >= 0; i = tf.Blocks[i].Parent {
		chain = append([]int{i}, chain...)
	}
	out := []testCase{{bound: map[string]analyzer.EachArg{}}}
	for depth, i := range chain {
		b := &tf.Blocks[i]
		title := b.Title
		if title == "" {
			title = fmt.Sprintf("(line %d)", b.Line)
			if i == bi {
				title = fmt.Sprintf("(the %s at line %d)", b.Callee, b.Line)
			}
		}
		sep := " > "
		if depth == 0 {
			sep = ""
		}
		if !b.Has("each") || len(b.Cases) == 0 {
			for k := range out {
				out[k].name += sep + title
			}
			continue
		}
		var next []testCase
		for _, c := range out {
			for k, ec := range b.Cases {
				t := ec.Title
				if t == "" {
					t = fmt.Sprintf("%s [case %d]", title, k+1)
				}
				bound := bindParams(syn, b.Params, ec.Args)
				for name, a := range c.bound {
					if _, inner := bound[name]; !inner {
						bound[name] = a
					}
				}
				next = append(next, testCase{name: c.name + sep + t, line: ec.Line, bound: bound})
			}
		}
		out = next
	}
	return out
}

// bindParams binds a callback's parameters to a case's arguments: an
// identifier to its argument, the names of an object pattern to the
// properties of an object row.
func bindParams(syn *analyzer.Syntax, params analyzer.Node, args []analyzer.EachArg) map[string]analyzer.EachArg {
	bound := map[string]analyzer.EachArg{}
	if syn.Kind(params) == "identifier" { // x => ...
		if len(args) > 0 {
			bound[syn.Text(params)] = args[0]
		}
		return bound
	}
	for i, p := range syn.NamedChildren(params) {
		if i >= len(args) || syn.Kind(p) != "required_parameter" && syn.Kind(p) != "optional_parameter" {
			continue
		}
		pat := syn.Child(p, "pattern")
		switch syn.Kind(pat) {
		case "identifier":
			bound[syn.Text(pat)] = args[i]
		case "object_pattern":
			for _, f := range syn.NamedChildren(pat) {
				switch syn.Kind(f) {
				case "shorthand_property_identifier_pattern":
					if v, ok := args[i].Fields[syn.Text(f)]; ok {
						bound[syn.Text(f)] = analyzer.EachArg{Node: v}
					}
				case "pair_pattern":
					k, v := syn.Child(f, "key"), syn.Child(f, "value")
					if n, ok := args[i].Fields[syn.Text(k)]; ok && syn.Kind(v) == "identifier" {
						bound[syn.Text(v)] = analyzer.EachArg{Node: n}
					}
				}
			}
		}
	}
	return bound
}

// caseUnasserted says why case c of test block bi reaches none of the
// test's assertions ("" when one is reachable, or the test has none: the
// other rules judge that). An assertion is unreachable for the case under
// a condition its arguments decide against it: an if or else branch, a
// ternary's, the right side of && or ||, or after `if (cond) return`.
func caseUnasserted(syn *analyzer.Syntax, tf *analyzer.TestFile, bi int, c testCase) string {
	if len(c.bound) == 0 {
		return ""
	}
	body := tf.Blocks[bi].Body
	bound := map[string]analyzer.EachArg{}
	for k, v := range c.bound {
		bound[k] = v
	}
	syn.Walk(body, func(n analyzer.Node) bool { // a name the body rebinds or shadows is not the case's value
		var names []analyzer.Node
		switch syn.Kind(n) {
		case "assignment_expression", "augmented_assignment_expression":
			names = syn.PatternNames(syn.Child(n, "left"))
		case "update_expression":
			names = []analyzer.Node{syn.Child(n, "argument")}
		case "variable_declarator":
			names = syn.PatternNames(syn.Child(n, "name"))
		case "required_parameter", "optional_parameter":
			names = syn.PatternNames(syn.Child(n, "pattern"))
		case "arrow_function", "catch_clause":
			names = syn.PatternNames(syn.Child(n, "parameter"))
		}
		for _, x := range names {
			delete(bound, syn.Text(x))
		}
		return true
	})
	c.bound = bound
	why := ""
	for _, a := range tf.Assertions {
		if a.Block != bi {
			continue
		}
		w := unreachable(syn, body, a.Call, c.bound)
		if w == "" {
			return ""
		}
		if why == "" {
			why = fmt.Sprintf("%s (the assertion at line %d)", w, a.Line)
		}
	}
	return why
}

// unreachable says which condition keeps n from running for the bound
// arguments, "" when none does.
func unreachable(syn *analyzer.Syntax, body, n analyzer.Node, bound map[string]analyzer.EachArg) string {
	decided := func(cond analyzer.Node, want bool) string {
		if v, ok := evalCase(syn, cond, bound); ok && v.Truthy() != want {
			return fmt.Sprintf("`%s` at line %d is %v for it", oneLine(syn.Text(syn.Unwrap(cond))), syn.Line(syn.Start(cond)), v.Truthy())
		}
		return ""
	}
	for x := n; x >= 0 && x != body; x = syn.Parent(x) {
		p := syn.Parent(x)
		var w string
		switch syn.Kind(p) {
		case "if_statement":
			if syn.Field(x) == "consequence" {
				w = decided(syn.Child(p, "condition"), true)
			} else if syn.Kind(x) == "else_clause" {
				w = decided(syn.Child(p, "condition"), false)
			}
		case "ternary_expression":
			switch syn.Field(x) {
			case "consequence":
				w = decided(syn.Child(p, "condition"), true)
			case "alternative":
				w = decided(syn.Child(p, "condition"), false)
			}
		case "binary_expression":
			if syn.Field(x) == "right" {
				switch syn.Text(syn.Child(p, "operator")) {
				case "&&":
					w = decided(syn.Child(p, "left"), true)
				case "||":
					w = decided(syn.Child(p, "left"), false)
				}
			}
		}
		if w == "" && p == body {
			w = returnedBefore(syn, body, x, bound)
		}
		if w != "" {
			return w
		}
	}
	return ""
}

// returnedBefore is the `if (cond) return` before statement st of body
// whose condition is true for the bound arguments.
func returnedBefore(syn *analyzer.Syntax, body, st analyzer.Node, bound map[string]analyzer.EachArg) string {
	for s := syn.FirstChild(body); s >= 0 && s != st; s = syn.Next(s) {
		if syn.Kind(s) != "if_statement" || syn.Child(s, "alternative") >= 0 {
			continue
		}
		then := syn.Child(s, "consequence")
		if syn.Kind(then) == "statement_block" {
			then = syn.FirstNamed(then)
		}
		if syn.Kind(then) != "return_statement" {
			continue
		}
		cond := syn.Child(s, "condition")
		if v, ok := evalCase(syn, cond, bound); ok && v.Truthy() {
			return fmt.Sprintf("`if %s return` at line %d returns for it", oneLine(syn.Text(cond)), syn.Line(syn.Start(s)))
		}
	}
	return ""
}

// evalCase evaluates expression n when the bound arguments decide it: a
// literal, a bound name or a property of a bound object row, !, ===, !==,
// ==, !=, <, <=, >, >=, && and ||.
func evalCase(syn *analyzer.Syntax, n analyzer.Node, bound map[string]analyzer.EachArg) (analyzer.Literal, bool) {
	n = syn.Unwrap(n)
	switch syn.Kind(n) {
	case "identifier":
		if a, ok := bound[syn.Text(n)]; ok {
			return syn.LiteralValue(a.Node)
		}
	case "member_expression":
		obj, prop := syn.Unwrap(syn.Child(n, "object")), syn.Child(n, "property")
		if a, ok := bound[syn.Text(obj)]; ok && syn.Kind(obj) == "identifier" && syn.Kind(prop) == "property_identifier" {
			if v, ok := a.Fields[syn.Text(prop)]; ok {
				return syn.LiteralValue(v)
			}
		}
		return analyzer.Literal{}, false
	case "unary_expression":
		if syn.Text(syn.Child(n, "operator")) == "!" {
			v, ok := evalCase(syn, syn.Child(n, "argument"), bound)
			return boolLiteral(!v.Truthy()), ok
		}
	case "binary_expression":
		return evalBinary(syn, n, bound)
	}
	return syn.LiteralValue(n)
}

func evalBinary(syn *analyzer.Syntax, n analyzer.Node, bound map[string]analyzer.EachArg) (analyzer.Literal, bool) {
	op := syn.Text(syn.Child(n, "operator"))
	l, lok := evalCase(syn, syn.Child(n, "left"), bound)
	switch op {
	case "&&":
		if lok && !l.Truthy() {
			return l, true
		}
		r, rok := evalCase(syn, syn.Child(n, "right"), bound)
		return r, lok && rok
	case "||":
		if lok && l.Truthy() {
			return l, true
		}
		r, rok := evalCase(syn, syn.Child(n, "right"), bound)
		return r, lok && rok
	}
	r, rok := evalCase(syn, syn.Child(n, "right"), bound)
	if !lok || !rok {
		return analyzer.Literal{}, false
	}
	nullish := func(v analyzer.Literal) bool { return v.Kind == "null" || v.Kind == "undefined" }
	switch op {
	case "===", "!==", "==", "!=":
		eq := l.Kind == r.Kind && l.Str == r.Str && l.Num == r.Num
		if op == "==" || op == "!=" {
			if nullish(l) && nullish(r) {
				eq = true
			} else if l.Kind != r.Kind {
				return analyzer.Literal{}, false // loose equality across types: not evaluated
			}
		}
		return boolLiteral(eq == (op[0] == '=')), true
	case "<", "<=", ">", ">=":
		if l.Kind != "number" || r.Kind != "number" {
			return analyzer.Literal{}, false
		}
		return boolLiteral(map[string]bool{"<": l.Num < r.Num, "<=": l.Num <= r.Num, ">": l.Num > r.Num, ">=": l.Num >= r.Num}[op]), true
	}
	return analyzer.Literal{}, false
}

func boolLiteral(b bool) analyzer.Literal {
	v := analyzer.Literal{Kind: "boolean"}
	if b {
		v.Num = 1
	}
	return v
}
