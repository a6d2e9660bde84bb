package operators

import (
	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
)

// A declaration the change deleted that nothing reads has no revert: put
// back, it changes no behaviour (SPEC "oracle gate", the change's own
// code; issue 41). Within its file the head's code decides
// (deadDeclarations); whether another file of the repository reads an
// exported one (DeletedExports) the gate finds (its readElsewhere) and
// hands Revert (Context.Read).

// DeletedExports are the names file's base exports from a declaration of
// its own (a function, class or variable; "default" for a default export)
// that its head no longer declares at the top level (src, the head).
func DeletedExports(file string, src []byte, base *change.Base) []string {
	if base == nil {
		return nil
	}
	_, bsyn := analyzer.ParseSyntax(file, base.Src)
	_, syn := analyzer.ParseSyntax(file, src)
	if bsyn == nil || syn == nil {
		return nil
	}
	head := topLevelNames(syn)
	var out []string
	for c := bsyn.FirstChild(bsyn.Root()); c >= 0; c = bsyn.Next(c) {
		d := bsyn.Child(c, "declaration")
		if bsyn.Kind(c) != "export_statement" || d < 0 {
			continue
		}
		for _, n := range declaredNames(bsyn, d) {
			if _, kept := head[n]; !kept {
				out = append(out, n)
			}
		}
		for k := bsyn.FirstChild(c); k >= 0; k = bsyn.Next(k) {
			if !bsyn.Named(k) && bsyn.Kind(k) == "default" {
				out = append(out, "default")
			}
		}
	}
	return out
}

// declaredNames are the names declaration d (of syn) binds.
func declaredNames(syn *analyzer.Syntax, d analyzer.Node) []string {
	var out []string
	switch syn.Kind(d) {
	case "lexical_declaration", "variable_declaration":
		for _, v := range syn.NamedChildren(d) {
			if syn.Kind(v) == "variable_declarator" {
				for _, id := range syn.PatternNames(syn.Child(v, "name")) {
					out = append(out, syn.Text(id))
				}
			}
		}
	case "variable_declarator": // one declarator, when the token diff cut the deletion after its `const`
		for _, id := range syn.PatternNames(syn.Child(d, "name")) {
			out = append(out, syn.Text(id))
		}
	case "function_declaration", "generator_function_declaration", "class_declaration", "enum_declaration":
		if id := syn.Child(d, "name"); id >= 0 {
			out = append(out, syn.Text(id))
		}
	}
	return out
}

// DeadDeletions are the names of the declarations the change deleted from
// file's top-level code (src, the head; changed, its spans) that nothing
// reads (deadDeclarations; read, the gate's readElsewhere's): a
// deletion that has no revert.
func DeadDeletions(file string, src []byte, changed []change.Span, base *change.Base, read map[string]bool) []string {
	if base == nil {
		return nil
	}
	_, syn := analyzer.ParseSyntax(file, src)
	if syn == nil {
		return nil
	}
	var out []string
	for _, h := range base.Hunks {
		if h.Deleted && !h.Wrote {
			out = append(out, deadDeclarations(file, syn, base, revertUnit{head: h.Head, base: h.BaseSpan, spans: inHunk(changed, h.Head)}, read)...)
		}
	}
	return out
}
