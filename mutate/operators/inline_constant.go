package operators

import (
	"math/big"
	"strings"
)

// InlineConstant is PIT's inline-constant mutator for number literals, on
// the value as written (a minus sign in front included): a literal written
// as an integer (decimal, hex, octal, binary, BigInt) becomes 0 when it is
// 1 and its successor otherwise (PIT's rule for long: `0` → `1`, `41` →
// `42`, `-1` → `0`, `10n` → `11n`); a literal with a fraction or an
// exponent becomes 0 when it is 1.0 and 1 otherwise (PIT's rule for double:
// `1.2` → `1`, `0.5` → `1`, `1.0` → `0`). An object key (`{ 3: a }`) is
// left alone. The replacement is written in decimal (in parentheses before
// a member access).
var InlineConstant = &Operator{Name: "InlineConstant", Verb: GateVerb, Kinds: []string{"number", "unary_expression"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		lit, neg := n, false
		if s.Kind(n) == "unary_expression" { // `-1`: the value is -1, the whole is replaced
			lit, neg = s.Child(n, "argument"), true
			if !s.HasToken(n, "-") || s.Kind(lit) != "number" {
				return nil, nil
			}
		} else if p := s.Parent(n); s.Field(n) == "key" || s.Field(n) == "property" ||
			s.Kind(p) == "unary_expression" && s.HasToken(p, "-") {
			return nil, nil // a key; a negative number, mutated as a whole
		}
		text, ok := inlineConstant(s.Text(lit), neg)
		if !ok {
			return nil, nil
		}
		if p := s.Parent(n); s.Kind(p) == "member_expression" && s.Child(p, "object") == n && !strings.Contains(text, ".") {
			text = "(" + text + ")" // `1.5.toFixed(2)` → `(1).toFixed(2)`: `1.toFixed` does not parse
		}
		return []Mutation{replace(s.Start(n), s.End(n), text)}, nil
	}}

// inlineConstant is the replacement of the number literal lit (negated
// when neg), false when lit is not a literal it reads.
func inlineConstant(lit string, neg bool) (string, bool) {
	lit = strings.ReplaceAll(lit, "_", "")
	bigint := strings.HasSuffix(lit, "n")
	lit = strings.TrimSuffix(lit, "n")
	lower := strings.ToLower(lit)
	prefixed := strings.HasPrefix(lower, "0x") || strings.HasPrefix(lower, "0o") || strings.HasPrefix(lower, "0b")
	if !prefixed && strings.ContainsAny(lower, ".e") { // PIT's double: 1.0 → 0, anything else → 1
		f, ok := new(big.Float).SetString(lit)
		if !ok || bigint {
			return "", false
		}
		if !neg && f.Cmp(big.NewFloat(1)) == 0 {
			return "0", true
		}
		return "1", true
	}
	if len(lit) > 1 && lit[0] == '0' && !prefixed {
		return "", false // a legacy octal (`017`): not in modules
	}
	v, ok := new(big.Int).SetString(lit, 0)
	if !ok {
		return "", false
	}
	if neg {
		v.Neg(v)
	}
	if v.Cmp(big.NewInt(1)) == 0 { // PIT's long: 1 → 0, anything else → its successor
		v.SetInt64(0)
	} else {
		v.Add(v, big.NewInt(1))
	}
	out := v.String()
	if bigint {
		out += "n"
	}
	return out, true
}
