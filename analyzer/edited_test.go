package analyzer

import (
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEditsCleanAsFreshParse: an edit's incremental reparse (Edits.Clean)
// says "no error" exactly when parsing the edited file from scratch does,
// on random edits (bytes deleted, tokens inserted, at random places) of the
// samples' TypeScript files. A wrong edit record (its byte offsets) gives
// tree-sitter a tree that does not match the text: its answers then part
// from the fresh parse's (an old end one byte short: 40 of these edits).
func TestEditsCleanAsFreshParse(t *testing.T) {
	var files []string
	filepath.WalkDir("../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) && !strings.HasSuffix(p, ".d.ts") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 20 {
		t.Fatalf("only %d sample files", len(files))
	}
	inserts := []string{"", "(", ")", "}", "{", "x", ";", "!", " + 1", "\n", "/*", "`", "'", "=>", "if (a) ", "\n\n  return;\n"}
	r := rand.New(rand.NewSource(1))
	checked, bad := 0, 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil || len(src) == 0 {
			continue
		}
		e := NewEdits(p, src)
		if e.bad {
			e.Close()
			continue
		}
		for range 40 {
			off := r.Intn(len(src) + 1)
			end := min(len(src), off+r.Intn(6))
			out := []byte(string(src[:off]) + inserts[r.Intn(len(inserts))] + string(src[end:]))
			fresh := NewEdits(p, out)
			want := fresh.tree != nil && !fresh.bad
			fresh.Close()
			if got := e.Clean(out); got != want {
				t.Errorf("%s: bytes %d-%d replaced: incremental clean=%v, fresh parse clean=%v", p, off, end, got, want)
			}
			checked++
			if !want {
				bad++
			}
		}
		e.Close()
	}
	// The edits must include both kinds, or the comparison shows nothing.
	if bad == 0 || bad == checked {
		t.Fatalf("%d edits, %d with an error: want both kinds", checked, bad)
	}
	t.Logf("%d edits of %d files, %d with a syntax error", checked, len(files), bad)
}
