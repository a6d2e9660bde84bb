package operators

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Regex mutates a regular expression as StrykerJS's Regex mutator does
// (weapon-regex at mutation level 1): a regular-expression literal
// (`/\d+/g`), and the pattern of `new RegExp("...")` or `RegExp("...")`
// written as a plain string literal (its flags a string literal too, or
// none). Each mutant replaces the whole literal, as StrykerJS's does, and
// changes one token of its pattern: `^` removed, `$` removed, a character
// class negated (`[abc]` ↔ `[^abc]`), a predefined class negated (`\d` ↔
// `\D`, `\w` ↔ `\W`, `\s` ↔ `\S`), a Unicode property negated (`\p{L}` ↔
// `\P{L}`), a quantifier removed (`a+`, `a*?`, `a{2,3}` → `a`), a
// lookaround negated (`(?=` ↔ `(?!`, `(?<=` ↔ `(?<!`); an anchor that is a
// whole alternative goes with its `|` (regexEdits). A pattern it does not
// read whole gets none, and every mutant is a valid, non-empty pattern
// with the same flags (re-read: no token runs into the next, `\1^0` →
// `\10` is none). At most regexCap mutants per regular expression
// (regexPick).
var Regex = &Operator{Name: "Regex", Verb: GateVerb, Kinds: []string{"regex", "string"},
	Mutate: func(c *Context, n Node) ([]Mutation, error) {
		s := c.Syn
		text := s.Text(n)
		var lit regexLiteral
		ok := false
		if s.Kind(n) == "regex" {
			lit, ok = readRegexLiteral(text)
		} else if flags, isArg := regExpArgument(c, n); isArg {
			lit, ok = readPatternString(text, flags)
		}
		if !ok {
			return nil, nil
		}
		var out []Mutation
		for _, e := range regexPick(regexEdits(lit.pattern, lit.mode)) {
			out = append(out, replace(s.Start(n), s.End(n), lit.with(e)))
		}
		return out, nil
	}}

// regexCap bounds the mutants of one regular expression: a long pattern
// has a dozen level-1 mutants and more, most of one kind (StrykerJS made 44
// on the regular expressions of unjs/ufo's 39 functions), where a reviewer
// reads a few per line (Google's mutation testing); the anchors come first
// (hono eea9735f's survivors), then one of each other kind in turn.
const regexCap = 5

// regexLiteral is a pattern as written in the source: a regular-expression
// literal or a string literal, with its flags read.
type regexLiteral struct {
	text    string // the whole literal
	pattern string // its pattern (a string's value)
	mode    reMode
	// where each byte of the pattern is written in text (from..to): the
	// identity for a regular-expression literal, the source of its
	// character (an escape) for a string
	from, to []int
	quote    byte // a string's quote; 0 for a regular-expression literal
}

// readRegexLiteral reads `/pattern/flags`.
func readRegexLiteral(text string) (regexLiteral, bool) {
	end := strings.LastIndexByte(text, '/')
	if len(text) < 2 || text[0] != '/' || end < 1 {
		return regexLiteral{}, false
	}
	mode, ok := regexMode(text[end+1:])
	lit := regexLiteral{text: text, pattern: text[1:end], mode: mode}
	for i := range lit.pattern {
		lit.from, lit.to = append(lit.from, i+1), append(lit.to, i+2)
	}
	return lit, ok && lit.pattern != ""
}

// with is the literal with edit e made to its pattern.
func (l regexLiteral) with(e reEdit) string {
	start, end := l.from[e.start], l.to[e.end-1]
	if l.quote == 0 {
		return l.text[:start] + e.text + l.text[end:] // never empty: regexEdits
	}
	return l.text[:start] + quoteJS(e.text, l.quote) + l.text[end:]
}

// regExpArgument reports whether string n is the pattern of `new
// RegExp(n)` or `RegExp(n)`, and the flags of the call: its second
// argument, a string literal (or none).
func regExpArgument(c *Context, n Node) (string, bool) {
	s := c.Syn
	args := s.Parent(n)
	if s.Kind(args) != "arguments" || s.FirstNamed(args) != n {
		return "", false
	}
	call := s.Parent(args)
	callee := s.Child(call, "constructor")
	if s.Kind(call) == "call_expression" {
		callee = s.Child(call, "function")
	}
	if s.Kind(callee) != "identifier" || s.Text(callee) != "RegExp" {
		return "", false
	}
	f := s.Next(n)
	for f >= 0 && (!s.Named(f) || s.Kind(f) == "comment") {
		f = s.Next(f)
	}
	if f < 0 {
		return "", true
	}
	if s.Kind(f) != "string" {
		return "", false // flags we cannot read: the pattern's mode is unknown
	}
	flags, ok := readJSString(s.Text(f))
	return flags.value, ok
}

// readPatternString reads a string literal as a pattern with flags.
func readPatternString(text, flags string) (regexLiteral, bool) {
	mode, ok := regexMode(flags)
	str, sok := readJSString(text)
	if !ok || !sok || str.value == "" {
		return regexLiteral{}, false
	}
	return regexLiteral{text: text, pattern: str.value, mode: mode, from: str.from, to: str.to, quote: text[0]}, true
}

// reEdit is one mutation of a pattern: its bytes start..end replaced by
// text; name is weapon-regex's mutator.
type reEdit struct {
	start, end int
	text, name string
}

// regexEdits are the level-1 mutations of pattern p in mode, in order,
// each checked: the mutated pattern reads as the same tokens but those
// changed. An anchor that is a whole alternative goes with one `|`, as
// weapon-regex removes it (`(^|/)` → `(/)`); a mutant that would empty the
// pattern, or repeat another's, is none.
func regexEdits(p string, mode reMode) []reEdit {
	toks, ok := readRegex(p, mode)
	if !ok {
		return nil
	}
	var out []reEdit
	seen := map[string]bool{}
	for i, t := range toks {
		rep, name := regexSwap(t)
		if name == "" {
			continue
		}
		lo, hi := anchorAlternative(toks, i)
		var want []string
		var b strings.Builder
		for j, u := range toks {
			switch {
			case j == i:
				u.text = rep
			case j >= lo && j < hi:
				u.text = ""
			}
			b.WriteString(u.text)
			if u.text != "" {
				want = append(want, u.text)
			}
		}
		mutated := b.String()
		if mutated == "" || seen[mutated] || !readsAs(mutated, mode, want) {
			continue
		}
		seen[mutated] = true
		out = append(out, reEdit{toks[lo].at, toks[hi-1].at + len(toks[hi-1].text), rep, name})
	}
	return out
}

// anchorAlternative is the tokens lo..hi a mutation of token i replaces:
// i alone, or, for an anchor that is a whole alternative, the anchor and
// the `|` after it (before it, for the last alternative).
func anchorAlternative(toks []reToken, i int) (int, int) {
	if k := toks[i].kind; k != reBOL && k != reEOL {
		return i, i + 1
	}
	opens := i == 0 || toks[i-1].kind == reAlt || toks[i-1].kind == reGroup || toks[i-1].kind == reLook
	closes := i == len(toks)-1 || toks[i+1].kind == reAlt || toks[i+1].kind == reGroupEnd
	switch {
	case !opens || !closes:
	case i+1 < len(toks) && toks[i+1].kind == reAlt:
		return i, i + 2
	case i > 0 && toks[i-1].kind == reAlt:
		return i - 1, i + 1
	}
	return i, i + 1
}

// readsAs reports whether pattern p reads in mode as the tokens want.
func readsAs(p string, mode reMode, want []string) bool {
	got, ok := readRegex(p, mode)
	if !ok || len(got) != len(want) {
		return false
	}
	for j := range got {
		if got[j].text != want[j] {
			return false
		}
	}
	return true
}

// regexSwap is token t's level-1 mutation and its weapon-regex name (""
// when it has none).
func regexSwap(t reToken) (string, string) {
	switch t.kind {
	case reBOL:
		return "", "BOLRemoval"
	case reEOL:
		return "", "EOLRemoval"
	case reQuant:
		return "", "QuantifierRemoval"
	case reClass:
		if t.text == "[^" {
			return "[", "CharClassNegation"
		}
		if t.negatable {
			return "[^", "CharClassNegation"
		}
	case rePredef:
		return `\` + flipCase(t.text[1:]), "PredefCharClassNegation"
	case reProperty:
		if !stringProperties[t.text[3:len(t.text)-1]] {
			return `\` + flipCase(t.text[1:2]) + t.text[2:], "UnicodeCharClassNegation"
		}
	case reLook:
		last := t.text[len(t.text)-1]
		return t.text[:len(t.text)-1] + map[byte]string{'=': "!", '!': "="}[last], "LookaroundNegation"
	}
	return "", ""
}

func flipCase(s string) string {
	if strings.ToLower(s) == s {
		return strings.ToUpper(s)
	}
	return strings.ToLower(s)
}

// regexKinds is the order in which regexPick takes one mutant of each
// kind, round by round, after the anchors.
var regexKinds = []string{"QuantifierRemoval", "CharClassNegation", "PredefCharClassNegation", "LookaroundNegation", "UnicodeCharClassNegation"}

// regexPick keeps at most regexCap of es: the anchors' removals, then one
// of each other kind in regexKinds' order (the first in the pattern), then
// a second of each, ...; in the pattern's order.
func regexPick(es []reEdit) []reEdit {
	if len(es) <= regexCap {
		return es
	}
	var keep []int
	taken := make([]bool, len(es))
	take := func(name string) bool {
		for i, e := range es {
			if !taken[i] && e.name == name && len(keep) < regexCap {
				taken[i] = true
				keep = append(keep, i)
				return true
			}
		}
		return false
	}
	for take("BOLRemoval") || take("EOLRemoval") {
	}
	for more := true; more && len(keep) < regexCap; {
		more = false
		for _, k := range regexKinds {
			more = take(k) || more
		}
	}
	sort.Ints(keep)
	out := make([]reEdit, len(keep))
	for i, k := range keep {
		out[i] = es[k]
	}
	return out
}

// jsString is a string literal's value, each of its bytes with the bytes
// of the literal that wrote it (from..to: a character, or its escape).
type jsString struct {
	value    string
	from, to []int
}

// readJSString reads a string literal (quotes included); false for an
// escape it does not read (a legacy octal, a lone surrogate).
func readJSString(text string) (jsString, bool) {
	var s jsString
	if len(text) < 2 || text[0] != text[len(text)-1] || text[0] != '"' && text[0] != '\'' {
		return s, false
	}
	var value strings.Builder
	add := func(v string, from, to int) {
		value.WriteString(v)
		for range len(v) {
			s.from, s.to = append(s.from, from), append(s.to, to)
		}
	}
	for i := 1; i < len(text)-1; {
		if text[i] != '\\' {
			_, n := utf8.DecodeRuneInString(text[i:])
			add(text[i:i+n], i, i+n)
			i += n
			continue
		}
		v, n, ok := jsEscape(text[i : len(text)-1])
		if !ok {
			return s, false
		}
		add(v, i, i+n)
		i += n
	}
	s.value = value.String()
	return s, true
}

// jsEscape reads the escape at the start of s (a string literal's): its
// value and length.
func jsEscape(s string) (string, int, bool) {
	if len(s) < 2 {
		return "", 0, false
	}
	switch c := s[1]; c {
	case 'n', 'r', 't', 'b', 'f', 'v':
		return string("\n\r\t\b\f\v"[strings.IndexByte("nrtbfv", c)]), 2, true
	case '\r':
		if strings.HasPrefix(s[2:], "\n") {
			return "", 3, true // a line continuation
		}
		return "", 2, true
	case '\n':
		return "", 2, true
	case 'x':
		if hexDigits(s[2:]) >= 2 {
			return string(rune(hexValue(s[2:4]))), 4, true
		}
		return "", 0, false
	case 'u':
		r, n := jsUnicodeEscape(s)
		if n == 0 {
			return "", 0, false
		}
		if r >= 0xD800 && r <= 0xDBFF { // a surrogate pair, written as two escapes
			lo, m := jsUnicodeEscape(s[n:])
			if m == 0 || lo < 0xDC00 || lo > 0xDFFF {
				return "", 0, false
			}
			return string(rune(0x10000 + (r-0xD800)<<10 + (lo - 0xDC00))), n + m, true
		}
		if r >= 0xDC00 && r <= 0xDFFF || r > utf8.MaxRune {
			return "", 0, false
		}
		return string(rune(r)), n, true
	case '0':
		if len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
			return "", 0, false // a legacy octal escape
		}
		return "\x00", 2, true
	}
	if s[1] >= '1' && s[1] <= '9' {
		return "", 0, false
	}
	_, n := utf8.DecodeRuneInString(s[1:])
	if s[1:1+n] == "\u2028" || s[1:1+n] == "\u2029" {
		return "", 1 + n, true // a line continuation
	}
	return s[1 : 1+n], 1 + n, true
}

// jsUnicodeEscape reads `\uXXXX` or `\u{X...}` at the start of s: its code
// point and length (0: none).
func jsUnicodeEscape(s string) (int, int) {
	if !strings.HasPrefix(s, `\u`) {
		return 0, 0
	}
	if strings.HasPrefix(s[2:], "{") {
		h := hexDigits(s[3:])
		if h == 0 || h > 8 || len(s) <= 3+h || s[3+h] != '}' {
			return 0, 0
		}
		return hexValue(s[3 : 3+h]), 4 + h
	}
	if hexDigits(s[2:]) < 4 {
		return 0, 0
	}
	return hexValue(s[2:6]), 6
}

func hexValue(h string) int {
	v := 0
	for _, c := range strings.ToLower(h) {
		v = v*16 + strings.IndexRune("0123456789abcdef", c)
	}
	return v
}

// quoteJS writes v in a string literal quoted with q: a backslash, the
// quote and line terminators escaped.
func quoteJS(v string, q byte) string {
	var b strings.Builder
	for _, c := range v {
		switch c {
		case '\\', rune(q):
			b.WriteByte('\\')
			b.WriteRune(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case 0x2028, 0x2029:
			b.WriteString(fmt.Sprintf(`\u%04x`, c))
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}
