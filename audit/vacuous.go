package audit

import (
	"fmt"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/text"
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
	Name:  "vacuous-test",
	Doc:   "a test that cannot fail",
	Reads: "each test file's structure (analyzer.TestStructure); with --base, the change and what each test file runs",
	Run:   vacuousTests,
}

func vacuousTests(s *Suite) []Finding {
	var out []Finding
	touched := s.touchedFunctions()
	s.eachTest(func(t string, in *TestInput) {
		tf := in.Structure
		out = append(out, vacuousIn(t, in.Syntax, tf, s.Enable)...)
		var changed []string
		for _, id := range touched {
			if s.reach[t].fns[id] {
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
			find("missing-matcher", Warning, e, "in test %q, `%s` calls no matcher: it asserts nothing", title, text.OneLine(syn.Text(e), 50))
		}
		syn.Walk(body, func(t analyzer.Node) bool {
			if syn.Kind(t) != "try_statement" {
				return true
			}
			block, handler := syn.Child(t, "body"), syn.Child(t, "handler")
			if handler < 0 || analyzer.CountAssertions(syn, block, helpers) == 0 {
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
			if !rethrows && analyzer.CountAssertions(syn, hbody, helpers) == 0 {
				find("swallowed-assertion", Warning, t, "in test %q, the catch swallows the assertion error of its try: a failing assertion passes", title)
			}
			return true
		})
	}
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
		n += analyzer.CountAssertions(syn, st, helpers)
	}
	return n
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
		if syn.Start(x) >= off && analyzer.CountAssertions(syn, x, helpers) > 0 {
			found = true
			return false
		}
		return true
	})
	return found
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

// callbackAsserts counts the assertions of body that sit in a callback
// passed to a call in mayNotRun.
func callbackAsserts(syn *analyzer.Syntax, body analyzer.Node, helpers map[string]bool) int {
	n := 0
	syn.Walk(body, func(x analyzer.Node) bool {
		if syn.Kind(x) != "call_expression" {
			return true
		}
		callee := syn.Callee(x)
		if i := strings.LastIndexByte(callee, '.'); !mayNotRun[callee[i+1:]] {
			return true
		}
		if awaitedOrReturned(syn, x) {
			return true // an awaited (or returned) promise chain runs its callbacks, or fails the test
		}
		settles := promiseSettlers(syn, x)
		for _, a := range syn.NamedChildren(syn.Child(x, "arguments")) {
			if k := syn.Kind(a); (k == "arrow_function" || k == "function_expression") && !callsAny(syn, a, settles) {
				n += analyzer.CountAssertions(syn, a, helpers)
			}
		}
		return false
	})
	return n
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
