package operators

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// Revert is the gate's operator of the change itself: the base revision's
// code restored where the change wrote code no operator mutates, and where
// it replaced a token, operator or not (SPEC "oracle gate", the change's
// own code). Its tests still passing, nothing pins the change there. It
// visits no node: the gate asks it once per target (Reverts), after the
// other operators, with the target's change in the context (Context.Base,
// Changed, AllChanged, Module, Read, Counted).
var Revert = &Operator{Name: "Revert", Verb: GateVerb}

// Revert's Reverts asks the registry, which holds Revert, for the sites of
// the other operators' mutants (Site): set once the registry is.
func init() { Revert.Reverts = reverts }

// revertUnit is one place a revert mutant restores: the head's bytes
// (head) replaced by text, and the changed spans it holds (what a counted
// mutant must touch for the place to have one of its own).
type revertUnit struct {
	head  change.Span
	base  change.Span // the base's bytes restored (empty: the unit is deleted)
	spans []change.Span
	// swap: each hunk of the unit replaced one token by another (a
	// literal, an operator, a name): the revert's text is trimmed as a
	// token's is.
	swap bool
	same bool // every hunk a number written otherwise with the same value
}

// reverts are Revert's mutants of c's target (the gate's job: its file's
// source c.Src, parsed as c.Syn; c.Base its base revision): one per
// statement's hunks of the change in the target's code that replaced code
// (whatever mutates the new code: `* 1.2` → `* 1.25`; `in o` → `of
// Object.keys(o)`, widened to whole syntax by wholeSyntax; the gate keeps
// one mutant of a program), or that only wrote or deleted code no mutant
// of c.Counted (the target's mutants on the change's code) touches,
// restoring the base's code there (a deletion: the deleted code
// re-inserted; a hunk that only inserted several statements: one mutant
// per statement, each removed; a local the change renamed, under its new
// name). A revert that needs a top-level name the change removed (an
// import, a declaration) or a local whose declaration it deleted restores
// it too; one that does not parse, or would read a name the change removed
// for good, is not built, and notes say why. A declaration nothing reads,
// deleted, has none (deadDeclarations), nor does a number written
// otherwise, code that differs in types or parentheses only (sameCode), a
// variable extracted or inlined (sameValueName), a line under `//
// oracle-disable-next-line`, or an import the head cannot satisfy
// (c.Importable).
func reverts(c *Context) (ms []edit.Mutant, notes []string) {
	file, src, syn, base, arid := c.Path, c.Src, c.Syn, c.Base, c.Arid
	if base == nil || syn == nil || c.Changed == nil {
		return nil, nil
	}
	bsyn := baseSyntax(file, base)
	units := revertUnits(c, bsyn)
	accept := edit.Accepting(file, src)
	defer accept.Close()
	sites := revertSites(syn, c.Counted)
	disabled := disabledLines(src)
	for _, u := range units {
		if disabled[syn.Line(uint(u.head.Start))] {
			continue // `// oracle-disable-next-line` above it: a refactor's revert the reviewer knows is equivalent
		}
		text := underHeadNames(bsyn, base, u)
		// Replaced: code tokens on both sides (a comment, a directive or
		// types alone are none: `// @ts-expect-error` → a new function is
		// code written, not code replaced).
		restores := len(codeLeaves(bsyn, u.base)) > 0
		replaced := restores && len(codeLeaves(syn, u.head)) > 0
		if replaced {
			w, ok := wholeSyntax(syn, bsyn, src, base.Src, u)
			if !ok {
				notes = append(notes, fmt.Sprintf("%s:%d: no revert mutant of the change there: it rewrote the statement, not a whole expression or statement the base has in its place", file, syn.Line(uint(u.head.Start))))
				continue
			}
			u, text = w, underHeadNames(bsyn, base, w)
		}
		if !replaced && slices.ContainsFunc(sites, func(s change.Site) bool { return change.Counts(s, u.spans) }) {
			continue // code only written or only deleted, which a mutant of the change's code touches: that mutant is the change's there (a replaced token has its revert beside: a program an operator makes too is that mutant, mutants)
		}
		if u.same {
			continue // a number written otherwise, the same value
		}
		if replaced && sameCode(syn, bsyn, u) {
			continue // types or parentheses only (`(o as T)[k]` → `o[k]`): the same program
		}
		if replaced && sameValueName(syn, bsyn, base, u) {
			continue // a variable extracted or inlined (`isObj` ← `typeof a === "object"`; `const k = b as string`): restored, the same value
		}
		locals, gone := restoredLocals(syn, bsyn, base, src, text, u)
		if gone != "" {
			notes = append(notes, fmt.Sprintf("%s:%d: no revert mutant of the change there: it uses %s, which the change removed (restored, a ReferenceError, not a test's verdict)", file, syn.Line(uint(u.head.Start)), gone))
			continue
		}
		if aridStatements(file, text, arid) || !restores && aridStatements(file, string(src[u.head.Start:u.head.End]), arid) {
			continue // a logging or tracing call deleted or added: arid, as for every operator
		}
		if !restores && declaresUsed(syn, u.head) {
			continue // removing it is a ReferenceError where the name is used: those uses are hunks of their own
		}
		if !restores && insertsParameter(syn, u.head) {
			continue // a parameter the change added: read by its new code, removing it is a ReferenceError (those reads are hunks of their own); read by none, the same program
		}
		if deadDeclarations(file, syn, base, u, c.Read) != nil {
			continue // a declaration nothing reads, deleted: putting it back changes nothing
		}
		chs := []edit.Change{{Start: uint(u.head.Start), End: uint(u.head.End), Text: text}}
		deps, why := restoredNames(file, src, syn, base, u, c.Importable)
		line := syn.Line(uint(u.head.Start))
		if why != "" {
			notes = append(notes, fmt.Sprintf("%s:%d: no revert mutant of the change there: %s", file, line, why))
			continue
		}
		chs = append(append(chs, deps...), locals...)
		m, err := edit.NewMutant(Revert.Name, "", file, src, chs)
		if err == nil {
			err = accept.CheckWhole(m.Source())
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s:%d: no revert mutant of the change there: the base's code restored does not parse (%v)", file, line, err))
			continue
		}
		// The mutant is where the change is reverted, whatever it restores
		// beside (an import at the top), without the blanks both sides share
		// (a hunk of the token diff takes the space before a token and the
		// line's end after it: ` /re/\n` → ` /re2/\n` is `/re/` → `/re2/`).
		lo, hi := u.head.Start, u.head.End
		for lo < hi && len(text) > 0 && isBlank(src[lo]) && src[lo] == text[0] {
			lo, text = lo+1, text[1:]
		}
		for hi > lo && len(text) > 0 && (isBlank(src[hi-1]) || u.swap && (src[hi-1] == ';' || src[hi-1] == ',')) && src[hi-1] == text[len(text)-1] {
			hi, text = hi-1, text[:len(text)-1]
		}
		m.Original, m.Replacement = edit.SpanOf(src, uint(lo), uint(hi)), text
		ms = append(ms, m)
	}
	return ms, notes
}

// revertUnits are the places of c's target where a revert may restore
// the base (bsyn, its syntax): each hunk of the change in the target's
// own code, but imports; the hunks of one statement one unit; several
// statements inserted, one unit each.
func revertUnits(c *Context, bsyn *analyzer.Syntax) []revertUnit {
	file, syn, base := c.Path, c.Syn, c.Base
	var units []revertUnit
	group := analyzer.NoNode // the statement of the last unit, whose next hunk joins it
	for _, h := range base.Hunks {
		mine, every := inHunk(c.Changed, h.Head), inHunk(c.AllChanged, h.Head)
		if len(mine) == 0 {
			continue
		}
		if !slices.Equal(mine, every) || !c.Module && !withinFn(syn, every, c.Fn) {
			group = analyzer.NoNode
			continue // the hunk reaches code of another target: neither reverts it alone
		}
		if c.Module && (h.Wrote && importsOnly(syn, mine) || !h.Wrote && importsOnly(baseSyntax(file, base), []change.Span{h.BaseSpan})) {
			group = analyzer.NoNode
			continue // an import: no test pins a module specifier
		}
		if h.Wrote && !h.Deleted {
			if sts := insertedStatements(syn, h.Head, every); len(sts) > 1 {
				for _, st := range sts {
					units = append(units, revertUnit{head: st, base: change.Span{Start: h.BaseSpan.Start, End: h.BaseSpan.Start}, spans: []change.Span{st}})
				}
				group = analyzer.NoNode
				continue
			}
		}
		// The hunks of one statement are one unit: the token diff may split
		// `new EmptyObject()` → `Object.create(null)` at a kept `(`, and
		// half of it restored is neither program.
		st := statementAround(syn, h.Head)
		swap, same := swapped(syn, bsyn, h)
		if n := len(units); n > 0 && st >= 0 && st == group {
			units[n-1].head.End, units[n-1].base.End = h.Head.End, h.BaseSpan.End
			units[n-1].spans = append(units[n-1].spans, mine...)
			units[n-1].swap, units[n-1].same = units[n-1].swap && swap, units[n-1].same && same
			continue
		}
		units = append(units, revertUnit{head: h.Head, base: h.BaseSpan, spans: mine, swap: swap, same: same})
		group = st
	}
	return units
}

// swapped reports whether hunk h replaced one code token of the base
// (bsyn) by one of the head (syn) of the same kind (a literal, an
// operator, a name, a property's name), and whether both are the same
// value written otherwise (`1.2` → `1.20`, `1_000` → `1000`: no revert).
func swapped(syn, bsyn *analyzer.Syntax, h change.Hunk) (swap, same bool) {
	if bsyn == nil || !h.Wrote || !h.Deleted {
		return false, false
	}
	a, b := codeLeaves(syn, h.Head), codeLeaves(bsyn, h.BaseSpan)
	if len(a) != 1 || len(b) != 1 {
		return false, false
	}
	ka, kb := leafKind(syn, a[0]), leafKind(bsyn, b[0])
	if ka == "" || ka != kb {
		return false, false
	}
	if ka == "number" {
		x, errx := strconv.ParseFloat(strings.ReplaceAll(syn.Text(a[0]), "_", ""), 64)
		y, erry := strconv.ParseFloat(strings.ReplaceAll(bsyn.Text(b[0]), "_", ""), 64)
		if errx == nil && erry == nil && x == y {
			return true, true
		}
	}
	return true, false
}

// codeLeaves are syn's code tokens in span: leaves (a string, template or
// regular expression whole), without comments, type syntax and the `;`
// and `,` the token diff does not count.
func codeLeaves(syn *analyzer.Syntax, span change.Span) []analyzer.Node {
	var out []analyzer.Node
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		s, e := int(syn.Start(n)), int(syn.End(n))
		if e <= span.Start || s >= span.End || change.TypeSyntax(syn, n) {
			return false
		}
		k := syn.Kind(n)
		if syn.FirstChild(n) >= 0 && k != "string" && k != "template_string" && k != "regex" {
			return true
		}
		if k != "comment" && k != ";" && k != "," && e > s && s >= span.Start && e <= span.End {
			out = append(out, n)
		}
		return false
	})
	return out
}

// leafKind is a swapped token's class: "number", "string", "regex",
// "literal" (true, false, null, undefined), "operator", "property",
// "identifier"; "" for what has no revert of its own (a keyword, a
// bracket).
func leafKind(syn *analyzer.Syntax, n analyzer.Node) string {
	switch k := syn.Kind(n); {
	case k == "number", k == "string", k == "regex":
		return k
	case k == "template_string":
		return "string"
	case k == "true", k == "false", k == "null", k == "undefined":
		return "literal"
	case k == "property_identifier":
		return "property"
	case k == "identifier":
		return "identifier"
	case !syn.Named(n) && operatorText.MatchString(k):
		return "operator"
	}
	return ""
}

// operatorText is an operator's text: punctuation, not a bracket.
var operatorText = regexp.MustCompile(`^[-+*/%<>=!&|^~?.:]+$`)

// underHeadNames is the base's code unit u restores, each local the
// change renamed around it (base.Renames) under its head name: restored,
// the base's `sum` in the scope where the local is now `gross` reads
// `gross`, not a name that is no longer bound.
func underHeadNames(bsyn *analyzer.Syntax, base *change.Base, u revertUnit) string {
	text := string(base.Src[u.base.Start:u.base.End])
	if bsyn == nil || len(base.Renames) == 0 {
		return text
	}
	names := map[string]string{}
	for _, r := range base.Renames {
		if r.Scope.Start <= u.head.Start && u.head.End <= r.Scope.End {
			names[r.Base] = r.Head
		}
	}
	if len(names) == 0 {
		return text
	}
	var out strings.Builder
	at := u.base.Start
	bsyn.Walk(bsyn.Root(), func(n analyzer.Node) bool {
		s, e := int(bsyn.Start(n)), int(bsyn.End(n))
		if e <= u.base.Start || s >= u.base.End {
			return false
		}
		if to, ok := names[bsyn.Text(n)]; ok && bsyn.Kind(n) == "identifier" && s >= at && e <= u.base.End {
			out.Write(base.Src[at:s])
			out.WriteString(to)
			at = e
		}
		return true
	})
	out.Write(base.Src[at:u.base.End])
	return out.String()
}

// standsForRevert reports whether mutant m, on the change's code, tests
// what the change wrote there. A Regex mutant does not: it changes one
// anchor, class or quantifier of the new pattern, and `/^(a|b)$/` →
// `/^(a|b|c)$/` has only `^` and `$` removed, nothing of the `|c` the change
// added; a changed regular expression keeps its revert beside them.
func standsForRevert(m edit.Mutant) bool { return m.Operator != Regex.Name }

// aridStatements reports whether code (a stretch of statements) is only
// arid calls (Arid: console.* and the configured loggers), each
// a statement of its own, awaited or not.
func aridStatements(file, code string, arid Arid) bool {
	if !HasCode([]byte(code)) {
		return false
	}
	_, syn := analyzer.ParseSyntax(file, []byte(code))
	if syn == nil {
		return false
	}
	n, all := 0, true
	for st := syn.FirstChild(syn.Root()); st >= 0 && all; st = syn.Next(st) {
		if !syn.Named(st) || syn.Kind(st) == "comment" || syn.Kind(st) == "empty_statement" {
			continue
		}
		n++
		e := analyzer.NoNode
		if syn.Kind(st) == "expression_statement" {
			e = syn.FirstNamed(st)
		}
		if e >= 0 && syn.Kind(e) == "await_expression" {
			e = syn.FirstNamed(e)
		}
		all = e >= 0 && syn.Kind(e) == "call_expression" && arid.IsAridCall(syn, e)
	}
	return n > 0 && all
}

// sameValueName reports whether unit u swapped an expression for a const
// local holding the same expression, or back: a variable extracted
// (`typeof a === "object"` → `isObj`, `const isObj = typeof a ===
// "object"` above; `b` → `k`, `const k = b as string`, es-toolkit
// 617056089) or inlined (the reverse, the local's declaration deleted).
// Restored, the same value, as a renamed local is: when the expression
// has no effect of its own (no call, no assignment, no await) that could
// give another value where it is read.
func sameValueName(syn, bsyn *analyzer.Syntax, base *change.Base, u revertUnit) bool {
	if bsyn == nil {
		return false
	}
	renamed := map[string]string{} // the base's locals the change renamed, under their head names
	for _, r := range base.Renames {
		if r.Scope.Start <= u.head.Start && u.head.End <= r.Scope.End {
			renamed[r.Base] = r.Head
		}
	}
	underHead := func(toks []string) []string {
		out := slices.Clone(toks)
		for i, t := range out {
			if to, ok := renamed[t]; ok {
				out[i] = to
			}
		}
		return out
	}
	held := func(syn *analyzer.Syntax, name string, other []string) bool {
		same := false
		syn.Walk(syn.Root(), func(n analyzer.Node) bool {
			if same {
				return false
			}
			if syn.Kind(n) != "variable_declarator" || syn.Text(syn.Child(n, "name")) != name {
				return true
			}
			d, v := syn.Parent(n), syn.Child(n, "value")
			if v < 0 || syn.Kind(d) != "lexical_declaration" || syn.Kind(syn.FirstChild(d)) != "const" || effects(syn, v) {
				return false
			}
			same = slices.Equal(jsTokens(syn, change.Span{Start: int(syn.Start(v)), End: int(syn.End(v))}), other)
			return false
		})
		return same
	}
	head, was := jsTokens(syn, u.head), jsTokens(bsyn, u.base)
	switch {
	case len(head) == 1 && jsName.MatchString(head[0]) && len(was) > 0:
		return held(syn, head[0], underHead(was))
	case len(was) == 1 && jsName.MatchString(was[0]) && len(head) > 0:
		return held(bsyn, was[0], head)
	}
	return false
}

// effects reports whether expression n of syn may do something besides
// giving its value: a call, a construction, an assignment, an update, an
// await or a yield.
func effects(syn *analyzer.Syntax, n analyzer.Node) bool {
	found := false
	syn.Walk(n, func(c analyzer.Node) bool {
		switch syn.Kind(c) {
		case "call_expression", "new_expression", "assignment_expression", "augmented_assignment_expression", "update_expression", "await_expression", "yield_expression", "delete":
			found = true
		}
		return !found
	})
	return found
}

// restoredLocals puts back, with the revert of unit u, the locals its
// restored code (text, the base's code under the head's names) reads that
// the base declares below its top level, that the head no longer has
// anywhere outside the unit, and whose declaring statement the change
// deleted (`const a = f(); return g(a)` → `return g(h())`: the revert
// restores both, the base's program there): each inserted where its hunk
// deleted it. gone is such a local that cannot be put back (a parameter
// the change removed): restored, the revert would read it as a
// ReferenceError, a "kill" no test's assertion made. Top-level names the
// change removed are restoredNames'.
func restoredLocals(syn, bsyn *analyzer.Syntax, base *change.Base, src []byte, text string, u revertUnit) (chs []edit.Change, gone string) {
	if bsyn == nil || u.base.Start == u.base.End {
		return nil, ""
	}
	declared := localDeclarations(bsyn)
	read := map[string]bool{}
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if s, e := int(syn.Start(n)), int(syn.End(n)); s >= u.head.Start && e <= u.head.End {
			return false
		}
		if k := syn.Kind(n); k == "identifier" || k == "shorthand_property_identifier" || k == "shorthand_property_identifier_pattern" {
			read[syn.Text(n)] = true
		}
		return true
	})
	seen := map[string]bool{}
	bsyn.Walk(bsyn.Root(), func(n analyzer.Node) bool {
		s, e := int(bsyn.Start(n)), int(bsyn.End(n))
		if gone != "" || e <= u.base.Start || s >= u.base.End {
			return false
		}
		name := bsyn.Text(n)
		k := bsyn.Kind(n)
		if k != "identifier" && k != "shorthand_property_identifier" || s < u.base.Start || e > u.base.End ||
			seen[name] || read[name] || !jsWord(name).MatchString(text) {
			return true
		}
		decl, ok := declared[name]
		if !ok || u.base.Start <= int(bsyn.Start(decl.id)) && int(bsyn.End(decl.id)) <= u.base.End {
			return true // a global, or declared by the restored code itself
		}
		d := decl.stmt
		seen[name] = true
		at := -1
		for _, h := range base.Hunks {
			if h.BaseSpan.Start <= int(bsyn.Start(d)) && int(bsyn.End(d)) <= h.BaseSpan.End {
				at = h.Head.Start
				break
			}
		}
		if at < 0 || bsyn.Kind(d) == "formal_parameters" {
			gone = name
			return false
		}
		if at < len(src) && src[at] == ';' {
			at++
		}
		chs = append(chs, edit.Change{Start: uint(at), End: uint(at), Text: "\n" + bsyn.Text(d) + "\n"})
		return true
	})
	if gone != "" {
		return nil, gone
	}
	return chs, ""
}

// localDeclarations maps each name bsyn declares below its top level (a
// variable, a function or class declared in a block, a parameter, a
// catch's or a for-in's binding) to its name's node and its declaring
// statement (the child of a block holding it; the parameter list for a
// parameter).
func localDeclarations(bsyn *analyzer.Syntax) map[string]struct{ id, stmt analyzer.Node } {
	top := topLevelNames(bsyn)
	declared := map[string]struct{ id, stmt analyzer.Node }{}
	bsyn.Walk(bsyn.Root(), func(n analyzer.Node) bool {
		pat := analyzer.NoNode
		switch bsyn.Kind(n) {
		case "variable_declarator", "function_declaration", "class_declaration", "generator_function_declaration":
			pat = bsyn.Child(n, "name")
		case "required_parameter", "optional_parameter":
			pat = bsyn.Child(n, "pattern")
		case "catch_clause":
			pat = bsyn.Child(n, "parameter")
		case "for_in_statement":
			pat = bsyn.Child(n, "left")
		case "arrow_function":
			pat = bsyn.Child(n, "parameter")
		}
		for _, id := range bsyn.PatternNames(pat) {
			if _, atTop := top[bsyn.Text(id)]; atTop {
				continue
			}
			st := n
			for p := bsyn.Parent(st); p >= 0 && bsyn.Kind(p) != "statement_block" && bsyn.Kind(p) != "formal_parameters" && bsyn.Kind(p) != "program"; p = bsyn.Parent(st) {
				st = p
			}
			if p := bsyn.Parent(st); p >= 0 && bsyn.Kind(p) == "formal_parameters" {
				st = p
			}
			declared[bsyn.Text(id)] = struct{ id, stmt analyzer.Node }{id, st}
		}
		return true
	})
	return declared
}

// jsWord matches name as a whole word of JavaScript (not inside a longer name).
func jsWord(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^\p{L}\p{N}_$])` + regexp.QuoteMeta(name) + `($|[^\p{L}\p{N}_$])`)
}

// isBlank reports whether c is a space, a tab or a line's end.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// jsName is a JavaScript identifier.
var jsName = regexp.MustCompile(`^[\p{L}_$][\p{L}\p{N}_$]*$`)

// inHunk are the spans of changed in the hunk's head bytes h (a deletion
// point at either edge included).
func inHunk(changed []change.Span, h change.Span) []change.Span {
	var out []change.Span
	for _, c := range changed {
		if h.Start <= c.Start && c.End <= h.End {
			out = append(out, c)
		}
	}
	return out
}

// withinFn reports whether every span lies in fn's code (a deletion
// point strictly inside it; a class's <fields>: in an initializer).
func withinFn(syn *analyzer.Syntax, spans []change.Span, fn *analyzer.Function) bool {
	code := []change.Span{{Start: int(fn.StartByte), End: int(fn.EndByte)}}
	if fn.Kind == analyzer.FuncFields {
		code = FieldValues(syn, fn)
	}
	for _, s := range spans {
		if !slices.ContainsFunc(code, func(c change.Span) bool {
			return c.Start <= s.Start && s.End <= c.End && (s.Start < s.End || c.Start < s.Start && s.End < c.End)
		}) {
			return false
		}
	}
	return true
}

// importsOnly reports whether every span (of syn's source) lies in import
// declarations: each top-level statement it reaches is one (a deletion
// point: in one).
func importsOnly(syn *analyzer.Syntax, spans []change.Span) bool {
	if syn == nil {
		return false
	}
	for _, s := range spans {
		if s.Start == s.End {
			if !InImport(syn, uint(s.Start), uint(s.Start+1)) {
				return false
			}
			continue
		}
		if InImport(syn, uint(s.Start), uint(s.End)) {
			continue // in an import, or a re-export's module specifier (`export { f } from "./find-all"` → `"./match"`)
		}
		for c := syn.FirstChild(syn.Root()); c >= 0; c = syn.Next(c) {
			if int(syn.End(c)) <= s.Start || int(syn.Start(c)) >= s.End || syn.Kind(c) == "comment" {
				continue
			}
			if !InImport(syn, syn.Start(c), syn.End(c)) {
				return false
			}
		}
	}
	return true
}

// deadDeclarations are the names unit u deleted when it only deleted code
// (no changed token) and what it deleted is declarations of names the new
// version does not read: dead code removed (nil otherwise). An exported
// one is dead when no other file of the repository reads it either (read,
// readElsewhere's: nil, every exported name is read).
func deadDeclarations(file string, syn *analyzer.Syntax, base *change.Base, u revertUnit, read map[string]bool) []string {
	for _, s := range u.spans {
		if s.Start < s.End {
			return nil
		}
	}
	bsyn := baseSyntax(file, base)
	if bsyn == nil {
		return nil
	}
	var names, exported []string
	dead := true
	bsyn.Walk(bsyn.Root(), func(n analyzer.Node) bool {
		s, e := int(bsyn.Start(n)), int(bsyn.End(n))
		if !dead || e <= u.base.Start || s >= u.base.End || !bsyn.Named(n) || bsyn.Kind(n) == "comment" || bsyn.Kind(n) == "empty_statement" || change.TypeSyntax(bsyn, n) {
			return false // not code: punctuation (the `;` of the statement before), comments, types
		}
		if s < u.base.Start || e > u.base.End {
			return true // around the deleted code
		}
		switch ds := declaredNames(bsyn, n); {
		case bsyn.Kind(n) == "export_statement" && bsyn.Child(n, "declaration") >= 0:
			for c := bsyn.FirstChild(n); c >= 0; c = bsyn.Next(c) {
				if !bsyn.Named(c) && bsyn.Kind(c) == "default" {
					exported = append(exported, "default")
				}
			}
			return true // its declaration is walked next
		case len(ds) > 0:
			names = append(names, ds...)
			if bsyn.Kind(bsyn.Parent(n)) == "export_statement" { // the `export` may be a kept token before it
				exported = append(exported, ds...)
			}
		default:
			dead = false
		}
		return false
	})
	if !dead || len(names) == 0 || slices.ContainsFunc(exported, func(x string) bool { return read == nil || read[x] }) {
		return nil // an export another module may read
	}
	read2 := false
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if k := syn.Kind(n); (k == "identifier" || k == "shorthand_property_identifier") && slices.Contains(names, syn.Text(n)) {
			read2 = true
		}
		return !read2
	})
	if read2 {
		return nil
	}
	return names
}

// baseSyntax is the parse of the base revision (nil when it does not
// parse).
func baseSyntax(file string, base *change.Base) *analyzer.Syntax {
	_, syn := analyzer.ParseSyntax(file, base.Src)
	return syn
}

// wholeSyntax widens a replaced unit u to the least code that is whole
// syntax in both revisions (a run of one node's children in each tree:
// `new Map(` → `Object.create(null` is the calls `new Map()` →
// `Object.create(null)`, `in o` → `of Object.keys(o)` the loop's operator
// and operand), the code around it the same in both; within the
// statement around it. ok is false when no such code exists (a statement
// rewritten, whose token diff pairs fragments: `let i =` → `str,`): its
// base's code put back would be no program the base had.
func wholeSyntax(syn, bsyn *analyzer.Syntax, src, bsrc []byte, u revertUnit) (revertUnit, bool) {
	if bsyn == nil {
		return u, false
	}
	hs, he := trimBlanks(src, u.head.Start, u.head.End)
	bs, be := trimBlanks(bsrc, u.base.Start, u.base.End)
	st := statementAround(syn, change.Span{Start: hs, End: he})
	for {
		if siblingRun(syn, hs, he) && siblingRun(bsyn, bs, be) {
			u.head, u.base = change.Span{Start: hs, End: he}, change.Span{Start: bs, End: be}
			return u, true
		}
		n := covering(syn, hs, he)
		if n >= 0 && int(syn.Start(n)) == hs && int(syn.End(n)) == he {
			n = syn.Parent(n)
		}
		if n < 0 || st < 0 || syn.Start(n) < syn.Start(st) || syn.End(n) > syn.End(st) {
			return u, false
		}
		l, r := hs-int(syn.Start(n)), int(syn.End(n))-he
		if bs-l < 0 || be+r > len(bsrc) || string(src[hs-l:hs]) != string(bsrc[bs-l:bs]) || string(src[he:he+r]) != string(bsrc[be:be+r]) {
			return u, false
		}
		hs, he, bs, be = hs-l, he+r, bs-l, be+r
	}
}

// sameCode reports whether unit u's code in the head (syn) and in the
// base (bsyn) are the same tokens once types and parentheses around an
// expression are left out: the change wrote the same JavaScript.
func sameCode(syn, bsyn *analyzer.Syntax, u revertUnit) bool {
	return slices.Equal(jsTokens(syn, u.head), jsTokens(bsyn, u.base))
}

// jsTokens are the code tokens of syn in span without types and the
// parentheses around an expression: what the JavaScript is.
func jsTokens(syn *analyzer.Syntax, span change.Span) []string {
	var out []string
	for _, n := range codeLeaves(syn, span) {
		if k := syn.Kind(n); (k == "(" || k == ")") && syn.Kind(syn.Parent(n)) == "parenthesized_expression" {
			continue
		}
		if syn.Kind(n) == "as" || syn.Kind(n) == "satisfies" || syn.Kind(n) == "!" && syn.Kind(syn.Parent(n)) == "non_null_expression" {
			continue
		}
		out = append(out, syn.Text(n))
	}
	return out
}

// trimBlanks narrows [s, e) of src past the blanks at its ends and the
// `;` and `,` at its end, which the token diff takes with a token and
// does not count (the widening takes them back where they are syntax's).
func trimBlanks(src []byte, s, e int) (int, int) {
	for s < e && isBlank(src[s]) {
		s++
	}
	for e > s && (isBlank(src[e-1]) || src[e-1] == ';' || src[e-1] == ',') {
		e--
	}
	return s, e
}

// covering is the deepest node of syn whose code holds [s, e).
func covering(syn *analyzer.Syntax, s, e int) analyzer.Node {
	n := syn.Root()
	for {
		next := analyzer.NoNode
		for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
			if int(syn.Start(c)) <= s && e <= int(syn.End(c)) {
				next = c
				break
			}
		}
		if next < 0 {
			return n
		}
		n = next
	}
}

// siblingRun reports whether [s, e) is exactly a node of syn or a run of
// one node's children (an empty span is none).
func siblingRun(syn *analyzer.Syntax, s, e int) bool {
	if s >= e {
		return false
	}
	n := covering(syn, s, e)
	if int(syn.Start(n)) == s && int(syn.End(n)) == e {
		return true
	}
	first, last := false, false
	for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
		first = first || int(syn.Start(c)) == s
		last = last || first && int(syn.End(c)) == e
	}
	return first && last
}

// statementAround is the innermost statement (or declaration) that holds
// the bytes h, NoNode when none does.
func statementAround(syn *analyzer.Syntax, h change.Span) analyzer.Node {
	best := analyzer.NoNode
	for n := syn.Root(); n >= 0; {
		if statement(syn.Kind(n)) {
			best = n
		}
		next := analyzer.NoNode
		for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
			if int(syn.Start(c)) <= h.Start && h.End <= int(syn.End(c)) {
				next = c
				break
			}
		}
		n = next
	}
	return best
}

// declaresUsed reports whether the code in h declares a name (a variable,
// function or class) that code outside h reads.
func declaresUsed(syn *analyzer.Syntax, h change.Span) bool {
	names := map[string]bool{}
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		s, e := int(syn.Start(n)), int(syn.End(n))
		if e <= h.Start || s >= h.End {
			return false
		}
		if s < h.Start || e > h.End {
			return true
		}
		switch syn.Kind(n) {
		case "variable_declarator":
			for _, id := range syn.PatternNames(syn.Child(n, "name")) {
				names[syn.Text(id)] = true
			}
		case "function_declaration", "generator_function_declaration", "class_declaration":
			if id := syn.Child(n, "name"); id >= 0 {
				names[syn.Text(id)] = true
			}
		}
		return true
	})
	used := false
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if used {
			return false
		}
		if s, e := int(syn.Start(n)), int(syn.End(n)); s >= h.Start && e <= h.End {
			return false
		}
		if k := syn.Kind(n); (k == "identifier" || k == "shorthand_property_identifier") && names[syn.Text(n)] {
			used = true
		}
		return true
	})
	return used
}

// insertedStatements are the outermost statements of syn inside the
// inserted stretch h that the change wrote whole (each inside a changed
// span), in order.
func insertedStatements(syn *analyzer.Syntax, h change.Span, changed []change.Span) []change.Span {
	var out []change.Span
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		s, e := int(syn.Start(n)), int(syn.End(n))
		if e <= h.Start || s >= h.End {
			return false
		}
		if !statement(syn.Kind(n)) || s < h.Start || e > h.End {
			return true
		}
		for _, c := range changed {
			if c.Start <= s && trimSemicolon(syn, n) <= c.End {
				out = append(out, change.Span{Start: s, End: e})
				return false
			}
		}
		return true
	})
	return out
}

// trimSemicolon is where n ends without its `;` (not a token of the diff).
func trimSemicolon(syn *analyzer.Syntax, n analyzer.Node) int {
	e := syn.End(n)
	if e > syn.Start(n) && syn.Src()[e-1] == ';' {
		e--
	}
	return int(e)
}

// statement reports whether kind is a statement or a declaration.
func statement(kind string) bool {
	return strings.HasSuffix(kind, "_statement") && kind != "export_statement" && kind != "import_statement" ||
		kind == "lexical_declaration" || kind == "variable_declaration" || kind == "function_declaration" || kind == "class_declaration"
}

// restoredNames are the changes that restore the top-level names the base
// code of unit u uses and the change removed (its import, its
// declaration): an import is restored at the top of the file with only
// that name, a declaration where the base had it. why says why the revert
// cannot stand (a name it cannot restore; an import importable says the
// head no longer has: `total`, renamed `sum` in ./sum, would be undefined
// and its call a TypeError "kill").
func restoredNames(file string, src []byte, syn *analyzer.Syntax, base *change.Base, u revertUnit, importable func(spec, name string) bool) (chs []edit.Change, why string) {
	if u.base.Start == u.base.End {
		return nil, ""
	}
	_, bsyn := analyzer.ParseSyntax(file, base.Src)
	if bsyn == nil {
		return nil, ""
	}
	headNames := topLevelNames(syn)
	baseNames := topLevelNames(bsyn)
	var used []string
	bsyn.Walk(bsyn.Root(), func(n analyzer.Node) bool {
		s, e := int(bsyn.Start(n)), int(bsyn.End(n))
		if e <= u.base.Start || s >= u.base.End {
			return false
		}
		if k := bsyn.Kind(n); (k == "identifier" || k == "shorthand_property_identifier") && s >= u.base.Start && e <= u.base.End {
			used = append(used, bsyn.Text(n))
		}
		return true
	})
	slices.Sort(used)
	var imports []string
	for _, name := range slices.Compact(used) {
		d, ok := baseNames[name]
		if _, kept := headNames[name]; !ok || kept {
			continue // not a top-level name of the base, or still one
		}
		if int(bsyn.Start(d.stmt)) >= u.base.Start && int(bsyn.End(d.stmt)) <= u.base.End {
			continue // restored with the unit
		}
		if d.source >= 0 {
			spec, imported := d.imported(bsyn)
			if importable != nil && !importable(spec, imported) {
				return nil, fmt.Sprintf("it uses %s, imported from %s, which no longer exports it (the change renamed, moved or deleted it: restored, a failed import, not a test's verdict)", name, spec)
			}
			imports = append(imports, d.importOf(bsyn))
			continue
		}
		// A declaration the change deleted: restored where the base had it
		// (the hunk that deleted it).
		at := -1
		for _, h := range base.Hunks {
			if h.BaseSpan.Start <= int(bsyn.Start(d.stmt)) && int(bsyn.End(d.stmt)) <= h.BaseSpan.End {
				at = h.Head.Start
				break
			}
		}
		if at < 0 {
			return nil, fmt.Sprintf("it uses %s, which the change removed, and the base's declaration cannot be put back apart", name)
		}
		if at < len(src) && src[at] == ';' {
			at++ // after the statement before it, not between it and its `;`
		}
		chs = append(chs, edit.Change{Start: uint(at), End: uint(at), Text: "\n" + bsyn.Text(d.stmt) + "\n"})
	}
	if len(imports) > 0 {
		slices.Sort(imports)
		chs = append(chs, edit.Change{Start: 0, End: 0, Text: strings.Join(slices.Compact(imports), "\n") + "\n"})
	}
	return chs, ""
}

// binding is a top-level name's declaring statement and, for an import,
// its specifier and module.
type binding struct {
	stmt, spec, source analyzer.Node
	kind               string // "default", "namespace", "named"
}

// imported are b's module specifier (unquoted) and the name it imports
// from it: "default", "*" for a namespace, else the specifier's name.
func (b binding) imported(syn *analyzer.Syntax) (spec, name string) {
	spec = strings.Trim(syn.Text(b.source), "\"'`")
	switch b.kind {
	case "default":
		return spec, "default"
	case "namespace":
		return spec, "*"
	}
	return spec, strings.Trim(syn.Text(syn.Child(b.spec, "name")), "\"'")
}

// importOf is the import of the one name b binds.
func (b binding) importOf(syn *analyzer.Syntax) string {
	src := syn.Text(b.source)
	switch b.kind {
	case "default":
		return "import " + syn.Text(b.spec) + " from " + src + ";"
	case "namespace":
		return "import " + syn.Text(b.spec) + " from " + src + ";"
	}
	return "import { " + syn.Text(b.spec) + " } from " + src + ";"
}

// topLevelNames are the names syn's module declares or imports at its top
// level, each with its binding.
func topLevelNames(syn *analyzer.Syntax) map[string]binding {
	out := map[string]binding{}
	add := func(name analyzer.Node, b binding) {
		if name >= 0 {
			out[syn.Text(name)] = b
		}
	}
	for c := syn.FirstChild(syn.Root()); c >= 0; c = syn.Next(c) {
		d := c
		if syn.Kind(c) == "export_statement" {
			if d = syn.Child(c, "declaration"); d < 0 {
				continue
			}
		}
		switch syn.Kind(d) {
		case "import_statement":
			source := syn.Child(d, "source")
			syn.Walk(d, func(n analyzer.Node) bool {
				switch syn.Kind(n) {
				case "import_clause":
					if id := syn.FirstNamed(n); id >= 0 && syn.Kind(id) == "identifier" {
						add(id, binding{stmt: c, spec: id, source: source, kind: "default"})
					}
				case "namespace_import":
					for id := syn.FirstChild(n); id >= 0; id = syn.Next(id) {
						if syn.Kind(id) == "identifier" {
							add(id, binding{stmt: c, spec: n, source: source, kind: "namespace"})
						}
					}
					return false
				case "import_specifier":
					name := syn.Child(n, "alias")
					if name < 0 {
						name = syn.Child(n, "name")
					}
					add(name, binding{stmt: c, spec: n, source: source, kind: "named"})
					return false
				}
				return true
			})
		case "lexical_declaration", "variable_declaration":
			for _, v := range syn.NamedChildren(d) {
				if syn.Kind(v) == "variable_declarator" {
					for _, id := range syn.PatternNames(syn.Child(v, "name")) {
						add(id, binding{stmt: c, spec: -1, source: -1})
					}
				}
			}
		case "function_declaration", "generator_function_declaration", "class_declaration", "enum_declaration":
			add(syn.Child(d, "name"), binding{stmt: c, spec: -1, source: -1})
		}
	}
	return out
}

// revertSites are the sites of the mutants of counted that stand for a
// revert, found once (each unit asks of them all: a 1500-line change has as
// many units and ten thousand mutants).
func revertSites(syn *analyzer.Syntax, counted []edit.Mutant) []change.Site {
	var sites []change.Site
	for _, m := range counted {
		if standsForRevert(m) {
			sites = append(sites, Site(syn, m))
		}
	}
	return sites
}

// insertsParameter reports whether the inserted stretch h holds a whole
// parameter of a function (`f(a)` → `f(a, opts?)`), not a constructor's
// parameter property (`private readonly db: Db`, which assigns a field).
// Removed, such a parameter is a ReferenceError where the new code reads it
// and the same program where nothing does: neither is a test's verdict.
func insertsParameter(syn *analyzer.Syntax, h change.Span) bool {
	found := false
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		s, e := int(syn.Start(n)), int(syn.End(n))
		if found || e <= h.Start || s >= h.End {
			return false
		}
		if s < h.Start || e > h.End {
			return true
		}
		switch syn.Kind(n) {
		case "required_parameter", "optional_parameter":
			found = !parameterProperty(syn, n)
		}
		return !found
	})
	return found
}

// parameterProperty reports whether parameter n declares a class field
// too (an accessibility modifier, `readonly` or `override` before it).
func parameterProperty(syn *analyzer.Syntax, n analyzer.Node) bool {
	for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
		switch syn.Kind(c) {
		case "accessibility_modifier", "readonly", "override_modifier", "override":
			return true
		}
	}
	return false
}
