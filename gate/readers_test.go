package gate

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/change"
)

// TestReadElsewhere (issue 41): of the exports a change deleted, those
// another file of the repository reads, at the base or at the head,
// through its imports (named, a namespace, a dynamic import), a barrel's
// re-export, or a re-export of its own; a name only mentioned (a comment,
// another module's export of the same name, a property) is not read.
func TestReadElsewhere(t *testing.T) {
	root := t.TempDir()
	price := "export function net(n: number) {\n  return n - 1;\n}\nexport function double(n: number) {\n  return n * 2;\n}\nexport function half(n: number) {\n  return n / 2;\n}\nexport function gone(n: number) {\n  return n;\n}\nexport function later(n: number) {\n  return n;\n}\nexport function lazy(n: number) {\n  return n;\n}\n"
	writeTree(t, root, map[string]string{
		"package.json":  `{"type":"module"}`,
		"src/price.ts":  price,
		"src/other.ts":  "import { net } from \"./price\";\nexport const n = net(2);\n",
		"src/index.ts":  "export * from \"./price\";\n",
		"src/use.ts":    "import { double } from \"./index\";\nexport const d = double(2);\n",
		"src/own.ts":    "// gone: not read here\nexport function gone() {\n  return { half: 1 }.half;\n}\n",
		"src/dyn.ts":    "export async function f() {\n  const { lazy } = await import(\"./price\");\n  return lazy(1);\n}\n",
		"src/reader.ts": "import { later } from \"./price\";\nexport const l = later(1);\n",
	})
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=a", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "base")
	base := "HEAD"
	// The change deletes the reader of later with it: read at the base.
	if err := os.Remove(filepath.Join(root, "src/reader.ts")); err != nil {
		t.Fatal(err)
	}
	p, err := callgraph.NewProgram(root)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	got := readElsewhere(p, &change.Origin{Base: base, Worktree: true}, "src/price.ts", []string{"net", "double", "half", "gone", "later", "lazy"})
	want := map[string]bool{"net": true, "double": true, "later": true, "lazy": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
	if got := readElsewhere(p, nil, "src/price.ts", []string{"gone"}); !got["gone"] {
		t.Error("with no git origin (a list of files), a name is not read: want every name read")
	}
}
