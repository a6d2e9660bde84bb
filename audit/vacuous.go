package audit

import (
	"fmt"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/text"
)

// VacuousTest reports tests that cannot fail, each kind a sub-rule of its
// own (the finding's rule is "vacuous-test/<kind>"):
//
//   - no-assertion: a test whose body calls no expect/assert, directly or
//     through a helper function of the test file or of a module it imports
//     that does (or only after an unconditional return); off by default,
//     and type tests (a .test-d.ts file, @ts-expect-error) are not checked;
//   - constant-assertion: every assertion is on a constant
//     (`expect(true).toBe(true)`); one that always passes among real
//     assertions is a finding too, of severity info, on its line;
//   - self-comparison: an assertion comparing an expression with itself
//     (`expect(x).toBe(x)`, `toEqual` of the same expression);
//   - missing-matcher: `expect(x)` with no matcher called on it;
//   - swallowed-assertion: a try whose catch swallows what an assertion
//     in its block throws (no rethrow, no assertion in the catch, and what
//     it records of the error, `lastError = e`, read by no assertion after);
//   - unchecked-callback: every assertion sits in a callback that may never
//     run (then/catch, an event, a timer, an iteration of an array the test
//     built empty, a callback option it passes and cannot check was called),
//     with no expect.assertions/hasAssertions;
//   - only: a committed `.only` (error: every other test is skipped).
var VacuousTest = &Rule{
	Name:     "vacuous-test",
	Doc:      "a test that cannot fail",
	Requires: []Fact{TestFiles, Reach},
	Run:      func(p *Pass) error { p.reportAll(vacuousTests(p)); return nil },
}

// Info is the severity of a finding that is evidence but less than a
// warning (a constant assertion among real ones).
const Info Severity = "info"

func vacuousTests(p *Pass) []Finding {
	var out []Finding
	touched := p.touchedFunctions()
	shared := map[string]map[string]bool{} // asserting functions of imported modules, by module
	p.TestFiles.Each(func(t string, in *TestInput) {
		if in.Syntax == nil {
			return
		}
		tf := in.Structure
		if p.Enable["vacuous-test/no-assertion"] && in.File != nil {
			if imported := importedHelpers(p.Program, t, in.File, shared); len(imported) > 0 {
				tf = analyzer.TestStructureWith(in.Syntax, imported)
			}
		}
		out = append(out, vacuousIn(t, in.Syntax, tf, p.Enable)...)
		var changed []string
		for _, id := range touched {
			if p.Reach.tests[t].fns[id] {
				changed = append(changed, id)
			}
		}
		if len(changed) > 0 {
			out = append(out, skippedIn(t, tf, changed)...)
		}
	})
	return out
}

// vacuousIn checks the tests of one test file, tf its structure.
func vacuousIn(file string, syn *analyzer.Syntax, tf *analyzer.TestFile, enabled map[string]bool) []Finding {
	var out []Finding
	find := func(kind string, sev Severity, n analyzer.Node, format string, a ...any) {
		out = append(out, Finding{Rule: "vacuous-test/" + kind, Severity: sev, File: file, Line: syn.Line(syn.Start(n)), Message: fmt.Sprintf(format, a...)})
	}
	helpers := tf.Helpers
	for i := range tf.Blocks {
		b := &tf.Blocks[i]
		if b.Has("only") {
			find("only", Error, b.Call, "a committed %s: every other test of the file is skipped", b.Callee)
		}
		if b.Kind != analyzer.KindTest || b.Body < 0 || b.Has("skip") || b.Has("todo") {
			continue
		}
		n, title, body := b.Call, b.Title, b.Body
		returned, afterReturn := false, false
		for st := syn.FirstChild(body); st >= 0 && syn.Kind(body) == "statement_block"; st = syn.Next(st) {
			if returned && analyzer.CountAssertions(syn, st, helpers) > 0 {
				afterReturn = true
			}
			if syn.Kind(st) == "return_statement" {
				returned = true // `return expect(...)...` asserts before it returns
			}
		}
		asserts, constant := 0, 0
		var missing []analyzer.Node
		for _, a := range tf.Assertions {
			if syn.Start(a.Call) < syn.Start(body) || syn.End(a.Call) > syn.End(body) {
				continue
			}
			asserts++
			if a.Constant {
				constant++
			}
			if !a.Matcher {
				missing = append(missing, a.Call)
			}
		}
		switch {
		case asserts == 0:
			// Off by default (Options.Enable): on real suites most tests
			// without an expect are type tests or smoke tests that fail when
			// the code throws; measured precision is under the 90% bar.
			if enabled["vacuous-test/no-assertion"] && !typeTest(file, syn, body) {
				find("no-assertion", Warning, n, "test %q asserts nothing: it passes unless the code throws", title)
			}
		case afterReturn && countBefore(syn, body, helpers) == 0:
			find("no-assertion", Warning, n, "test %q asserts only after an unconditional return: no assertion runs", title)
		case constant == asserts:
			find("constant-assertion", Warning, n, "test %q asserts only on constants: it passes whatever the code does", title)
		default:
			for _, a := range tf.Assertions {
				if a.Constant && within(syn, a.Call, body) && alwaysPasses(syn, a.Call) {
					find("constant-assertion", Info, a.Call, "in test %q, `%s` asserts on constants: it passes whatever the code does", title, text.OneLine(assertionText(syn, a.Call), 60))
				}
			}
		}
		for _, a := range tf.Assertions {
			if a.Kind == "expect" && within(syn, a.Call, body) && selfComparison(syn, a.Call) {
				find("self-comparison", Warning, a.Call, "in test %q, `%s` compares a value with itself: it passes whatever the code does", title, text.OneLine(assertionText(syn, a.Call), 60))
			}
		}
		if asserts > 0 && asserts == callbackAsserts(syn, body, helpers) && !countsAssertions(syn, body) {
			find("unchecked-callback", Warning, n, "test %q asserts only inside callbacks that may never run (then/catch, an event, a timer, an iteration of an empty array, a callback option) and does not check expect.assertions/hasAssertions: it passes if they do not run", title)
		}
		for _, e := range missing {
			find("missing-matcher", Warning, e, "in test %q, `%s` calls no matcher: it asserts nothing", title, text.OneLine(syn.Text(e), 50))
		}
		swallowedIn(syn, body, title, helpers, find)
	}
	for _, a := range tf.Assertions {
		if c := syn.Callee(a.Call); a.Block < 0 && (c == "expect" || c == "expect.soft") && standalone(syn, tf, a.Call) {
			find("standalone-expect", Warning, a.Call, "`%s` is outside every test (at the top level or in a describe body): it belongs to no test, runs once while vitest collects the file, and no test reports it", text.OneLine(assertionText(syn, a.Call), 60))
		}
	}
	return out
}

// swallowedIn finds the assertions the test titled title swallows in its
// body: a .catch on an expect, a catch (neither rethrowing nor asserting)
// of a try that asserts.
func swallowedIn(syn *analyzer.Syntax, body analyzer.Node, title string, helpers map[string]bool, find func(kind string, sev Severity, n analyzer.Node, format string, a ...any)) {
	syn.Walk(body, func(t analyzer.Node) bool {
		if e, ok := caughtExpect(syn, t, helpers); ok {
			find("swallowed-assertion", Warning, t, "in test %q, the .catch on `%s` swallows its assertion error: a failing assertion passes", title, text.OneLine(syn.Text(e), 50))
			return true
		}
		if syn.Kind(t) != "try_statement" {
			return true
		}
		block, handler := syn.Child(t, "body"), syn.Child(t, "handler")
		if handler < 0 || analyzer.CountAssertions(syn, block, helpers) == 0 {
			return true
		}
		hbody := syn.Child(handler, "body")
		if param := syn.Child(handler, "parameter"); param >= 0 && readsAfter(syn, body, syn.End(t), helpers, recorded(syn, hbody, syn.Text(param))) {
			return true // the catch records the error for an assertion after the try: deliberate
		}
		rethrows := false
		syn.Walk(hbody, func(x analyzer.Node) bool {
			if syn.Kind(x) == "throw_statement" {
				rethrows = true
			}
			return true
		})
		if !rethrows && analyzer.CountAssertions(syn, hbody, helpers) == 0 {
			find("swallowed-assertion", Warning, t, "in test %q, the catch swallows the assertion error of its try: a failing assertion passes", title)
		}
		return true
	})
}

// standalone reports an expect call that no function holds but the
// callbacks of suites (describe): the top level of the file or a describe
// body (eslint-plugin-vitest's no-standalone-expect). One in a helper
// function, a hook or a test is not.
func standalone(syn *analyzer.Syntax, tf *analyzer.TestFile, call analyzer.Node) bool {
	for n := syn.Parent(call); n >= 0; n = syn.Parent(n) {
		switch syn.Kind(n) {
		case "arrow_function", "function_expression", "function_declaration", "method_definition", "generator_function", "generator_function_declaration", "class_body":
			args := syn.Parent(n)
			suite := false
			for _, b := range tf.Blocks {
				suite = suite || b.Kind == analyzer.KindSuite && syn.Kind(args) == "arguments" && syn.Parent(args) == b.Call
			}
			if !suite {
				return false
			}
		}
	}
	return true
}

// caughtExpect reports a `.catch(handler)` (or `.then(f, handler)`) called
// on an expect chain (`expect(p).resolves.toBe(1).catch(() => {})`) whose
// handler neither rethrows nor asserts: the assertion's error is
// swallowed. It returns the expect call.
func caughtExpect(syn *analyzer.Syntax, n analyzer.Node, helpers map[string]bool) (analyzer.Node, bool) {
	fnc := syn.Child(n, "function")
	if syn.Kind(n) != "call_expression" || syn.Kind(fnc) != "member_expression" {
		return analyzer.NoNode, false
	}
	args := syn.NamedChildren(syn.Child(n, "arguments"))
	var handler analyzer.Node = analyzer.NoNode
	switch syn.Text(syn.Child(fnc, "property")) {
	case "catch":
		if len(args) == 1 {
			handler = args[0]
		}
	case "then":
		if len(args) == 2 {
			handler = args[1]
		}
	}
	if k := syn.Kind(handler); k != "arrow_function" && k != "function_expression" {
		return analyzer.NoNode, false
	}
	// The root of the chain: expect(...) called on nothing.
	root := syn.Child(fnc, "object")
	for {
		switch syn.Kind(root) {
		case "call_expression":
			f := syn.Child(root, "function")
			if syn.Kind(f) == "member_expression" {
				root = syn.Child(f, "object")
				continue
			}
		case "member_expression":
			root = syn.Child(root, "object")
			continue
		case "parenthesized_expression", "await_expression":
			root = syn.FirstNamed(root)
			continue
		}
		break
	}
	if c := syn.Callee(root); syn.Kind(root) != "call_expression" || c != "expect" && c != "expect.soft" {
		return analyzer.NoNode, false
	}
	swallows := true
	syn.Walk(handler, func(x analyzer.Node) bool {
		if syn.Kind(x) == "throw_statement" {
			swallows = false
		}
		return swallows
	})
	if !swallows || analyzer.CountAssertions(syn, handler, helpers) > 0 {
		return analyzer.NoNode, false
	}
	return root, true
}

// countBefore counts the assertions of body before its first top-level
// unconditional return.
func countBefore(syn *analyzer.Syntax, body analyzer.Node, helpers map[string]bool) int {
	n := 0
	for st := syn.FirstChild(body); st >= 0; st = syn.Next(st) {
		if syn.Kind(st) == "return_statement" {
			return n
		}
		n += analyzer.CountAssertions(syn, st, helpers)
	}
	return n
}

// recorded are the names a catch block stores its error param in:
// `last = e`, `errors.push(e)`, `state.error = e` (the root name), and param
// itself when the block does nothing else with it.
func recorded(syn *analyzer.Syntax, hbody analyzer.Node, param string) map[string]bool {
	names := map[string]bool{}
	syn.Walk(hbody, func(x analyzer.Node) bool {
		switch syn.Kind(x) {
		case "assignment_expression", "augmented_assignment_expression":
			if usesName(syn, syn.Child(x, "right"), param) {
				names[rootName(syn, syn.Child(x, "left"))] = true
			}
		case "call_expression":
			fnc := syn.Child(x, "function")
			if syn.Kind(fnc) == "member_expression" && usesName(syn, syn.Child(x, "arguments"), param) {
				switch syn.Text(syn.Child(fnc, "property")) {
				case "push", "add", "set", "unshift":
					names[rootName(syn, syn.Child(fnc, "object"))] = true
				}
			}
		}
		return true
	})
	delete(names, "")
	return names
}

// rootName is the variable a member chain starts from (`state` of
// `state.errors[0]`), "" when it is not one.
func rootName(syn *analyzer.Syntax, n analyzer.Node) string {
	for {
		n = syn.Unwrap(n)
		switch syn.Kind(n) {
		case "identifier":
			return syn.Text(n)
		case "member_expression", "subscript_expression":
			n = syn.Child(n, "object")
		default:
			return ""
		}
	}
}

// usesName reports whether an identifier name appears under n.
func usesName(syn *analyzer.Syntax, n analyzer.Node, name string) bool {
	used := false
	syn.Walk(n, func(x analyzer.Node) bool {
		if syn.Kind(x) == "identifier" && syn.Text(x) == name {
			used = true
		}
		return !used
	})
	return used
}

// readsAfter reports whether an assertion of body after offset off reads
// one of names.
func readsAfter(syn *analyzer.Syntax, body analyzer.Node, off uint, helpers map[string]bool, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	found := false
	syn.Walk(body, func(x analyzer.Node) bool {
		if found || syn.End(x) <= off {
			return !found && syn.Start(x) < off // descend only into what reaches past off
		}
		if syn.Start(x) >= off && syn.Kind(x) == "expression_statement" && analyzer.CountAssertions(syn, x, helpers) > 0 {
			for name := range names {
				if usesName(syn, x, name) {
					found = true
				}
			}
			return false
		}
		return true
	})
	return found
}

func within(syn *analyzer.Syntax, n, body analyzer.Node) bool {
	return syn.Start(n) >= syn.Start(body) && syn.End(n) <= syn.End(body)
}

// matcherOf is the matcher call on expect call e (`expect(x).toBe(y)`: the
// call of toBe) with its name; negated when a `.not` comes between.
func matcherOf(syn *analyzer.Syntax, e analyzer.Node) (call analyzer.Node, name string, negated bool) {
	n := e
	for {
		p := syn.Parent(n)
		if syn.Kind(p) != "member_expression" || syn.Field(n) != "object" {
			return analyzer.NoNode, "", false
		}
		prop := syn.Text(syn.Child(p, "property"))
		switch prop {
		case "not":
			negated = !negated
			n = p
			continue
		case "resolves", "rejects":
			return analyzer.NoNode, "", false
		}
		if c := syn.Parent(p); syn.Kind(c) == "call_expression" && syn.Field(p) == "function" {
			return c, prop, negated
		}
		return analyzer.NoNode, "", false
	}
}

// assertionText is the whole assertion statement of expect call e.
func assertionText(syn *analyzer.Syntax, e analyzer.Node) string {
	if m, _, _ := matcherOf(syn, e); m >= 0 {
		return syn.Text(m)
	}
	return syn.Text(e)
}

// alwaysPasses reports whether an expect on a literal passes whatever the
// code does: the same literal on both sides of toBe/toEqual/toStrictEqual,
// or a truthiness matcher its literal satisfies (an `expect(true).toBe(false)`
// that always fails is a marker of a line never to reach, not vacuous).
func alwaysPasses(syn *analyzer.Syntax, e analyzer.Node) bool {
	m, name, negated := matcherOf(syn, e)
	if m < 0 || negated {
		return false
	}
	actual := syn.Text(syn.FirstNamed(syn.Child(e, "arguments")))
	margs := syn.NamedChildren(syn.Child(m, "arguments"))
	truthy := !(actual == "false" || actual == "0" || actual == "null" || actual == "undefined" || actual == `""` || actual == "''" || actual == "``")
	switch name {
	case "toBe", "toEqual", "toStrictEqual":
		return len(margs) == 1 && syn.Text(margs[0]) == actual
	case "toBeTruthy":
		return truthy
	case "toBeFalsy":
		return !truthy
	case "toBeDefined":
		return actual != "undefined"
	case "toBeNull":
		return actual == "null"
	}
	return false
}

// selfComparison reports `expect(x).toBe(x)` (toEqual, toStrictEqual,
// toMatchObject): the same expression, without calls, on both sides; a
// property (maybe a getter) only with a deep-equality matcher.
func selfComparison(syn *analyzer.Syntax, e analyzer.Node) bool {
	m, name, negated := matcherOf(syn, e)
	if m < 0 || negated {
		return false
	}
	switch name {
	case "toBe", "toEqual", "toStrictEqual", "toMatchObject":
	default:
		return false
	}
	a := syn.NamedChildren(syn.Child(e, "arguments"))
	b := syn.NamedChildren(syn.Child(m, "arguments"))
	if len(a) != 1 || len(b) != 1 || isLiteralNode(syn, a[0]) {
		return false
	}
	if strings.Join(strings.Fields(syn.Text(a[0])), "") != strings.Join(strings.Fields(syn.Text(b[0])), "") {
		return false
	}
	if syn.Kind(syn.Unwrap(a[0])) != "identifier" && name == "toBe" {
		return false // `expect(s.token).toBe(s.token)`: a getter's identity, a real check
	}
	pure := true
	syn.Walk(a[0], func(x analyzer.Node) bool {
		switch syn.Kind(x) {
		case "call_expression", "new_expression", "await_expression", "update_expression", "assignment_expression", "object", "array", "arrow_function", "function_expression":
			pure = false // a fresh value each time: the comparison says something
		}
		return pure
	})
	return pure
}

func isLiteralNode(syn *analyzer.Syntax, n analyzer.Node) bool {
	switch syn.Kind(n) {
	case "number", "string", "true", "false", "null", "undefined", "template_string":
		return true
	}
	return false
}

// typeTest reports a test of types: in a .test-d.ts file, or with a
// @ts-expect-error (the compiler is its assertion).
func typeTest(file string, syn *analyzer.Syntax, body analyzer.Node) bool {
	if strings.Contains(file, ".test-d.") || strings.Contains(file, ".spec-d.") {
		return true
	}
	return strings.Contains(syn.Text(body), "@ts-expect-error")
}

// importedHelpers are the names under which test file f imports functions
// of the repository that assert (a shared helper module's `expectValid`,
// `h.check` of a namespace import); cache holds each module's asserting
// functions.
func importedHelpers(p *callgraph.Program, test string, f *analyzer.File, cache map[string]map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, im := range f.Imports {
		if im.TypeOnly || im.Local == "" {
			continue
		}
		r := p.Resolver().Resolve(test, im.Specifier)
		if r.Kind != "file" {
			continue
		}
		hs, ok := cache[r.Path]
		if !ok {
			if _, syn := parseFile(p, r.Path); syn != nil {
				hs = analyzer.TestStructure(syn).Helpers
			}
			cache[r.Path] = hs
		}
		switch im.Kind {
		case analyzer.ImportNamed, analyzer.ImportDefault:
			if hs[im.Imported] {
				out[im.Local] = true
			}
		case analyzer.ImportNamespace:
			for h := range hs {
				out[im.Local+"."+h] = true
			}
		}
	}
	return out
}

// skippedIn reports the skipped and todo tests and suites of a test file
// that runs a function the change touched (--base): the change is tested
// less than the suite says (vacuous-test/skipped).
func skippedIn(file string, tf *analyzer.TestFile, changed []string) []Finding {
	var out []Finding
	for _, b := range tf.Blocks {
		if b.Kind != analyzer.KindHook && (b.Has("skip") || b.Has("todo")) {
			out = append(out, Finding{Rule: "vacuous-test/skipped", Severity: Error, File: file, Line: b.Line,
				Message: fmt.Sprintf("a %s in a test file of %s, which the change touched: the change is not tested here", b.Callee, strings.Join(changed, ", "))})
		}
	}
	return out
}

// mayNotRun are the callees whose callback argument may never run.
var mayNotRun = map[string]bool{"then": true, "catch": true, "finally": true, "subscribe": true, "on": true, "once": true,
	"addEventListener": true, "setTimeout": true, "setInterval": true, "setImmediate": true, "nextTick": true, "queueMicrotask": true}

// iterators are the array methods whose callback runs once per element.
var iterators = map[string]bool{"forEach": true, "map": true, "filter": true, "some": true, "every": true, "find": true,
	"findIndex": true, "flatMap": true, "reduce": true}

// callbackAsserts counts the assertions of body that sit in a callback
// that may never run: one passed to a call in mayNotRun (not awaited or
// returned), to an iteration of an array the test built empty, or as an
// option (an object's function property) to a call the test cannot check
// called it; a callback that settles the promise around it counts as run.
func callbackAsserts(syn *analyzer.Syntax, body analyzer.Node, helpers map[string]bool) int {
	n := 0
	syn.Walk(body, func(x analyzer.Node) bool {
		k := syn.Kind(x)
		if k != "arrow_function" && k != "function_expression" && k != "method_definition" {
			return true
		}
		if !mayNeverRun(syn, body, x) || callsAny(syn, x, promiseSettlers(syn, x)) {
			return true
		}
		n += analyzer.CountAssertions(syn, x, helpers)
		return false
	})
	return n
}

// mayNeverRun reports whether function fn, inside test body, is a callback
// whose running the test's own code does not show.
func mayNeverRun(syn *analyzer.Syntax, body, fn analyzer.Node) bool {
	p := syn.Parent(fn)
	if syn.Kind(fn) == "method_definition" || syn.Kind(p) == "pair" && syn.Field(fn) == "value" {
		// an option: { onDone: (r) => ... } passed to a call
		obj := syn.Parent(fn)
		if syn.Kind(p) == "pair" {
			obj = syn.Parent(p)
		}
		if syn.Kind(obj) != "object" {
			return false
		}
		args := syn.Parent(obj)
		for syn.Kind(args) == "as_expression" || syn.Kind(args) == "satisfies_expression" || syn.Kind(args) == "parenthesized_expression" {
			args = syn.Parent(args) // run({ ... } as any)
		}
		if syn.Kind(args) != "arguments" {
			return false
		}
		switch callee := syn.Callee(syn.Parent(args)); {
		case callee == "", strings.HasPrefix(callee, "vi."), strings.HasPrefix(callee, "jest."), strings.HasPrefix(callee, "expect"), strings.Contains(callee, "mock"), strings.Contains(callee, "("):
			return false
		}
		return true
	}
	if syn.Kind(p) != "arguments" {
		return false
	}
	call := syn.Parent(p)
	fnc := syn.Child(call, "function")
	callee := syn.Callee(call)
	last := callee[strings.LastIndexByte(callee, '.')+1:]
	switch {
	case mayNotRun[last]:
		return !awaitedOrReturned(syn, call) // an awaited (or returned) promise chain runs its callbacks, or fails the test
	case iterators[last] && syn.Kind(fnc) == "member_expression":
		return emptyArray(syn, body, syn.Child(fnc, "object"))
	}
	return false
}

// emptyArray reports an array the test built empty and never fills: `[]`,
// or a name declared `= []` in body that body uses only to iterate.
func emptyArray(syn *analyzer.Syntax, body, x analyzer.Node) bool {
	x = syn.Unwrap(x)
	if syn.Kind(x) == "array" {
		return len(syn.NamedChildren(x)) == 0
	}
	if syn.Kind(x) != "identifier" {
		return false
	}
	name := syn.Text(x)
	empty, other := false, false
	syn.Walk(body, func(n analyzer.Node) bool {
		if syn.Kind(n) == "variable_declarator" && syn.Text(syn.Child(n, "name")) == name {
			v := syn.Unwrap(syn.Child(n, "value"))
			empty = syn.Kind(v) == "array" && len(syn.NamedChildren(v)) == 0
			return false
		}
		if syn.Kind(n) == "identifier" && syn.Text(n) == name {
			p := syn.Parent(n)
			if !(syn.Kind(p) == "member_expression" && syn.Field(n) == "object" && iterators[syn.Text(syn.Child(p, "property"))]) {
				other = true
			}
		}
		return true
	})
	return empty && !other
}

// promiseSettlers are the names that settle a promise the code at n is
// inside: the parameters (resolve, reject) of each `new Promise(...)`
// executor around n. A callback that calls one runs before the test goes on
// (the test awaits that promise, or times out), so its assertions count.
func promiseSettlers(syn *analyzer.Syntax, n analyzer.Node) map[string]bool {
	names := map[string]bool{}
	for p := syn.Parent(n); p >= 0; p = syn.Parent(p) {
		k := syn.Kind(p)
		if k != "arrow_function" && k != "function_expression" {
			continue
		}
		args := syn.Parent(p)
		if syn.Kind(args) != "arguments" || syn.Kind(syn.Parent(args)) != "new_expression" ||
			syn.Text(syn.Child(syn.Parent(args), "constructor")) != "Promise" {
			continue
		}
		if ps := syn.Child(p, "parameters"); ps >= 0 {
			for _, q := range syn.NamedChildren(ps) {
				names[syn.Text(syn.Child(q, "pattern"))] = true
			}
		} else if q := syn.Child(p, "parameter"); q >= 0 { // resolve => ...
			names[syn.Text(q)] = true
		}
	}
	return names
}

// callsAny reports whether n calls one of names.
func callsAny(syn *analyzer.Syntax, n analyzer.Node, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	found := false
	syn.Walk(n, func(x analyzer.Node) bool {
		if syn.Kind(x) == "call_expression" && names[syn.Text(syn.Child(x, "function"))] {
			found = true
		}
		return !found
	})
	return found
}

// countsAssertions reports whether body checks that assertions ran:
// expect.assertions(n) or expect.hasAssertions().
func countsAssertions(syn *analyzer.Syntax, body analyzer.Node) bool {
	found := false
	syn.Walk(body, func(x analyzer.Node) bool {
		if syn.Kind(x) == "call_expression" {
			c := syn.Callee(x)
			found = found || c == "expect.assertions" || c == "expect.hasAssertions"
		}
		return !found
	})
	return found
}

// awaitedOrReturned reports whether a call is awaited or returned (through
// the rest of its promise chain), so vitest waits for it.
func awaitedOrReturned(syn *analyzer.Syntax, call analyzer.Node) bool {
	n := call
	for {
		p := syn.Parent(n)
		switch syn.Kind(p) {
		case "member_expression", "call_expression", "parenthesized_expression":
			n = p // .then(...).catch(...): the chain goes on
			continue
		case "await_expression", "return_statement":
			return true
		case "arrow_function":
			return syn.Field(n) == "body" // () => promise: returned
		}
		return false
	}
}
