package callgraph

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOddFiles: a file with a syntax error still yields what parsed, with its
// errors at file:line; binary and huge files and symlink loops are skipped with
// a note; nothing hangs or panics.
func TestOddFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		"src/ok.ts":     "import { b } from './b';\nexport function a() { b(); }\n",
		"src/b.ts":      "export function b() {}\n",
		"src/broken.ts": "export function good() { a(); }\nexport function bad( { ) \nimport { a } from './ok';\n",
		"src/bin.ts":    "export function x() {}\x00\x01\x02",
	})
	huge := strings.Repeat("export function f() {}\n", MaxFileSize/22+1)
	if err := os.WriteFile(filepath.Join(root, "src/huge.ts"), []byte(huge), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(root, "src", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/", filepath.Join(root, "src", "outside")); err != nil {
		t.Fatal(err)
	}
	g, err := Build(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, fn := range g.Functions {
		ids = append(ids, fn.ID)
	}
	if got, want := strings.Join(ids, " "), "src/b.ts#b src/broken.ts#good src/ok.ts#a"; got != want {
		t.Errorf("functions:\n got  %s\n want %s", got, want)
	}
	for _, fn := range g.Functions {
		if fn.ID == "src/broken.ts#good" && (len(fn.Calls) != 1 || fn.Calls[0].Target == nil || *fn.Calls[0].Target != "src/ok.ts#a") {
			t.Errorf("the part of broken.ts that parsed is not resolved: %+v", fn.Calls)
		}
	}
	if len(g.Errors) == 0 || g.Errors[0].File != "src/broken.ts" || g.Errors[0].Line != 2 {
		t.Errorf("want a parse error at src/broken.ts:2, got %+v", g.Errors)
	}
	notes := map[string]string{}
	for _, n := range g.Notes {
		notes[n.File] = n.Reason
	}
	for file, want := range map[string]string{
		"src/bin.ts":  "binary",
		"src/huge.ts": "larger than",
		"src/loop":    "already read",
		"src/outside": "leaves the repository",
	} {
		if !strings.Contains(notes[file], want) {
			t.Errorf("note for %s: got %q, want one saying %q", file, notes[file], want)
		}
	}
}
