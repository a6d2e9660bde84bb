package audit

import (
	"fmt"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// VacuousTest reports tests that cannot fail, each kind a sub-rule of its
// own (the finding's rule is "vacuous-test/<kind>"):
//
//   - no-assertion: a test whose body calls no expect/assert, directly or
//     through a helper function of the test file that does (or only after
//     an unconditional return);
//   - constant-assertion: every assertion is on a constant
//     (`expect(true).toBe(true)`);
//   - missing-matcher: `expect(x)` with no matcher called on it;
//   - swallowed-assertion: a try whose catch swallows what an assertion
//     in its block throws (no rethrow, no assertion in the catch);
//   - only: a committed `.only` (error: every other test is skipped).
var VacuousTest = &Rule{
	Name: "vacuous-test",
	Doc:  "a test that cannot fail",
	Run:  vacuousTests,
}

func vacuousTests(s *Suite) []Finding {
	var out []Finding
	touched := s.touchedFunctions()
	s.eachTestSyntax(func(t string, syn *analyzer.Syntax) {
		out = append(out, vacuousIn(t, syn, s.Enable)...)
		var changed []string
		for _, id := range touched {
			if s.reach[t].fns[id] {
				changed = append(changed, id)
			}
		}
		if len(changed) > 0 {
			out = append(out, skippedIn(t, syn, changed)...)
		}
	})
	return out
}

var testCallees = map[string]bool{
	"it": true, "test": true, "it.only": true, "test.only": true, "it.concurrent": true, "test.concurrent": true,
	"describe.only": true,
}

func vacuousIn(file string, syn *analyzer.Syntax, enabled map[string]bool) []Finding {
	var out []Finding
	find := func(kind string, sev Severity, n analyzer.Node, format string, a ...any) {
		out = append(out, Finding{Rule: "vacuous-test/" + kind, Severity: sev, File: file, Line: syn.Line(syn.Start(n)), Message: fmt.Sprintf(format, a...)})
	}
	helpers := assertingHelpers(syn)
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if syn.Kind(n) != "call_expression" {
			return true
		}
		fnc := syn.Child(n, "function")
		callee := strings.Join(strings.Fields(syn.Text(fnc)), "")
		if strings.HasSuffix(callee, ".only") && (strings.HasPrefix(callee, "it.") || strings.HasPrefix(callee, "test.") || strings.HasPrefix(callee, "describe.")) {
			find("only", Error, n, "a committed %s: every other test of the file is skipped", callee)
		}
		if !testCallees[callee] || strings.HasPrefix(callee, "describe") {
			return true
		}
		args := syn.Child(n, "arguments")
		title, body := "", analyzer.Node(-1)
		for c := syn.FirstChild(args); c >= 0; c = syn.Next(c) {
			switch syn.Kind(c) {
			case "string", "template_string":
				if title == "" {
					title = strings.Trim(syn.Text(c), "\"'`")
				}
			case "arrow_function", "function_expression":
				body = syn.Child(c, "body")
			}
		}
		if body < 0 {
			return true
		}
		asserts, constant := 0, 0
		afterReturn := false
		returned := false
		for st := syn.FirstChild(body); st >= 0 && syn.Kind(body) == "statement_block"; st = syn.Next(st) {
			if returned && countAsserts(syn, st, helpers, nil) > 0 {
				afterReturn = true
			}
			if syn.Kind(st) == "return_statement" {
				returned = true // `return expect(...)...` asserts before it returns
			}
		}
		var missing []analyzer.Node
		asserts = countAsserts(syn, body, helpers, func(e analyzer.Node, isConst, hasMatcher bool) {
			if isConst {
				constant++
			}
			if !hasMatcher {
				missing = append(missing, e)
			}
		})
		switch {
		case asserts == 0:
			// Off by default (Options.Enable): on real suites most tests
			// without an expect are type tests or smoke tests that fail when
			// the code throws; measured precision is under the 90% bar.
			if enabled["vacuous-test/no-assertion"] {
				find("no-assertion", Warning, n, "test %q asserts nothing: it passes unless the code throws", title)
			}
		case afterReturn && countBefore(syn, body, helpers) == 0:
			find("no-assertion", Warning, n, "test %q asserts only after an unconditional return: no assertion runs", title)
		case constant == asserts:
			find("constant-assertion", Warning, n, "test %q asserts only on constants: it passes whatever the code does", title)
		}
		if asserts > 0 && asserts == callbackAsserts(syn, body, helpers) && !countsAssertions(syn, body) {
			find("unchecked-callback", Warning, n, "test %q asserts only inside callbacks that may never run (then/catch, an event, a timer) and does not check expect.assertions/hasAssertions: it passes if they do not run", title)
		}
		for _, e := range missing {
			find("missing-matcher", Warning, e, "in test %q, `%s` calls no matcher: it asserts nothing", title, oneLine(syn.Text(e)))
		}
		syn.Walk(body, func(t analyzer.Node) bool {
			if syn.Kind(t) != "try_statement" {
				return true
			}
			block, handler := syn.Child(t, "body"), syn.Child(t, "handler")
			if handler < 0 || countAsserts(syn, block, helpers, nil) == 0 {
				return true
			}
			hbody := syn.Child(handler, "body")
			if param := syn.Child(handler, "parameter"); param >= 0 && usesName(syn, hbody, syn.Text(param)) && assertsAfter(syn, body, syn.End(t), helpers) {
				return true // the catch records the error for an assertion after the try: deliberate
			}
			rethrows := false
			syn.Walk(hbody, func(x analyzer.Node) bool {
				if syn.Kind(x) == "throw_statement" {
					rethrows = true
				}
				return true
			})
			if !rethrows && countAsserts(syn, hbody, helpers, nil) == 0 {
				find("swallowed-assertion", Warning, t, "in test %q, the catch swallows the assertion error of its try: a failing assertion passes", title)
			}
			return true
		})
		return false
	})
	return out
}

// countBefore counts the assertions of body before its first top-level
// unconditional return.
func countBefore(syn *analyzer.Syntax, body analyzer.Node, helpers map[string]bool) int {
	n := 0
	for st := syn.FirstChild(body); st >= 0; st = syn.Next(st) {
		if syn.Kind(st) == "return_statement" {
			return n
		}
		n += countAsserts(syn, st, helpers, nil)
	}
	return n
}

// countAsserts counts the assertions under n: expect(...) chains,
// assert(...) / assert.x(...), expect.fail, and calls of the file's helpers
// that assert. each hears of every expect(...): whether its argument is a
// constant, and whether a matcher is called on it.
func countAsserts(syn *analyzer.Syntax, n analyzer.Node, helpers map[string]bool, each func(e analyzer.Node, isConst, hasMatcher bool)) int {
	count := 0
	syn.Walk(n, func(x analyzer.Node) bool {
		if syn.Kind(x) != "call_expression" {
			return true
		}
		callee := strings.Join(strings.Fields(syn.Text(syn.Child(x, "function"))), "")
		switch {
		case callee == "expect" || callee == "expect.soft":
			count++
			if each != nil {
				args := syn.Child(x, "arguments")
				arg := syn.FirstNamed(args)
				isConst := arg >= 0 && isConstant(syn, arg)
				p := syn.Parent(x)
				hasMatcher := syn.Kind(p) == "member_expression" && syn.Field(x) == "object"
				each(x, isConst, hasMatcher)
			}
		case callee == "assert" || strings.HasPrefix(callee, "assert.") || callee == "expect.fail" || strings.HasPrefix(callee, "expectTypeOf") ||
			strings.Contains(strings.ToLower(lastSegment(callee)), "assert"):
			// assert-style helpers (util.assertEqual<A, B>(true) type tests, assertType, chai's assert)
			count++
		case helpers[callee]:
			count++
		}
		return true
	})
	return count
}

func isConstant(syn *analyzer.Syntax, n analyzer.Node) bool {
	switch syn.Kind(n) {
	case "number", "string", "true", "false", "null", "undefined":
		return true
	case "template_string":
		return !strings.Contains(syn.Text(n), "${")
	}
	return false
}

// assertingHelpers are the functions of a test file whose body asserts
// (one level: a helper calling another helper counts too, as the walk
// repeats until nothing changes).
func assertingHelpers(syn *analyzer.Syntax) map[string]bool {
	bodies := map[string]analyzer.Node{}
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		switch syn.Kind(n) {
		case "function_declaration":
			if name := syn.Child(n, "name"); name >= 0 {
				bodies[syn.Text(name)] = syn.Child(n, "body")
			}
		case "variable_declarator":
			name, v := syn.Child(n, "name"), syn.Child(n, "value")
			if name >= 0 && v >= 0 && (syn.Kind(v) == "arrow_function" || syn.Kind(v) == "function_expression") {
				bodies[syn.Text(name)] = syn.Child(v, "body")
			}
		}
		return true
	})
	helpers := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for name, b := range bodies {
			if !helpers[name] && b >= 0 && countAsserts(syn, b, helpers, nil) > 0 {
				helpers[name] = true
				changed = true
			}
		}
	}
	return helpers
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 50 {
		s = string(r[:49]) + "…"
	}
	return s
}

// lastSegment is the last name of a dotted callee (`util.assertEqual<A, B>`
// is "assertEqual<A, B>").
func lastSegment(callee string) string {
	if i := strings.LastIndexByte(callee, '.'); i >= 0 {
		return callee[i+1:]
	}
	return callee
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

// assertsAfter reports whether body asserts after offset off.
func assertsAfter(syn *analyzer.Syntax, body analyzer.Node, off uint, helpers map[string]bool) bool {
	found := false
	syn.Walk(body, func(x analyzer.Node) bool {
		if found || syn.End(x) <= off {
			return !found && syn.Start(x) < off // descend only into what reaches past off
		}
		if syn.Start(x) >= off && countAsserts(syn, x, helpers, nil) > 0 {
			found = true
			return false
		}
		return true
	})
	return found
}

// skippedIn reports the `.skip`/`.todo` tests of a test file that runs a
// function the change touched (--base): the change is tested less than the
// suite says (vacuous-test/skipped).
func skippedIn(file string, syn *analyzer.Syntax, changed []string) []Finding {
	var out []Finding
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if syn.Kind(n) != "call_expression" {
			return true
		}
		callee := strings.Join(strings.Fields(syn.Text(syn.Child(n, "function"))), "")
		switch callee {
		case "it.skip", "test.skip", "it.todo", "test.todo", "describe.skip", "describe.todo", "xit", "xtest":
			out = append(out, Finding{Rule: "vacuous-test/skipped", Severity: Error, File: file, Line: syn.Line(syn.Start(n)),
				Message: fmt.Sprintf("a %s in a test file of %s, which the change touched: the change is not tested here", callee, strings.Join(changed, ", "))})
		}
		return true
	})
	return out
}

// mayNotRun are the callees whose callback argument may never run.
var mayNotRun = map[string]bool{"then": true, "catch": true, "finally": true, "subscribe": true, "on": true, "once": true,
	"addEventListener": true, "setTimeout": true, "setInterval": true, "setImmediate": true, "nextTick": true, "queueMicrotask": true}

// callbackAsserts counts the assertions of body that sit in a callback
// passed to a call in mayNotRun.
func callbackAsserts(syn *analyzer.Syntax, body analyzer.Node, helpers map[string]bool) int {
	n := 0
	syn.Walk(body, func(x analyzer.Node) bool {
		if syn.Kind(x) != "call_expression" {
			return true
		}
		callee := strings.Join(strings.Fields(syn.Text(syn.Child(x, "function"))), "")
		if !mayNotRun[lastSegment(callee)] {
			return true
		}
		if awaitedOrReturned(syn, x) {
			return true // an awaited (or returned) promise chain runs its callbacks, or fails the test
		}
		for _, a := range namedChildren(syn, syn.Child(x, "arguments")) {
			if k := syn.Kind(a); k == "arrow_function" || k == "function_expression" {
				n += countAsserts(syn, a, helpers, nil)
			}
		}
		return false
	})
	return n
}

// countsAssertions reports whether body checks that assertions ran:
// expect.assertions(n) or expect.hasAssertions().
func countsAssertions(syn *analyzer.Syntax, body analyzer.Node) bool {
	found := false
	syn.Walk(body, func(x analyzer.Node) bool {
		if syn.Kind(x) == "call_expression" {
			c := strings.Join(strings.Fields(syn.Text(syn.Child(x, "function"))), "")
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
