package change

import (
	"fmt"
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
