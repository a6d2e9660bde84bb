package operators

// MethodExpression swaps a method for its opposite (`s.toUpperCase()` →
// `s.toLowerCase()`, `some` ↔ `every`, `min` ↔ `max`, ...) or drops a call
// that filters or reorders (`xs.filter(f)` → `xs`), as Stryker does, and
// swaps Math's rounding (`Math.floor` ↔ `Math.ceil`, ...). A call through
// `?.` is left alone.
var MethodExpression = &Operator{Name: "MethodExpression", Verb: GateVerb, Kinds: []string{"call_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		f := s.Child(n, "function")
		if s.Kind(f) != "member_expression" || optionalChain(c, f) {
			return nil, nil
		}
		prop, obj := s.Child(f, "property"), s.Child(f, "object")
		if prop < 0 {
			return nil, nil
		}
		if s.Text(obj) == "Math" {
			var out []Mutation
			for _, w := range mathSwaps[s.Text(prop)] {
				out = append(out, replace(s.Start(prop), s.End(prop), w))
			}
			if out != nil {
				return out, nil
			}
		}
		swap, ok := methodSwaps[s.Text(prop)]
		switch {
		case !ok:
		case swap != "":
			return []Mutation{replace(s.Start(prop), s.End(prop), swap)}, nil
		case obj >= 0:
			return []Mutation{replace(s.Start(n), s.End(n), s.Text(obj))}, nil
		}
		return nil, nil
	}}

// methodSwaps are StrykerJS's method-expression replacements ("": the call
// is dropped, its object kept), its Date setters included (`setUTCDate` →
// `setTime` has no way back: `setTime` → `setDate`).
var methodSwaps = map[string]string{
	"startsWith": "endsWith", "endsWith": "startsWith", "toUpperCase": "toLowerCase", "toLowerCase": "toUpperCase",
	"toLocaleUpperCase": "toLocaleLowerCase", "toLocaleLowerCase": "toLocaleUpperCase",
	"some": "every", "every": "some", "min": "max", "max": "min", "trimStart": "trimEnd", "trimEnd": "trimStart",
	"charAt": "", "filter": "", "reverse": "", "slice": "", "sort": "", "substring": "", "substr": "", "trim": "",
	"setDate": "setTime", "setTime": "setDate", "setFullYear": "setMonth", "setMonth": "setFullYear",
	"setHours": "setMinutes", "setMinutes": "setHours", "setSeconds": "setMilliseconds", "setMilliseconds": "setSeconds",
	"setUTCDate": "setTime", "setUTCFullYear": "setUTCMonth", "setUTCMonth": "setUTCFullYear",
	"setUTCHours": "setUTCMinutes", "setUTCMinutes": "setUTCHours", "setUTCSeconds": "setUTCMilliseconds", "setUTCMilliseconds": "setUTCSeconds",
}

// mathSwaps are the rounding functions of Math swapped (oracle's own, not
// StrykerJS's): `Math.floor` ↔ `Math.ceil`; `Math.round` → `floor` and
// `ceil` (each differs on one side of .5); `Math.trunc` → `ceil` (they
// differ on positive fractions). `Math.min` ↔ `max` is methodSwaps'.
var mathSwaps = map[string][]string{
	"floor": {"ceil"}, "ceil": {"floor"}, "round": {"floor", "ceil"}, "trunc": {"ceil"},
}
