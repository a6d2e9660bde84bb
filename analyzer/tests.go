package analyzer

import "strings"

// Test files as inputs of their own (the audit's rules read them): the
// suites, tests and hooks a test file declares with vitest's (or jest's)
// globals, and its assertions, with positions. Module mocks (vi.mock,
// vi.doMock, vi.spyOn stubs) are File.Mocks, read for every file.

// TestKind is what a block of a test file is.
type TestKind string

const (
	KindSuite TestKind = "suite" // describe, suite
	KindTest  TestKind = "test"  // it, test
	KindHook  TestKind = "hook"  // beforeAll, beforeEach, afterEach, afterAll
)

// TestBlock is one describe, test or hook call of a test file.
type TestBlock struct {
	Kind TestKind
	// Callee as written, whitespace removed, without the arguments of a
	// chained call: "it", "it.only", "describe.skip", "test.each" (for
	// `test.each([...])("t", fn)`), "xit".
	Callee string
	// Modifiers are the callee's chained names after the first: "only",
	// "skip", "todo", "concurrent", "each", "skipIf", ... (xit, xtest and
	// xdescribe are "skip"; fit and fdescribe "only").
	Modifiers []string
	Title     string // the title when it is a literal, else ""
	Line      int
	Parent    int  // index in TestFile.Blocks of the enclosing suite, -1 at the top
	Call      Node // the call expression
	Body      Node // the callback's body; NoNode when there is none (it.todo("t"))
	// Params is the callback's parameter list (NoNode when none).
	Params Node
	// Cases are the cases of a `.each` block whose table is written in
	// place (an array of rows, a template-literal table), in order; nil
	// otherwise.
	Cases []EachCase
}

// Has reports whether the block has modifier m.
func (b *TestBlock) Has(m string) bool {
	for _, x := range b.Modifiers {
		if x == m {
			return true
		}
	}
	return false
}

// Assertion is one assertion of a test file: an expect(...) chain, an
// assert(...) or assert.x(...) call (chai's, node's, expectTypeOf, the
// assertion helpers of a library), or a call of a function of the file
// that asserts (TestFile.Helpers).
type Assertion struct {
	Block    int    // index of the innermost test or hook around it, -1 outside any
	Line     int    //
	Call     Node   // the expect(...) / assert(...) / helper call
	Kind     string // "expect", "assert" or "helper"
	Constant bool   // expect(<a literal>)
	Matcher  bool   // a matcher is called on it (always true but for a bare expect(x))
}

// TestFile is the structure of a test file: Blocks in source order (a
// suite before what it holds), Assertions in source order.
type TestFile struct {
	Blocks     []TestBlock
	Assertions []Assertion
	// Helpers are the functions of the file whose body asserts (a helper
	// calling another helper counts too).
	Helpers map[string]bool
}

var (
	suiteNames = map[string]bool{"describe": true, "suite": true, "xdescribe": true, "fdescribe": true}
	testNames  = map[string]bool{"it": true, "test": true, "xit": true, "xtest": true, "fit": true}
	hookNames  = map[string]bool{"beforeAll": true, "beforeEach": true, "afterEach": true, "afterAll": true}
)

// TestStructure reads the blocks and assertions of a test file.
func TestStructure(syn *Syntax) *TestFile { return TestStructureWith(syn, nil) }

// TestStructureWith is TestStructure with the names of imported functions
// that assert (the helpers of a shared test module: `expectValid`,
// `h.check`): a call of one is an assertion, and so is a call of a
// function of the file that calls one.
func TestStructureWith(syn *Syntax, imported map[string]bool) *TestFile {
	tf := &TestFile{Helpers: assertingHelpers(syn, imported)}
	var walk func(n Node, suite, block int)
	walk = func(n Node, suite, block int) {
		for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
			s, b := suite, block
			// A call that is the callee of another (`test.each([...])` of
			// `test.each([...])("t", fn)`) is read with the outer call.
			if syn.Kind(c) == "call_expression" && !(syn.Field(c) == "function" && syn.Kind(n) == "call_expression") {
				if tb, ok := testBlock(syn, c, suite); ok {
					tf.Blocks = append(tf.Blocks, tb)
					i := len(tf.Blocks) - 1
					if tb.Kind == KindSuite {
						s = i
					} else {
						b = i
					}
				} else if a, ok := assertion(syn, c, tf.Helpers); ok {
					a.Block = block
					tf.Assertions = append(tf.Assertions, a)
				}
			}
			walk(c, s, b)
		}
	}
	walk(syn.Root(), -1, -1)
	return tf
}

// testBlock reads call as a describe, test or hook.
func testBlock(syn *Syntax, call Node, suite int) (TestBlock, bool) {
	fn := syn.Child(call, "function")
	// test.each([...])("title", fn): the block is the outer call.
	table := NoNode
	if syn.Kind(fn) == "call_expression" {
		table = fn
		fn = syn.Child(fn, "function")
	}
	callee := strings.Join(strings.Fields(syn.Text(fn)), "")
	parts := strings.Split(callee, ".")
	base := parts[0]
	tb := TestBlock{Callee: callee, Modifiers: parts[1:], Line: syn.Line(syn.Start(call)), Parent: suite, Call: call, Body: NoNode, Params: NoNode}
	switch {
	case suiteNames[base]:
		tb.Kind = KindSuite
	case testNames[base]:
		tb.Kind = KindTest
	case hookNames[base] && len(parts) == 1:
		tb.Kind = KindHook
	default:
		return tb, false
	}
	switch base {
	case "xit", "xtest", "xdescribe":
		tb.Modifiers = append([]string{"skip"}, tb.Modifiers...)
	case "fit", "fdescribe":
		tb.Modifiers = append([]string{"only"}, tb.Modifiers...)
	}
	for c := syn.FirstChild(syn.Child(call, "arguments")); c >= 0; c = syn.Next(c) {
		switch syn.Kind(c) {
		case "string", "template_string":
			if t := syn.Text(c); tb.Title == "" && !strings.Contains(t, "${") && len(t) >= 2 {
				tb.Title = t[1 : len(t)-1] // the delimiters only: "is 'true'" keeps its quotes
			}
		case "arrow_function", "function_expression":
			if tb.Body < 0 {
				tb.Body = syn.Child(c, "body")
				tb.Params = syn.Child(c, "parameters")
				if p := syn.Child(c, "parameter"); p >= 0 {
					tb.Params = p // x => ...
				}
			}
		}
	}
	if table >= 0 && tb.Has("each") {
		title, literal := tb.Title, false
		if a := syn.FirstNamed(syn.Child(call, "arguments")); a >= 0 {
			if v, ok := syn.LiteralValue(a); ok && v.Kind == "string" {
				title, literal = v.Str, true
			}
		}
		tb.Cases = eachCases(syn, table, title, literal)
	}
	return tb, true
}

// assertion reads call as an assertion.
func assertion(syn *Syntax, call Node, helpers map[string]bool) (Assertion, bool) {
	callee := syn.Callee(call)
	a := Assertion{Line: syn.Line(syn.Start(call)), Call: call, Matcher: true}
	switch {
	case callee == "expect" || callee == "expect.soft":
		a.Kind = "expect"
		arg := syn.FirstNamed(syn.Child(call, "arguments"))
		// A matcher is called: the member chain on expect(...)
		// (`.not`, `.resolves`, the matcher) ends in a call. A matcher only
		// named (`expect(x).toBeTruthy;`) asserts nothing.
		top := call
		for p := syn.Parent(top); syn.Kind(p) == "member_expression" && syn.Field(top) == "object"; p = syn.Parent(top) {
			top = p
		}
		matcher := NoNode
		if p := syn.Parent(top); top != call && syn.Kind(p) == "call_expression" && syn.Field(top) == "function" {
			matcher = p
		}
		a.Matcher = matcher >= 0
		// A literal array or object is a constant when the matcher's
		// arguments are literals too (`expect([1, 2]).toContain(2)`; but
		// `expect([3, 4]).toContain(f())` asserts on f).
		a.Constant = arg >= 0 && (isLiteral(syn, arg) || isLiteralDeep(syn, arg) && matcher >= 0 && literalArgs(syn, matcher))
	case callee == "assert" || strings.HasPrefix(callee, "assert.") || callee == "expect.fail" || strings.HasPrefix(callee, "expectTypeOf") ||
		strings.Contains(strings.ToLower(lastName(callee)), "assert"):
		// assert-style helpers (util.assertEqual<A, B>(true) type tests, assertType, chai's assert)
		a.Kind = "assert"
	case helpers[callee]:
		a.Kind = "helper"
	default:
		return a, false
	}
	return a, true
}

// CountAssertions counts the assertions under n (n included).
func CountAssertions(syn *Syntax, n Node, helpers map[string]bool) int {
	count := 0
	syn.Walk(n, func(x Node) bool {
		if syn.Kind(x) == "call_expression" {
			if _, ok := assertion(syn, x, helpers); ok {
				count++
			}
		}
		return true
	})
	return count
}

func isLiteral(syn *Syntax, n Node) bool {
	switch syn.Kind(n) {
	case "number", "string", "true", "false", "null", "undefined":
		return true
	case "template_string":
		return !strings.Contains(syn.Text(n), "${")
	}
	return false
}

// isLiteralDeep is isLiteral, or an array or object literal of those.
func isLiteralDeep(syn *Syntax, n Node) bool {
	n = syn.Unwrap(n)
	if isLiteral(syn, n) {
		return true
	}
	switch syn.Kind(n) {
	case "array":
		for _, c := range syn.NamedChildren(n) {
			if !isLiteralDeep(syn, c) {
				return false
			}
		}
		return true
	case "object":
		for _, c := range syn.NamedChildren(n) {
			if syn.Kind(c) != "pair" || syn.Kind(syn.Child(c, "key")) == "computed_property_name" || !isLiteralDeep(syn, syn.Child(c, "value")) {
				return false
			}
		}
		return true
	}
	return false
}

// literalArgs reports whether every argument of call is a literal (deep).
func literalArgs(syn *Syntax, call Node) bool {
	for _, a := range syn.NamedChildren(syn.Child(call, "arguments")) {
		if syn.Kind(a) == "comment" {
			continue
		}
		if !isLiteralDeep(syn, a) {
			return false
		}
	}
	return true
}

// lastName is the last name of a dotted callee (`util.assertEqual<A, B>` is
// "assertEqual<A, B>").
func lastName(callee string) string {
	if i := strings.LastIndexByte(callee, '.'); i >= 0 {
		return callee[i+1:]
	}
	return callee
}

// assertingHelpers are the functions of a test file whose body asserts (the
// search repeats until nothing changes, so a helper calling a helper counts).
func assertingHelpers(syn *Syntax, imported map[string]bool) map[string]bool {
	bodies := map[string]Node{}
	var names []string
	syn.Walk(syn.Root(), func(n Node) bool {
		switch syn.Kind(n) {
		case "function_declaration":
			if name := syn.Child(n, "name"); name >= 0 {
				bodies[syn.Text(name)] = syn.Child(n, "body")
				names = append(names, syn.Text(name))
			}
		case "variable_declarator":
			name, v := syn.Child(n, "name"), syn.Child(n, "value")
			if name >= 0 && v >= 0 && (syn.Kind(v) == "arrow_function" || syn.Kind(v) == "function_expression") {
				bodies[syn.Text(name)] = syn.Child(v, "body")
				names = append(names, syn.Text(name))
			}
		}
		return true
	})
	helpers := map[string]bool{}
	for name := range imported {
		helpers[name] = true
	}
	for changed := true; changed; {
		changed = false
		for _, name := range names {
			if b := bodies[name]; !helpers[name] && b >= 0 && CountAssertions(syn, b, helpers) > 0 {
				helpers[name] = true
				changed = true
			}
		}
	}
	return helpers
}
