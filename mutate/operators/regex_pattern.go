package operators

import (
	"strings"
	"unicode/utf8"
)

// A regular expression's pattern read as tokens, enough to mutate it and to
// be sure each mutant is a valid pattern: every escape, character class
// (its `]` and `^`), group, lookaround and quantifier is one token; a
// pattern it does not read whole (an unbalanced group, a quantifier with
// nothing to repeat, an escape whose meaning depends on what follows it)
// is not mutated.

// reKind is what a token of a pattern is.
type reKind int

const (
	reChar      reKind = iota // a character, an escape of one, `.`, a backreference
	reAlt                     // `|` outside a class
	reBOL                     // `^` outside a class
	reEOL                     // `$`
	reAssertion               // `\b`, `\B`
	reQuant                   // `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe followed by `?`
	reClass                   // `[` or `[^` opening a class (of a v-mode class, the outermost)
	reClassEnd                // `]`
	reNested                  // a v-mode class's `[` or `[^` opening a nested class
	rePredef                  // `\d`, `\D`, `\w`, `\W`, `\s`, `\S`
	reProperty                // `\p{...}`, `\P{...}` (u and v modes)
	reStrings                 // `\q{...}` (v mode)
	reGroup                   // `(`, `(?:`, `(?<name>`
	reLook                    // `(?=`, `(?!`, `(?<=`, `(?<!`
	reGroupEnd                // `)`
)

// reToken is one token: its text and where it starts in the pattern.
type reToken struct {
	text string
	kind reKind
	at   int
	// for a class opener: the class may be negated (a v-mode class that
	// may hold strings may not)
	negatable bool
}

// reMode is how a pattern is read: its flags' u (unicode) and v
// (unicodeSets, unicode too).
type reMode struct{ unicode, sets bool }

// regexMode reads flags; false when they are not valid flags.
func regexMode(flags string) (reMode, bool) {
	seen := map[rune]bool{}
	for _, f := range flags {
		if !strings.ContainsRune("dgimsuyv", f) || seen[f] {
			return reMode{}, false
		}
		seen[f] = true
	}
	if seen['u'] && seen['v'] {
		return reMode{}, false
	}
	return reMode{unicode: seen['u'] || seen['v'], sets: seen['v']}, true
}

// reReader reads one pattern.
type reReader struct {
	p    string
	i    int
	mode reMode
	out  []reToken
}

// readRegex is pattern p's tokens in mode; false when it is not read whole.
func readRegex(p string, mode reMode) ([]reToken, bool) {
	r := &reReader{p: p, mode: mode}
	var groups []string // the openers of the groups open
	quantifiable := false
	for r.i < len(p) {
		c := p[r.i]
		switch {
		case c == '\\':
			t, ok := r.escape(false)
			if !ok {
				return nil, false
			}
			quantifiable = t.kind != reAssertion
		case c == '^' || c == '$':
			r.emit(map[byte]reKind{'^': reBOL, '$': reEOL}[c], 1)
			quantifiable = false
		case c == '|':
			r.emit(reAlt, 1)
			quantifiable = false
		case c == '(':
			t, ok := r.group()
			if !ok {
				return nil, false
			}
			groups = append(groups, t.text)
			quantifiable = false
		case c == ')':
			if len(groups) == 0 {
				return nil, false
			}
			open := groups[len(groups)-1]
			groups = groups[:len(groups)-1]
			r.emit(reGroupEnd, 1)
			// Annex B: a lookahead may be quantified outside the u mode.
			quantifiable = !strings.HasPrefix(open, "(?") || open == "(?:" || strings.HasPrefix(open, "(?<") && !strings.HasPrefix(open, "(?<=") && !strings.HasPrefix(open, "(?<!") ||
				!mode.unicode && (open == "(?=" || open == "(?!")
		case c == '[':
			if !r.class() {
				return nil, false
			}
			quantifiable = true
		case c == '*' || c == '+' || c == '?' || c == '{' && braced(p[r.i:]) > 0:
			if !quantifiable {
				return nil, false
			}
			n := 1
			if c == '{' {
				n = braced(p[r.i:])
			}
			if r.i+n < len(p) && p[r.i+n] == '?' {
				n++
			}
			r.emit(reQuant, n)
			quantifiable = false
		case mode.unicode && (c == '{' || c == '}' || c == ']'):
			return nil, false
		default:
			r.rune(reChar)
			quantifiable = true
		}
	}
	return r.out, len(groups) == 0
}

// emit makes the next n bytes a token of kind k.
func (r *reReader) emit(k reKind, n int) reToken {
	t := reToken{text: r.p[r.i : r.i+n], kind: k, at: r.i}
	r.out = append(r.out, t)
	r.i += n
	return t
}

// rune makes the next character a token of kind k.
func (r *reReader) rune(k reKind) reToken {
	_, n := utf8.DecodeRuneInString(r.p[r.i:])
	return r.emit(k, n)
}

// braced is the length of the braced quantifier `{n}`, `{n,}` or `{n,m}`
// (n ≤ m) at the start of s, 0 when there is none.
func braced(s string) int {
	i := 1
	lo := digits(s[i:])
	if lo == 0 {
		return 0
	}
	i += lo
	if i < len(s) && s[i] == ',' {
		i++
		hi := digits(s[i:])
		if hi > 0 && bigger(s[1:1+lo], s[i:i+hi]) {
			return 0 // `{3,2}`: out of order, a syntax error
		}
		i += hi
	}
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	return 0
}

// bigger reports whether the decimal a is bigger than b.
func bigger(a, b string) bool {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func hexDigits(s string) int {
	n := 0
	for n < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[n]) >= 0 {
		n++
	}
	return n
}

// group reads a group's opener: `(`, `(?:`, a lookaround, `(?<name>`.
func (r *reReader) group() (reToken, bool) {
	s := r.p[r.i:]
	for _, o := range []string{"(?<=", "(?<!", "(?=", "(?!"} {
		if strings.HasPrefix(s, o) {
			return r.emit(reLook, len(o)), true
		}
	}
	switch {
	case strings.HasPrefix(s, "(?:"):
		return r.emit(reGroup, 3), true
	case strings.HasPrefix(s, "(?<"):
		end := strings.IndexByte(s, '>')
		if end < 4 || !groupName(s[3:end]) {
			return reToken{}, false
		}
		return r.emit(reGroup, end+1), true
	case strings.HasPrefix(s, "(?"):
		return reToken{}, false // a modifier group `(?i:`: not read
	}
	return r.emit(reGroup, 1), true
}

// groupName reports whether s is a plain group name (letters, digits, `_`,
// `$`, not starting with a digit; escapes in names are not read).
func groupName(s string) bool {
	for i, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// escape reads the escape at r.i (in a class when inClass).
func (r *reReader) escape(inClass bool) (reToken, bool) {
	s := r.p[r.i:]
	if len(s) < 2 {
		return reToken{}, false
	}
	u := r.mode.unicode
	switch c := s[1]; {
	case strings.IndexByte("dDwWsS", c) >= 0:
		return r.emit(rePredef, 2), true
	case c == 'b':
		if inClass {
			return r.emit(reChar, 2), true // a backspace
		}
		return r.emit(reAssertion, 2), true
	case c == 'B':
		if inClass && u {
			return reToken{}, false
		}
		return r.emit(map[bool]reKind{true: reChar, false: reAssertion}[inClass], 2), true
	case (c == 'p' || c == 'P') && u:
		if n := strings.IndexByte(s, '}'); len(s) > 3 && s[2] == '{' && n > 3 && propertyName(s[3:n]) {
			return r.emit(reProperty, n+1), true
		}
		return reToken{}, false
	case c == 'q' && r.mode.sets && inClass:
		if n := strings.IndexByte(s, '}'); len(s) > 2 && s[2] == '{' && n > 0 && !strings.Contains(s[3:n], `\`) {
			return r.emit(reStrings, n+1), true
		}
		return reToken{}, false // `\q{` with escapes inside: not read
	case c == 'u':
		if u && len(s) > 2 && s[2] == '{' {
			if h := hexDigits(s[3:]); h > 0 && len(s) > 3+h && s[3+h] == '}' {
				return r.emit(reChar, 4+h), true
			}
			return reToken{}, false
		}
		if hexDigits(s[2:]) >= 4 {
			return r.emit(reChar, 6), true
		}
		return reToken{}, false // `\u` alone: its meaning depends on what follows
	case c == 'x':
		if hexDigits(s[2:]) >= 2 {
			return r.emit(reChar, 4), true
		}
		return reToken{}, false
	case c == 'c':
		if len(s) > 2 && (s[2] >= 'a' && s[2] <= 'z' || s[2] >= 'A' && s[2] <= 'Z') {
			return r.emit(reChar, 3), true
		}
		return reToken{}, false
	case c == 'k':
		if n := strings.IndexByte(s, '>'); !inClass && len(s) > 2 && s[2] == '<' && n > 3 && groupName(s[3:n]) {
			return r.emit(reChar, n+1), true
		}
		return reToken{}, false
	case c >= '0' && c <= '9':
		n := 1 + digits(s[1:])
		if u && (c == '0' && n > 2 || inClass && c != '0') {
			return reToken{}, false // a legacy octal escape
		}
		return r.emit(reChar, n), true // a backreference, `\0`, or (Annex B) an octal escape
	case c >= 0x80:
		if u {
			return reToken{}, false
		}
		_, n := utf8.DecodeRuneInString(s[1:])
		return r.emit(reChar, 1+n), true
	case u && !strings.ContainsRune(`^$\.*+?()[]{}|/fnrtv`, rune(c)) && !(inClass && c == '-') &&
		!(r.mode.sets && inClass && strings.ContainsRune("&-!#%,:;<=>@`~", rune(c))):
		return reToken{}, false // no identity escape of a letter in the u mode
	}
	return r.emit(reChar, 2), true
}

// propertyName reports whether s is the name (and value) of a Unicode
// property as `\p{...}` writes it.
func propertyName(s string) bool {
	for _, c := range s {
		if !(c == '_' || c == '=' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// stringProperties are the properties of strings (v mode): `\P{...}` of
// one, and a negated class holding one, are syntax errors.
var stringProperties = map[string]bool{
	"Basic_Emoji": true, "Emoji_Keycap_Sequence": true, "RGI_Emoji_Modifier_Sequence": true,
	"RGI_Emoji_Flag_Sequence": true, "RGI_Emoji_Tag_Sequence": true, "RGI_Emoji_ZWJ_Sequence": true, "RGI_Emoji": true,
}

// class reads a character class from its `[` to its `]`; in the v mode
// with its nested classes and set operators.
func (r *reReader) class() bool {
	first := len(r.out)
	r.classOpen(reClass)
	depth := 1
	strs := false
	for depth > 0 {
		if r.i >= len(r.p) {
			return false
		}
		switch c := r.p[r.i]; {
		case c == '\\':
			t, ok := r.escape(true)
			if !ok {
				return false
			}
			strs = strs || t.kind == reStrings || t.kind == reProperty && stringProperties[t.text[3:len(t.text)-1]]
		case c == ']':
			r.emit(reClassEnd, 1)
			depth--
		case c == '[' && r.mode.sets:
			r.classOpen(reNested)
			depth++
		default:
			r.rune(reChar)
		}
	}
	r.out[first].negatable = !strs
	return true
}

// classOpen reads a class's `[` or `[^`.
func (r *reReader) classOpen(k reKind) {
	if strings.HasPrefix(r.p[r.i:], "[^") {
		r.emit(k, 2)
	} else {
		r.emit(k, 1)
	}
}
