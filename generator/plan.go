// Package generator composes behavioral oracles: for each operation of a
// ticket it checks the operation against the code, matches a fixture, chooses
// how each observed callee is observed (hoisted mock or in-place spy) from
// structure alone, and renders the vitest file from templates/.
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
	"github.com/oracle-ts/oracle/fixtures"
	"github.com/oracle-ts/oracle/manifest"
)

// Status of one operation.
const (
	StatusGenerated = "generated"
	StatusSkipped   = "skipped"
	StatusError     = "error"
)

// Strategies for observing a callee (SPEC "Observing a call").
const (
	HoistedMock = "hoisted-mock"
	InPlaceSpy  = "in-place-spy"
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
	Status   string
	File     string // the oracle's repo-relative path (generated)
	Fixture  string // the fixture used ("" when the operation's args need none)
	Reason   string // skipped, error: why
	Observed []Observed

	Content []byte // the oracle file (generated)
	Op      *manifest.Operation
	Func    *analyzer.Function
}

// Observed is one callee the oracle observes.
type Observed struct {
	Call     string // as written at the call site
	Role     string // "wrap" or "preserve"
	Target   string // <file>#<name> of the defining declaration
	Module   string // the defining module
	Export   string // the name the defining module exports it under
	Strategy string
	Why      string
}

// Input is what Plan needs.
type Input struct {
	Program  *callgraph.Program
	Config   *manifest.Config
	Ticket   *manifest.Ticket
	Fixtures []*fixtures.Fixture
	Manifest string // repo-relative manifest path, for headers and the command line
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
		o := &Operation{ID: c.op.ID, Function: c.op.Function.String(), Op: c.op, Func: c.fn}
		res.Operations = append(res.Operations, o)
		choice := fixtures.Match(in.Fixtures, c.op.Function.File, c.op.Function.Name, c.op.Fixture, c.op.HasArgs)
		if choice.Skip != "" {
			o.Status, o.Reason = StatusSkipped, choice.Skip
			continue
		}
		if choice.Fixture != nil {
			o.Fixture = choice.Fixture.Name
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
// what it names. `oracle apply` and `oracle prove` use it on the code as it
// is now.
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
	var err error
	fn, err = callgraph.FindFunction(f, op.Function.Name)
	if err != nil {
		fail(op.Function.Pos, prefix+"function", "%v", err)
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
	wrap = findCall(fn, op.Wrap, prefix+"wrap", fail)
	for i, pr := range op.Preserve {
		pres = append(pres, findCall(fn, pr, fmt.Sprintf("%spreserve[%d]", prefix, i), fail))
	}
	return
}

func paramLabel(p analyzer.Param) string {
	if p.Name != "" {
		return p.Name
	}
	return "{" + strings.Join(p.Bound, ", ") + "}"
}

// findCall finds the one call site a manifest call names.
func findCall(fn *analyzer.Function, ref manifest.CallRef, field string, fail func(manifest.Pos, string, string, ...any)) *analyzer.Call {
	var sites []*analyzer.Call
	for i := range fn.Calls {
		if !fn.Calls[i].New && fn.Calls[i].Text == ref.Call {
			sites = append(sites, &fn.Calls[i])
		}
	}
	switch {
	case len(sites) == 0:
		fail(ref.Pos, field, "no call %s in the body of %s (calls: %s)", ref.Call, fn.Name, callList(fn))
		return nil
	case ref.Occurrence > len(sites):
		fail(ref.Pos, field, "occurrence %d of %s, but the body of %s calls it %d time(s)", ref.Occurrence, ref.Call, fn.Name, len(sites))
		return nil
	case ref.Occurrence > 0:
		return sites[ref.Occurrence-1]
	case len(sites) > 1:
		var lines []string
		for _, s := range sites {
			lines = append(lines, fmt.Sprintf("%d:%d", s.Line, s.Column))
		}
		fail(ref.Pos, field, "%s is called at %d sites in %s (%s): name one with {call: %s, occurrence: N}", ref.Call, len(sites), fn.Name, strings.Join(lines, ", "), ref.Call)
		return nil
	}
	return sites[0]
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
func observe(p *callgraph.Program, f *analyzer.File, fn *analyzer.Function, wrap *analyzer.Call, pres []*analyzer.Call, fx *fixtures.Fixture) ([]Observed, error) {
	var out []Observed
	calls := append([]*analyzer.Call{wrap}, pres...)
	targets := map[string]string{} // target -> first call text observing it
	for i, c := range calls {
		role := "preserve"
		if i == 0 {
			role = "wrap"
		}
		e := p.ResolveCall(f, c)
		switch {
		case e.Via == callgraph.ViaExternal:
			return out, fmt.Errorf("cannot observe %s (%d:%d): it comes from package %s outside the repository, which oracle does not observe yet", c.Text, c.Line, c.Column, e.Package)
		case e.Target == nil:
			return out, fmt.Errorf("cannot observe %s (%d:%d): %s; neither a hoisted mock nor an in-place spy can be placed on it", c.Text, c.Line, c.Column, e.Reason)
		}
		module, _, _ := strings.Cut(*e.Target, "#")
		if module == f.Path {
			return out, fmt.Errorf("cannot observe %s (%d:%d): it is defined in %s, the function's own module, and called through its local binding, which neither a module mock nor an export spy intercepts", c.Text, c.Line, c.Column, f.Path)
		}
		if first, dup := targets[*e.Target]; dup {
			return out, fmt.Errorf("cannot observe %s (%d:%d): it calls %s, which %s also calls; the oracle cannot tell the two sites apart", c.Text, c.Line, c.Column, *e.Target, first)
		}
		targets[*e.Target] = c.Text
		if others := otherSites(p, f, fn, c, *e.Target); role == "wrap" && others != "" {
			return out, fmt.Errorf("cannot observe %s (%d:%d): %s is also called at %s in the body, so \"not called when the flag is set\" cannot be asserted of this site alone", c.Text, c.Line, c.Column, *e.Target, others)
		}
		strategy, why := chooseStrategy(p, module, fx)
		out = append(out, Observed{Call: c.Text, Role: role, Target: *e.Target, Module: module, Export: e.Export, Strategy: strategy, Why: why})
	}
	return out, nil
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
func chooseStrategy(p *callgraph.Program, m string, fx *fixtures.Fixture) (string, string) {
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
// closure that is in set, or "".
func loads(p *callgraph.Program, m string, set map[string]bool) string {
	seen := map[string]bool{m: true}
	queue := []string{m}
	var hits []string
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		f, _ := p.Module(cur)
		if f == nil {
			continue
		}
		for _, next := range fixtures.RuntimeModules(p, f) {
			if seen[next] {
				continue
			}
			seen[next] = true
			if set[next] {
				hits = append(hits, next)
			}
			queue = append(queue, next)
		}
	}
	if len(hits) == 0 {
		return ""
	}
	sort.Strings(hits)
	return hits[0]
}

// importPath is the specifier the oracle at file `from` uses for module `to`:
// relative, without the TypeScript extension.
func importPath(from, to string) string {
	rel := relPath(path.Dir(from), to)
	for ext, js := range map[string]string{".mts": ".mjs", ".cts": ".cjs"} {
		if strings.HasSuffix(rel, ext) {
			return strings.TrimSuffix(rel, ext) + js
		}
	}
	rel = strings.TrimSuffix(strings.TrimSuffix(rel, ".tsx"), ".ts")
	if !strings.HasPrefix(rel, ".") {
		rel = "./" + rel
	}
	return rel
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
