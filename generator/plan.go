// Package generator composes behavioral oracles: for each operation of a
// ticket it checks the operation against the code, matches a fixture, chooses
// how each observed callee is observed (hoisted mock or in-place spy) from
// structure alone, and renders the test file from templates/ for the
// repository's runner (vitest, or jest: TestRunner).
//
// Plan computes everything and touches nothing; Write puts the files on disk,
// atomically, after a syntax check. `oracle prove` uses Plan to know what gen
// would write now.
package generator

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/manifest"
)

// Status of one operation.
type Status string

const (
	StatusGenerated Status = "generated"
	StatusSkipped   Status = "skipped"
	StatusError     Status = "error"
)

// Role of an observed callee: the wrapped call, or a preserved one.
type Role string

const (
	RoleWrap     Role = "wrap"
	RolePreserve Role = "preserve"
)

// Strategy is how a callee is observed (SPEC "Observing a call").
type Strategy string

const (
	HoistedMock Strategy = "hoisted-mock"
	InPlaceSpy  Strategy = "in-place-spy"
	// For a method's callees written through `this` (SPEC: "observed on the
	// instance the receiver holds"): a call-through spy on the receiver
	// (`this.m()`), or on the object a field of the receiver holds
	// (`this.dep.m()`), placed after arrange.
	ReceiverSpy Strategy = "receiver-spy"
	InstanceSpy Strategy = "instance-spy"
)

// Result is the plan for a whole ticket.
type Result struct {
	Ticket     string
	Manifest   string // repo-relative path of the manifest
	Operations []*Operation
}

// Operation is the plan for one operation.
type Operation struct {
	ID       string
	Function string // <file>#<name>
	Status   Status
	File     string // the oracle's repo-relative path (generated)
	Fixture  string // the fixture used ("" when the operation's args need none)
	Reason   string // skipped, error: why
	Warnings []string
	Observed []Observed

	Content   []byte // the oracle file (generated)
	Unchanged bool   // generated, and already on disk with these bytes (set by Write, MarkUnchanged)
	Op        *manifest.Operation
	Func      *analyzer.Function
	// Located is what Plan found of the operation in the code (Locate's
	// answer, read once): prove and audit's tables mutate the function
	// from it.
	Located *Located
}

// Observed is one callee the oracle observes.
type Observed struct {
	Call     string // as written at the call site
	Role     Role
	Target   string // <file>#<name> of the defining declaration
	Module   string // the defining module
	Export   string // the name the defining module exports it under
	Strategy Strategy
	Why      string
	// ReceiverSpy, InstanceSpy: the field of the receiver that holds the
	// object (InstanceSpy: "pricing" for this.pricing.quote) and the member
	// spied on ("quote").
	Field, Member string
}

// Input is what Plan needs.
type Input struct {
	Program  *callgraph.Program
	Config   *manifest.Config
	Ticket   *manifest.Ticket
	Fixtures []*Fixture
	Manifest string // repo-relative manifest path, for headers and the command line
	// Runner is the test runner the oracles are written for (Load:
	// RunnerOf the repository); the zero value is Vitest.
	Runner TestRunner
}

// Plan checks every operation against the code and composes its oracle. A
// manifest that does not fit the code (a flag that names no parameter, a call
// not in the body) is returned as manifest.Errors: nothing may be written then.
func Plan(in Input) (*Result, error) {
	res := &Result{Ticket: in.Ticket.Ticket, Manifest: in.Manifest}
	var errs manifest.Errors
	type checked struct {
		op    *manifest.Operation
		file  *analyzer.File
		fn    *analyzer.Function
		param int
		wrap  *analyzer.Call
		pres  []*analyzer.Call
	}
	var ops []checked
	for i := range in.Ticket.Operations {
		op := &in.Ticket.Operations[i]
		c := checked{op: op}
		var e manifest.Errors
		c.file, c.fn, c.param, c.wrap, c.pres, e = checkAgainstCode(in.Program, op)
		errs = append(errs, e...)
		ops = append(ops, c)
	}
	if len(errs) > 0 {
		sortErrors(errs)
		return nil, errs
	}
	for _, c := range ops {
		o := &Operation{ID: c.op.ID, Function: c.op.Function.String(), Op: c.op, Func: c.fn,
			Located: &Located{File: c.file, Func: c.fn, Param: c.param, Wrap: c.wrap, Preserves: c.pres}}
		res.Operations = append(res.Operations, o)
		if len(c.op.Preserve) == 0 {
			o.Warnings = append(o.Warnings, "preserve is empty: the oracle asserts only the gating half (the wrapped call skipped); a preserved call dropped with it (the write that saves the record) goes unseen: list the calls that must keep running")
		}
		choice := MatchFixture(in.Fixtures, c.op.Function.File, c.op.Function.Name, c.op.Fixture, c.op.HasArgs)
		if choice.Skip != "" {
			o.Status, o.Reason = StatusSkipped, choice.Skip
			continue
		}
		if choice.Fixture != nil {
			o.Fixture = choice.Fixture.Name
		}
		if c.fn.Class != "" && (choice.Fixture == nil || c.op.HasArgs) {
			o.Status, o.Reason = StatusError, fmt.Sprintf("%s is a method: its receiver and arguments come from a fixture's arrange[%q] entry ({ self, args }; a static method returns { args }), not from the operation's args", c.op.Function.Name, c.op.Function.Name)
			continue
		}
		obs, err := observe(in.Program, c.file, c.fn, c.wrap, c.pres, choice.Fixture)
		o.Observed = obs
		if err != nil {
			o.Status, o.Reason = StatusError, err.Error()
			continue
		}
		o.File = in.Config.OutPath(in.Ticket, c.op)
		content, err := render(in, o, c.fn, c.param, choice.Fixture)
		if err != nil {
			o.Status, o.Reason = StatusError, err.Error()
			continue
		}
		o.Status, o.Content = StatusGenerated, content
	}
	return res, nil
}

// Located is an operation found in the code: its module, its function, the
// index of the flag's parameter, and the wrapped and preserved call sites.
type Located struct {
	File      *analyzer.File
	Func      *analyzer.Function
	Param     int
	Wrap      *analyzer.Call
	Preserves []*analyzer.Call
}

// Locate checks one operation against the code (SPEC: a flag that names no
// parameter, a call not in the body... are manifest errors, exit 2) and finds
// what it names. `oracle apply` uses it on the code as it is now; Plan keeps
// its answer in each Operation (Located).
func Locate(p *callgraph.Program, op *manifest.Operation) (*Located, manifest.Errors) {
	f, fn, param, wrap, pres, errs := checkAgainstCode(p, op)
	if len(errs) > 0 {
		return nil, errs
	}
	return &Located{File: f, Func: fn, Param: param, Wrap: wrap, Preserves: pres}, nil
}

// checkAgainstCode finds the operation's function, the flag's parameter and
// the call sites of wrap and preserve.
func checkAgainstCode(p *callgraph.Program, op *manifest.Operation) (f *analyzer.File, fn *analyzer.Function, param int, wrap *analyzer.Call, pres []*analyzer.Call, errs manifest.Errors) {
	fail := func(pos manifest.Pos, field, format string, a ...any) {
		errs = append(errs, &manifest.Error{Pos: pos, Field: field, Message: fmt.Sprintf(format, a...)})
	}
	prefix := fmt.Sprintf("operations[%d].", op.Index)
	f, why := p.Module(op.Function.File)
	if f == nil {
		fail(op.Function.Pos, prefix+"function", "cannot read %s: %s", op.Function.File, why)
		return
	}
	if len(f.Errors) > 0 {
		e := f.Errors[0]
		fail(op.Function.Pos, prefix+"function", "%s does not parse: %s:%d:%d: %s (%d syntax error(s)); fix the file first", op.Function.File, op.Function.File, e.Line, e.Column, e.Message, len(f.Errors))
		return
	}
	var err error
	fn, err = callgraph.FindFunction(f, op.Function.Name)
	if err != nil {
		fail(op.Function.Pos, prefix+"function", "%v", err)
		return
	}
	switch fn.Kind {
	case analyzer.FuncTop, analyzer.FuncMethod, analyzer.FuncField:
	default:
		fail(op.Function.Pos, prefix+"function", "%s is a %s: an operation names a module-level function or a method (Class.method, static or not, or a field holding a function)", op.Function.Name, fn.Kind)
		return
	}
	param = -1
	var names []string
	for i, pr := range fn.Params {
		names = append(names, paramLabel(pr))
		if pr.Name == op.Flag.Param {
			param = i
		}
	}
	if param < 0 {
		hint := ""
		for _, pr := range fn.Params {
			for _, b := range pr.Bound {
				if b == op.Flag.Param && pr.Name == "" {
					hint = "; it is bound by a destructuring pattern: give the parameter a name and destructure in the body"
				}
			}
		}
		fail(op.Flag.Pos, prefix+"flag", "%s has no parameter %q (parameters: %s)%s", fn.Name, op.Flag.Param, strings.Join(names, ", "), hint)
	}
	if param >= 0 {
		if msg, _ := checkFlagType(p, f, fn.Params[param], op); msg != "" {
			fail(op.Flag.Pos, prefix+"flag", "%s", msg)
		}
	}
	wrap = findCall(fn, op.Wrap, prefix+"wrap", fail)
	for i, pr := range op.Preserve {
		pres = append(pres, findCall(fn, pr, fmt.Sprintf("%spreserve[%d]", prefix, i), fail))
	}
	return
}

// checkFlagType checks the flag's first property against the declared type
// of its parameter: an object type literal, or a class or interface of the
// repository. It returns the manifest error, or (when the type cannot be
// read: none declared, an alias, a package's type) a note for the header.
func checkFlagType(p *callgraph.Program, f *analyzer.File, pr analyzer.Param, op *manifest.Operation) (msg, note string) {
	if len(op.Flag.Props) == 0 {
		return "", ""
	}
	prop := op.Flag.Props[0]
	if pr.Type == "" {
		return "", fmt.Sprintf("%s has no declared type: the property %s is not checked against it", pr.Name, prop)
	}
	names, ok := analyzer.ObjectTypeProperties(pr.Type)
	if !ok {
		var why string
		names, ok, why = p.TypeMembers(f.Path, pr.Type)
		if !ok {
			return "", fmt.Sprintf("the type %s of %s is not read by oracle (%s): the property %s is not checked against it", pr.Type, pr.Name, why, prop)
		}
	}
	for _, n := range names {
		if n == prop {
			return "", ""
		}
	}
	have := strings.Join(names, ", ")
	if have == "" {
		have = "none"
	}
	msg = fmt.Sprintf("%s (declared %s) has no property %q (properties: %s)", pr.Name, pr.Type, prop, have)
	if s := manifest.Suggest(prop, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return msg, ""
}

func paramLabel(p analyzer.Param) string {
	if p.Name != "" {
		return p.Name
	}
	return "{" + strings.Join(p.Bound, ", ") + "}"
}

// findCall finds the one call site a manifest call names.
func findCall(fn *analyzer.Function, ref manifest.CallRef, field string, fail func(manifest.Pos, string, string, ...any)) *analyzer.Call {
	c, e := FindCall(fn, ref, field)
	if e != nil {
		fail(e.Pos, e.Field, "%s", e.Message)
	}
	return c
}

// FindCall finds the one call site of fn a manifest call names, or the
// manifest error (at the call's position, for field) saying why not: the
// check gen, apply and prove share.
func FindCall(fn *analyzer.Function, ref manifest.CallRef, field string) (*analyzer.Call, *manifest.Error) {
	sites := fn.CallSites(ref.Call)
	fail := func(format string, a ...any) (*analyzer.Call, *manifest.Error) {
		return nil, &manifest.Error{Pos: ref.Pos, Field: field, Message: fmt.Sprintf(format, a...)}
	}
	name := fn.Qual
	if name == "" {
		name = fn.Name
	}
	switch {
	case len(sites) == 0:
		return fail("no call %s in the body of %s (calls: %s)", ref.Call, name, callList(fn))
	case ref.Occurrence > len(sites):
		return fail("occurrence %d of %s, but the body of %s calls it %d time(s)", ref.Occurrence, ref.Call, name, len(sites))
	case ref.Occurrence > 0:
		return sites[ref.Occurrence-1], nil
	case len(sites) > 1:
		var lines []string
		for _, s := range sites {
			lines = append(lines, fmt.Sprintf("%d:%d", s.Line, s.Column))
		}
		return fail("%s is called at %d sites in %s (%s): name one with {call: %s, occurrence: N}", ref.Call, len(sites), name, strings.Join(lines, ", "), ref.Call)
	}
	return sites[0], nil
}

func callList(fn *analyzer.Function) string {
	seen := map[string]bool{}
	var out []string
	for _, c := range fn.Calls {
		if !c.New && !seen[c.Text] {
			seen[c.Text] = true
			out = append(out, c.Text)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// observe pins each observed call to its defining module and chooses how to
// observe it. An unobservable callee is an error, never a dropped assertion.
func observe(p *callgraph.Program, f *analyzer.File, fn *analyzer.Function, wrap *analyzer.Call, pres []*analyzer.Call, fx *Fixture) ([]Observed, error) {
	var out []Observed
	calls := append([]*analyzer.Call{wrap}, pres...)
	targets := map[string]string{} // target -> first call text observing it
	for i, c := range calls {
		role := RolePreserve
		if i == 0 {
			role = RoleWrap
		}
		if c.Callee.Kind == analyzer.CalleeThis {
			ob, err := observeThis(p, f, fn, c, role)
			if err != nil {
				return out, err
			}
			key := "this." + strings.Join(c.Callee.Path, ".")
			if first, dup := targets[key]; dup {
				return out, fmt.Errorf("cannot observe %s (%d:%d): %s also calls it; the oracle cannot tell the two sites apart", c.Text, c.Line, c.Column, first)
			}
			targets[key] = c.Text
			if others := sameCallSites(fn, c); role == RoleWrap && others != "" {
				return out, fmt.Errorf("cannot observe %s (%d:%d): it is also called at %s in the body, so \"not called when the flag is set\" cannot be asserted of this site alone", c.Text, c.Line, c.Column, others)
			}
			out = append(out, ob)
			continue
		}
		e := p.ResolveCall(f, c)
		switch {
		case e.Via == callgraph.ViaExternal:
			return out, fmt.Errorf("cannot observe %s (%d:%d): it comes from package %s outside the repository, which oracle does not observe yet", c.Text, c.Line, c.Column, e.Package)
		case e.Target == nil:
			return out, fmt.Errorf("cannot observe %s (%d:%d): %s; neither a hoisted mock nor an in-place spy can be placed on it", c.Text, c.Line, c.Column, e.Reason)
		case e.Through != "":
			return out, fmt.Errorf("cannot observe %s (%d:%d): it calls %s through the value %s, not a module export; neither a hoisted mock nor an in-place spy can be placed on it", c.Text, c.Line, c.Column, *e.Target, e.Through)
		}
		module, _, _ := strings.Cut(*e.Target, "#")
		if module == f.Path {
			return out, fmt.Errorf("cannot observe %s (%d:%d): it is defined in %s, the function's own module, and called through its local binding, which neither a module mock nor an export spy intercepts", c.Text, c.Line, c.Column, f.Path)
		}
		if first, dup := targets[*e.Target]; dup {
			return out, fmt.Errorf("cannot observe %s (%d:%d): it calls %s, which %s also calls; the oracle cannot tell the two sites apart", c.Text, c.Line, c.Column, *e.Target, first)
		}
		targets[*e.Target] = c.Text
		if others := otherSites(p, f, fn, c, *e.Target); role == RoleWrap && others != "" {
			return out, fmt.Errorf("cannot observe %s (%d:%d): %s is also called at %s in the body, so \"not called when the flag is set\" cannot be asserted of this site alone", c.Text, c.Line, c.Column, *e.Target, others)
		}
		strategy, why := chooseStrategy(p, module, fx)
		out = append(out, Observed{Call: c.Text, Role: role, Target: *e.Target, Module: module, Export: e.Export, Strategy: strategy, Why: why})
	}
	return out, nil
}

// observeThis chooses how to observe a method's call written through `this`:
// a spy on the receiver (`this.m()`), or on the object a field of the
// receiver holds (`this.dep.m()`), placed after arrange. What the oracle
// cannot reach is an error with the reason.
func observeThis(p *callgraph.Program, f *analyzer.File, fn *analyzer.Function, c *analyzer.Call, role Role) (Observed, error) {
	cl := c.Callee
	if fn.Class == "" || cl.ThisClass != fn.Class {
		return Observed{}, fmt.Errorf("cannot observe %s (%d:%d): this is not the receiver of %s there (a plain function's own this)", c.Text, c.Line, c.Column, fn.Qual)
	}
	for _, part := range cl.Path {
		if strings.HasPrefix(part, "#") {
			return Observed{}, fmt.Errorf("cannot observe %s (%d:%d): %s is a #private member, which no code outside the class can reach to place a spy", c.Text, c.Line, c.Column, part)
		}
	}
	if len(cl.Path) > 2 {
		return Observed{}, fmt.Errorf("cannot observe %s (%d:%d): only this.m() and this.dep.m() are observed", c.Text, c.Line, c.Column)
	}
	ob := Observed{Call: c.Text, Role: role, Member: cl.Path[len(cl.Path)-1]}
	e := p.ResolveCall(f, c)
	if e.Target != nil {
		ob.Target = *e.Target
		ob.Module, _, _ = strings.Cut(*e.Target, "#")
	} else {
		ob.Target = "(" + e.Reason + ")"
	}
	holder := "the receiver"
	if fn.Static {
		holder = "the class " + fn.Class
	}
	if len(cl.Path) == 1 {
		ob.Strategy = ReceiverSpy
		ob.Why = "a spy on " + holder + ": this." + ob.Member + " is looked up on it at run time"
		return ob, nil
	}
	ob.Field = cl.Path[0]
	ob.Strategy = InstanceSpy
	ob.Why = fmt.Sprintf("a spy on the object %s holds in %s, after arrange", holder, ob.Field)
	return ob, nil
}

// sameCallSites lists the other call sites of the body written as c is.
func sameCallSites(fn *analyzer.Function, c *analyzer.Call) string {
	var out []string
	for i := range fn.Calls {
		o := &fn.Calls[i]
		if o != c && !o.New && o.Text == c.Text {
			out = append(out, fmt.Sprintf("%d:%d", o.Line, o.Column))
		}
	}
	return strings.Join(out, ", ")
}

// otherSites lists the other call sites in the body that reach the same target.
func otherSites(p *callgraph.Program, f *analyzer.File, fn *analyzer.Function, site *analyzer.Call, target string) string {
	var out []string
	for i := range fn.Calls {
		c := &fn.Calls[i]
		if c == site {
			continue
		}
		if e := p.ResolveCall(f, c); e.Target != nil && *e.Target == target {
			out = append(out, fmt.Sprintf("%d:%d", c.Line, c.Column))
		}
	}
	return strings.Join(out, ", ")
}

// chooseStrategy decides, from structure alone, how to observe a callee of
// module m: an in-place spy when the fixture imports a live symbol from m, or
// when m (through what it loads) initialises against state the fixture sets up
// at run time; a hoisted mock otherwise.
func chooseStrategy(p *callgraph.Program, m string, fx *Fixture) (Strategy, string) {
	if fx == nil {
		return HoistedMock, "no fixture: nothing is set up at run time"
	}
	if names := fx.ImportsFrom(m); names != nil {
		return InPlaceSpy, fmt.Sprintf("fixture %s imports %s from the same module", fx.Name, describeNames(names))
	}
	direct := map[string]bool{}
	for _, im := range fx.Direct {
		direct[im.Module] = true
	}
	if via := loads(p, m, direct); via != "" {
		return InPlaceSpy, fmt.Sprintf("%s loads %s, which fixture %s imports: it initialises against state the fixture sets up at run time", m, via, fx.Name)
	}
	return HoistedMock, fmt.Sprintf("fixture %s imports nothing from %s or from the modules it loads", fx.Name, m)
}

func describeNames(names []string) string {
	var ns []string
	for _, n := range names {
		if n == "*" {
			ns = append(ns, "the module")
		} else {
			ns = append(ns, n)
		}
	}
	return strings.Join(ns, ", ")
}

// loads returns the first module (in sorted order) of m's runtime import
// closure (the program's reach from m) that is in set, or "".
func loads(p *callgraph.Program, m string, set map[string]bool) string {
	f, _ := p.Module(m)
	if f == nil {
		return ""
	}
	reached, _ := p.Reach(f, nil)
	for _, r := range reached { // sorted
		if set[r] {
			return r
		}
	}
	return ""
}

// importPath is the specifier the oracle at file `from` uses for module `to`:
// relative, with the extension style ext the repository's own files use
// ("": none, as bundler resolution allows; ".js": node16/nodenext, where
// `./x.js` names x.ts; ".ts": allowImportingTsExtensions).
func importPath(from, to, ext string) string {
	rel := relPath(path.Dir(from), to)
	if !strings.HasPrefix(rel, ".") {
		rel = "./" + rel
	}
	for _, e := range []string{".tsx", ".mts", ".cts", ".ts"} {
		base, ok := strings.CutSuffix(rel, e)
		if !ok {
			continue
		}
		switch {
		case e == ".mts" || e == ".cts":
			if ext == ".ts" {
				return rel
			}
			return base + strings.Replace(e, "t", "j", 1) // .mjs, .cjs: always written
		case ext == ".js":
			return base + ".js"
		case ext == ".ts":
			return rel
		}
		return base
	}
	return rel
}

// extensionStyle is how the repository's own files write relative imports:
// the style most of the relative specifiers of files use (".js", ".ts" or
// "" for none), the first file with any deciding ties.
func extensionStyle(p *callgraph.Program, files ...string) string {
	count := map[string]int{}
	for _, file := range files {
		f, _ := p.Module(file)
		if f == nil {
			continue
		}
		specs := []string{}
		for _, im := range f.Imports {
			specs = append(specs, im.Specifier)
		}
		for _, d := range f.DynamicImports {
			specs = append(specs, d.Specifier)
		}
		for _, s := range specs {
			if !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") {
				continue
			}
			switch path.Ext(s) {
			case ".js", ".jsx", ".mjs", ".cjs":
				count[".js"]++
			case ".ts", ".tsx", ".mts", ".cts":
				count[".ts"]++
			default:
				count[""]++
			}
		}
	}
	best := ""
	for _, k := range []string{".js", ".ts"} {
		if count[k] > count[best] {
			best = k
		}
	}
	return best
}

func relPath(fromDir, to string) string {
	from := strings.Split(fromDir, "/")
	if fromDir == "." || fromDir == "" {
		from = nil
	}
	dst := strings.Split(to, "/")
	i := 0
	for i < len(from) && i < len(dst)-1 && from[i] == dst[i] {
		i++
	}
	var parts []string
	for range from[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, dst[i:]...)
	return strings.Join(parts, "/")
}

func sortErrors(es manifest.Errors) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Line != es[j].Line {
			return es[i].Line < es[j].Line
		}
		return es[i].Column < es[j].Column
	})
}
