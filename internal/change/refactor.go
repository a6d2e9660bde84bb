package change

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// What changes no behaviour is not a changed token (SPEC "oracle gate",
// the change's own code; issue 41): a function declaration moved within
// its file or a method within its class, the same tokens elsewhere
// (moved), and a local binding renamed
// consistently, its declaration and every use (renames). Both are decided
// on the token lists the diff compares, before the diff that counts.

// moved marks the tokens of the function declarations (and class
// methods: functionDecls) that stand, token for token, once in each
// version but that the plain diff does not keep in place: a token inside
// them (not the first nor the last, which the diff may pair with a
// neighbour's: a deleted `export const X = 1;` before a kept `export
// function` takes that function's `export`) written or deleted. hm is over
// head's tokens h, bm over base's b. Declarations are hoisted and methods
// defined at once: their order is no behaviour. what names each one moved.
func moved(hsyn, bsyn *analyzer.Syntax, h, b []token) (hm, bm []bool, what []string) {
	hd, bd := functionDecls(hsyn, h), functionDecls(bsyn, b)
	var keys []string
	for key, hr := range hd {
		if br, ok := bd[key]; ok && hr.n == 1 && br.n == 1 && hr.to-hr.from > 2 {
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		return nil, nil, nil
	}
	sort.Slice(keys, func(i, j int) bool { return hd[keys[i]].from < hd[keys[j]].from }) // in the head's order
	changed, _, deleted := diffTokens(b, h)
	for _, key := range keys {
		hr, br := hd[key], bd[key]
		if !slices.Contains(changed[hr.from+1:hr.to-1], true) && !slices.Contains(deleted[br.from+1:br.to-1], true) {
			continue // kept in place
		}
		if hm == nil {
			hm, bm = make([]bool, len(h)), make([]bool, len(b))
		}
		for i := hr.from; i < hr.to; i++ {
			hm[i] = true
		}
		for i := br.from; i < br.to; i++ {
			bm[i] = true
		}
		what = append(what, hr.name+" moved")
	}
	return hm, bm, what
}

// declRange is a declaration's tokens [from, to) in its version's token
// list, its name, and how many declarations have its tokens.
type declRange struct {
	from, to, n int
	name        string
}

// functionDecls are syn's top-level function declarations (exported or
// not) and the methods of its top-level classes whose name no other
// method of the class has (a method's key is its class's name and its
// tokens: one moved to another class is no move), by their tokens' texts.
func functionDecls(syn *analyzer.Syntax, toks []token) map[string]declRange {
	out := map[string]declRange{}
	add := func(n analyzer.Node, prefix, name string) {
		s, e := int(syn.Start(n)), int(syn.End(n))
		from := 0
		for from < len(toks) && toks[from].start < s {
			from++
		}
		to := from
		var key strings.Builder
		key.WriteString(prefix)
		for to < len(toks) && toks[to].end <= e {
			key.WriteString(toks[to].text)
			key.WriteByte(0)
			to++
		}
		k := key.String()
		out[k] = declRange{from: from, to: to, n: out[k].n + 1, name: name}
	}
	for c := syn.FirstChild(syn.Root()); c >= 0; c = syn.Next(c) {
		d := declarationOf(syn, c)
		switch {
		case d < 0:
		case syn.Kind(d) == "function_declaration" || syn.Kind(d) == "generator_function_declaration":
			add(c, "", "function "+syn.Text(syn.Child(d, "name")))
		case syn.Kind(d) == "class_declaration":
			class := syn.Text(syn.Child(d, "name"))
			methods := map[string][]analyzer.Node{}
			var names []string
			for m := syn.FirstChild(syn.Child(d, "body")); m >= 0; m = syn.Next(m) {
				if syn.Kind(m) == "method_definition" {
					name := syn.Text(syn.Child(m, "name"))
					if methods[name] == nil {
						names = append(names, name)
					}
					methods[name] = append(methods[name], m)
				}
			}
			for _, name := range names {
				if len(methods[name]) == 1 {
					add(methods[name][0], "class "+class+"\x01", "method "+class+"."+name)
				}
			}
		}
	}
	return out
}

// declarationOf is top-level statement c's declaration: c itself, or the
// one an export statement exports (-1 for `export { a }` and the like).
func declarationOf(syn *analyzer.Syntax, c analyzer.Node) analyzer.Node {
	if syn.Kind(c) == "export_statement" {
		return syn.Child(c, "declaration")
	}
	return c
}

// without is toks without the marked ones, and the index in toks of each
// token left.
func without(toks []token, marked []bool) ([]token, []int) {
	out, idx := make([]token, 0, len(toks)), make([]int, 0, len(toks))
	for i, t := range toks {
		if marked == nil || !marked[i] {
			out = append(out, t)
			idx = append(idx, i)
		}
	}
	return out, idx
}

// renames are head's tokens h with each local binding the change renamed
// put back under its base name, when the change renamed it consistently:
// nil when it renamed none. A rename is found where the plain diff
// (changed, deleted) replaced one identifier that declares a local of
// the base (bsyn) by one that declares a local of the head (hsyn); it is
// taken when every token of the head's name in the binding's scope is an
// identifier (not an object's shorthand key, not a JSX tag) and the
// scope reads no variable under the base's name (no capture): the head
// with the binding renamed is then the same program, and the diff against
// it counts what the change wrote beside the rename. what says each, and
// found is each rename.
func renames(hsyn, bsyn *analyzer.Syntax, h, b []token, changed, deleted []bool) (out []token, what []string, found []Rename) {
	for _, p := range substitutions(h, b, changed, deleted) {
		hn, bn := h[p[0]].node, b[p[1]].node
		if hsyn.Kind(hn) != "identifier" || bsyn.Kind(bn) != "identifier" {
			continue
		}
		scope, bscope := bindingScope(hsyn, hn), bindingScope(bsyn, bn)
		if scope < 0 || bscope < 0 {
			continue
		}
		from, to := h[p[0]].text, b[p[1]].text
		cur := h
		if out != nil {
			cur = out
		}
		next, ok := renamed(hsyn, cur, scope, from, to)
		if !ok {
			continue
		}
		out = next
		what = append(what, fmt.Sprintf("local %s renamed %s", to, from))
		found = append(found, Rename{Base: to, Head: from, Scope: Span{int(hsyn.Start(scope)), int(hsyn.End(scope))}})
	}
	return out, what, found
}

// substitutions are the places where the plain diff replaced exactly one
// base token by one head token: [head index, base index] pairs.
func substitutions(h, b []token, changed, deleted []bool) [][2]int {
	var out [][2]int
	i, k := 0, 0
	for i < len(h) || k < len(b) {
		hi, bk := i, k
		for i < len(h) && changed[i] {
			i++
		}
		for k < len(b) && deleted[k] {
			k++
		}
		if i-hi == 1 && k-bk == 1 {
			out = append(out, [2]int{hi, bk})
		}
		if i == hi && k == bk {
			i, k = i+1, k+1 // a kept pair
		}
	}
	return out
}

// renamed is toks with every identifier from in scope (a node of syn)
// written to; not ok when that would not be the same program: a token of
// from in scope is no variable's identifier (a shorthand key, a JSX tag),
// or scope already reads a variable named to.
func renamed(syn *analyzer.Syntax, toks []token, scope analyzer.Node, from, to string) ([]token, bool) {
	s, e := int(syn.Start(scope)), int(syn.End(scope))
	out := append([]token(nil), toks...)
	for i, t := range toks {
		if t.start < s || t.end > e {
			continue
		}
		k := syn.Kind(t.node)
		switch {
		case t.text == to && (k == "identifier" || k == "shorthand_property_identifier"):
			return nil, false // captured: the scope reads a variable of that name
		case t.text != from:
		case k == "identifier" && !strings.HasPrefix(syn.Kind(syn.Parent(t.node)), "jsx_"):
			out[i].text = to
		case k == "property_identifier" || k == "statement_identifier":
			// another namespace: a member, a key, a label
		default:
			return nil, false // the name is also a key or a tag: renaming it changes the program
		}
	}
	return out, true
}

// bindingScope is the scope of the local binding identifier n declares (a
// variable, a parameter, a catch parameter, a loop's variable, a function
// or class declared in a block), NoNode when n declares none or declares a
// module's top-level name (an export, or a name other modules may read).
func bindingScope(syn *analyzer.Syntax, n analyzer.Node) analyzer.Node {
	c, p := n, syn.Parent(n)
	for p >= 0 {
		f := syn.Field(c)
		switch k := syn.Kind(p); {
		case k == "array_pattern", k == "rest_pattern",
			k == "assignment_pattern" && f == "left", k == "pair_pattern" && f == "value",
			k == "object_assignment_pattern" && f == "left":
			c, p = p, syn.Parent(p)
			continue
		case k == "variable_declarator" && f == "name":
			d := syn.Parent(p)
			if syn.Kind(d) == "variable_declaration" { // var: the function's
				return enclosingFunction(syn, d)
			}
			if s := syn.Parent(d); syn.Kind(s) == "statement_block" || syn.Kind(s) == "for_statement" {
				return s
			}
			return analyzer.NoNode
		case (k == "required_parameter" || k == "optional_parameter") && f == "pattern":
			return enclosingFunction(syn, p)
		case k == "formal_parameters":
			return enclosingFunction(syn, p)
		case k == "arrow_function" && f == "parameter":
			return p
		case k == "catch_clause" && f == "parameter":
			return p
		case k == "for_in_statement" && f == "left":
			if kw := syn.Child(p, "kind"); kw >= 0 && (syn.Text(kw) == "const" || syn.Text(kw) == "let") {
				return p
			}
			return analyzer.NoNode
		case (k == "function_declaration" || k == "generator_function_declaration" || k == "class_declaration") && f == "name":
			if s := syn.Parent(p); syn.Kind(s) == "statement_block" {
				return s
			}
			return analyzer.NoNode
		}
		return analyzer.NoNode
	}
	return analyzer.NoNode
}

// enclosingFunction is the innermost function around n, NoNode at the
// top level.
func enclosingFunction(syn *analyzer.Syntax, n analyzer.Node) analyzer.Node {
	for p := syn.Parent(n); p >= 0; p = syn.Parent(p) {
		switch syn.Kind(p) {
		case "function_declaration", "generator_function_declaration", "function_expression", "function",
			"generator_function", "arrow_function", "method_definition":
			return p
		}
	}
	return analyzer.NoNode
}

// cutMoved keeps each hunk off the moved declarations around its changed
// and deleted tokens: a hunk's bytes run from one kept token to the next,
// and a moved function between them is not the hunk's (restoring the
// base's bytes there must not delete it, nor put the base's copy back).
func cutMoved(hunks []Hunk, h []token, hm []bool, b []token, bm []bool) []Hunk {
	if hm == nil {
		return hunks
	}
	for i := range hunks {
		hunks[i].Head = cutSpan(hunks[i].Head, h, hm)
		hunks[i].BaseSpan = cutSpan(hunks[i].BaseSpan, b, bm)
	}
	return hunks
}

// cutSpan is sp without the runs of marked tokens (moved) at its ends:
// what lies before the first unmarked token in it, or after the last, when
// a marked one stands there; a span of marked tokens alone ends where the
// first begins.
func cutSpan(sp Span, toks []token, marked []bool) Span {
	first, last := -1, -1
	for i, t := range toks {
		if t.start >= sp.Start && t.end <= sp.End && !marked[i] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	for i, t := range toks {
		if !marked[i] || t.start < sp.Start || t.end > sp.End {
			continue
		}
		switch {
		case first < 0:
			return Span{sp.Start, min(sp.End, t.start)}
		case i < first:
			sp.Start = max(sp.Start, t.end)
		case i > last:
			sp.End = min(sp.End, t.start)
			return sp
		}
	}
	return sp
}
