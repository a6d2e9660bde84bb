package modules

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxConfigSize bounds the package.json and tsconfig files read; a larger
// one is reported as a Diagnostic and ignored.
const maxConfigSize = 4 << 20

// maxDepth bounds the nesting of JSON values (and of exports conditions).
const maxDepth = 200

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

// jval is a parsed JSON value. Objects keep their keys in source order
// (package.json "exports" conditions are matched in that order); a repeated
// key keeps its first position and its last value, as JSON.parse does.
type jval struct {
	kind jkind
	s    string // jStr: the value; jNum: the literal text
	b    bool
	arr  []*jval
	keys []string
	vals []*jval
	off  int // byte offset of the value in the source
}

// get returns the value of key in an object, or nil.
func (v *jval) get(key string) *jval {
	if v == nil || v.kind != jObj {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// str returns the value of a string, and whether it is one.
func (v *jval) str() (string, bool) {
	if v == nil || v.kind != jStr {
		return "", false
	}
	return v.s, true
}

// jsonError is a syntax error at a byte offset.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return e.msg }

// lineOf returns the 1-based line of a byte offset in src.
func lineOf(src []byte, off int) int {
	if off > len(src) {
		off = len(src)
	}
	n := 1
	for _, c := range src[:off] {
		if c == '\n' {
			n++
		}
	}
	return n
}

// parseJSONC parses JSON with comments (// and /* */) and trailing commas,
// the dialect of tsconfig.json (and a superset of package.json). It never
// panics; nesting deeper than maxDepth is an error.
func parseJSONC(src []byte) (*jval, error) {
	p := &jparser{src: src}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		p.pos = 3
	}
	p.skip()
	if p.err != nil {
		return nil, p.err
	}
	if p.pos >= len(p.src) {
		return nil, &jsonError{p.pos, "empty document"}
	}
	v := p.value(0)
	if p.err != nil {
		return nil, p.err
	}
	p.skip()
	if p.err == nil && p.pos < len(p.src) {
		p.fail("unexpected %s after the document", p.describe())
	}
	if p.err != nil {
		return nil, p.err
	}
	return v, nil
}

type jparser struct {
	src []byte
	pos int
	err *jsonError
}

func (p *jparser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = &jsonError{p.pos, fmt.Sprintf(format, args...)}
	}
}

func (p *jparser) describe() string {
	if p.pos >= len(p.src) {
		return "end of file"
	}
	c := p.src[p.pos]
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", string(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// skip skips white space and comments.
func (p *jparser) skip() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; c {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.pos++
		case '/':
			if p.pos+1 >= len(p.src) {
				p.fail("unexpected \"/\"")
				return
			}
			switch p.src[p.pos+1] {
			case '/':
				for p.pos < len(p.src) && p.src[p.pos] != '\n' {
					p.pos++
				}
			case '*':
				end := bytes.Index(p.src[p.pos+2:], []byte("*/"))
				if end < 0 {
					p.fail("unterminated /* comment")
					p.pos = len(p.src)
					return
				}
				p.pos += 2 + end + 2
			default:
				p.fail("unexpected \"/\"")
				return
			}
		default:
			if c == 0xC2 && p.pos+1 < len(p.src) && p.src[p.pos+1] == 0xA0 { // no-break space
				p.pos += 2
				continue
			}
			return
		}
	}
}

func (p *jparser) value(depth int) *jval {
	if depth > maxDepth {
		p.fail("nesting deeper than %d", maxDepth)
		return nil
	}
	if p.pos >= len(p.src) {
		p.fail("unexpected end of file")
		return nil
	}
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s := p.string()
		return &jval{kind: jStr, s: s, off: start}
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case p.word("true"):
		return &jval{kind: jBool, b: true, off: start}
	case p.word("false"):
		return &jval{kind: jBool, off: start}
	case p.word("null"):
		return &jval{kind: jNull, off: start}
	default:
		p.fail("unexpected %s", p.describe())
		return nil
	}
}

func (p *jparser) word(w string) bool {
	if strings.HasPrefix(string(p.src[p.pos:min(len(p.src), p.pos+len(w))]), w) {
		end := p.pos + len(w)
		if end < len(p.src) && isIdentByte(p.src[end]) {
			return false
		}
		p.pos = end
		return true
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *jparser) number() *jval {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	digits := 0
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' {
			if c >= '0' && c <= '9' {
				digits++
			}
			p.pos++
			continue
		}
		break
	}
	if digits == 0 {
		p.pos = start
		p.fail("invalid number")
		return nil
	}
	return &jval{kind: jNum, s: string(p.src[start:p.pos]), off: start}
}

func (p *jparser) string() string {
	p.pos++ // opening quote
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			p.fail("unterminated string")
			return ""
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String()
		case c == '\n':
			p.fail("unterminated string")
			return ""
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				p.pos++
				p.fail("unterminated string")
				return ""
			}
			e := p.src[p.pos+1]
			p.pos += 2
			switch e {
			case '"', '\\', '/', '\'':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					p.fail("invalid \\u escape")
					return ""
				}
				if utf16.IsSurrogate(r) {
					save := p.pos
					if p.pos+1 < len(p.src) && p.src[p.pos] == '\\' && p.src[p.pos+1] == 'u' {
						p.pos += 2
						if r2, ok := p.hex4(); ok {
							if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
								b.WriteRune(d)
								continue
							}
						}
					}
					p.pos = save
					r = utf8.RuneError
				}
				b.WriteRune(r)
			default:
				p.pos--
				p.fail("invalid escape \\%c", e)
				return ""
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

func (p *jparser) hex4() (rune, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	var r rune
	for _, c := range p.src[p.pos : p.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.pos += 4
	return r, true
}

func (p *jparser) object(depth int) *jval {
	v := &jval{kind: jObj, off: p.pos}
	p.pos++
	var index map[string]int // built for large objects, to find repeated keys
	for {
		p.skip()
		if p.err != nil {
			return nil
		}
		if p.pos >= len(p.src) {
			p.fail("unterminated object")
			return nil
		}
		if p.src[p.pos] == '}' {
			p.pos++
			return v
		}
		if p.src[p.pos] != '"' {
			p.fail("expected a string key, found %s", p.describe())
			return nil
		}
		k := p.string()
		if p.err != nil {
			return nil
		}
		p.skip()
		if p.err != nil {
			return nil
		}
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			p.fail("expected \":\" after key %q, found %s", k, p.describe())
			return nil
		}
		p.pos++
		p.skip()
		if p.err != nil {
			return nil
		}
		val := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		if index == nil && len(v.keys) >= 16 {
			index = make(map[string]int, 2*len(v.keys))
			for i, old := range v.keys {
				if _, seen := index[old]; !seen {
					index[old] = i
				}
			}
		}
		at := -1
		if index != nil {
			if i, ok := index[k]; ok {
				at = i
			}
		} else {
			for i, old := range v.keys {
				if old == k {
					at = i
					break
				}
			}
		}
		if at >= 0 {
			v.vals[at] = val
		} else {
			if index != nil {
				index[k] = len(v.keys)
			}
			v.keys = append(v.keys, k)
			v.vals = append(v.vals, val)
		}
		p.skip()
		if p.err != nil {
			return nil
		}
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			continue
		}
		p.fail("expected \",\" or \"}\" in object, found %s", p.describe())
		return nil
	}
}

func (p *jparser) array(depth int) *jval {
	v := &jval{kind: jArr, off: p.pos}
	p.pos++
	for {
		p.skip()
		if p.err != nil {
			return nil
		}
		if p.pos >= len(p.src) {
			p.fail("unterminated array")
			return nil
		}
		if p.src[p.pos] == ']' {
			p.pos++
			return v
		}
		el := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		v.arr = append(v.arr, el)
		p.skip()
		if p.err != nil {
			return nil
		}
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			continue
		}
		p.fail("expected \",\" or \"]\" in array, found %s", p.describe())
		return nil
	}
}
