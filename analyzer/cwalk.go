package analyzer

// Copying a tree node by node through the Go bindings costs about seven cgo
// calls per node; this walker copies the whole tree in a single call. It
// uses the tree-sitter C API that go-tree-sitter compiles into the binary,
// declared here with the layouts of tree_sitter/api.h (v0.25): sitter.Node
// is documented as C-compatible with TSNode.

/*
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct { uint32_t context[4]; const void *id; const void *tree; } tsaNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } tsaCursor;

extern uint16_t ts_node_symbol(tsaNode);
extern uint32_t ts_node_start_byte(tsaNode);
extern uint32_t ts_node_end_byte(tsaNode);
extern bool ts_node_is_missing(tsaNode);
extern bool ts_node_has_error(tsaNode);
extern uint32_t ts_node_descendant_count(tsaNode);
extern tsaCursor ts_tree_cursor_new(tsaNode);
extern void ts_tree_cursor_delete(tsaCursor *);
extern tsaNode ts_tree_cursor_current_node(const tsaCursor *);
extern uint16_t ts_tree_cursor_current_field_id(const tsaCursor *);
extern bool ts_tree_cursor_goto_parent(tsaCursor *);
extern bool ts_tree_cursor_goto_next_sibling(tsaCursor *);
extern bool ts_tree_cursor_goto_first_child(tsaCursor *);
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));
extern void *ts_parser_new(void);
extern void ts_parser_delete(void *);
extern bool ts_parser_set_language(void *, const void *);
extern void *ts_parser_parse_string(void *, const void *, const char *, uint32_t);
extern tsaNode ts_tree_root_node(const void *);
extern void ts_tree_delete(void *);

// tsa_parse parses len bytes of src in one call: the Go bindings' Parse
// reads the text through a Go callback that copies each chunk into C
// memory, and costs a tree object and a cgo round trip to delete it.
// tree-sitter keeps no reference to src after it returns. It stores the
// root node in *root and returns the tree (NULL when tree-sitter returns none).
static void *tsa_parse(void *parser, const char *src, uint32_t len, tsaNode *root) {
	static const char empty[1] = {0};
	void *tree = ts_parser_parse_string(parser, NULL, len ? src : empty, len);
	if (tree) *root = ts_tree_root_node(tree);
	return tree;
}

// go-tree-sitter routes every allocation of the C library through a Go
// callback that calls C malloc: a third of the parse time. The defaults are
// the same libc functions, without the round trip.
static void tsa_use_libc_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }

typedef struct {
	uint32_t start, end;
	int32_t parent, first, next;
	uint16_t symbol, field;
	uint8_t missing;
} tsaOut;

static void tsa_fill(tsaOut *o, const tsaCursor *c, tsaNode nd, int32_t parent, int any_error) {
	o->symbol = ts_node_symbol(nd);
	o->field = ts_tree_cursor_current_field_id(c);
	o->start = ts_node_start_byte(nd);
	o->end = ts_node_end_byte(nd);
	o->parent = parent;
	o->first = -1;
	o->next = -1;
	o->missing = any_error && ts_node_is_missing(nd);
}

static uint32_t tsa_count(const tsaNode *root) { return ts_node_descendant_count(*root); }
static int tsa_has_error(const tsaNode *root) { return ts_node_has_error(*root); }

// tsa_walk copies the tree under root in pre-order into out (cap entries).
// Children of nodes whose symbol is marked in skip are left out, unless they
// contain an error. Returns the number of nodes, or -1 when cap is too small.
static int32_t tsa_walk(const tsaNode *root, const uint8_t *skip, uint32_t nsym, tsaOut *out, int32_t cap) {
	if (cap < 1) return -1;
	int any_error = ts_node_has_error(*root);
	tsaCursor c = ts_tree_cursor_new(*root);
	tsaNode nd = ts_tree_cursor_current_node(&c);
	tsa_fill(&out[0], &c, nd, -1, any_error);
	int32_t n = 1, cur = 0, parent = -1;
	for (;;) {
		uint16_t sym = out[cur].symbol;
		int descend = !(sym < nsym && skip[sym]) || (any_error && ts_node_has_error(nd));
		if (descend && ts_tree_cursor_goto_first_child(&c)) {
			if (n >= cap) { n = -1; break; }
			nd = ts_tree_cursor_current_node(&c);
			tsa_fill(&out[n], &c, nd, cur, any_error);
			out[cur].first = n;
			parent = cur;
			cur = n++;
			continue;
		}
		int done = 0;
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) { done = 1; break; }
			cur = parent;
			parent = out[cur].parent;
		}
		if (done) break;
		if (n >= cap) { n = -1; break; }
		nd = ts_tree_cursor_current_node(&c);
		tsa_fill(&out[n], &c, nd, parent, any_error);
		out[cur].next = n;
		cur = n++;
	}
	ts_tree_cursor_delete(&c);
	return n;
}
*/
import "C"

import "unsafe"

// useLibcAllocator makes tree-sitter call malloc and free directly. Memory
// allocated before comes from the same libc malloc, so mixing is safe.
func useLibcAllocator() { C.tsa_use_libc_allocator() }

// walkBuf is the C walker's output buffer, reused between files.
type walkBuf []C.tsaOut

// cParser is a tree-sitter parser owned by the analyzer (C memory: free it
// with close).
type cParser struct{ p unsafe.Pointer }

func newCParser() cParser { return cParser{C.ts_parser_new()} }

func (c *cParser) close() {
	if c.p != nil {
		C.ts_parser_delete(c.p)
		c.p = nil
	}
}

func (c cParser) setLanguage(g *grammar) bool {
	return bool(C.ts_parser_set_language(c.p, unsafe.Pointer(g.lang.Inner)))
}

// parseCopy parses src and copies its tree into nodes (reusing its memory)
// with the C walker. The tree-sitter tree is freed before it returns. It
// reports false if tree-sitter returned no tree or the walk could not
// complete.
func (c cParser) parseCopy(g *grammar, src []byte, nodes []node, scratch *walkBuf) ([]node, bool) {
	var root C.tsaNode
	var ptr *C.char
	if len(src) > 0 {
		ptr = (*C.char)(unsafe.Pointer(&src[0]))
	}
	tree := C.tsa_parse(c.p, ptr, C.uint32_t(len(src)), &root)
	if tree == nil {
		return nodes, false
	}
	defer C.ts_tree_delete(tree)
	return copyTree(g, &root, nodes, scratch)
}

// copyTree copies the tree under croot into nodes (reusing its memory) using
// the C walker. It reports false if the walk could not complete (it then
// falls back on nothing: the caller reports an internal error).
func copyTree(g *grammar, croot *C.tsaNode, nodes []node, scratch *walkBuf) ([]node, bool) {
	capacity := int(C.tsa_count(croot)) + 1
	anyError := C.tsa_has_error(croot) != 0
	var n int
	for {
		if cap(*scratch) < capacity {
			*scratch = make(walkBuf, capacity)
		}
		buf := (*scratch)[:capacity]
		n = int(C.tsa_walk(croot, (*C.uint8_t)(unsafe.Pointer(&g.skip[0])), C.uint32_t(len(g.skip)),
			&buf[0], C.int32_t(capacity)))
		if n >= 0 {
			break
		}
		if capacity > 1<<28 {
			return nodes, false
		}
		capacity *= 2
	}
	out := (*scratch)[:n]
	if cap(nodes) < n {
		nodes = make([]node, n)
	}
	nodes = nodes[:n]
	for i := range out {
		o := &out[i]
		sym := int(o.symbol)
		nd := &nodes[i]
		if sym < len(g.kinds) {
			nd.kind, nd.named = g.kinds[sym], g.named[sym]
		} else {
			nd.kind, nd.named = "ERROR", true // ts_builtin_sym_error is 65535
		}
		nd.field = ""
		if f := int(o.field); f < len(g.fields) {
			nd.field = g.fields[f]
		}
		nd.start, nd.end = uint32(o.start), uint32(o.end)
		nd.parent, nd.first, nd.next = int32(o.parent), int32(o.first), int32(o.next)
		nd.missing = o.missing != 0
		nd.isError = anyError && nd.kind == "ERROR"
	}
	return nodes, true
}
