package generator

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
	"text/template"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/manifest"
	"github.com/oracle-ts/oracle/templates"
)

var oracleTemplate = template.Must(template.New("oracle.test.ts.tmpl").Funcs(template.FuncMap{
	"join": strings.Join,
	"pad": func(s string, w int) string {
		if len(s) >= w {
			return s
		}
		return s + strings.Repeat(" ", w-len(s))
	},
}).ParseFS(templates.FS, "oracle.test.ts.tmpl"))

type mockModule struct {
	Path    string
	Exports []mockExport
}

type mockExport struct{ Key, Access, Label string }

type observedView struct {
	Observed
	Path   string // import specifier from the oracle
	Access string // `.name` or `["name"]`
	Var    string // the oracle's variable holding the mock or spy
	// ReceiverSpy, InstanceSpy: the object the spy is placed on, typed so
	// that vi.spyOn accepts the member whatever its visibility.
	On string
}

type view struct {
	Command, Ticket, OpID, Function, FunctionName, Flag, Wrap, WrapCall string
	Preserve                                                            []string
	ParamPos, ParamCount                                                int
	FixtureLine, FixturePath                                            string
	FixtureImports, APIImports                                          []string
	CallWidth, TargetWidth                                              int
	Observed                                                            []observedView
	Mocks                                                               []mockModule
	Subject, SubjectPath, SubjectAccess                                 string
	HasSetup, HasTeardown                                               bool
	ArrangeKey, LiteralArgs                                             string
	ObservedVars                                                        string
	Spies                                                               []string
	WrapVar                                                             string
	PreserveVars                                                        []string
	SetTitle, FlagSet, FlagUnset                                        string
	// Methods: the call under test (`self.finalize`, `OrderService.report`),
	// the method's type for Parameters<>, whether a receiver is arranged.
	Method, Static, MemberSpies bool
	FlagNote                    string // the flag's property could not be checked against the parameter's type: why
	Formatter                   string // the repository's formatter that ran on the file, "" when none
	Invoke, MethodType          string
	// R is the test runner the oracle is written for: its spellings
	// (TestRunner); APIImports are the names imported from R.From.
	R TestRunner
}

// render fills the oracle template for a planned operation and checks that the
// result is valid TypeScript: a generator bug never writes a broken file.
func render(in Input, o *Operation, fn *analyzer.Function, param int, fx *Fixture) ([]byte, error) {
	op := o.Op
	v := view{
		Command:      "oracle gen " + in.Manifest,
		Ticket:       in.Ticket.Ticket,
		OpID:         op.ID,
		Function:     op.Function.String(),
		FunctionName: op.Function.Name,
		Flag:         op.Flag.Text,
		Wrap:         op.Wrap.String(),
		WrapCall:     op.Wrap.Call,
		ParamPos:     param + 1,
		ParamCount:   len(fn.Params),
		R:            in.Runner,
	}
	if v.R.Name == "" {
		v.R = Vitest
	}
	for _, p := range op.Preserve {
		v.Preserve = append(v.Preserve, p.String())
	}
	if f, _ := in.Program.Module(op.Function.File); f != nil && param >= 0 {
		_, v.FlagNote = checkFlagType(in.Program, f, fn.Params[param], op)
	}
	ext := v.subject(in, op, fn, fx)
	v.SubjectPath = importPath(o.File, op.Function.File, ext)
	api := map[string]bool{"beforeEach": true, "describe": true, "expect": true, "it": true, v.R.NS: true}
	if !v.R.Jest {
		api["type MockInstance"] = true // jest's type is the jest namespace's: jest.SpiedFunction
	}
	preserveTitles := v.observed(o, fn, ext)
	v.SetTitle = op.Wrap.Call + " is not called"
	if len(preserveTitles) > 0 {
		v.SetTitle += "; " + strings.Join(preserveTitles, ", ") + " still are"
	}
	v.FlagSet = flagAssign(param, op.Flag.Props, "true")
	v.FlagUnset = flagAssign(param, op.Flag.Props, "false")

	v.fixture(o, fn, fx, ext)
	if len(v.Spies) > 0 || v.HasTeardown {
		api["afterEach"] = true
	}
	for _, name := range []string{"afterEach", "beforeEach", "describe", "expect", "it", v.R.NS, "type MockInstance"} {
		if api[name] {
			v.APIImports = append(v.APIImports, name)
		}
	}

	return v.finish(in, o)
}

// subject fills in how the oracle imports and invokes the function under
// test (a method through its class and a receiver); it returns the import
// extension style of the repository.
func (v *view) subject(in Input, op *manifest.Operation, fn *analyzer.Function, fx *Fixture) string {
	v.Subject = op.Function.Name
	if fn.Default || !isIdent(v.Subject) {
		v.Subject = "subject"
	}
	ext := ""
	if fx != nil {
		ext = extensionStyle(in.Program, op.Function.File, fx.File)
	} else {
		ext = extensionStyle(in.Program, op.Function.File)
	}
	v.SubjectAccess = access(exportName(fn))
	v.Invoke = v.Subject
	if fn.Class != "" {
		// A method: the class is imported, the fixture arranges the receiver.
		v.Method, v.Static = true, fn.Static
		v.Subject = fn.Class
		if !isIdent(v.Subject) {
			v.Subject = "Subject"
		}
		v.SubjectAccess = access(fn.Class)
		member := access(fn.Name)
		if fn.Static {
			v.Invoke = v.Subject + member
			v.MethodType = "(typeof " + v.Subject + ")" + "[" + strconv.Quote(fn.Name) + "]"
		} else {
			v.Invoke = "self" + member
			v.MethodType = "InstanceType<typeof " + v.Subject + ">[" + strconv.Quote(fn.Name) + "]"
		}
	}
	return ext
}

// observed fills in the observed calls (spies and module mocks) and returns
// the titles of the preserved calls.
func (v *view) observed(o *Operation, fn *analyzer.Function, ext string) []string {
	used := map[string]bool{v.Subject: true, "args": true, "fn": true, "mod": true, v.R.NS: true, "expect": true, "self": true, "arranged": true, "Fn": true}
	mocks := map[string]int{}
	var preserveTitles []string
	for _, ob := range o.Observed {
		ov := observedView{Observed: ob, Access: access(ob.Export)}
		if ob.Module != "" {
			ov.Path = importPath(o.File, ob.Module, ext)
		}
		switch ob.Strategy {
		case ReceiverSpy, InstanceSpy:
			ov.Var = uniqueVar(ob.Member, ob.Call, used)
			holder := "self"
			if fn.Static {
				holder = v.Subject
			}
			if ob.Strategy == InstanceSpy {
				holder += "[" + strconv.Quote(ob.Field) + "]"
			}
			ov.On = fmt.Sprintf("%s as unknown as Record<%s, Fn>", holder, strconv.Quote(ob.Member))
			v.Spies = append(v.Spies, ov.Var)
			v.MemberSpies = true
		default:
			ov.Var = uniqueVar(ob.Export, ob.Call, used)
		}
		switch ob.Strategy {
		case ReceiverSpy, InstanceSpy:
		case InPlaceSpy:
			v.Spies = append(v.Spies, ov.Var)
		default:
			i, ok := mocks[ov.Path]
			if !ok {
				i = len(v.Mocks)
				mocks[ov.Path] = i
				v.Mocks = append(v.Mocks, mockModule{Path: ov.Path})
			}
			v.Mocks[i].Exports = append(v.Mocks[i].Exports, mockExport{Key: propKey(ob.Export), Access: ov.Access, Label: ob.Call})
		}
		v.Observed = append(v.Observed, ov)
		v.CallWidth = max(v.CallWidth, len(ob.Call))
		v.TargetWidth = max(v.TargetWidth, len(ob.Target))
		if ob.Role == RoleWrap {
			v.WrapVar = ov.Var
		} else {
			v.PreserveVars = append(v.PreserveVars, ov.Var)
			preserveTitles = append(preserveTitles, ob.Call)
		}
	}
	var vars []string
	for _, ov := range v.Observed {
		vars = append(vars, ov.Var)
	}
	v.ObservedVars = strings.Join(vars, ", ")
	return preserveTitles
}

// fixture fills in the fixture's line, imports and arrange key, and the
// operation's literal args.
func (v *view) fixture(o *Operation, fn *analyzer.Function, fx *Fixture, ext string) {
	op := o.Op
	if fx != nil {
		v.FixtureLine = fmt.Sprintf("%s (%s):", fx.Name, fx.File)
		var parts, imports []string
		if fx.HasSetup {
			v.HasSetup = true
			parts = append(parts, "setup")
			imports = append(imports, "setup")
		}
		if fx.HasTeardown {
			v.HasTeardown = true
			parts = append(parts, "teardown")
			imports = append(imports, "teardown")
		}
		if !op.HasArgs {
			v.ArrangeKey = op.Function.Name
			if fn.Class != "" {
				v.ArrangeKey = strconv.Quote(op.Function.Name)
			}
			parts = append(parts, "arrange."+op.Function.Name)
			imports = append([]string{"arrange"}, imports...)
		}
		if op.HasArgs {
			parts = append(parts, "args from the operation")
		}
		v.FixtureLine += " " + strings.Join(parts, ", ")
		v.FixtureImports = imports
		v.FixturePath = importPath(o.File, fx.File, ext)
	} else {
		v.FixtureLine = "none (the operation gives args)"
	}
	if op.HasArgs {
		var parts []string
		for _, a := range op.Args {
			parts = append(parts, string(a))
		}
		v.LiteralArgs = "[" + strings.Join(parts, ", ") + "]"
	}
}

// finish executes the template, checks that the oracle parses and formats it
// with the repository's formatter, if any.
func (v *view) finish(in Input, o *Operation) ([]byte, error) {
	op := o.Op
	fmtr := findFormatter(in.Program.Root(), o.File)
	if fmtr != nil {
		v.Formatter = fmtr.Name
	}
	var buf bytes.Buffer
	if err := oracleTemplate.Execute(&buf, *v); err != nil {
		return nil, fmt.Errorf("generator bug: template: %v", err)
	}
	out := buf.Bytes()
	if err := checkSyntax(o.File, out); err != nil {
		return nil, fmt.Errorf("generator bug: the oracle for %s does not parse: %v", op.ID, err)
	}
	if fmtr != nil {
		formatted, err := fmtr.format(out)
		if err != nil {
			return nil, fmt.Errorf("the repository's formatter failed on the oracle: %v", err)
		}
		if err := checkSyntax(o.File, formatted); err != nil {
			return nil, fmt.Errorf("%s made the oracle unparsable: %v", fmtr.Name, err)
		}
		out = formatted
	}
	return out, nil
}

// exportName is the name the function's module exports it under.
func exportName(fn *analyzer.Function) string {
	if fn.Default {
		return "default"
	}
	return fn.Name
}

// flagAssign sets the flag in the arranged arguments: the whole argument for a
// flag that is a parameter, else the property path, spreading what was there
// so the two cases differ only in the flag.
func flagAssign(param int, props []string, value string) string {
	target := fmt.Sprintf("args[%d]", param)
	if len(props) == 0 {
		return fmt.Sprintf("%s = %s;", target, value)
	}
	return fmt.Sprintf("%s = %s;", target, spreadSet(target, props, value))
}

func spreadSet(base string, props []string, value string) string {
	if len(props) == 0 {
		return value
	}
	inner := spreadSet(base+"?."+props[0], props[1:], value)
	return fmt.Sprintf("{ ...%s, %s: %s }", base, propKey(props[0]), inner)
}

func access(name string) string {
	if isIdent(name) {
		return "." + name
	}
	return "[" + strconv.Quote(name) + "]"
}

func propKey(name string) string {
	if isIdent(name) {
		return name
	}
	return strconv.Quote(name)
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return !manifest.IsReservedWord(s)
}

// uniqueVar picks the oracle's variable name for an observed callee.
func uniqueVar(export, call string, used map[string]bool) string {
	base := export
	if !isIdent(base) {
		base = strings.Map(func(r rune) rune {
			if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, call)
		if base == "" || base[0] >= '0' && base[0] <= '9' {
			base = "_" + base
		}
	}
	name := base
	for i := 2; used[name] || manifest.IsReservedWord(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	used[name] = true
	return name
}

// checkSyntax parses the generated file with esbuild's TypeScript loader.
func checkSyntax(file string, src []byte) error {
	loader := api.LoaderTS
	if path.Ext(file) == ".tsx" {
		loader = api.LoaderTSX
	}
	r := api.Transform(string(src), api.TransformOptions{Loader: loader, Sourcefile: file, LogLevel: api.LogLevelSilent})
	if len(r.Errors) > 0 {
		e := r.Errors[0]
		if e.Location != nil {
			return fmt.Errorf("%s:%d:%d: %s", file, e.Location.Line, e.Location.Column+1, e.Text)
		}
		return fmt.Errorf("%s: %s", file, e.Text)
	}
	return nil
}
