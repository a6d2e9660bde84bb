package analyzer

// Edited versions of one source, checked for syntax errors by reparsing only
// what changed: tree-sitter's incremental parse, from the original's tree
// with the edit applied (ts_tree_edit). A gate's function of 1,500 lines has
// thousands of candidate mutants, each of them the whole file with one
// change (vercel/ai's stream-text.ts: 21 s of a gate's 29-s setup went to
// parsing each of them from scratch and extracting what nothing read).

/*
#include <stdint.h>
#include <stdbool.h>

typedef struct { uint32_t context[4]; const void *id; const void *tree; } tsaNode2;
typedef struct { uint32_t row, column; } tsaPoint;
typedef struct {
	uint32_t start_byte, old_end_byte, new_end_byte;
	tsaPoint start_point, old_end_point, new_end_point;
} tsaInputEdit;

extern void *ts_parser_parse_string(void *, const void *, const char *, uint32_t);
extern tsaNode2 ts_tree_root_node(const void *);
extern bool ts_node_has_error(tsaNode2);
extern void ts_tree_delete(void *);
extern void *ts_tree_copy(const void *);
extern void ts_tree_edit(void *, const tsaInputEdit *);

static void *tsa_parse_tree(void *parser, const void *old, const char *src, uint32_t len) {
	static const char empty[1] = {0};
	return ts_parser_parse_string(parser, old, len ? src : empty, len);
}

static int tsa_tree_has_error(const void *tree) { return ts_node_has_error(ts_tree_root_node(tree)); }

// tsa_reparse parses src, an edit of the source old was parsed from, reusing
// old (which it does not change). Returns -1 when tree-sitter returns no tree,
// else whether the new tree has an ERROR or MISSING node.
static int tsa_reparse(void *parser, const void *old, const tsaInputEdit *e, const char *src, uint32_t len) {
	void *copy = ts_tree_copy(old);
	ts_tree_edit(copy, e);
	void *t = tsa_parse_tree(parser, copy, src, len);
	ts_tree_delete(copy);
	if (!t) return -1;
	int bad = ts_node_has_error(ts_tree_root_node(t));
	ts_tree_delete(t);
	return bad;
}
*/
import "C"

import (
	"bytes"
	"unsafe"
)

// Edits checks edited versions of one source for syntax errors. It holds C
// memory: Close it. Not safe for concurrent use.
type Edits struct {
	p    cParser
	tree unsafe.Pointer // the original's tree; nil when there is none
	src  []byte
	bad  bool // the original has an ERROR or MISSING node
}

// NewEdits parses src (the language from path, as Parse) for checking its
// edits.
func NewEdits(path string, src []byte) *Edits {
	loadGrammars()
	e := &Edits{p: newCParser(), src: src}
	lang, ok := ScriptLangFor(path)
	g := grammarTS
	if ok && lang == LangTSX {
		g = grammarTSX
	}
	if !e.p.setLanguage(g) {
		return e
	}
	e.tree = C.tsa_parse_tree(e.p.p, nil, cbytes(src), C.uint32_t(len(src)))
	if e.tree != nil {
		e.bad = C.tsa_tree_has_error(e.tree) != 0
	}
	return e
}

// Close frees the C memory.
func (e *Edits) Close() {
	if e == nil {
		return
	}
	if e.tree != nil {
		C.ts_tree_delete(e.tree)
		e.tree = nil
	}
	e.p.close()
}

// Clean reports whether the original and out both parse with no ERROR or
// MISSING node, parsing out incrementally. false is "not known clean":
// Parse's File.Errors (which also repairs grammar gaps) decides then.
func (e *Edits) Clean(out []byte) bool {
	if e == nil || e.tree == nil || e.bad {
		return false
	}
	pre, suf := CommonEnds(e.src, out)
	ed := C.tsaInputEdit{
		start_byte:    C.uint32_t(pre),
		old_end_byte:  C.uint32_t(len(e.src) - suf),
		new_end_byte:  C.uint32_t(len(out) - suf),
		start_point:   point(e.src, pre),
		old_end_point: point(e.src, len(e.src)-suf),
		new_end_point: point(out, len(out)-suf),
	}
	return C.tsa_reparse(e.p.p, e.tree, &ed, cbytes(out), C.uint32_t(len(out))) == 0
}

// ParsesClean reports whether src parses with no ERROR or MISSING node
// (one parse; false is "not known clean", as Clean's).
func ParsesClean(path string, src []byte) bool {
	e := NewEdits(path, src)
	defer e.Close()
	return e.tree != nil && !e.bad
}

// CommonEnds are the lengths of the longest common prefix and suffix of a
// and b (not overlapping): where an edit of a made b. Both are compared 64
// bytes at a time where they agree (bytes.Equal's vector compare): a
// mutant of a 60 KB file is asked this for each of its checks.
func CommonEnds(a, b []byte) (pre, suf int) {
	n := min(len(a), len(b))
	for pre+64 <= n && bytes.Equal(a[pre:pre+64], b[pre:pre+64]) {
		pre += 64
	}
	for pre < n && a[pre] == b[pre] {
		pre++
	}
	m := n - pre
	for suf+64 <= m && bytes.Equal(a[len(a)-suf-64:len(a)-suf], b[len(b)-suf-64:len(b)-suf]) {
		suf += 64
	}
	for suf < m && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}

// point is tree-sitter's position of byte offset off of src: its row and its
// column in bytes.
func point(src []byte, off int) C.tsaPoint {
	row := bytes.Count(src[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1)
	return C.tsaPoint{row: C.uint32_t(row), column: C.uint32_t(col)}
}

func cbytes(b []byte) *C.char {
	if len(b) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(&b[0]))
}
