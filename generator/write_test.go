package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckSyntax: a file that does not parse is refused with its place, so a
// generator bug never writes a broken oracle.
func TestCheckSyntax(t *testing.T) {
	if err := checkSyntax("a.test.ts", []byte("const x: number = 1;\nexport {};\n")); err != nil {
		t.Fatalf("valid TypeScript refused: %v", err)
	}
	err := checkSyntax("a.test.ts", []byte("const x = {;\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "a.test.ts:1:") {
		t.Fatalf("want an error at a.test.ts:1, got %v", err)
	}
}

// TestWriteAtomic: Write creates the directories, leaves no temporary file,
// and does not touch a file whose bytes are already right.
func TestWriteAtomic(t *testing.T) {
	root := t.TempDir()
	res := &Result{Operations: []*Operation{{Status: StatusGenerated, File: "src/__oracles__/f.oracle.test.ts", Content: []byte("x\n")}, {Status: StatusSkipped}}}
	if err := Write(root, res); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(root, "src/__oracles__/f.oracle.test.ts")
	if b, _ := os.ReadFile(dst); string(b) != "x\n" {
		t.Fatalf("content %q", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(dst))
	if len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
	// Same bytes: the file is not rewritten (its inode stays).
	before, _ := os.Stat(dst)
	if err := Write(root, res); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(dst)
	if !os.SameFile(before, after) {
		t.Error("an unchanged oracle was rewritten")
	}
	res.Operations[0].Content = []byte("y\n")
	if err := Write(root, res); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "y\n" {
		t.Fatalf("content %q", b)
	}
}
