package operators

import (
	"sort"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// Gate builds the gate's mutants of the function fn of the file at path
// (src parsed as syn): each a single change inside the function's body made
// by one of the gate's operators, in source order (by start, the longer
// change first; the registry's order for one node), and accepted by
// edit.Acceptance (a mutant that does not parse is dropped). Nested
// functions are mutated as part of the function around them; arid code is
// not mutated (see Arid).
func Gate(path string, src []byte, syn *analyzer.Syntax, fn *analyzer.Function, arid Arid) []edit.Mutant {
	body := syn.Find(fn.BodyStartByte, fn.BodyEndByte, "")
	if body < 0 {
		return nil
	}
	ctx := &Context{Path: path, Src: src, Syn: syn, Arid: arid}
	var cands []candidate
	for _, d := range defaults(syn, body) {
		cands = append(cands, gateCandidates(ctx, d)...)
	}
	cands = append(cands, gateCandidates(ctx, body)...)
	accept := edit.AcceptingParsed(path, src, syn)
	defer accept.Close()
	var built []edit.Mutant
	for _, c := range cands {
		if m, err := edit.NewMutant(c.op.Name, "", path, src, c.Changes); err == nil {
			built = append(built, m)
		}
	}
	errs := accept.CheckAll(built)
	var out []edit.Mutant
	for i, m := range built {
		if errs[i] == nil {
			out = append(out, m)
		}
	}
	return out
}

// defaults are the default values of the parameters of the function whose
// body is body, in order: code of the function that runs when it is called
// without the argument (`trailing = false` → `true`, vueuse e9fe32c9a, was
// SKIP "no mutant could be built").
func defaults(syn *analyzer.Syntax, body Node) []Node {
	params := syn.Child(syn.Parent(body), "parameters")
	if params < 0 {
		return nil
	}
	var out []Node
	for p := syn.FirstChild(params); p >= 0; p = syn.Next(p) {
		if v := syn.Child(p, "value"); v >= 0 {
			out = append(out, v)
		}
	}
	return out
}

// candidate is one mutation an operator yielded at a node.
type candidate struct {
	op *Operator
	n  Node
	Mutation
}

// gateCandidates walks body as the gate does (nothing on a disabled line,
// inside an arid call or in type-only code) and collects every gate
// operator's mutations that change something, sorted by start, the longer change first (stable:
// tree order, then the registry's order within a node).
func gateCandidates(c *Context, body Node) []candidate {
	syn := c.Syn
	var cands []candidate
	ops := Of(GateVerb)
	disabled := disabledLines(c.Src)
	syn.Walk(body, func(n Node) bool {
		if disabled[syn.Line(syn.Start(n))] {
			return false
		}
		k := syn.Kind(n)
		if typeOnly(k) || k == "call_expression" && c.aridCall(n) {
			return false // nothing inside is mutated
		}
		if !syn.Named(n) {
			return true // an anonymous token: the keyword `string` has the kind of a string literal
		}
		for _, op := range ops {
			if !op.Visits(k) {
				continue
			}
			ms, _ := op.Mutate(c, n) // the gate's operators do not fail
			for _, m := range ms {
				if ch := m.Changes[0]; ch.Text == string(c.Src[ch.Start:ch.End]) {
					continue // `while (true)` forced true: no mutant, it could only survive
				}
				m.Changes[0].Text = apart(c.Src, m.Changes[0])
				cands = append(cands, candidate{op, n, m})
			}
		}
		return true
	})
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i].Changes[0], cands[j].Changes[0]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.End > b.End
	})
	return cands
}

// apart is ch's text with a space where it would run into the word before
// or after it: `return!done` with `!done` → `done` is `return done`, not
// `returndone`.
func apart(src []byte, ch edit.Change) string {
	t := ch.Text
	if t == "" {
		return t
	}
	if ch.Start > 0 && wordByte(src[ch.Start-1]) && wordByte(t[0]) {
		t = " " + t
	}
	if int(ch.End) < len(src) && wordByte(src[ch.End]) && wordByte(t[len(t)-1]) {
		t += " "
	}
	return t
}

func wordByte(b byte) bool {
	return b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}
