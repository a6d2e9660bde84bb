package operators

import (
	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
)

// What code of a file a target's mutants, and its reverts, may be on: the
// gate's targets and Revert read the same.

// FunctionLike reports whether n is code that runs when called, not when
// its module loads: a function of any form, or a class's instance field.
func FunctionLike(syn *analyzer.Syntax, n Node) bool {
	switch syn.Kind(n) {
	case "function_declaration", "generator_function_declaration", "function_expression", "function",
		"generator_function", "arrow_function", "method_definition":
		return true
	case "public_field_definition", "field_definition":
		for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
			if !syn.Named(c) && syn.Kind(c) == "static" {
				return false
			}
		}
		return true
	}
	return false
}

// HasCode reports whether b holds more than whitespace, commas and
// semicolons.
func HasCode(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', ';', ',':
		default:
			return true
		}
	}
	return false
}

// FieldValues are the initializers of fn, a class's <fields>: the values of
// its instance fields that are not functions, in order.
func FieldValues(syn *analyzer.Syntax, fn *analyzer.Function) []change.Span {
	var out []change.Span
	syn.Walk(syn.Root(), func(n Node) bool {
		s, e := syn.Start(n), syn.End(n)
		if e <= fn.StartByte || s >= fn.EndByte {
			return false
		}
		if k := syn.Kind(n); k != "public_field_definition" && k != "field_definition" {
			return true
		}
		v := syn.Child(n, "value")
		if v < 0 || !FunctionLike(syn, n) {
			return false // static, or no initializer
		}
		switch syn.Kind(syn.Unwrap(v)) {
		case "arrow_function", "function_expression", "generator_function", "function":
			return false // a function of its own
		}
		out = append(out, change.Span{Start: int(syn.Start(v)), End: int(syn.End(v))})
		return false
	})
	return out
}

// InImport reports whether the range [start, end) of syn's source lies in
// an import declaration or the module specifier of an `export ... from`.
func InImport(syn *analyzer.Syntax, start, end uint) bool {
	if syn == nil {
		return false
	}
	for n := syn.Find(start, end, ""); n >= 0; n = syn.Parent(n) {
		switch {
		case syn.Kind(n) == "import_statement":
			return true
		case syn.Field(n) == "source" && syn.Kind(syn.Parent(n)) == "export_statement":
			return true
		}
	}
	return false
}
