package operators

import (
	"crypto/sha256"

	"github.com/oracle-ts/oracle/analyzer"
)

// Programs is a set of programs, each file's source known by its tokens:
// two mutants that make the same program, whitespace and comments aside,
// are one mutant (`if (a) { save(); }` emptied by BlockStatement and by the
// removal of its one call is `if (a) {}` twice), and a mutant that makes
// the original program is none.
type Programs struct{ seen map[[sha256.Size]byte]bool }

// NewPrograms is an empty set.
func NewPrograms() *Programs { return &Programs{seen: map[[sha256.Size]byte]bool{}} }

// Add adds the program src of the file at path; false when the set had it.
func (p *Programs) Add(path string, src []byte) bool {
	k := programKey(path, src)
	if p.seen[k] {
		return false
	}
	p.seen[k] = true
	return true
}

// programKey is a digest of path and the tokens of src: the text of every
// leaf of its tree but comments (a string's or a template's text is in
// its fragments' leaves, so the whitespace inside it counts).
func programKey(path string, src []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	_, syn := analyzer.ParseSyntax(path, src)
	if syn == nil {
		h.Write(src)
	} else {
		syn.Walk(syn.Root(), func(n Node) bool {
			if syn.Kind(n) == "comment" {
				return false
			}
			if syn.FirstChild(n) < 0 && syn.End(n) > syn.Start(n) {
				h.Write([]byte(syn.Text(n)))
				h.Write([]byte{0})
			}
			return true
		})
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}
