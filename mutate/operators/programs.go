package operators

import (
	"crypto/sha256"
	"hash"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// Programs is a set of programs, each file's source known by its tokens:
// two mutants that make the same program, whitespace and comments aside,
// are one mutant (`if (a) { save(); }` emptied by BlockStatement and by the
// removal of its one call is `if (a) {}` twice), and a mutant that makes
// the original program is none. A mutant of one change is read on the
// original's tokens (no parse of its own); one of several changes, or of a
// file whose original the set was not given, is parsed.
type Programs struct {
	seen  map[[sha256.Size]byte]bool
	files map[string]*program
}

// program is an original's tokens: canon is their text, a space between
// two that would run together (two words, `+ +`, `- -`, `/ /`), and each
// leaf is a token's byte range in the source and in canon.
type program struct {
	src    []byte
	canon  []byte
	leaves []leaf
}

type leaf struct {
	start, end uint // in the source
	cs, ce     int  // in canon
}

// NewPrograms is an empty set.
func NewPrograms() *Programs {
	return &Programs{seen: map[[sha256.Size]byte]bool{}, files: map[string]*program{}}
}

// Original adds the original program src of the file at path, parsed as
// syn (nil: parsed here), once per path: a mutant that makes it is none;
// its tokens are what the file's mutants are read on.
func (p *Programs) Original(path string, src []byte, syn *analyzer.Syntax) {
	if p.files[path] != nil {
		return
	}
	if syn == nil {
		_, syn = analyzer.ParseSyntax(path, src)
	}
	pr := &program{src: src, canon: src}
	if syn != nil {
		var c canonWriter
		eachToken(syn, func(n Node) {
			cs := c.token(syn.Text(n))
			pr.leaves = append(pr.leaves, leaf{syn.Start(n), syn.End(n), cs, len(c.b)})
		})
		pr.canon = c.b
	}
	p.files[path] = pr
	p.seen[key(path, func(h *canonWriter) { h.raw(pr.canon) })] = true
}

// Add adds mutant m's program; false when the set had it.
func (p *Programs) Add(m edit.Mutant) bool {
	k, ok := p.onOriginal(m)
	if !ok {
		k = key(m.Path, func(h *canonWriter) { h.raw(parsedCanon(m.Path, m.Source())) })
	}
	if p.seen[k] {
		return false
	}
	p.seen[k] = true
	return true
}

// onOriginal is the key of m read on its original's tokens: those before
// the change, the replacement's, those after. False when m has several
// changes, its original is unknown, the change cuts a token, or its text
// has whitespace and a string, a template, a regular expression or a
// comment (whose whitespace the split into words would lose).
func (p *Programs) onOriginal(m edit.Mutant) ([sha256.Size]byte, bool) {
	pr := p.files[m.Path]
	if pr == nil || pr.leaves == nil || len(m.Sites) != 1 ||
		strings.ContainsAny(strings.TrimSpace(m.Replacement), " \t\r\n") && strings.ContainsAny(m.Replacement, "\"'`/") {
		return [sha256.Size]byte{}, false
	}
	s, e := m.Original.Start.Offset, m.Original.End.Offset
	ls := pr.leaves
	j := sort.Search(len(ls), func(i int) bool { return ls[i].start >= s }) // the first token at or after the change
	k := sort.Search(len(ls), func(i int) bool { return ls[i].start >= e }) // the first token after it
	if j > 0 && ls[j-1].end > s || k > j && ls[k-1].end > e {
		return [sha256.Size]byte{}, false
	}
	for _, l := range ls[j:k] {
		// A token the parse keeps whole with whitespace inside (an object
		// type in an `as` expression may be one leaf): the replacement's
		// words would not split as the parse does.
		if strings.ContainsAny(string(pr.src[l.start:l.end]), " \t\r\n") {
			return [sha256.Size]byte{}, false
		}
	}
	return key(m.Path, func(h *canonWriter) {
		if j > 0 {
			h.raw(pr.canon[:ls[j-1].ce])
		}
		for _, chunk := range strings.Fields(m.Replacement) {
			h.token(chunk)
		}
		if k < len(ls) {
			h.token(string(pr.src[ls[k].start:ls[k].end]))
			h.raw(pr.canon[ls[k].ce:])
		}
	}), true
}

// parsedCanon is the canonical text of src's tokens, parsed.
func parsedCanon(path string, src []byte) []byte {
	_, syn := analyzer.ParseSyntax(path, src)
	if syn == nil {
		return src
	}
	var c canonWriter
	eachToken(syn, func(n Node) { c.token(syn.Text(n)) })
	return c.b
}

// eachToken calls visit on every token of syn's tree, in order: its
// leaves but comments and empty ones.
func eachToken(syn *analyzer.Syntax, visit func(Node)) {
	syn.Walk(syn.Root(), func(n Node) bool {
		if syn.Kind(n) == "comment" {
			return false
		}
		if syn.FirstChild(n) < 0 && syn.End(n) > syn.Start(n) {
			visit(n)
		}
		return true
	})
}

// key digests path and the canonical text write writes.
func key(path string, write func(*canonWriter)) [sha256.Size]byte {
	h := &canonWriter{h: sha256.New()}
	h.h.Write([]byte(path))
	h.h.Write([]byte{0})
	write(h)
	var k [sha256.Size]byte
	h.h.Sum(k[:0])
	return k
}

// canonWriter writes tokens to a digest (h) or a buffer (b), a space
// between two that would run together; it returns where a token starts.
type canonWriter struct {
	h    hash.Hash
	b    []byte
	last byte
}

func (c *canonWriter) raw(t []byte) {
	if len(t) == 0 {
		return
	}
	if c.h != nil {
		c.h.Write(t)
	} else {
		c.b = append(c.b, t...)
	}
	c.last = t[len(t)-1]
}

func (c *canonWriter) token(t string) int {
	if t == "" {
		return len(c.b)
	}
	if c.last != 0 && (wordByte(c.last) && wordByte(t[0]) || c.last == t[0] && strings.IndexByte("+-/", t[0]) >= 0) {
		c.raw([]byte{' '})
	}
	at := len(c.b)
	c.raw([]byte(t))
	return at
}
