package audit

import (
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// A whole-module vi.mock factory replaces the module by the object it
// returns: an export it leaves out throws when the code reads it (vitest:
// `No "x" export is defined on the mock`). Code that catches the error (a
// try/catch, a fallback) passes without ever running what the test meant
// to stand in for: the test's table row says PASS on both sides, and only
// the factory's keys show it. missing-export names, for each export the
// code under test calls that the factory leaves out, the call, where the
// test runs it (runsIn: what its measured run entered, else what it calls
// by name): the static walk alone gave 882 findings on shadcn-ui and
// gemini-cli, none of which a run reached.

// factoryKeys are the exports an object literal a factory returns sets;
// ok is false when they cannot all be read (a spread, a computed key).
func factoryKeys(syn *analyzer.Syntax, obj analyzer.Node) (map[string]bool, bool) {
	if syn.Kind(obj) != "object" {
		return nil, false
	}
	keys := map[string]bool{}
	for _, c := range syn.NamedChildren(obj) {
		switch syn.Kind(c) {
		case "pair", "method_definition":
			k := syn.Child(c, "key")
			if k < 0 {
				k = syn.Child(c, "name")
			}
			if syn.Kind(k) == "computed_property_name" {
				return nil, false
			}
			keys[strings.Trim(syn.Text(k), "\"'`")] = true
		case "shorthand_property_identifier":
			keys[syn.Text(c)] = true
		case "comment":
		default:
			return nil, false // a spread: the keys are not all written down
		}
	}
	return keys, true
}

// omitted is one call of an export the factory leaves out.
type omitted struct {
	export, file string
	line         int
}

// missingExports reports the exports of module that code the test loads
// calls and the factory of m (returning obj) leaves out.
func (d *drift) missingExports(test *analyzer.File, m analyzer.Mock, module string, obj analyzer.Node) {
	if !wholeMock(m) {
		return
	}
	keys, ok := factoryKeys(d.syn, obj)
	if !ok {
		return
	}
	mocked := d.wholeMocks(test)
	_, stopped := d.p.Reach(test, func(mod string) bool { return mocked[mod] })
	var found []omitted
	seen := map[string]bool{}
	for _, user := range stopped[module] {
		if user == test.Path {
			continue // the test's own calls are the test's: it means them
		}
		for _, o := range d.omittedCalls(user, module, keys) {
			if _, _, exists := realFunction(d.p, module, o.export); exists && !seen[o.export] {
				seen[o.export] = true
				found = append(found, o)
			}
		}
	}
	slices.SortFunc(found, func(a, b omitted) int { return strings.Compare(a.export, b.export) })
	for _, o := range found {
		d.find("missing-export", m.Line, []Location{{File: o.file, Line: o.line}},
			"%s(%q) leaves out %s, which %s calls (%s:%d): %s, and code that tolerates the error passes without running it",
			m.Call, m.Specifier, o.export, o.file, o.file, o.line, leftOut(m.Call))
	}
}

// wholeMock says whether m replaces its module as a whole from the top of
// the test file: vitest's hoisted vi.mock, jest's jest.mock, with no
// importActual/requireActual spread (doMock runs where it is written).
func wholeMock(m analyzer.Mock) bool {
	return (m.Call == "vi.mock" || m.Call == "jest.mock") && !m.Partial
}

// leftOut says what an export a factory leaves out is where code calls it:
// vitest's mock module throws on the read, jest's is undefined (a
// TypeError when called).
func leftOut(call string) string {
	if strings.HasPrefix(call, "jest.") {
		return "jest leaves it undefined there (a TypeError when called)"
	}
	return "vitest throws there"
}

// wholeMocks are the modules the test's own whole-module vi.mocks replace.
func (d *drift) wholeMocks(test *analyzer.File) map[string]bool {
	out := map[string]bool{}
	for _, m := range test.Mocks {
		if !wholeMock(m) {
			continue
		}
		if r := d.p.Resolver().Resolve(d.test, m.Specifier); r.Kind == "file" {
			out[r.Path] = true
		}
	}
	return out
}

// omittedCalls are user's calls of exports of module not among keys: by
// a name imported from it, or through a namespace import of it.
func (d *drift) omittedCalls(user, module string, keys map[string]bool) []omitted {
	f, _ := d.p.Module(user)
	if f == nil {
		return nil
	}
	named := map[string]string{} // local → export
	ns := map[string]bool{}
	for _, im := range f.Imports {
		if im.TypeOnly || im.Local == "" {
			continue
		}
		if r := d.p.Resolver().Resolve(user, im.Specifier); r.Kind != "file" || r.Path != module {
			continue
		}
		switch im.Kind {
		case analyzer.ImportNamed, analyzer.ImportDefault:
			named[im.Local] = im.Imported
		case analyzer.ImportNamespace:
			ns[im.Local] = true
		}
	}
	var out []omitted
	runs := func(fn *analyzer.Function) bool { return d.runs == nil || d.runs(user, fn) }
	visit := func(c analyzer.Call) {
		if c.Callee.Binding.Kind != analyzer.BindModule {
			return
		}
		export := ""
		switch c.Callee.Kind {
		case analyzer.CalleeIdent:
			export = named[c.Callee.Root]
		case analyzer.CalleeMember:
			if ns[c.Callee.Root] && len(c.Callee.Path) > 0 {
				export = c.Callee.Path[0]
			}
		}
		if export != "" && !keys[export] {
			out = append(out, omitted{export: export, file: user, line: c.Line})
		}
	}
	// A call counts where the test runs it: in a function the test runs
	// (its outermost one: a closure's calls are its parent's too), or in
	// the module's own code, which runs when the test loads it.
	for _, fn := range f.Functions {
		if fn.Parent == nil && runs(fn) {
			for _, c := range fn.Calls {
				visit(c)
			}
		}
	}
	for _, c := range f.TopCalls {
		if !c.Nested {
			visit(c)
		}
	}
	return out
}

// runsIn is whether test file t runs fn, a function of module user, as
// far as the audit knows. Measured (the Executed fact, unless the audit is
// static), t's run entered it. Else (static, a function not measured, or a
// t that could not run) t imports user itself and calls fn by name
// (`summary()`, `ns.summary()`, `Service.run()`), or fn is module-level
// code of user (`new Command().action(async () => ...)`), and the static
// walk reaches it: the walk follows every call the code could make, and
// on shadcn-ui and gemini-cli the 46 calls it found past those were never
// reached by a run (bench/mocks41.md).
func (p *Pass) runsIn(t string) func(user string, fn *analyzer.Function) bool {
	tr := p.Reach.tests[t]
	if tr == nil {
		return nil
	}
	_, unrunnable := p.Executed.Unrunnable[t]
	direct := map[string]bool{}
	var named map[string]bool
	if tr.file != nil {
		for _, im := range p.Program.RuntimeImports(tr.file) {
			direct[im.Module] = true
		}
		named = p.calledByName(tr.file)
	}
	return func(user string, fn *analyzer.Function) bool {
		id := user + "#" + fn.Qual
		if ran, measured := p.Executed.Entered[id]; measured && !unrunnable {
			return slices.Contains(ran, t)
		}
		moduleCode := fn.Parent == nil && (fn.Kind == analyzer.FuncProperty || fn.Kind == analyzer.FuncExpression)
		return tr.fns[id] && direct[user] && (named[id] || moduleCode)
	}
}

// calledByName are the ids of the functions of the repository that test
// file f calls through a name it imports: `f()`, `ns.f()`, `C.m()`.
func (p *Pass) calledByName(f *analyzer.File) map[string]bool {
	imports := map[string]analyzer.Import{}
	for _, im := range f.Imports {
		if !im.TypeOnly && im.Local != "" {
			imports[im.Local] = im
		}
	}
	out := map[string]bool{}
	visit := func(c analyzer.Call) {
		im, ok := imports[c.Callee.Root]
		if !ok || c.Callee.Binding.Kind != analyzer.BindModule || c.Callee.Kind != analyzer.CalleeIdent && c.Callee.Kind != analyzer.CalleeMember {
			return
		}
		r := p.Program.Resolver().Resolve(f.Path, im.Specifier)
		if r.Kind != "file" {
			return
		}
		export, rest := im.Imported, c.Callee.Path
		if im.Kind == analyzer.ImportNamespace {
			if len(rest) == 0 {
				return
			}
			export, rest = rest[0], rest[1:]
		}
		file, decl, ok := p.Program.ExportedDeclaration(r.Path, export)
		if ok && file != "" {
			out[strings.Join(append([]string{file + "#" + decl}, rest...), ".")] = true
		}
	}
	for _, c := range f.TopCalls {
		visit(c)
	}
	for _, fn := range f.Functions {
		for _, c := range fn.Calls {
			visit(c)
		}
	}
	return out
}
