package operators

// MethodExpression swaps a method for its opposite (`s.toUpperCase()` →
// `s.toLowerCase()`, `some` ↔ `every`, `min` ↔ `max`, ...) or drops a call
// that filters or reorders (`xs.filter(f)` → `xs`), as Stryker does. A call
// through `?.` is left alone.
var MethodExpression = &Operator{Name: "MethodExpression", Verb: GateVerb, Kinds: []string{"call_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		f := s.Child(n, "function")
		if s.Kind(f) != "member_expression" || optionalChain(c, f) {
			return nil, nil
		}
		prop := s.Child(f, "property")
		swap, ok := methodSwaps[s.Text(prop)]
		switch {
		case !ok || prop < 0:
		case swap != "":
			return []Mutation{replace(s.Start(prop), s.End(prop), swap)}, nil
		default:
			if obj := s.Child(f, "object"); obj >= 0 {
				return []Mutation{replace(s.Start(n), s.End(n), s.Text(obj))}, nil
			}
		}
		return nil, nil
	}}

// methodSwaps are Stryker's method-expression replacements ("": the call
// is dropped, its object kept).
var methodSwaps = map[string]string{
	"startsWith": "endsWith", "endsWith": "startsWith", "toUpperCase": "toLowerCase", "toLowerCase": "toUpperCase",
	"some": "every", "every": "some", "min": "max", "max": "min", "trimStart": "trimEnd", "trimEnd": "trimStart",
	"charAt": "", "filter": "", "reverse": "", "slice": "", "sort": "", "substring": "", "substr": "", "trim": "",
}
