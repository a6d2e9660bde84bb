package analyzer

import (
	"fmt"
	"path"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	ts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// LangFor returns the grammar for a file name by its extension: .ts, .mts,
// .cts (and so .d.ts, .d.mts, .d.cts) are LangTS, .tsx is LangTSX. It reports
// false for anything else (.js files are not analyzed).
func LangFor(p string) (Lang, bool) {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".mts", ".cts":
		return LangTS, true
	case ".tsx":
		return LangTSX, true
	}
	return "", false
}

// ScriptLangFor is LangFor for test files, which vitest also runs as
// JavaScript: .js, .mjs, .cjs parse with the TypeScript grammar (a superset
// of the JavaScript tests are written in), .jsx with the TSX one.
func ScriptLangFor(p string) (Lang, bool) {
	if l, ok := LangFor(p); ok {
		return l, true
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".mjs", ".cjs":
		return LangTS, true
	case ".jsx":
		return LangTSX, true
	}
	return "", false
}

// grammar is a tree-sitter language with its symbol and field tables copied
// to Go once, so that walking a tree asks C only for positions.
type grammar struct {
	lang   *sitter.Language
	kinds  []string // by symbol id
	named  []bool   // by symbol id
	fields []string // by field id
	skip   []uint8  // by symbol id: 1 when the node's children are not needed
}

var (
	grammarsOnce sync.Once
	grammarTS    *grammar
	grammarTSX   *grammar
)

func loadGrammars() {
	grammarsOnce.Do(func() {
		useLibcAllocator()
		grammarTS = newGrammar(sitter.NewLanguage(ts.LanguageTypescript()))
		grammarTSX = newGrammar(sitter.NewLanguage(ts.LanguageTSX()))
	})
}

func newGrammar(l *sitter.Language) *grammar {
	g := &grammar{lang: l}
	n := l.NodeKindCount()
	g.kinds = make([]string, n)
	g.named = make([]bool, n)
	for i := uint32(0); i < n; i++ {
		g.kinds[i] = l.NodeKindForId(uint16(i))
		g.named[i] = l.NodeKindIsNamed(uint16(i))
	}
	g.skip = make([]uint8, n+1) // +1: never empty
	for i := uint32(0); i < n; i++ {
		if skipChildren[g.kinds[i]] {
			g.skip[i] = 1
		}
	}
	fc := l.FieldCount()
	g.fields = make([]string, fc+1)
	for i := uint32(1); i <= fc; i++ {
		g.fields[i] = l.FieldNameForId(uint16(i))
	}
	return g
}

// Parser parses files one at a time. A Parser is not safe for concurrent use:
// give each goroutine its own. Close it when done (it holds C memory).
type Parser struct {
	p       cParser
	lang    Lang
	nodes   []node  // reused between files
	scratch walkBuf // reused between files
}

// NewParser returns a Parser ready for TS and TSX files.
func NewParser() *Parser {
	loadGrammars()
	return &Parser{p: newCParser()}
}

// Close frees the parser's C memory. The Parser must not be used afterwards.
func (p *Parser) Close() {
	if p != nil {
		p.p.close()
	}
}

// Parse is NewParser, Parser.Parse and Parser.Close: convenient for one file.
func Parse(path string, src []byte) *File {
	p := NewParser()
	defer p.Close()
	return p.Parse(path, src)
}

// Parse extracts functions, calls, imports, exports and declarations from src.
// The language comes from path's extension (TS when unknown). It never panics:
// what did not parse is reported in File.Errors and the rest is still
// extracted.
func (p *Parser) Parse(path string, src []byte) *File {
	f, _ := p.parse(path, src)
	return f
}

// parse is Parse, also returning the extracted tree (nil when there is none;
// File.Errors then says why).
func (p *Parser) parse(path string, src []byte) (f *File, t *tree) {
	lang, ok := ScriptLangFor(path)
	if !ok {
		lang = LangTS
	}
	f = &File{Path: path, Lang: lang}
	defer func() {
		if r := recover(); r != nil {
			*f = File{Path: path, Lang: lang, Errors: []ParseError{{Line: 1, Column: 1,
				Message: fmt.Sprintf("internal error in the analyzer: %v", r)}}}
			t = nil
		}
	}()
	if p == nil || p.p.p == nil {
		f.Errors = []ParseError{{Line: 1, Column: 1, Message: "parser is closed"}}
		return f, nil
	}
	g := grammarTS
	if lang == LangTSX {
		g = grammarTSX
	}
	if p.lang != lang {
		if !p.p.setLanguage(g) {
			f.Errors = []ParseError{{Line: 1, Column: 1, Message: "cannot load grammar: its ABI version is not supported"}}
			return f, nil
		}
		p.lang = lang
	}

	t, errs := p.build(g, src)
	if t != nil && errs > 0 {
		// A grammar gap (see repair.go) makes valid TypeScript look broken:
		// blank what the grammar cannot read and keep the result if it is better.
		if fixed, rep := repair(src); rep != nil {
			kept := t.nodes
			p.nodes = nil // build the second tree in fresh memory
			t2, errs2 := p.build(g, fixed)
			if t2 != nil && errs2 < errs {
				t2.src = src // same offsets, lines and columns: show the original text
				t2.repairs = rep
				t = t2
			} else {
				p.nodes = kept
			}
		}
	}
	if t == nil {
		f.Errors = []ParseError{{Line: 1, Column: 1, Message: "tree-sitter returned no tree"}}
		return f, nil
	}
	t.file = f
	t.extract()
	return f, t
}

// build parses src and copies the tree into p.nodes. It returns the number
// of error sites (outermost ERROR and MISSING nodes).
func (p *Parser) build(g *grammar, src []byte) (*tree, int) {
	t := &tree{src: src, lines: lineStarts(src)}
	nodes, ok := p.p.parseCopy(g, src, p.nodes[:0], &p.scratch)
	if !ok {
		return nil, 0
	}
	t.nodes = nodes
	p.nodes = nodes
	return t, t.countErrors()
}

// node is a tree-sitter node copied to Go. Children are linked by index.
type node struct {
	kind       string
	field      string // the field name in the parent, "" when none
	start, end uint32 // byte offsets
	parent     int32
	first      int32 // first child, -1 when none
	next       int32 // next sibling, -1 when none
	named      bool
	missing    bool
	isError    bool
}

// skipChildren lists node kinds whose children are never needed: their text
// is taken from the source when it matters. Their subtrees are still copied
// when they contain a syntax error, so that errors are reported.
var skipChildren = map[string]bool{
	"comment":         true,
	"string":          true,
	"type_annotation": true,
	"type_arguments":  true,
	"type_parameters": true,
	"regex":           true,
	"number":          true,
	"object_type":     true,
	"union_type":      true,
	"function_type":   true,
}

// tree is one parsed file being extracted.
type tree struct {
	src     []byte
	lines   []int // byte offset of the start of each line
	nodes   []node
	repairs *repairs
	file    *File
	quiet   [][2]uint32 // byte ranges where MISSING nodes are not errors
	pc      posCache
}

func (t *tree) countErrors() int {
	n := 0
	outer := t.outerErrors()
	for i := range t.nodes {
		if t.nodes[i].missing || outer[i] {
			n++
		}
	}
	return n
}

// outerErrors marks the ERROR nodes that are not inside another ERROR node.
// Nodes are in pre-order, so a parent comes before its children.
func (t *tree) outerErrors() []bool {
	inErr := make([]bool, len(t.nodes)) // inside an ERROR node (strictly)
	outer := make([]bool, len(t.nodes))
	for i := range t.nodes {
		if p := t.nodes[i].parent; p >= 0 {
			inErr[i] = inErr[p] || t.nodes[p].isError
		}
		outer[i] = t.nodes[i].isError && !inErr[i]
	}
	return outer
}

// errors reports every outermost ERROR node and every MISSING node.
func (t *tree) errors() []ParseError {
	var out []ParseError
	outer := t.outerErrors()
	for i := range t.nodes {
		nd := &t.nodes[i]
		switch {
		case nd.missing:
			if t.isQuiet(nd.start) {
				continue
			}
			line, col := t.pos(nd.start)
			what := nd.kind
			if !nd.named {
				what = "`" + nd.kind + "`"
			}
			out = append(out, ParseError{Line: line, Column: col, Message: "missing " + what})
		case outer[i]:
			line, col := t.pos(nd.start)
			msg := "syntax error"
			if tok := t.firstToken(int32(i)); tok != "" {
				msg = "unexpected `" + tok + "`"
			} else if int(nd.start) >= len(t.src) {
				msg = "unexpected end of file"
			}
			out = append(out, ParseError{Line: line, Column: col, Message: msg})
		}
	}
	return out
}

func (t *tree) isQuiet(off uint32) bool {
	for _, r := range t.quiet {
		if off >= r[0] && off <= r[1] {
			return true
		}
	}
	return false
}

// firstToken is the text of the first leaf of n (shortened).
func (t *tree) firstToken(i int32) string {
	for t.nodes[i].first >= 0 {
		i = t.nodes[i].first
	}
	s := t.text(i)
	if j := strings.IndexAny(s, "\r\n"); j >= 0 {
		s = s[:j]
	}
	if r := []rune(s); len(r) > 24 {
		s = string(r[:24]) + "…"
	}
	return s
}

func (t *tree) text(i int32) string {
	nd := &t.nodes[i]
	if int(nd.end) > len(t.src) || nd.start > nd.end {
		return ""
	}
	return string(t.src[nd.start:nd.end])
}

// child returns the first child of i with the given field name, or -1.
func (t *tree) child(i int32, field string) int32 {
	for c := t.nodes[i].first; c >= 0; c = t.nodes[c].next {
		if t.nodes[c].field == field {
			return c
		}
	}
	return -1
}

// childKind returns the first child of i of the given kind, or -1.
func (t *tree) childKind(i int32, kind string) int32 {
	for c := t.nodes[i].first; c >= 0; c = t.nodes[c].next {
		if t.nodes[c].kind == kind {
			return c
		}
	}
	return -1
}

// firstNamed returns the first named child of i that is not a comment, or -1.
func (t *tree) firstNamed(i int32) int32 {
	for c := t.nodes[i].first; c >= 0; c = t.nodes[c].next {
		if t.nodes[c].named && t.nodes[c].kind != "comment" {
			return c
		}
	}
	return -1
}

// namedChildren returns the named children of i that are not comments.
func (t *tree) namedChildren(i int32) []int32 {
	var out []int32
	for c := t.nodes[i].first; c >= 0; c = t.nodes[c].next {
		if t.nodes[c].named && t.nodes[c].kind != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// hasToken reports whether i has an anonymous child token `tok`.
func (t *tree) hasToken(i int32, tok string) bool {
	for c := t.nodes[i].first; c >= 0; c = t.nodes[c].next {
		if !t.nodes[c].named && t.nodes[c].kind == tok {
			return true
		}
	}
	return false
}

// unwrap skips parentheses, `as`, `satisfies`, `<T>x` and `x!` around an
// expression.
func (t *tree) unwrap(i int32) int32 {
	for i >= 0 {
		switch t.nodes[i].kind {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
			i = t.firstNamed(i)
		case "type_assertion":
			c := t.firstNamed(i)
			for c >= 0 && t.nodes[c].kind == "type_arguments" {
				c = t.nodes[c].next
			}
			i = c
		default:
			return i
		}
	}
	return i
}

// stringValue returns the value of a string literal node (or a template
// literal without substitutions) and whether i is one.
func (t *tree) stringValue(i int32) (string, bool) {
	if i < 0 {
		return "", false
	}
	nd := &t.nodes[i]
	s := t.text(i)
	switch nd.kind {
	case "string":
		if len(s) < 2 || (s[0] != '"' && s[0] != '\'') || s[len(s)-1] != s[0] {
			return "", false
		}
		return unescape(s[1 : len(s)-1]), true
	case "template_string":
		if t.childKind(i, "template_substitution") >= 0 || len(s) < 2 || s[len(s)-1] != '`' {
			return "", false
		}
		return unescape(s[1 : len(s)-1]), true
	}
	return "", false
}

// unescape decodes the common escapes of a JS string literal; others are kept.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case '\n':
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// lineStarts returns the byte offset where each line starts. Lines end at
// "\n" (so "\r\n" too), as tree-sitter counts them.
func lineStarts(src []byte) []int {
	n := 1
	for _, c := range src {
		if c == '\n' {
			n++
		}
	}
	lines := make([]int, 1, n)
	for i, c := range src {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// pos converts a byte offset to a 1-based line and a 1-based column counted
// in UTF-16 code units (invalid UTF-8 bytes count one unit each). Queries
// mostly move forward, so the last answer is reused: a long line (minified
// code) is not rescanned for every position on it.
func (t *tree) pos(off uint32) (line, col int) {
	o := min(int(off), len(t.src))
	l := t.lineIndex(o)
	c := &t.pc
	if !c.valid || c.line != l || c.off > o {
		*c = posCache{valid: true, line: l, off: t.lines[l]}
	}
	c.col += UTF16Len(t.src[c.off:o])
	c.off = o
	return l + 1, c.col + 1
}

// posCache remembers the last position computed by pos.
type posCache struct {
	valid     bool
	line, off int // line index, byte offset
	col       int // UTF-16 units from the line start to off
}

// lineIndex is the 0-based line of byte offset o.
func (t *tree) lineIndex(o int) int {
	lo, hi := 0, len(t.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.lines[mid] <= o {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func (t *tree) line(off uint32) int {
	return t.lineIndex(min(int(off), len(t.src))) + 1
}

// UTF16Len is the length of b in UTF-16 code units, as JavaScript counts
// (an invalid UTF-8 byte counts one unit).
func UTF16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c < 0x80:
			i++
			n++
		case c >= 0xF0 && c <= 0xF4 && cont(b, i+1, 3):
			i += 4
			n += 2
		case c >= 0xE0 && c <= 0xEF && cont(b, i+1, 2):
			i += 3
			n++
		case c >= 0xC2 && c <= 0xDF && cont(b, i+1, 1):
			i += 2
			n++
		default:
			i++
			n++
		}
	}
	return n
}

// cont reports whether b[i:i+k] are k UTF-8 continuation bytes.
func cont(b []byte, i, k int) bool {
	if i+k > len(b) {
		return false
	}
	for j := i; j < i+k; j++ {
		if b[j]&0xC0 != 0x80 {
			return false
		}
	}
	return true
}
