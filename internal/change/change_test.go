package change

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseDiff(t *testing.T) {
	diff := "diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -3,0 +4,2 @@\n+x\n+y\n@@ -10 +12 @@\n-a\n+b\n@@ -20,2 +21,0 @@\n-c\n-d\n--- a/gone.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-z\n"
	c := parseDiff([]byte(diff))
	if got := fmt.Sprint(c["src/a.ts"]); got != "[[4 5] [12 12] [21 22]]" {
		t.Errorf("ranges %s", got)
	}
	if _, ok := c["gone.ts"]; ok {
		t.Error("a deleted file is not a target")
	}
	if !c.Touches("src/a.ts", 1, 4) || c.Touches("src/a.ts", 6, 11) {
		t.Error("Touches")
	}
}

// TestFromList: --files and --files-from read one path a line, from a file
// or from standard input ("-"), and name the line of a path outside the
// repository.
func TestFromList(t *testing.T) {
	list := filepath.Join(t.TempDir(), "changed.txt")
	if err := os.WriteFile(list, []byte("# the task's files\nsrc/a.ts\r\n\n./src/b.ts\nsrc\\win\\c.ts\n  src/a.ts  \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{"src/a.ts", "src/b.ts", "src/win/c.ts"}
	for _, tc := range []struct{ file, stdin string }{{list, ""}, {"-", "src/b.ts\nsrc/a.ts\nsrc/win/c.ts"}} {
		c, err := FromList("--files-from", tc.file, strings.NewReader(tc.stdin))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if got := c.Files(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", tc.file, got, want)
		}
		if !c.Touches("src/b.ts", 1, 1) || c.Touches("src/d.ts", 1, 1) {
			t.Errorf("%s: a listed file counts whole, an unlisted one not at all", tc.file)
		}
	}
	for _, tc := range []struct{ file, stdin, want string }{
		{"-", "src/a.ts\n../outside.ts\n", `--files-from standard input:2: "../outside.ts" is not a path inside the repository`},
		{"-", "/etc/passwd\n", `--files-from standard input:1: "/etc/passwd" is not`},
		{filepath.Join(t.TempDir(), "missing.txt"), "", "missing.txt: no such file or directory"},
	} {
		_, err := FromList("--files-from", tc.file, strings.NewReader(tc.stdin))
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: %v, want a usage error with %q", tc.file, tc.stdin, err, tc.want)
		}
	}
}
