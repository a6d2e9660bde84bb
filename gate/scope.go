package gate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/operators"
	"github.com/oracle-ts/oracle/testsuite"
)

// ModuleTarget is the name of a file's top-level code as a target:
// `<file>#<module>`.
const ModuleTarget = "<module>"

// moduleSpans are the parts of changed (a file's changed spans) outside
// every function (operators.FunctionLike, and fns, the analyzer's functions): the
// top-level code the change wrote, which runs when the module loads.
func moduleSpans(syn *analyzer.Syntax, changed []change.Span, fns []change.Span) []change.Span {
	if syn == nil {
		return nil
	}
	fns = slices.Clone(fns)
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if operators.FunctionLike(syn, n) {
			fns = append(fns, change.Span{Start: int(syn.Start(n)), End: int(syn.End(n))})
			return false
		}
		return true
	})
	var out []change.Span
	for _, c := range changed {
		pieces := []change.Span{c}
		for _, f := range fns {
			var next []change.Span
			for _, p := range pieces {
				switch {
				case p.Start == p.End && f.Start < p.Start && p.Start < f.End:
				case p.Start == p.End || p.End <= f.Start || f.End <= p.Start:
					next = append(next, p)
				default:
					if p.Start < f.Start {
						next = append(next, change.Span{Start: p.Start, End: f.Start})
					}
					if f.End < p.End {
						next = append(next, change.Span{Start: f.End, End: p.End})
					}
				}
			}
			pieces = next
		}
		out = append(out, pieces...)
	}
	// What is left between functions may be whitespace alone: a span counts
	// when it holds a token of the code.
	var code []change.Span
	src := syn.Src()
	for _, p := range out {
		if p.Start == p.End || operators.HasCode(src[p.Start:p.End]) {
			code = append(code, p)
		}
	}
	return code
}

// moduleBody is the module's top-level code as a function of the
// operators: the whole program (the gate's walk skips nothing but what it
// never mutates), and where its load marker goes: before its first
// statement (after a hashbang, comments and directives).
func moduleBody(syn *analyzer.Syntax, file string) (*analyzer.Function, uint) {
	root := syn.Root()
	entry := syn.End(root)
	for c := syn.FirstChild(root); c >= 0; c = syn.Next(c) {
		k := syn.Kind(c)
		if k == "comment" || k == "hash_bang_line" || k == "expression_statement" && syn.FirstNamed(c) >= 0 && syn.Kind(syn.FirstNamed(c)) == "string" {
			continue
		}
		entry = syn.Start(c)
		break
	}
	return &analyzer.Function{Name: ModuleTarget, Qual: ModuleTarget, Line: 1,
		StartByte: syn.Start(root), EndByte: syn.End(root), BodyStartByte: syn.Start(root), BodyEndByte: syn.End(root)}, entry
}

// FieldsTarget is the name of a class's instance field initializers as a
// target: `<file>#<Class>.<fields>` (the analyzer's FuncFields).
const FieldsTarget = "<fields>"

// jobMutants are the operators' mutants of fn's code: its body's, or for
// a class's <fields>, those of each initializer in turn.
func jobMutants(file string, src []byte, syn *analyzer.Syntax, fn *analyzer.Function, arid Arid) []edit.Mutant {
	if fn.Kind != analyzer.FuncFields || syn == nil {
		return Mutants(file, src, syn, fn, arid)
	}
	var out []edit.Mutant
	for _, v := range operators.FieldValues(syn, fn) {
		init := *fn
		init.BodyStartByte, init.BodyEndByte = uint(v.Start), uint(v.End)
		out = append(out, Mutants(file, src, syn, &init, arid)...)
	}
	return out
}

// targetMutants are job j's mutants, each with its index among all the
// operators make in its body (its id): with --scope function all of them;
// else those on the code the change wrote (change.Counts on the job's
// changed spans), or, for a list of files, those on its lines (all of
// them); a module's only on its top-level code.
func targetMutants(file string, src []byte, syn *analyzer.Syntax, j *job, ch change.Change, opts Options) []*mutant {
	out, _ := scopedMutants(file, src, syn, j, ch, opts)
	return out
}

// scopedMutants are targetMutants and how many mutants the operators made
// in the body (the index after the last: revert mutants number from it).
func scopedMutants(file string, src []byte, syn *analyzer.Syntax, j *job, ch change.Change, opts Options) (out []*mutant, all int) {
	ms := jobMutants(file, src, syn, j.fn, opts.Arid)
	for i, m := range ms {
		switch {
		case j.module && (inFunction(syn, m.Original.Start.Offset, m.Original.End.Offset) || within(m, j.apart)):
			continue // a function's: its own target
		case j.module && operators.InImport(syn, m.Original.Start.Offset, m.Original.End.Offset):
			continue // a module specifier: not code a test can pin, and no module loads
		case opts.scope() != ScopeLines && !j.module:
		case j.changed != nil:
			if !change.Counts(site(syn, m), j.changed) {
				continue
			}
		case !ch.Touches(file, m.Original.Start.Line, m.Original.End.Line):
			continue
		}
		out = append(out, &mutant{job: j, edit: m, index: i})
	}
	return out, len(ms)
}

// within reports whether mutant m lies in one of spans.
func within(m edit.Mutant, spans []change.Span) bool {
	for _, s := range spans {
		if s.Start <= int(m.Original.Start.Offset) && int(m.Original.End.Offset) <= s.End {
			return true
		}
	}
	return false
}

// inFunction reports whether the range [start, end) of syn's source lies in
// a function (operators.FunctionLike).
func inFunction(syn *analyzer.Syntax, start, end uint) bool {
	if syn == nil {
		return false
	}
	for n := syn.Find(start, end, ""); n >= 0; n = syn.Parent(n) {
		if operators.FunctionLike(syn, n) {
			return true
		}
	}
	return false
}

// moduleJob is the job of file's top-level code when the change wrote
// some (changed, the file's spans) and an operator mutates it or a revert
// mutant undoes it (base, the file's base revision); nil otherwise. wrote says whether the change wrote top-level code at all.
// What the analyzer takes for a function (fns) is not top-level code: it
// is a target of its own.
func moduleJob(file string, src []byte, changed []change.Span, fns []*analyzer.Function, opts Options, base *change.Base, read map[string]bool) (j *job, wrote bool) {
	if len(changed) == 0 {
		return nil, false
	}
	_, syn := analyzer.ParseSyntax(file, src)
	var apart []change.Span
	for _, fn := range fns {
		apart = append(apart, change.Span{Start: int(fn.StartByte), End: int(fn.EndByte)})
	}
	mod := moduleSpans(syn, changed, apart)
	if len(mod) == 0 {
		return nil, false
	}
	fn, entry := moduleBody(syn, file)
	j = &job{target: &Target{ID: file + "#" + ModuleTarget, File: file, Line: syn.Line(uint(mod[0].Start))}, fn: fn, changed: mod, module: true, entry: entry, apart: apart, read: read}
	if ms := targetMutants(file, src, syn, j, nil, Options{Scope: ScopeLines, Arid: opts.Arid}); len(ms) == 0 {
		if rs, _ := reverts(file, src, syn, j, changed, nil, base, opts.Arid, nil); len(rs) == 0 {
			return nil, true // declarations, imports: nothing an operator changes, nothing to revert
		}
	}
	return j, true
}

// holds reports whether fn's code holds one of changed's spans (a deletion
// point strictly inside); a class's <fields>: one of its initializers (src
// its file's source).
func holds(changed []change.Span, fn *analyzer.Function, file string, src []byte) bool {
	if fn.Kind == analyzer.FuncFields {
		_, syn := analyzer.ParseSyntax(file, src)
		if syn == nil {
			return false
		}
		for _, v := range operators.FieldValues(syn, fn) {
			if change.Counts(change.Site{Replaced: v}, changed) || slices.ContainsFunc(changed, func(c change.Span) bool { return c.Start == v.Start && c.End == v.End }) {
				return true
			}
		}
		return false
	}
	return change.Counts(change.Site{Replaced: change.Span{Start: int(fn.StartByte), End: int(fn.EndByte)}}, changed)
}

// changedCode is what codeChanged reads of the change's token diff.
type changedCode struct {
	lines   change.Change   // the lines that hold changed tokens (what TouchedFunctions reads)
	modules map[string]*job // each file's <module> job
	// code: the change touched code at all; topLevel: it wrote top-level
	// code (an operator may find nothing there).
	code, topLevel bool
	dead           []string // "file: name" of each declaration it deleted that nothing reads (operators.DeadDeletions)
	// read are, per file, the exports of its base the change deleted that
	// another file reads (readElsewhere): every job of the file's.
	read map[string]map[string]bool
}

// codeChanged reads the token diff toks of the change's production files
// prod (changedCode).
func codeChanged(p *callgraph.Program, toks change.Tokens, bases change.Bases, prod []string, opts Options) changedCode {
	cc := changedCode{lines: change.Change{}, modules: map[string]*job{}, read: map[string]map[string]bool{}}
	for _, file := range prod {
		src, err := os.ReadFile(filepath.Join(p.Root(), filepath.FromSlash(file)))
		if err != nil {
			continue
		}
		cc.lines[file] = toks.Lines(file, src)
		cc.code = cc.code || len(toks[file]) > 0
		var fns []*analyzer.Function
		if f, _ := p.Module(file); f != nil {
			fns = f.Functions
		}
		read := readElsewhere(p, opts.Origin, file, operators.DeletedExports(file, src, bases[file]))
		cc.read[file] = read
		j, wrote := moduleJob(file, src, toks[file], fns, opts, bases[file], read)
		if j != nil {
			cc.modules[file] = j
		} else if wrote {
			for _, name := range operators.DeadDeletions(file, src, toks[file], bases[file], read) {
				cc.dead = append(cc.dead, file+": "+name)
			}
		}
		cc.topLevel = cc.topLevel || wrote
	}
	return cc
}

// withModules are the jobs of the touched functions (those whose own code
// holds a changed token, with toks; read, their file's deleted exports
// another file reads) and of the <module> targets, in file order, a
// file's module first.
func withModules(root string, touched []testsuite.Touched, modules map[string]*job, toks change.Tokens, prod []string, read map[string]map[string]bool) []*job {
	sources := map[string][]byte{}
	srcs := func(file string) []byte {
		if sources[file] == nil {
			sources[file], _ = os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		}
		return sources[file]
	}
	var all []*job
	for _, t := range touched {
		if toks != nil && !holds(toks[t.File], t.Function, t.File, srcs(t.File)) {
			continue // only a line it shares with the change's code
		}
		all = append(all, &job{target: &Target{ID: t.ID(), File: t.File, Line: t.Function.Line}, fn: t.Function, changed: toks[t.File], read: read[t.File]})
	}
	for _, file := range prod {
		if m := modules[file]; m != nil {
			all = append(all, m)
		}
	}
	slices.SortStableFunc(all, func(a, b *job) int {
		if a.target.File != b.target.File {
			return strings.Compare(a.target.File, b.target.File)
		}
		switch {
		case a.module == b.module:
			return 0
		case a.module:
			return -1
		}
		return 1
	})
	return all
}

// withoutInSourceTests takes out of the change's tokens what lies in an
// in-source test block, `if (import.meta.vitest) { ... }`: the tests of a
// production file, which are not its code (never a target, never mutated).
func withoutInSourceTests(root string, toks change.Tokens) {
	for file, spans := range toks {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil || !strings.Contains(string(src), "import.meta.vitest") {
			continue
		}
		_, syn := analyzer.ParseSyntax(file, src)
		if syn == nil {
			continue
		}
		var blocks []change.Span
		syn.Walk(syn.Root(), func(n analyzer.Node) bool {
			if syn.Kind(n) == "if_statement" {
				if c := syn.Child(n, "condition"); c >= 0 && strings.Join(strings.Fields(strings.Trim(syn.Text(c), "() \t\n")), "") == "import.meta.vitest" {
					blocks = append(blocks, change.Span{Start: int(syn.Start(n)), End: int(syn.End(n))})
					return false
				}
			}
			return true
		})
		if len(blocks) == 0 {
			continue
		}
		var kept []change.Span
		for _, s := range spans {
			for _, b := range blocks {
				switch {
				case s.End <= b.Start || b.End <= s.Start: // apart
				case b.Start <= s.Start && s.End <= b.End: // inside
					s = change.Span{}
				case s.Start < b.Start && b.End < s.End: // around: the parts outside
					kept = append(kept, change.Span{Start: s.Start, End: b.Start})
					s.Start = b.End
				case s.Start < b.Start:
					s.End = b.Start
				default:
					s.Start = b.End
				}
			}
			if s.End > s.Start {
				kept = append(kept, s)
			}
		}
		slices.SortFunc(kept, func(a, b change.Span) int { return a.Start - b.Start })
		toks[file] = kept
	}
}
