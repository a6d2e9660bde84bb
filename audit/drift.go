package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/testsuite"
)

// MockDrift reports a mock that stands in for a function of the repository
// with a value the real function cannot produce (the finding's rule is
// "mock-drift/<kind>"). A mock's value is read wherever the test sets it: a
// vi.mock factory's object (`f: vi.fn(() => ...)`, `f: vi.fn().mockReturnValue(...)`,
// `f: () => ...`), and every mockReturnValue(Once), mockResolvedValue(Once),
// mockRejectedValue(Once) and mockImplementation(Once) on an export of a
// module of the repository: `vi.mocked(f)`, `(f as Mock)`, `f` itself, `ns.f`,
// `vi.spyOn(ns, "f")`, or the `vi.fn()` a factory places (`f: mockF`,
// `f: (...a) => mockF(...a)`).
//
//   - shape: the mock returns an object literal whose property paths match
//     no object literal the real function returns (`{ passed }` where the
//     code returns `{ success, details: { passed } }`), or members its
//     declared return type (an interface of the repository, all of whose
//     members are known) does not have;
//   - unknown-export: the factory sets an export the real module does not
//     have;
//   - missing-export: a whole-module factory leaves out an export that code
//     the test runs calls (driftmissing.go);
//   - async: a promise where the real function is synchronous, or a plain
//     value (any literal, null; a const of the file passed by name; the
//     argument of an implementation `(x) => x` where the real parameter is
//     declared a non-promise) where it is async (declared async,
//     `Promise<...>`, or every return a promise: `new Promise`,
//     `.then(...)`, a call of an async function of the repository).
//
// Where the real value or its async-ness cannot be read (it returns a call's
// result, a spread, a type of a package), nothing is said: no finding
// without evidence.
var MockDrift = &Rule{
	Name:     "mock-drift",
	Doc:      "a mock whose value the real function cannot produce",
	Requires: []Fact{TestFiles, Reach, Executed},
	Run:      func(p *Pass) error { p.reportAll(mockDrifts(p)); return nil },
}

func mockDrifts(p *Pass) []Finding {
	var out []Finding
	p.TestFiles.Each(func(t string, in *TestInput) {
		if in.File != nil && in.Syntax != nil {
			d := newDrift(p.Program, t, in.File, in.Syntax)
			d.runs = p.runsIn(t)
			out = append(out, d.read()...)
		}
	})
	return out
}

// mocked is an export of a module of the repository that a mock stands in
// for: spec as the test writes it, module its repo-relative file.
type mocked struct{ spec, module, export string }

// drift is the reading of one test file.
type drift struct {
	p     *callgraph.Program
	test  string
	file  *analyzer.File // the test file
	syn   *analyzer.Syntax
	bound map[string]mocked // expressions (`f`, `mocks.f`) that are a mocked export
	ns    map[string]mocked // namespace imports of modules of the repository
	// runs reports whether the test file runs a function of the
	// repository (of module user): missing-export counts only the calls
	// in one. Nil: every function the test loads may run.
	runs func(user string, fn *analyzer.Function) bool
	out  []Finding
}

// mockSetters are the mock methods that set what the mock returns.
var mockSetters = map[string]bool{
	"mockReturnValue": true, "mockReturnValueOnce": true, "mockResolvedValue": true, "mockResolvedValueOnce": true,
	"mockRejectedValue": true, "mockRejectedValueOnce": true, "mockImplementation": true, "mockImplementationOnce": true,
}

func newDrift(p *callgraph.Program, test string, f *analyzer.File, syn *analyzer.Syntax) *drift {
	return &drift{p: p, test: test, file: f, syn: syn, bound: map[string]mocked{}, ns: map[string]mocked{}}
}

// read reads the test file's mocks and returns their findings.
func (d *drift) read() []Finding {
	p, test, f, syn := d.p, d.test, d.file, d.syn
	for _, im := range f.Imports {
		if im.TypeOnly || im.Local == "" {
			continue
		}
		r := p.Resolver().Resolve(test, im.Specifier)
		if r.Kind != "file" {
			continue
		}
		switch im.Kind {
		case analyzer.ImportNamed, analyzer.ImportDefault:
			d.bound[im.Local] = mocked{im.Specifier, r.Path, im.Imported}
		case analyzer.ImportNamespace:
			d.ns[im.Local] = mocked{im.Specifier, r.Path, ""}
		}
	}
	d.dynamicImports()
	for _, m := range f.Mocks {
		if moduleMock(m.Call) {
			d.factory(m)
			if !m.Factory && m.File == "" {
				d.mocksDir(m)
			}
		}
	}
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		fnc := syn.Child(n, "function")
		if syn.Kind(n) != "call_expression" || syn.Kind(fnc) != "member_expression" || !mockSetters[syn.Text(syn.Child(fnc, "property"))] {
			return true
		}
		if target, ok := d.targetOf(syn.Child(fnc, "object")); ok {
			if v, ok := setValue(syn, n); ok {
				d.check(target, v, syn.Line(syn.Start(n)))
			}
		}
		return true
	})
	return d.out
}

// dynamicImports binds the names a test takes from a module of the
// repository by `await import(...)`: `const m = await import("./m")` (m.f)
// and `const { f } = await import("./m")`.
func (d *drift) dynamicImports() {
	syn := d.syn
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if syn.Kind(n) != "variable_declarator" {
			return true
		}
		v := syn.Unwrap(syn.Child(n, "value"))
		if syn.Kind(v) == "await_expression" {
			v = syn.Unwrap(syn.FirstNamed(v))
		}
		if syn.Kind(v) != "call_expression" || syn.Kind(syn.Child(v, "function")) != "import" {
			return true
		}
		spec, ok := stringLit(syn, syn.FirstNamed(syn.Child(v, "arguments")))
		if !ok {
			return true
		}
		r := d.p.Resolver().Resolve(d.test, spec)
		if r.Kind != "file" {
			return true
		}
		switch name := syn.Child(n, "name"); syn.Kind(name) {
		case "identifier":
			d.ns[syn.Text(name)] = mocked{spec, r.Path, ""}
		case "object_pattern":
			for _, c := range syn.NamedChildren(name) {
				switch syn.Kind(c) {
				case "shorthand_property_identifier_pattern":
					d.bound[syn.Text(c)] = mocked{spec, r.Path, syn.Text(c)}
				case "pair_pattern":
					if local := syn.Child(c, "value"); syn.Kind(local) == "identifier" {
						d.bound[syn.Text(local)] = mocked{spec, r.Path, strings.Trim(syn.Text(syn.Child(c, "key")), "\"'")}
					}
				}
			}
		}
		return true
	})
}

// factory reads the object a vi.mock factory returns: the exports it sets,
// the values it sets them to, and the names of the vi.fn()s it places.
func (d *drift) factory(m analyzer.Mock) {
	syn := d.syn
	args := syn.NamedChildren(syn.Child(m.Node, "arguments"))
	if len(args) < 2 {
		return
	}
	r := d.p.Resolver().Resolve(d.test, m.Specifier)
	if r.Kind != "file" {
		return
	}
	if mod, _ := d.p.Module(r.Path); mod == nil {
		return
	}
	obj := returnedObject(syn, args[1])
	d.missingExports(d.file, m, r.Path, obj)
	for _, c := range syn.NamedChildren(obj) {
		var key string
		var val analyzer.Node = analyzer.NoNode
		switch syn.Kind(c) {
		case "pair":
			k := syn.Child(c, "key")
			if syn.Kind(k) == "computed_property_name" {
				continue
			}
			key, val = strings.Trim(syn.Text(k), "\"'`"), syn.Unwrap(syn.Child(c, "value"))
		case "shorthand_property_identifier":
			key, val = syn.Text(c), c
		default:
			continue
		}
		if strings.HasPrefix(key, "__") {
			continue // __esModule, and the test's own plumbing (__setMockImplementation): not the module's
		}
		target := mocked{m.Specifier, r.Path, key}
		line := syn.Line(syn.Start(c))
		if _, _, exists := realFunction(d.p, r.Path, key); !exists {
			d.find("unknown-export", line, nil, "%s(%q) sets %s, which %s does not export", m.Call, m.Specifier, key, r.Path)
			continue
		}
		switch syn.Kind(val) {
		case "identifier", "shorthand_property_identifier", "member_expression":
			d.bound[strings.Join(strings.Fields(syn.Text(val)), "")] = target
			continue
		case "arrow_function", "function_expression":
			// (...a) => mockF(...a): a forward to the vi.fn() the test sets
			if body := syn.Unwrap(syn.Child(val, "body")); syn.Kind(body) == "call_expression" && forwards(syn, val, body) {
				d.bound[syn.Callee(body)] = target
				continue
			}
			if v, ok := implValue(syn, val); ok {
				d.check(target, v, line)
			}
			continue
		}
		if v, ok := factoryValue(syn, val); ok {
			d.check(target, v, line)
		}
	}
}

// mocksDir reads the __mocks__ file that stands in for the module of a
// vi.mock without a factory (vitest's automock: dir/__mocks__/name next to
// the module): each function it exports is the mock of the module's export
// of that name, checked as a factory's (found on the vi.mock's line).
func (d *drift) mocksDir(m analyzer.Mock) {
	syn := d.syn
	if args := syn.NamedChildren(syn.Child(m.Node, "arguments")); len(args) != 1 {
		return // vi.mock(path, { spy: true }): no __mocks__ file
	}
	r := d.p.Resolver().Resolve(d.test, m.Specifier)
	if r.Kind != "file" {
		return
	}
	mf := testsuite.ManualMock(r.Path)
	f, msyn := parseFile(d.p, mf)
	if f == nil || msyn == nil {
		return
	}
	md := &drift{p: d.p, test: d.test, syn: msyn, bound: map[string]mocked{}, ns: map[string]mocked{}}
	for _, fn := range f.Functions {
		if fn.Kind != analyzer.FuncTop || !fn.Exported || fn.Default {
			continue
		}
		if _, _, exists := realFunction(d.p, r.Path, fn.Name); !exists {
			d.find("unknown-export", m.Line, []Location{{File: mf, Line: fn.Line}}, "%s(%q) loads %s, which exports %s: %s does not export it", m.Call, m.Specifier, mf, fn.Name, r.Path)
			continue
		}
		if v, ok := implValue(msyn, msyn.FunctionNode(fn)); ok {
			md.check(mocked{m.Specifier, r.Path, fn.Name}, v, m.Line)
		}
	}
	for _, x := range md.out {
		x.Message += " (the automock " + mf + ")"
		d.out = append(d.out, x)
	}
}

// forwards reports whether call, the body of arrow fn, passes fn's
// parameters on unchanged to a named function ((...a) => f(...a), (x) =>
// mocks.f(x), () => f()).
func forwards(syn *analyzer.Syntax, fn, call analyzer.Node) bool {
	var params, args []string
	if q := syn.Child(fn, "parameter"); q >= 0 {
		params = append(params, syn.Text(q))
	}
	for _, q := range syn.NamedChildren(syn.Child(fn, "parameters")) {
		if pat := syn.Child(q, "pattern"); pat >= 0 {
			q = pat
		}
		params = append(params, syn.Text(q))
	}
	for _, a := range syn.NamedChildren(syn.Child(call, "arguments")) {
		args = append(args, syn.Text(a))
	}
	k := syn.Kind(syn.Child(call, "function"))
	return strings.Join(params, ",") == strings.Join(args, ",") && (k == "identifier" || k == "member_expression" && !strings.Contains(syn.Callee(call), "("))
}

// targetOf is the mocked export expression x stands for: `f`, `mocks.f`,
// `ns.f`, `vi.mocked(f)`, `(f as Mock)`, `vi.spyOn(ns, "f")`, or a chain of
// mock calls on one (`vi.mocked(f).mockReturnValueOnce(a)`).
func (d *drift) targetOf(x analyzer.Node) (mocked, bool) {
	syn := d.syn
	x = syn.Unwrap(x)
	switch syn.Kind(x) {
	case "identifier", "member_expression":
		if t, ok := d.bound[strings.Join(strings.Fields(syn.Text(x)), "")]; ok {
			return t, true
		}
		if syn.Kind(x) == "member_expression" {
			if ns, ok := d.ns[syn.Text(syn.Unwrap(syn.Child(x, "object")))]; ok {
				ns.export = syn.Text(syn.Child(x, "property"))
				return ns, true
			}
		}
	case "call_expression":
		args := syn.NamedChildren(syn.Child(x, "arguments"))
		switch callee := syn.Callee(x); {
		case mockHelper(callee, "mocked") && len(args) >= 1:
			return d.targetOf(args[0])
		case mockHelper(callee, "spyOn") && len(args) >= 2:
			ns, ok := d.ns[syn.Text(syn.Unwrap(args[0]))]
			name, isString := stringLit(syn, args[1])
			if ok && isString {
				ns.export = name
				return ns, true
			}
		default:
			if fnc := syn.Child(x, "function"); syn.Kind(fnc) == "member_expression" && strings.HasPrefix(syn.Text(syn.Child(fnc, "property")), "mock") {
				return d.targetOf(syn.Child(fnc, "object"))
			}
		}
	}
	return mocked{}, false
}

func stringLit(syn *analyzer.Syntax, n analyzer.Node) (string, bool) {
	n = syn.Unwrap(n)
	if k := syn.Kind(n); k != "string" && !(k == "template_string" && !strings.Contains(syn.Text(n), "${")) {
		return "", false
	}
	return strings.Trim(syn.Text(n), "\"'`"), true
}

// asyncness is what a value or a function is known to be: a promise, a
// plain value, or unknown.
type asyncness int

const (
	unknownAsync asyncness = iota
	isAsync
	isSync
)

// mockVal is what a mock makes the function return.
type mockVal struct {
	obj   analyzer.Node // the object literal it returns (resolves to, for a promise), or NoNode
	async asyncness
	empty bool // nothing, null or undefined: no claim on the value
	// returnsArg: an implementation every return of which is its own
	// parameter, the returnsArg-th (1-based; 0 when not): what the real
	// function's parameter is declared decides (check).
	returnsArg int
	// returnsPath: the property path below that parameter every return
	// reads (`(opts) => opts.raw`: ["raw"]), nil for the parameter itself.
	returnsPath []string
}

// setValue reads the value of a mock setter call (mockReturnValue(v), ...).
func setValue(syn *analyzer.Syntax, call analyzer.Node) (mockVal, bool) {
	fnc := syn.Child(call, "function")
	args := syn.NamedChildren(syn.Child(call, "arguments"))
	method := syn.Text(syn.Child(fnc, "property"))
	var arg analyzer.Node = analyzer.NoNode
	if len(args) > 0 {
		arg = constValue(syn, syn.Unwrap(args[0]))
	}
	switch method {
	case "mockReturnValue", "mockReturnValueOnce":
		if arg < 0 {
			return mockVal{}, false
		}
		return plainValue(syn, arg), true
	case "mockResolvedValue", "mockResolvedValueOnce":
		v := mockVal{obj: analyzer.NoNode, async: isAsync, empty: arg < 0 || isEmpty(syn, arg)}
		if syn.Kind(arg) == "object" {
			v.obj = arg
		}
		return v, true
	case "mockRejectedValue", "mockRejectedValueOnce":
		return mockVal{obj: analyzer.NoNode, async: isAsync, empty: true}, true
	case "mockImplementation", "mockImplementationOnce":
		return implValue(syn, arg)
	}
	return mockVal{}, false
}

// plainValue reads v, a value a mock returns as it is.
func plainValue(syn *analyzer.Syntax, v analyzer.Node) mockVal {
	v = constValue(syn, v)
	out := mockVal{obj: analyzer.NoNode, async: valueAsync(syn, v), empty: isEmpty(syn, v)}
	switch {
	case syn.Kind(v) == "object":
		out.obj = v
	case syn.Kind(v) == "call_expression" && (syn.Callee(v) == "Promise.resolve"):
		if a := syn.Unwrap(syn.FirstNamed(syn.Child(v, "arguments"))); syn.Kind(a) == "object" {
			out.obj = a
		}
	}
	return out
}

func isEmpty(syn *analyzer.Syntax, v analyzer.Node) bool {
	k := syn.Kind(v)
	return k == "null" || k == "undefined" || k == "identifier" && syn.Text(v) == "undefined"
}

// valueAsync classifies an expression: a promise (new Promise, Promise.x(),
// a .then/.catch/.finally chain), a plain value (a string, number, boolean,
// template, object or array literal, null; a comparison, arithmetic, `!x`,
// `typeof x`), or unknown. undefined is unknown: a vi.fn()'s own value.
func valueAsync(syn *analyzer.Syntax, v analyzer.Node) asyncness {
	v = syn.Unwrap(v)
	switch syn.Kind(v) {
	case "string", "template_string", "number", "true", "false", "object", "array", "regex", "null":
		return isSync
	case "binary_expression":
		switch syn.Text(syn.Child(v, "operator")) {
		case "===", "!==", "==", "!=", "<", ">", "<=", ">=", "instanceof", "in", "-", "*", "/", "%":
			return isSync // a boolean or a number
		}
	case "unary_expression":
		if op := syn.Text(syn.Child(v, "operator")); op == "!" || op == "typeof" || op == "-" {
			return isSync
		}
	case "new_expression":
		if syn.Text(syn.Child(v, "constructor")) == "Promise" {
			return isAsync
		}
	case "call_expression":
		callee := syn.Callee(v)
		if strings.HasPrefix(callee, "Promise.") {
			return isAsync
		}
		if fnc := syn.Child(v, "function"); syn.Kind(fnc) == "member_expression" {
			switch syn.Text(syn.Child(fnc, "property")) {
			case "then", "catch", "finally":
				return isAsync
			}
		}
	}
	return unknownAsync
}

// moduleMock says whether call mocks a whole module in a test file:
// vitest's vi.mock or vi.doMock, jest's jest.mock or jest.doMock (the
// analyzer's Mock.Call).
func moduleMock(call string) bool {
	switch call {
	case "vi.mock", "vi.doMock", "jest.mock", "jest.doMock":
		return true
	}
	return false
}

// mockHelper says whether callee is the test framework's name (vitest's
// vi.<name>, jest's jest.<name>): fn, mocked, spyOn.
func mockHelper(callee, name string) bool { return callee == "vi."+name || callee == "jest."+name }

// factoryValue reads a value a factory sets an export to: vi.fn(impl), or
// vi.fn().mockX(...) (the last setter of the chain).
func factoryValue(syn *analyzer.Syntax, v analyzer.Node) (mockVal, bool) {
	for syn.Kind(v) == "call_expression" {
		fnc := syn.Child(v, "function")
		if mockHelper(syn.Callee(v), "fn") {
			args := syn.NamedChildren(syn.Child(v, "arguments"))
			if len(args) == 1 {
				return implValue(syn, syn.Unwrap(args[0]))
			}
			return mockVal{}, false
		}
		if syn.Kind(fnc) != "member_expression" {
			return mockVal{}, false
		}
		if mockSetters[syn.Text(syn.Child(fnc, "property"))] {
			return setValue(syn, v)
		}
		v = syn.Child(fnc, "object") // vi.fn().mockName("x").mockResolvedValue(...)
	}
	return mockVal{}, false
}

// implValue reads a mock implementation: async when declared so, else what
// every return gives.
func implValue(syn *analyzer.Syntax, fn analyzer.Node) (mockVal, bool) {
	switch syn.Kind(fn) {
	case "arrow_function", "function_expression", "function", "function_declaration":
	default:
		return mockVal{}, false
	}
	v := mockVal{obj: returnedObject(syn, fn), async: unknownAsync}
	if syn.HasToken(fn, "async") {
		v.async = isAsync
		return v, true
	}
	var returns []analyzer.Node
	body := syn.Child(fn, "body")
	if syn.Kind(body) != "statement_block" {
		returns = append(returns, body)
	} else {
		returns = returnsOf(syn, body)
	}
	for i, e := range returns {
		returns[i] = constValue(syn, syn.Unwrap(e))
	}
	v.async = allOf(returns, func(e analyzer.Node) asyncness { return valueAsync(syn, e) })
	if v.obj < 0 && len(returns) == 1 && syn.Kind(returns[0]) == "object" {
		v.obj = returns[0] // () => FIXTURE
	}
	v.returnsArg, v.returnsPath = returnedParam(syn, fn, returns)
	for _, e := range returns {
		if isEmpty(syn, syn.Unwrap(e)) {
			v.empty = true
		}
	}
	if len(returns) == 0 {
		v.empty = true
	}
	return v, true
}

// returnsOf are the expressions the return statements of body return,
// outside nested functions (a bare `return` gives none).
func returnsOf(syn *analyzer.Syntax, body analyzer.Node) []analyzer.Node {
	var out []analyzer.Node
	syn.Walk(body, func(n analyzer.Node) bool {
		switch syn.Kind(n) {
		case "arrow_function", "function_expression", "function_declaration", "method_definition", "class", "generator_function_declaration":
			return false
		case "return_statement":
			if e := syn.FirstNamed(n); e >= 0 {
				out = append(out, e)
			}
			return false
		}
		return true
	})
	return out
}

// allOf is the async-ness every expression shares, unknownAsync when they
// differ or there are none.
func allOf(es []analyzer.Node, of func(analyzer.Node) asyncness) asyncness {
	if len(es) == 0 {
		return unknownAsync
	}
	first := of(es[0])
	for _, e := range es[1:] {
		if of(e) != first {
			return unknownAsync
		}
	}
	return first
}

func (d *drift) find(kind string, line int, related []Location, format string, a ...any) {
	d.out = append(d.out, Finding{Rule: "mock-drift/" + kind, Severity: Warning, File: d.test, Line: line,
		Message: fmt.Sprintf(format, a...), Related: related})
}

// check compares what a mock of target returns with the real function.
func (d *drift) check(target mocked, v mockVal, line int) {
	fn, defFile, exists := realFunction(d.p, target.module, target.export)
	if !exists || fn == nil {
		return
	}
	df, dsyn := parseFile(d.p, defFile)
	if df == nil || dsyn == nil {
		return
	}
	what := fmt.Sprintf("the mock of %s (%s)", target.export, target.spec)
	at := []Location{{File: defFile, Line: fn.Line}}
	real, void := realAsync(d.p, dsyn, df, fn, 2)
	if v.async == unknownAsync && v.returnsArg > 0 && v.returnsArg <= len(fn.Params) {
		// (x) => x: the value the code passes, as the real parameter is
		// declared (a string is never a promise).
		if param := fn.Params[v.returnsArg-1]; !param.Rest && param.Type != "" {
			if t, ok := memberType(d.p, defFile, param.Type, v.returnsPath); ok {
				v.async = declaredAsync(d.p, defFile, t, maxAliasDepth)
			}
		}
	}
	switch {
	case v.async == isAsync && real == isSync && !(void && v.empty):
		d.find("async", line, at, "%s returns a promise, but %s#%s is synchronous (%s:%d)", what, defFile, fn.Qual, defFile, fn.Line)
	case v.async == isSync && real == isAsync:
		d.find("async", line, at, "%s returns a plain value, but %s#%s is async (%s:%d): it returns a promise", what, defFile, fn.Qual, defFile, fn.Line)
	}
	if v.obj < 0 {
		return
	}
	mp, ok := objectPaths(d.syn, v.obj, "")
	if !ok {
		return
	}
	reals, readable := returnedShapes(dsyn, df, fn, 1)
	if !readable || len(reals) == 0 {
		// The declared return type, where written: its members are the
		// top-level keys the value can have. The value may be of a subtype
		// (a class instance with more members than its interface), so only
		// a mock sharing no key with the type is drift.
		members, ok := declaredMembers(d.p, dsyn, defFile, fn)
		mp = topLevel(mp)
		if !ok || len(mp) == 0 || overlaps(mp, members) {
			return
		}
		reals = [][]string{members}
	}
	for _, rp := range reals {
		if subset(mp, rp) {
			return
		}
	}
	d.find("shape", line, at, "%s returns { %s }, a shape %s#%s cannot return: it returns { %s } (%s:%d)", what,
		strings.Join(mp, ", "), defFile, fn.Qual, strings.Join(closed(reals[0]), ", "), defFile, fn.Line)
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// realAsync is whether fn returns a promise: async when declared async or
// `Promise<...>`, or when every return is a promise (new Promise, a .then
// chain, a call of an async function of the repository, depth levels
// deep); sync when its declared type is not a promise or every return is a
// plain literal; void when it returns nothing.
func realAsync(p *callgraph.Program, syn *analyzer.Syntax, f *analyzer.File, fn *analyzer.Function, depth int) (a asyncness, void bool) {
	body := syn.Find(fn.BodyStartByte, fn.BodyEndByte, "")
	if body < 0 {
		return unknownAsync, false
	}
	if head := string(syn.Src()[fn.StartByte:fn.BodyStartByte]); strings.Contains(head, "*") && !strings.Contains(head, "=>") {
		return unknownAsync, false // a generator: an iterator either way
	}
	if fn.Async {
		return isAsync, false
	}
	if rt := returnType(syn, fn); rt != "" {
		return declaredAsync(p, f.Path, rt, maxAliasDepth), rt == "void"
	}
	var returns []analyzer.Node
	if syn.Kind(body) != "statement_block" {
		returns = []analyzer.Node{body}
	} else if returns = returnsOf(syn, body); len(returns) == 0 {
		return isSync, true
	}
	return allOf(returns, func(e analyzer.Node) asyncness { return returnAsync(p, syn, f, body, e, depth) }), false
}

// returnAsync is what one return expression e of a function of f (body
// its body) is: valueAsync's reading; a call of a function of the
// repository (depth levels deep), of fetch, of a zod schema's parse; a
// const of the body (`const base = createConfig(); ... return base`), its
// initializer.
func returnAsync(p *callgraph.Program, syn *analyzer.Syntax, f *analyzer.File, body, e analyzer.Node, depth int) asyncness {
	if a := valueAsync(syn, e); a != unknownAsync {
		return a
	}
	e = syn.Unwrap(e)
	switch syn.Kind(e) {
	case "identifier":
		if init := localConst(syn, body, syn.Text(e)); init >= 0 && syn.Kind(syn.Unwrap(init)) != "identifier" {
			return returnAsync(p, syn, f, body, init, depth)
		}
	case "call_expression":
		if depth > 0 {
			if callee, cf := calledFunction(p, f, syn.Callee(e)); callee != nil {
				_, csyn := parseFile(p, cf.Path)
				if csyn != nil {
					a, _ := realAsync(p, csyn, cf, callee, depth-1)
					return a
				}
			}
		}
		if syn.Callee(e) == "fetch" {
			return isAsync
		}
		if a, ok := zodParsed(p, f.Path, syn.Callee(e)); ok {
			return a // configSchema.parse(x)
		}
	}
	return unknownAsync
}

// localConst is the initializer of the one declaration of name in body, a
// const; NoNode when name is declared there otherwise, more than once
// (a shadowing binding), or not at all.
func localConst(syn *analyzer.Syntax, body analyzer.Node, name string) analyzer.Node {
	var init analyzer.Node = analyzer.NoNode
	count := 0
	syn.Walk(body, func(d analyzer.Node) bool {
		switch syn.Kind(d) {
		case "variable_declarator":
			if syn.Text(syn.Child(d, "name")) == name {
				count++
				if decl := syn.Parent(d); syn.Kind(decl) == "lexical_declaration" && syn.HasToken(decl, "const") {
					init = syn.Child(d, "value")
				}
			}
		case "required_parameter", "optional_parameter", "function_declaration", "class_declaration":
			if syn.Text(syn.Child(d, "name")) == name || syn.Text(syn.Child(d, "pattern")) == name {
				count++
			}
		}
		return count < 2
	})
	if count != 1 {
		return analyzer.NoNode
	}
	return init
}

// calledFunction is the function of the repository that a call of name (an
// identifier) in file f calls: a top-level function of f, or one it imports.
func calledFunction(p *callgraph.Program, f *analyzer.File, name string) (*analyzer.Function, *analyzer.File) {
	if name == "" || strings.ContainsAny(name, ".([") {
		return nil, nil
	}
	for _, fn := range f.Functions {
		if fn.Kind == analyzer.FuncTop && fn.Name == name {
			return fn, f
		}
	}
	for _, im := range f.Imports {
		if im.Local != name || im.Kind == analyzer.ImportNamespace {
			continue
		}
		if r := p.Resolver().Resolve(f.Path, im.Specifier); r.Kind == "file" {
			if fn, file, _ := realFunction(p, r.Path, im.Imported); fn != nil {
				df, _ := parseFile(p, file)
				if df != nil {
					return fn, df
				}
			}
		}
	}
	return nil, nil
}

// maxAliasDepth bounds how many type aliases declaredAsync follows
// (`type A = B; type B = Promise<X>`).
const maxAliasDepth = 4

// declaredAsync reads a declared return type: a promise (`Promise<T>`,
// `PromiseLike<T>`), not one (primitives, arrays, object types, interfaces
// and classes of the repository, unions of those), or unknown (a type of a
// package, `any`, `T | Promise<T>`). A type alias of the repository is
// followed, aliases deep: `type Loaded = Promise<User>` is a promise;
// an alias whose type parameters decide (`type Id<T> = T`) is unknown.
func declaredAsync(p *callgraph.Program, file, rt string, aliases int) asyncness {
	rt = strings.TrimSpace(rt)
	if strings.HasPrefix(rt, "Promise<") || strings.HasPrefix(rt, "PromiseLike<") {
		return isAsync
	}
	parts := unionMembers(rt)
	for _, part := range parts {
		part = strings.TrimSpace(part)
		switch {
		case part == "":
		case strings.Contains(part, "Promise") || strings.Contains(part, "Thenable") || strings.Contains(part, "Awaitable"):
			return unknownAsync
		case primitiveType[part], strings.HasPrefix(part, "{"), strings.HasSuffix(part, "[]"), strings.HasPrefix(part, "\""), strings.HasPrefix(part, "'"):
		case syncGeneric[strings.TrimSpace(strings.SplitN(part, "<", 2)[0])] && strings.Contains(part, "<"):
			// Record<K, V>, Map<K, V>, Array<T>...: a plain value whatever
			// their arguments (a promise is never one of them).
		default:
			if a, ok := zodAsync(p, file, part); ok {
				if a == unknownAsync {
					return unknownAsync
				}
				continue
			}
			name, _, _ := strings.Cut(part, "<")
			if af, alias := p.TypeAlias(file, strings.TrimSpace(name)); alias != nil {
				if aliases == 0 {
					return unknownAsync
				}
				switch a := declaredAsync(p, af, alias.Type, aliases-1); {
				case a == unknownAsync:
					return unknownAsync
				case a == isAsync && len(parts) == 1:
					return isAsync
				case a == isAsync:
					return unknownAsync // `User | Loaded`: a promise or not
				}
				continue
			}
			if _, ok, _ := p.TypeMembers(file, part); !ok {
				return unknownAsync
			}
		}
	}
	return isSync
}

// syncGeneric are TypeScript's generic types that are never a promise
// (issue 29: a `Record<…>` return made async-ness unknown and a wrong
// mockResolvedValue went unseen).
var syncGeneric = map[string]bool{"Record": true, "Partial": true, "Required": true, "Readonly": true, "Pick": true, "Omit": true,
	"Map": true, "Set": true, "ReadonlyMap": true, "ReadonlySet": true, "WeakMap": true, "WeakSet": true, "Array": true, "ReadonlyArray": true}

var primitiveType = map[string]bool{"string": true, "number": true, "boolean": true, "void": true, "bigint": true, "symbol": true,
	"null": true, "undefined": true, "never": true, "true": true, "false": true, "object": true}

// realFunction finds export name of module: the function declaring it (nil
// when the export is not a function), its file, and whether the export exists.
func realFunction(p *callgraph.Program, module, name string) (*analyzer.Function, string, bool) {
	f, _ := p.Module(module)
	if f == nil {
		return nil, "", true
	}
	file, decl, ok := p.ExportedDeclaration(module, name)
	if !ok {
		return nil, "", false
	}
	df, _ := p.Module(file)
	if df == nil {
		return nil, file, true
	}
	for _, fn := range df.Functions {
		if fn.Kind == analyzer.FuncTop && fn.Qual == decl {
			return fn, file, true
		}
	}
	return nil, file, true
}

func parseFile(p *callgraph.Program, file string) (*analyzer.File, *analyzer.Syntax) {
	src, err := os.ReadFile(filepath.Join(p.Root(), filepath.FromSlash(file)))
	if err != nil {
		return nil, nil
	}
	return analyzer.ParseSyntax(file, src)
}

// returnedObject is the object literal a function node returns (an arrow's
// expression body, or its body's last `return {...}`), or -1.
func returnedObject(syn *analyzer.Syntax, fn analyzer.Node) analyzer.Node {
	switch syn.Kind(fn) {
	case "arrow_function", "function_expression", "function", "function_declaration":
	default:
		return -1
	}
	body := syn.Unwrap(syn.Child(fn, "body"))
	if body >= 0 && syn.Kind(body) == "object" {
		return body
	}
	var obj analyzer.Node = -1
	for _, st := range syn.NamedChildren(body) {
		if syn.Kind(st) == "return_statement" {
			if e := syn.Unwrap(syn.FirstNamed(st)); e >= 0 && syn.Kind(e) == "object" {
				obj = e
			}
		}
	}
	return obj
}

// objectPaths lists the property paths of an object literal ("success",
// "details", "details.passed"), sorted; ok is false with a spread or a
// computed key (the shape is not known).
func objectPaths(syn *analyzer.Syntax, obj analyzer.Node, prefix string) ([]string, bool) {
	return paths(syn, obj, prefix, false)
}

// anyBelow marks, in the paths of a real value, a property whose value is
// not an object literal (`{ context }`, `{ source: configSource }`): any
// path below it may be there ("context.*").
const anyBelow = ".*"

// paths is objectPaths; open adds "key.*" for a key whose value is not an
// object literal (the real side: its members are not known).
func paths(syn *analyzer.Syntax, obj analyzer.Node, prefix string, open bool) ([]string, bool) {
	var out []string
	for _, c := range syn.NamedChildren(obj) {
		var key string
		var val analyzer.Node = -1
		switch syn.Kind(c) {
		case "pair":
			k := syn.Child(c, "key")
			if syn.Kind(k) == "computed_property_name" {
				return nil, false
			}
			key = strings.Trim(syn.Text(k), "\"'")
			val = syn.Unwrap(syn.Child(c, "value"))
		case "shorthand_property_identifier":
			key = syn.Text(c)
		case "method_definition":
			key = syn.Text(syn.Child(c, "name"))
		default:
			return nil, false // a spread: the shape is not known
		}
		path := key
		if prefix != "" {
			path = prefix + "." + key
		}
		out = append(out, path)
		if val >= 0 && syn.Kind(val) == "object" {
			sub, ok := paths(syn, val, path, open)
			if !ok {
				return nil, false
			}
			out = append(out, sub...)
		} else if open && syn.Kind(c) != "method_definition" {
			out = append(out, path+anyBelow)
		}
	}
	sort.Strings(out)
	return out, true
}

// returnedShapes lists the property paths of every object literal the
// function returns (its return statements outside nested functions, or an
// arrow's expression body); readable is false when some return is not an
// object literal whose shape is known (a call's result, a spread).
func returnedShapes(syn *analyzer.Syntax, f *analyzer.File, fn *analyzer.Function, helpers int) (shapes [][]string, readable bool) {
	body := syn.Find(fn.BodyStartByte, fn.BodyEndByte, "")
	if body < 0 {
		return nil, false
	}
	if syn.Kind(body) == "object" || syn.Kind(syn.Unwrap(body)) == "object" {
		ps, ok := paths(syn, syn.Unwrap(body), "", true)
		return [][]string{ps}, ok
	}
	readable = true
	syn.Walk(body, func(n analyzer.Node) bool {
		switch syn.Kind(n) {
		case "arrow_function", "function_expression", "function_declaration", "method_definition", "class":
			return false
		case "return_statement":
			e := syn.Unwrap(syn.FirstNamed(n))
			if e < 0 {
				return false
			}
			if syn.Kind(e) == "await_expression" {
				e = syn.Unwrap(syn.FirstNamed(e))
			}
			if syn.Kind(e) == "call_expression" && helpers > 0 {
				// one level of local helpers: return build(x), build a function of the file
				if callee := syn.Child(e, "function"); syn.Kind(callee) == "identifier" {
					for _, h := range f.Functions {
						if h.Kind == analyzer.FuncTop && h.Name == syn.Text(callee) {
							hs, ok := returnedShapes(syn, f, h, helpers-1)
							if !ok {
								readable = false
							}
							shapes = append(shapes, hs...)
							return false
						}
					}
				}
			}
			if syn.Kind(e) != "object" {
				readable = false
				return false
			}
			ps, ok := paths(syn, e, "", true)
			if !ok {
				readable = false
				return false
			}
			shapes = append(shapes, ps)
			return false
		}
		return true
	})
	return shapes, readable
}

func subset(a, b []string) bool {
	set := map[string]bool{}
	for _, x := range b {
		set[x] = true
	}
	for _, x := range a {
		if !set[x] && !openAbove(set, x) {
			return false
		}
	}
	return true
}

// openAbove reports whether some property above path x has a value of
// unknown members (its "key.*" is in set).
func openAbove(set map[string]bool, x string) bool {
	for i := strings.LastIndexByte(x, '.'); i > 0; i = strings.LastIndexByte(x[:i], '.') {
		if set[x[:i]+anyBelow] {
			return true
		}
	}
	return false
}

// closed drops the "key.*" marks from paths, for a message.
func closed(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !strings.HasSuffix(p, anyBelow) {
			out = append(out, p)
		}
	}
	return out
}

// declaredMembers reads the declared return type of fn (`): Result` or
// `): Promise<Result>`) and, when it names an interface or class of the
// repository, lists its members.
func declaredMembers(p *callgraph.Program, syn *analyzer.Syntax, file string, fn *analyzer.Function) ([]string, bool) {
	t := returnType(syn, fn)
	if t == "" {
		return nil, false
	}
	if inner, ok := strings.CutPrefix(t, "Promise<"); ok {
		t = strings.TrimSuffix(inner, ">")
	}
	t = withoutNullish(t)
	members, complete, ok, _ := p.KnownTypeMembers(file, t)
	if !ok {
		return aliasMembers(p, file, t)
	}
	return members, ok && complete // a member of an interface of a package may be the one the mock sets
}

// aliasMembers lists the members of a type alias of the repository whose
// type is an object type (`type Context = { run<T>(f: () => T): T }`);
// false when t is no such alias, or when its members are not all known
// (an index signature).
func aliasMembers(p *callgraph.Program, file, t string) ([]string, bool) {
	members, _, ok := aliasBody(p, file, t)
	return members, ok && len(members) > 0
}

// aliasBody reads the members of a type alias of the repository whose
// type is an object type: their names and, for each, its declared type as
// written ("" for a method); false when t is no such alias or its members
// are not all known.
func aliasBody(p *callgraph.Program, file, t string) (names, types []string, ok bool) {
	if strings.ContainsAny(t, "<&|[") {
		return nil, nil, false
	}
	_, alias := p.TypeAlias(file, strings.TrimSpace(t))
	if alias == nil || len(alias.TypeParams) > 0 || !strings.HasPrefix(strings.TrimSpace(alias.Type), "{") {
		return nil, nil, false
	}
	return objectMembers(alias.Type)
}

// objectMembers reads the members of an object type as written (`{ raw:
// string; run(): void }`): their names and declared types ("" for a
// method); false when they are not all known (an index signature, an
// intersection).
func objectMembers(body string) (names, types []string, ok bool) {
	body = strings.TrimSpace(body)
	if !strings.HasPrefix(body, "{") || !strings.HasSuffix(body, "}") {
		return nil, nil, false // { ... } & Other
	}
	body = body[1 : len(body)-1]
	member := func(m string) bool {
		m = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m), "readonly "))
		switch {
		case m == "", strings.HasPrefix(m, "("), strings.HasPrefix(m, "new "), strings.HasPrefix(m, "new("), strings.HasPrefix(m, "<"):
			return true // a call or construct signature: no member
		case strings.HasPrefix(m, "["), strings.HasPrefix(m, "..."):
			return false // an index signature: any key
		}
		name, typ := m, ""
		if i := strings.IndexAny(m, "?:(<"); i >= 0 {
			name = m[:i]
			if rest := strings.TrimPrefix(m[i:], "?"); strings.HasPrefix(rest, ":") {
				typ = strings.TrimSpace(rest[1:])
			}
		}
		name = strings.Trim(strings.TrimSpace(name), "\"'")
		if name == "" || strings.ContainsAny(name, " \t") {
			return false
		}
		names, types = append(names, name), append(types, typ)
		return true
	}
	depth, last := 0, 0
	for i, r := range body {
		switch r {
		case '<', '(', '{', '[':
			depth++
		case '>':
			if i == 0 || body[i-1] != '=' { // not the arrow of a function type
				depth--
			}
		case ')', '}', ']':
			if depth--; depth < 0 {
				return nil, nil, false // { a } & { b }
			}
		case ';', ',', '\n':
			if depth == 0 {
				if !member(body[last:i]) {
					return nil, nil, false
				}
				last = i + 1
			}
		}
	}
	if !member(body[last:]) {
		return nil, nil, false
	}
	return names, types, true
}

// memberType is the declared type of the property path below a value of
// type t (`TransformOpts`, ["raw"]: `string`), through type aliases of the
// repository whose types are object types; t itself for no path.
func memberType(p *callgraph.Program, file, t string, path []string) (string, bool) {
	for _, key := range path {
		t = withoutNullish(t)
		names, types, ok := objectMembers(t) // an object type written in place
		if !strings.HasPrefix(strings.TrimSpace(t), "{") {
			names, types, ok = aliasBody(p, file, t)
		}
		if !ok {
			return "", false
		}
		i := slices.Index(names, key)
		if i < 0 || types[i] == "" {
			return "", false
		}
		t = types[i]
		if af, _ := p.TypeAlias(file, strings.TrimSpace(t)); af != "" {
			file = af
		}
	}
	return t, true
}

// withoutNullish is a union type without its undefined and null members
// (`Item | undefined` is Item: an object the mock sets must still have
// Item's shape), t itself when that leaves other than one type.
func withoutNullish(t string) string {
	var kept []string
	parts := unionMembers(t)
	for _, part := range parts {
		if part = strings.TrimSpace(part); part != "" && part != "undefined" && part != "null" {
			kept = append(kept, part)
		}
	}
	if len(parts) > 1 && len(kept) == 1 {
		return kept[0]
	}
	return t
}

// unionMembers splits a type as written at its top-level `|`s (not those
// inside <>, (), {} or []), untrimmed; one member when it is no union.
func unionMembers(t string) []string {
	var parts []string
	depth, last := 0, 0
	for i, r := range t {
		switch r {
		case '<', '(', '{', '[':
			depth++
		case '>', ')', '}', ']':
			depth--
		case '|':
			if depth == 0 {
				parts = append(parts, t[last:i])
				last = i + 1
			}
		}
	}
	return append(parts, t[last:])
}

// topLevel keeps the paths without a dot.
func topLevel(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !strings.Contains(p, ".") {
			out = append(out, p)
		}
	}
	return out
}

// returnType is fn's declared return type as written, "" when none.
func returnType(syn *analyzer.Syntax, fn *analyzer.Function) string {
	body := syn.Find(fn.BodyStartByte, fn.BodyEndByte, "")
	if body < 0 {
		return ""
	}
	rt := syn.Child(syn.Parent(body), "return_type")
	if rt < 0 {
		return ""
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(syn.Text(rt)), ":"))
}
