package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
)

// MockDrift reports a vi.mock factory that stands in for a function of the
// repository with a value the real function cannot produce (the finding's
// rule is "mock-drift/<kind>"):
//
//   - shape: the mock returns an object literal whose property paths match
//     no object literal the real function returns (`{ passed }` where the
//     code returns `{ success, details: { passed } }`);
//   - unknown-export: the factory sets an export the real module does not
//     have;
//   - async: a resolved value where the real function is synchronous, or a
//     plain object where it is async.
//
// Where the real value cannot be read from declarations (it returns a
// call's result, a spread), nothing is said: no finding without evidence.
var MockDrift = &Rule{
	Name:  "mock-drift",
	Doc:   "a mock whose value the real function cannot produce",
	Reads: "each test file's syntax (vi.mock factories, mock* values); the real functions' returns and declared types (the program)",
	Run:   mockDrifts,
}

func mockDrifts(s *Suite) []Finding {
	var out []Finding
	s.eachTest(func(t string, in *TestInput) { out = append(out, driftIn(s.Program, t, in.Syntax)...) })
	return out
}

func driftIn(p *callgraph.Program, test string, syn *analyzer.Syntax) []Finding {
	var out []Finding
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if syn.Kind(n) != "call_expression" {
			return true
		}
		callee := strings.Join(strings.Fields(syn.Text(syn.Child(n, "function"))), "")
		if callee != "vi.mock" && callee != "vi.doMock" {
			return true
		}
		args := namedChildren(syn, syn.Child(n, "arguments"))
		if len(args) < 2 {
			return true
		}
		spec := strings.Trim(syn.Text(args[0]), "\"'`")
		r := p.Resolver().Resolve(test, spec)
		if r.Kind != "file" {
			return true
		}
		obj := returnedObject(syn, args[1])
		if obj < 0 {
			return true
		}
		mod, _ := p.Module(r.Path)
		if mod == nil {
			return true
		}
		for _, pair := range namedChildren(syn, obj) {
			if syn.Kind(pair) != "pair" {
				continue
			}
			key := strings.Trim(syn.Text(syn.Child(pair, "key")), "\"'")
			line := syn.Line(syn.Start(pair))
			find := func(kind, format string, a ...any) {
				out = append(out, Finding{Rule: "mock-drift/" + kind, Severity: Warning, File: test, Line: line,
					Message: fmt.Sprintf(format, a...)})
			}
			fn, defFile, exists := realFunction(p, r.Path, key)
			if !exists {
				find("unknown-export", "vi.mock(%q) sets %s, which %s does not export", spec, key, r.Path)
				continue
			}
			if fn == nil {
				continue
			}
			mock, async, ok := mockValue(syn, syn.Child(pair, "value"))
			if !ok {
				continue
			}
			df, dsyn := parseFile(p, defFile)
			if df == nil {
				continue
			}
			realAsync := fn.Async || strings.HasPrefix(returnType(dsyn, fn), "Promise<")
			if async != nil && *async != realAsync {
				real := "synchronous"
				if realAsync {
					real = "async"
				}
				find("async", "vi.mock(%q) makes %s return a %s value, but %s#%s is %s (%s:%d)", spec, key,
					map[bool]string{true: "resolved (Promise)", false: "plain"}[*async], defFile, fn.Qual, real, defFile, fn.Line)
				out[len(out)-1].Related = []Location{{File: defFile, Line: fn.Line}}
			}
			if mock < 0 {
				continue
			}
			mp, ok := objectPaths(syn, mock, "")
			if !ok {
				continue
			}
			reals, readable := returnedShapes(dsyn, df, fn, 1)
			if !readable || len(reals) == 0 {
				// The declared return type, where written: its members are
				// the top-level keys the value can have.
				members, ok := declaredMembers(p, dsyn, defFile, fn)
				if !ok {
					continue
				}
				reals, mp = [][]string{members}, topLevel(mp)
			}
			matches := false
			for _, rp := range reals {
				if subset(mp, rp) {
					matches = true
				}
			}
			if !matches {
				find("shape", "vi.mock(%q) makes %s return { %s }, a shape %s#%s cannot return: it returns { %s } (%s:%d)", spec, key,
					strings.Join(mp, ", "), defFile, fn.Qual, strings.Join(reals[0], ", "), defFile, fn.Line)
				out[len(out)-1].Related = []Location{{File: defFile, Line: fn.Line}}
			}
		}
		return true
	})
	return out
}

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

func namedChildren(syn *analyzer.Syntax, n analyzer.Node) []analyzer.Node {
	var out []analyzer.Node
	if n < 0 {
		return nil
	}
	for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
		if syn.Named(c) && syn.Kind(c) != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// returnedObject is the object literal a function node returns (an arrow's
// expression body, or its body's last `return {...}`), or -1.
func returnedObject(syn *analyzer.Syntax, fn analyzer.Node) analyzer.Node {
	switch syn.Kind(fn) {
	case "arrow_function", "function_expression", "function":
	default:
		return -1
	}
	body := syn.Unwrap(syn.Child(fn, "body"))
	if body >= 0 && syn.Kind(body) == "object" {
		return body
	}
	var obj analyzer.Node = -1
	for _, st := range namedChildren(syn, body) {
		if syn.Kind(st) == "return_statement" {
			if e := syn.Unwrap(syn.FirstNamed(st)); e >= 0 && syn.Kind(e) == "object" {
				obj = e
			}
		}
	}
	return obj
}

// mockValue reads a mock's value: the object it returns (or -1 when not an
// object literal) and whether it is resolved (async); ok is false when the
// value is not a recognised mock.
func mockValue(syn *analyzer.Syntax, v analyzer.Node) (obj analyzer.Node, async *bool, ok bool) {
	t, f := true, false
	for v >= 0 && syn.Kind(v) == "call_expression" {
		fnc := syn.Child(v, "function")
		args := namedChildren(syn, syn.Child(v, "arguments"))
		name := strings.Join(strings.Fields(syn.Text(fnc)), "")
		switch {
		case name == "vi.fn":
			if len(args) == 1 {
				o := returnedObject(syn, args[0])
				a := syn.HasToken(args[0], "async")
				return o, &a, o >= 0 || a
			}
			return -1, nil, false
		case syn.Kind(fnc) == "member_expression":
			prop := syn.Text(syn.Child(fnc, "property"))
			switch prop {
			case "mockReturnValue", "mockReturnValueOnce":
				if len(args) == 1 {
					if o := syn.Unwrap(args[0]); syn.Kind(o) == "object" {
						return o, &f, true
					}
					return -1, nil, false
				}
			case "mockResolvedValue", "mockResolvedValueOnce":
				if len(args) == 1 {
					o := syn.Unwrap(args[0])
					if syn.Kind(o) != "object" {
						o = -1
					}
					return o, &t, true
				}
			case "mockImplementation", "mockImplementationOnce":
				if len(args) == 1 {
					o := returnedObject(syn, args[0])
					a := syn.HasToken(args[0], "async")
					return o, &a, o >= 0 || a
				}
			}
			v = syn.Child(fnc, "object") // vi.fn().mockName("x").mockResolvedValue(...)
			continue
		}
		return -1, nil, false
	}
	return -1, nil, false
}

// objectPaths lists the property paths of an object literal ("success",
// "details", "details.passed"), sorted; ok is false with a spread or a
// computed key (the shape is not known).
func objectPaths(syn *analyzer.Syntax, obj analyzer.Node, prefix string) ([]string, bool) {
	var out []string
	for _, c := range namedChildren(syn, obj) {
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
			sub, ok := objectPaths(syn, val, path)
			if !ok {
				return nil, false
			}
			out = append(out, sub...)
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
		ps, ok := objectPaths(syn, syn.Unwrap(body), "")
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
			ps, ok := objectPaths(syn, e, "")
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
		if !set[x] {
			return false
		}
	}
	return true
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
	members, ok, _ := p.TypeMembers(file, t)
	return members, ok
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
