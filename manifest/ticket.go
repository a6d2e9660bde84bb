package manifest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// KindConditionalSkip is the kind of an operation that wraps one call of a
// function so that it does not run when a flag is set, while the preserved
// calls keep running.
const KindConditionalSkip = "conditional-skip"

// Kinds lists the operation kinds this version knows.
var Kinds = []string{KindConditionalSkip}

// Ticket is a parsed and structurally valid manifest.
type Ticket struct {
	// File is the manifest's name as given (see LoadTicket).
	File string
	// Ticket is the ticket key ("PROJ-142").
	Ticket    string
	TicketPos Pos
	// Operations are in manifest order; there is at least one.
	Operations []Operation
}

// Operation is one operation of a ticket. Every value a later stage may
// complain about carries its position.
type Operation struct {
	// Index is the operation's 0-based index in the manifest's list.
	Index int
	// Pos is the position of the operation's entry.
	Pos Pos
	// Kind is one of Kinds.
	Kind string
	// ID is unique in the ticket (ignoring case). When the manifest gives
	// none it is "<function name>-<flag leaf>", IDDefaulted is true and IDPos
	// is Pos.
	ID          string
	IDPos       Pos
	IDDefaulted bool
	Function    FuncRef
	Flag        FlagPath
	Wrap        CallRef
	// Preserve lists the calls that must keep running when the flag is set,
	// in manifest order; none is the wrapped call, none is listed twice.
	Preserve []CallRef
	// Fixture forces a fixture by name; "" when not given (the fixture is
	// then matched). Whether oracle.yaml declares it is checked by
	// CheckFixtures.
	Fixture    string
	FixturePos Pos
	// Args are the literal arguments, each as compact JSON (see the package
	// documentation for the conversion); HasArgs tells "args: []" from no
	// args at all.
	Args    []json.RawMessage
	HasArgs bool
	ArgsPos Pos
	// Default is the value a bound result of the wrapped call takes when
	// skipped, as compact JSON; nil when not given, "null" for default: null.
	Default    json.RawMessage
	DefaultPos Pos
}

var (
	ticketFields    = []string{"ticket", "operations", "$schema"}
	operationFields = []string{"kind", "id", "function", "flag", "wrap", "preserve", "fixture", "args", "default"}
	callFields      = []string{"call", "occurrence"}
)

// LoadTicket reads and parses the manifest at path (see ParseTicket). When
// repoRoot is not empty, it also checks that every function's file exists
// in the repository, as a regular file that does not resolve (through
// symbolic links) outside of it.
//
// Errors name the file as path was given, made relative to repoRoot when it
// is an absolute path inside it. The error is Errors when the manifest is
// invalid, another error when it cannot be read.
func LoadTicket(path, repoRoot string) (*Ticket, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, p := parseTicket(displayName(path, repoRoot), data)
	if repoRoot != "" {
		// The operations that are valid so far name files to check.
		for _, op := range t.Operations {
			if msg := checkRepoFile(repoRoot, op.Function.File); msg != "" {
				p.errAt(op.Function.Pos, fmt.Sprintf("operations[%d].function", op.Index), "%s", msg)
			}
		}
	}
	if err := p.errs.err(); err != nil {
		return nil, err
	}
	return t, nil
}

// displayName is path with forward slashes, relative to root when it is an
// absolute path inside root.
func displayName(path, root string) string {
	if filepath.IsAbs(path) && root != "" {
		if absRoot, err := filepath.Abs(root); err == nil {
			if rel, err := filepath.Rel(absRoot, path); err == nil && filepath.IsLocal(rel) {
				path = rel
			}
		}
	}
	return filepath.ToSlash(path)
}

// checkRepoFile checks that the repository-relative file rel exists under
// root as a regular file and does not resolve outside of root.
func checkRepoFile(root, rel string) string {
	full := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Stat(full)
	switch {
	case err != nil && os.IsNotExist(err):
		return fmt.Sprintf("file %s does not exist in the repository", rel)
	case err != nil:
		return fmt.Sprintf("cannot read %s: %v", rel, unwrapPathError(err))
	case !fi.Mode().IsRegular():
		return fmt.Sprintf("%s is not a regular file", rel)
	}
	realRoot, err1 := filepath.EvalSymlinks(root)
	real, err2 := filepath.EvalSymlinks(full)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("cannot resolve %s", rel)
	}
	if r, err := filepath.Rel(realRoot, real); err != nil || !filepath.IsLocal(r) {
		return fmt.Sprintf("%s resolves (through a symbolic link) outside the repository", rel)
	}
	return ""
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// ParseTicket parses and validates a manifest. name is used in positions
// and errors only; nothing is read from the file system.
//
// The error is Errors, with every problem found, sorted by position.
func ParseTicket(name string, data []byte) (*Ticket, error) {
	t, p := parseTicket(name, data)
	if err := p.errs.err(); err != nil {
		return nil, err
	}
	return t, nil
}

// parseTicket returns the ticket with the operations found valid, and the
// parser holding the problems.
func parseTicket(name string, data []byte) (*Ticket, *parser) {
	p := newParser(name)
	t := &Ticket{File: name}
	root, empty := p.document(data)
	switch {
	case empty:
		p.errAt(Pos{File: name, Line: 1, Column: 1}, "", `empty manifest: expected a mapping with "ticket" and "operations"`)
	case root != nil:
		p.ticket(root, t)
	}
	return t, p
}

// maxIDLen bounds ids and ticket names: they go into file names and messages.
const maxIDLen = 128

func (p *parser) ticket(root *yaml.Node, t *Ticket) {
	fs, ok := p.fields(root, "", ticketFields, `a mapping with "ticket" and "operations"`)
	if !ok {
		return
	}
	if f, ok := fs["ticket"]; !ok {
		p.errorf(root, "ticket", "required field is missing: %s", ticketExpected)
	} else if s, ok := p.str(f.value, "ticket", ticketExpected); ok {
		if !idPattern.MatchString(s) {
			p.errorf(f.value, "ticket", "%s, got %s", ticketExpected, quote(s))
		} else if len(s) > maxIDLen {
			p.errorf(f.value, "ticket", "a ticket of at most %d characters, got %d: %s", maxIDLen, len(s), quote(s))
		} else {
			t.Ticket, t.TicketPos = s, p.pos(f.value)
		}
	}
	f, ok := fs["operations"]
	const opsExpected = "expected a non-empty list of operations"
	switch {
	case !ok:
		p.errorf(root, "operations", "required field is missing: %s", opsExpected)
		return
	case p.bad[f.value]:
		return
	case f.value.Kind != yaml.SequenceNode || len(f.value.Content) == 0:
		p.errorf(f.value, "operations", "%s, got %s", opsExpected, describe(f.value))
		return
	}
	all := make([]Operation, 0, len(f.value.Content))
	for i, n := range f.value.Content {
		op, ok := p.operation(n, i)
		all = append(all, op)
		if ok {
			t.Operations = append(t.Operations, op)
		}
	}
	p.checkIDs(all)
}

// operation parses one operation; ok is false when it has problems (they
// are recorded).
func (p *parser) operation(n *yaml.Node, i int) (op Operation, ok bool) {
	before := len(p.errs)
	path := index("operations", i)
	op = Operation{Index: i, Pos: p.pos(n)}
	fs, ok := p.fields(n, path, operationFields, "a mapping with kind, function, flag and wrap")
	if !ok {
		return op, false
	}
	required := func(name, expected string) (*yaml.Node, bool) {
		f, ok := fs[name]
		if !ok {
			p.errorf(n, join(path, name), "required field is missing: %s", expected)
			return nil, false
		}
		return f.value, true
	}

	// kind: only conditional-skip exists, so the other fields are checked
	// as for it even when kind is missing or wrong.
	kindExpected := "expected one of: " + strings.Join(Kinds, ", ")
	if v, ok := required("kind", kindExpected); ok {
		if s, ok := p.str(v, join(path, "kind"), kindExpected); ok {
			if !slices.Contains(Kinds, s) {
				p.errorf(v, join(path, "kind"), "%s, got %s", kindExpected, quote(s))
			}
			op.Kind = s
		}
	}

	funcOK := false
	if v, ok := required("function", funcExpected); ok {
		if s, ok := p.str(v, join(path, "function"), funcExpected); ok {
			if ref, msg := parseFuncRef(s); msg != "" {
				p.errorf(v, join(path, "function"), "%s", msg)
			} else {
				ref.Pos = p.pos(v)
				op.Function, funcOK = ref, true
			}
		}
	}

	flagOK := false
	if v, ok := required("flag", flagExpected); ok {
		if s, ok := p.str(v, join(path, "flag"), flagExpected); ok {
			if fl, msg := parseFlag(s); msg != "" {
				p.errorf(v, join(path, "flag"), "%s", msg)
			} else {
				fl.Pos = p.pos(v)
				op.Flag, flagOK = fl, true
			}
		}
	}

	wrapOK := false
	if v, ok := required("wrap", callExpected); ok {
		op.Wrap, wrapOK = p.callRef(v, join(path, "wrap"))
	}

	if f, ok := fs["preserve"]; ok {
		op.Preserve = p.preserve(f.value, join(path, "preserve"), op.Wrap, wrapOK)
	}

	p.opID(n, fs, path, &op, funcOK && flagOK)
	p.opFixture(fs, path, &op)
	p.opArgs(fs, path, &op)

	return op, len(p.errs) == before
}

// opID sets the operation's id: the written one, checked, or the default
// <function>-<flag leaf> when function and flag parsed (refsOK).
func (p *parser) opID(n *yaml.Node, fs map[string]field, path string, op *Operation, refsOK bool) {
	if f, ok := fs["id"]; ok {
		if s, ok := p.str(f.value, join(path, "id"), idExpected); ok {
			if !idPattern.MatchString(s) {
				p.errorf(f.value, join(path, "id"), "%s, got %s", idExpected, quote(s))
			} else if len(s) > maxIDLen {
				p.errorf(f.value, join(path, "id"), "an id of at most %d characters (it names the oracle's file), got %d: %s", maxIDLen, len(s), quote(s))
			} else {
				op.ID, op.IDPos = s, p.pos(f.value)
			}
		}
	} else if refsOK {
		name := op.Function.Name
		if op.Function.Member != "" {
			name = op.Function.Member // Class.method: the file name already says the class
		}
		id := name + "-" + op.Flag.Leaf()
		if !idPattern.MatchString(id) {
			p.errorf(n, join(path, "id"), "the default id %s (<function>-<flag leaf>) does not match [A-Za-z0-9][A-Za-z0-9._-]*: give an id", quote(id))
		} else {
			op.ID, op.IDPos, op.IDDefaulted = id, op.Pos, true
		}
	}
}

// opFixture sets the operation's fixture name when one is written.
func (p *parser) opFixture(fs map[string]field, path string, op *Operation) {
	if f, ok := fs["fixture"]; ok {
		if s, ok := p.str(f.value, join(path, "fixture"), fixtureExpected); ok {
			if !fixturePattern.MatchString(s) {
				p.errorf(f.value, join(path, "fixture"), "%s, got %s", fixtureExpected, quote(s))
			} else {
				op.Fixture, op.FixturePos = s, p.pos(f.value)
			}
		}
	}
}

// opArgs sets the operation's args and default (JSON values) when written.
func (p *parser) opArgs(fs map[string]field, path string, op *Operation) {
	if f, ok := fs["args"]; ok {
		ap := join(path, "args")
		switch v := f.value; {
		case p.bad[v]:
		case v.Kind != yaml.SequenceNode:
			p.errorf(v, ap, "expected a list of arguments (JSON values), e.g. [42, {}], got %s", describe(v))
		default:
			op.HasArgs, op.ArgsPos = true, p.pos(v)
			op.Args = []json.RawMessage{}
			for j, item := range v.Content {
				op.Args = append(op.Args, p.jsonValue(item, index(ap, j)))
			}
		}
	}

	if f, ok := fs["default"]; ok {
		if js := p.jsonValue(f.value, join(path, "default")); js != nil {
			op.Default, op.DefaultPos = js, p.pos(f.value)
		}
	}
}

// callRef parses a wrap or preserve entry: "enrichItem", "audit.write" or
// {call: enrichItem, occurrence: 2}.
func (p *parser) callRef(n *yaml.Node, path string) (CallRef, bool) {
	if p.bad[n] {
		return CallRef{}, false
	}
	ref := CallRef{Pos: p.pos(n)}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag != "!!str" {
			p.errorf(n, path, "%s, got %s", callExpected, describe(n))
			return ref, false
		}
		if msg := parseCallText(n.Value); msg != "" {
			p.errorf(n, path, "%s", msg)
			return ref, false
		}
		ref.Call = n.Value
		return ref, true
	case yaml.MappingNode:
		before := len(p.errs)
		fs, _ := p.fields(n, path, callFields, "")
		if f, ok := fs["call"]; !ok {
			p.errorf(n, join(path, "call"), "required field is missing: the call as written, e.g. enrichItem")
		} else if s, ok := p.str(f.value, join(path, "call"), `expected a call as written, like "enrichItem" or "audit.write"`); ok {
			if msg := parseCallText(s); msg != "" {
				p.errorf(f.value, join(path, "call"), "%s", msg)
			} else {
				ref.Call = s
			}
		}
		if f, ok := fs["occurrence"]; ok && !p.bad[f.value] {
			if occ, ok := parseOccurrence(f.value.Tag, f.value.Value); ok && f.value.Kind == yaml.ScalarNode {
				ref.Occurrence = occ
			} else {
				p.errorf(f.value, join(path, "occurrence"), "expected an integer ≥ 1 (which call site, counting from 1), got %s", describe(f.value))
			}
		}
		return ref, len(p.errs) == before
	}
	p.errorf(n, path, "%s, got %s", callExpected, describe(n))
	return ref, false
}

// preserve parses the preserve list, rejecting the wrapped call and
// entries naming the same call site twice.
func (p *parser) preserve(n *yaml.Node, path string, wrap CallRef, wrapOK bool) []CallRef {
	if p.bad[n] {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, path, "expected a list of calls, e.g. [selectTargets, updateRecord], got %s", describe(n))
		return nil
	}
	out := []CallRef{}
	var idx []int
	for i, item := range n.Content {
		ip := index(path, i)
		ref, ok := p.callRef(item, ip)
		if !ok {
			continue
		}
		if wrapOK && ref.sameSite(wrap) {
			p.errorf(item, ip, "%s is the wrapped call (wrap, line %d): a call cannot be both wrapped and preserved", quote(ref.Call), wrap.Pos.Line)
			continue
		}
		dup := false
		for k, prev := range out {
			if prev.sameSite(ref) {
				p.errorf(item, ip, "%s is already listed (preserve[%d], line %d)", quote(ref.Call), idx[k], prev.Pos.Line)
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, ref)
			idx = append(idx, i)
		}
	}
	return out
}

// checkIDs reports ids used twice in a ticket, ignoring case (ids name
// files, and some file systems ignore case).
func (p *parser) checkIDs(ops []Operation) {
	first := map[string]*Operation{}
	for i := range ops {
		op := &ops[i]
		if op.ID == "" {
			continue
		}
		key := strings.ToLower(op.ID)
		prev, dup := first[key]
		if !dup {
			first[key] = op
			continue
		}
		field := index("operations", op.Index) + ".id"
		what := fmt.Sprintf("duplicate id %s", quote(op.ID))
		if op.IDDefaulted {
			what = fmt.Sprintf("duplicate id: the default id %s (<function>-<flag leaf>)", quote(op.ID))
		}
		how := "give each operation a distinct id"
		if prev.ID != op.ID {
			how = "ids are compared ignoring case; " + how
		}
		as := ""
		if prev.IDDefaulted {
			as = ", as its default id"
		}
		p.errAt(op.IDPos, field, "%s is already used by operations[%d] (line %d%s); %s", what, prev.Index, prev.IDPos.Line, as, how)
	}
}
