package analyzer

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// The cases of a `.each` table (test.each, it.each, describe.each, in
// their two forms: an array of rows, a template-literal table), each with
// the title vitest prints for it: vitest runs and reports every case as a
// test of its own.

// EachCase is one case of a `.each` table.
type EachCase struct {
	Line int // the line its row starts on
	// Title is the block's title formatted for the case as vitest formats
	// it (printf-style placeholders, %# and %$, $name of an object row or
	// a template table); "" when the source alone does not tell it.
	Title string
	// Args are what the case passes to the callback.
	Args []EachArg
}

// EachArg is one argument a case passes to the callback.
type EachArg struct {
	Node   Node            // the expression as written; NoNode for a template table's row
	Fields map[string]Node // an object row (a literal, or a template table's row): its properties by name; nil otherwise
}

// Literal is a primitive JavaScript value written as a literal.
type Literal struct {
	Kind string // "string", "number", "boolean", "null" or "undefined"
	Str  string
	Num  float64 // a number's value; a boolean's 1 or 0
}

// Truthy is JavaScript's truthiness of v.
func (v Literal) Truthy() bool {
	switch v.Kind {
	case "string":
		return v.Str != ""
	case "number", "boolean":
		return v.Num != 0 && !math.IsNaN(v.Num)
	}
	return false
}

// LiteralValue is the value of n when it is a primitive literal (a string,
// a template without substitutions, a number, maybe negated, true, false,
// null, undefined).
func (s *Syntax) LiteralValue(n Node) (Literal, bool) {
	n = s.Unwrap(n)
	switch s.Kind(n) {
	case "string", "template_string":
		str, ok := s.t.stringValue(int32(n))
		return Literal{Kind: "string", Str: str}, ok
	case "number":
		f, ok := jsNumberLiteral(s.Text(n))
		return Literal{Kind: "number", Num: f}, ok
	case "true", "false":
		return Literal{Kind: "boolean", Num: map[bool]float64{true: 1}[s.Kind(n) == "true"]}, true
	case "null":
		return Literal{Kind: "null"}, true
	case "undefined":
		return Literal{Kind: "undefined"}, true
	case "identifier":
		return Literal{Kind: "undefined"}, s.Text(n) == "undefined"
	case "unary_expression":
		op, arg := s.Child(n, "operator"), s.Child(n, "argument")
		v, ok := s.LiteralValue(arg)
		if !ok || v.Kind != "number" {
			return Literal{}, false
		}
		switch s.Text(op) {
		case "-":
			v.Num = -v.Num
			return v, true
		case "+":
			return v, true
		}
	}
	return Literal{}, false
}

// jsNumberLiteral reads a JavaScript number literal (not a bigint).
func jsNumberLiteral(t string) (float64, bool) {
	t = strings.ReplaceAll(t, "_", "")
	if len(t) > 2 && t[0] == '0' {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[t[1]]
		if base != 0 {
			n, err := strconv.ParseUint(t[2:], base, 64)
			return float64(n), err == nil
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	return f, err == nil && !strings.HasSuffix(t, "n")
}

// eachCases reads the table of a `.each` block: table is the call whose
// arguments hold it (`test.each([...])`, or `test.each` followed by a
// template), title the block's title (literal: it is a string literal).
// nil when the table is not written in place.
func eachCases(syn *Syntax, table Node, title string, literalTitle bool) []EachCase {
	args := syn.Child(table, "arguments")
	var cases []EachCase
	switch syn.Kind(args) {
	case "template_string":
		cases = templateCases(syn, args)
	case "arguments":
		arr := syn.Unwrap(syn.FirstNamed(args))
		if syn.Kind(arr) != "array" || syn.Next(syn.FirstNamed(args)) >= 0 && syn.Named(syn.Next(syn.FirstNamed(args))) {
			return nil
		}
		for _, row := range syn.NamedChildren(arr) {
			if syn.Kind(row) == "spread_element" || syn.Kind(row) == "comment" {
				return nil
			}
			c := EachCase{Line: syn.Line(syn.Start(row))}
			if r := syn.Unwrap(row); syn.Kind(r) == "array" {
				for _, e := range syn.NamedChildren(r) {
					if syn.Kind(e) == "spread_element" {
						return nil
					}
					if syn.Kind(e) != "comment" {
						c.Args = append(c.Args, EachArg{Node: e, Fields: objectFields(syn, e)})
					}
				}
			} else {
				c.Args = []EachArg{{Node: row, Fields: objectFields(syn, row)}}
			}
			cases = append(cases, c)
		}
	}
	for i := range cases {
		if t, ok := formatEachTitle(syn, title, cases[i].Args, i); ok && literalTitle {
			cases[i].Title = t
		}
	}
	return cases
}

// objectFields are the properties of an object literal (identifier and
// string keys, shorthand properties), nil when n is none or has a spread
// or computed key.
func objectFields(syn *Syntax, n Node) map[string]Node {
	n = syn.Unwrap(n)
	if syn.Kind(n) != "object" {
		return nil
	}
	fields := map[string]Node{}
	for _, p := range syn.NamedChildren(n) {
		switch syn.Kind(p) {
		case "pair":
			k := syn.Child(p, "key")
			name := syn.Text(k)
			if v, ok := syn.LiteralValue(k); ok && v.Kind == "string" {
				name = v.Str
			} else if syn.Kind(k) != "property_identifier" {
				return nil
			}
			fields[name] = syn.Child(p, "value")
		case "shorthand_property_identifier":
			fields[syn.Text(p)] = p
		case "comment":
		default:
			return nil
		}
	}
	return fields
}

// templateCases reads a template-literal table: its first line the column
// names between '|', then a row per line of `${value}` cells.
func templateCases(syn *Syntax, tpl Node) []EachCase {
	var head string
	var cells []Node
	for c := syn.FirstChild(tpl); c >= 0; c = syn.Next(c) {
		switch syn.Kind(c) {
		case "string_fragment":
			if cells == nil {
				head += syn.Text(c)
			}
		case "template_substitution":
			cells = append(cells, syn.FirstNamed(c))
		}
	}
	var cols []string
	for _, h := range strings.Split(strings.TrimSpace(head), "|") {
		cols = append(cols, strings.TrimSpace(h))
	}
	if len(cols) == 0 || cols[0] == "" || len(cells)%len(cols) != 0 {
		return nil
	}
	var cases []EachCase
	for i := 0; i < len(cells); i += len(cols) {
		row := map[string]Node{}
		for j, col := range cols {
			row[col] = cells[i+j]
		}
		cases = append(cases, EachCase{Line: syn.Line(syn.Start(cells[i])), Args: []EachArg{{Node: NoNode, Fields: row}}})
	}
	return cases
}

// formatEachTitle is vitest's formatTitle (@vitest/runner 4) for case
// idx: %# and %$ (its index from 0 and from 1); each printf-style
// placeholder of @vitest/utils' format (%s %d %i %f %j %o %O %c %%) filled
// with the next argument while fewer than the title's '%' count were used
// (undefined past the last); between them, $name (a property of an object
// row or template table, $0, $1... an argument) shown as objDisplay shows
// it. ok is false when a value it needs is not a literal of the source.
func formatEachTitle(syn *Syntax, t string, args []EachArg, idx int) (string, bool) {
	if strings.Contains(t, "%#") || strings.Contains(t, "%$") {
		t = strings.ReplaceAll(t, "%%", "\x00")
		t = strings.ReplaceAll(t, "%#", strconv.Itoa(idx))
		t = strings.ReplaceAll(t, "%$", strconv.Itoa(idx+1))
		t = strings.ReplaceAll(t, "\x00", "%%")
	}
	count := strings.Count(t, "%")
	item := func(i int) (Literal, bool) {
		if i >= len(args) {
			return Literal{Kind: "undefined"}, true
		}
		return syn.LiteralValue(args[i].Node)
	}
	if strings.Contains(t, "%f") {
		for i := range strings.Count(t, "%f") {
			if v, ok := item(i); ok && v.Kind == "number" && v.Num == 0 && math.Signbit(v.Num) {
				return "", false // vitest writes -%f then
			}
		}
	}
	var b strings.Builder
	ok, last, used := true, 0, 0
	attr := func(seg string) {
		s, good := eachAttributes(syn, seg, args)
		ok = ok && good
		b.WriteString(s)
	}
	for _, m := range formatPlaceholder.FindAllStringIndex(t, -1) {
		attr(t[last:m[0]])
		last = m[1]
		if used >= count {
			b.WriteString(t[m[0]:m[1]])
			continue
		}
		v, good := item(used)
		used++
		s, good2 := formatArg(t[m[0]+1], v)
		ok = ok && good && good2
		b.WriteString(s)
	}
	attr(t[last:])
	return b.String(), ok
}

// formatPlaceholder is @vitest/utils' formatRegExp.
var formatPlaceholder = regexp.MustCompile(`%[sdjifoOc%]`)

// eachAttributes replaces the $name of a part of a title.
func eachAttributes(syn *Syntax, seg string, args []EachArg) (string, bool) {
	object := len(args) > 0 && args[0].Fields != nil
	ok := true
	out := dollarKey.ReplaceAllStringFunc(seg, func(m string) string {
		key := m[1:]
		index, err := strconv.Atoi(key)
		arrayKey := err == nil && allDigits(key)
		if !object && !arrayKey {
			return m
		}
		v, vok := Literal{Kind: "undefined"}, true
		switch {
		case object && hasField(args[0].Fields, key):
			v, vok = syn.LiteralValue(args[0].Fields[key])
		case object && strings.Contains(key, "."):
			vok = false // a path into the row: not read
		case arrayKey && index < len(args):
			v, vok = syn.LiteralValue(args[index].Node)
		}
		s := inspectValue(v)
		if !vok || len(s) >= 40 { // objDisplay truncates at 40
			ok = false
			return m
		}
		return s
	})
	return out, ok
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func hasField(f map[string]Node, k string) bool {
	_, ok := f[k]
	return ok
}

// dollarKey is vitest's `$name` of a title.
var dollarKey = regexp.MustCompile(`\$[$\w.]+`)

// formatArg is one placeholder of format filled with v.
func formatArg(c byte, v Literal) (string, bool) {
	switch c {
	case 's':
		if v.Kind == "number" && v.Num == 0 && math.Signbit(v.Num) {
			return "-0", true
		}
		return jsString(v), true
	case 'd':
		return jsNumber(toNumber(v)), true
	case 'i':
		f := parseNumberPrefix(jsString(v), true)
		return jsNumber(f), true
	case 'f':
		return jsNumber(parseNumberPrefix(jsString(v), false)), true
	case 'j':
		switch v.Kind {
		case "string":
			var b strings.Builder
			e := json.NewEncoder(&b)
			e.SetEscapeHTML(false)
			e.Encode(v.Str)
			return strings.TrimSuffix(b.String(), "\n"), !strings.ContainsAny(v.Str, "\u2028\u2029")
		case "number":
			if math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
				return "null", true
			}
		}
		return jsString(v), true
	case 'o', 'O':
		s := inspectValue(v)
		return s, len(s) < 40
	case 'c':
		return "", true
	case '%': // format("%%", v): "%", then v appended as an argument left over
		return "% " + jsString(v), true
	}
	return "", false
}

// jsString is String(v).
func jsString(v Literal) string {
	switch v.Kind {
	case "string":
		return v.Str
	case "number":
		return jsNumber(v.Num)
	case "boolean":
		return strconv.FormatBool(v.Num != 0)
	}
	return v.Kind // null, undefined
}

// inspectValue is how vitest's inspect (loupe) shows a primitive: a string
// in single quotes, -0 as -0.
func inspectValue(v Literal) string {
	switch {
	case v.Kind == "string":
		r := strings.NewReplacer(`'`, `\'`, "\n", `\n`, "\t", `\t`, "\r", `\r`, "\b", `\b`, "\f", `\f`, "\v", `\v`)
		return "'" + r.Replace(v.Str) + "'"
	case v.Kind == "number" && v.Num == 0 && math.Signbit(v.Num):
		return "-0"
	}
	return jsString(v)
}

// toNumber is Number(v).
func toNumber(v Literal) float64 {
	switch v.Kind {
	case "number", "boolean":
		return v.Num
	case "null":
		return 0
	case "string":
		s := strings.TrimSpace(v.Str)
		if s == "" {
			return 0
		}
		if f, ok := jsNumberLiteral(s); ok && !strings.Contains(s, "_") {
			return f
		}
		switch s {
		case "Infinity", "+Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
	}
	return math.NaN()
}

var intPrefix, floatPrefix = regexp.MustCompile(`^[+-]?\d+`), regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?`)

// parseNumberPrefix is parseInt(s) (integer) or parseFloat(s).
func parseNumberPrefix(s string, integer bool) float64 {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	re := floatPrefix
	if integer {
		re = intPrefix
	}
	m := re.FindString(s)
	if m == "" {
		if !integer && strings.HasPrefix(strings.TrimLeft(s, "+-"), "Infinity") {
			return math.Inf(map[bool]int{true: -1, false: 1}[strings.HasPrefix(s, "-")])
		}
		return math.NaN()
	}
	f, _ := strconv.ParseFloat(m, 64)
	return f
}

// jsNumber is Number.prototype.toString for f.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[:1]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + sign + exp
}
