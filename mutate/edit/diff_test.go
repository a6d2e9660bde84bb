package edit

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func TestDiffExact(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nb\nc\n", "a\nB\nc\n", "--- a/p\n+++ b/p\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"", "x\n", "--- a/p\n+++ b/p\n@@ -0,0 +1 @@\n+x\n"},
		{"x\n", "", "--- a/p\n+++ b/p\n@@ -1 +0,0 @@\n-x\n"},
		{"a\nb", "a\nb\n", "--- a/p\n+++ b/p\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\nY\n16\n",
			"--- a/p\n+++ b/p\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -12,5 +12,5 @@\n 12\n 13\n 14\n-15\n+Y\n 16\n"},
		// Changes 6 lines apart share a hunk.
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n", "X\n2\n3\n4\n5\n6\n7\nY\n9\n",
			"--- a/p\n+++ b/p\n@@ -1,9 +1,9 @@\n-1\n+X\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n 9\n"},
		{"a\r\nb\r\n", "a\r\nc\r\n", "--- a/p\n+++ b/p\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"},
	} {
		if got := Diff("p", []byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("Diff(%q, %q):\n%s\nwant\n%s", c.a, c.b, got, c.want)
		}
	}
}

// patch applies a unified diff made by Diff to a.
func patch(t *testing.T, a, diff string) string {
	t.Helper()
	if diff == "" {
		return a
	}
	src := splitLines(a)
	var out []string
	pos := 0
	lines := strings.SplitAfter(diff, "\n")
	for i := 2; i < len(lines); i++ {
		l := lines[i]
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "@@") {
			var as string
			fmt.Sscanf(l, "@@ -%s", &as)
			start, _ := strconv.Atoi(strings.Split(as, ",")[0])
			if strings.HasSuffix(as, ",0") {
				start++ // an empty range names the line before
			}
			for pos < start-1 {
				out = append(out, src[pos])
				pos++
			}
			continue
		}
		body := l[1:]
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\ No newline`) {
			body = strings.TrimSuffix(body, "\n")
			i++
		}
		switch l[0] {
		case ' ':
			if src[pos] != body {
				t.Fatalf("context mismatch at %d: %q vs %q", pos, src[pos], body)
			}
			out = append(out, body)
			pos++
		case '-':
			if src[pos] != body {
				t.Fatalf("deleted line mismatch at %d", pos)
			}
			pos++
		case '+':
			out = append(out, body)
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, "")
}

// lcs is the length of a longest common subsequence of a and b.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

func TestDiffRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	gen := func() string {
		var b strings.Builder
		for range rng.Intn(30) {
			b.WriteString(string(rune('a' + rng.Intn(4))))
			b.WriteString("\n")
		}
		if rng.Intn(4) == 0 {
			b.WriteString("z")
		}
		return b.String()
	}
	for i := 0; i < 2000; i++ {
		a, b := gen(), gen()
		d := Diff("p", []byte(a), []byte(b))
		if got := patch(t, a, d); got != b {
			t.Fatalf("patch(%q, diff) = %q, want %q\n%s", a, got, b, d)
		}
		// Minimal: as many deletions and insertions as the LCS allows.
		ops := diffLines(splitLines(a), splitLines(b))
		edits := 0
		for _, o := range ops {
			if o.kind != ' ' {
				edits++
			}
		}
		la, lb := splitLines(a), splitLines(b)
		if want := len(la) + len(lb) - 2*lcs(la, lb); edits != want {
			t.Fatalf("%d edits, want %d", edits, want)
		}
		if d != Diff("p", []byte(a), []byte(b)) {
			t.Fatal("not deterministic")
		}
	}
}

// TestDiffWindowSame: Diff, which splits and compares only the lines
// between the common first and last lines (and their context), gives the
// bytes the whole files' comparison gives, on random files with long
// common starts and ends, with and without a final newline, the change at
// the start, the end, or both.
func TestDiffWindowSame(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	lines := func(n int) string {
		var b strings.Builder
		for range n {
			// Some lines longer than the 64 bytes compared at a time.
			b.WriteString(strings.Repeat(string(rune('a'+rng.Intn(3))), 1+rng.Intn(3)*rng.Intn(60)))
			b.WriteString("\n")
		}
		return b.String()
	}
	for i := 0; i < 5000; i++ {
		pre, post := lines(rng.Intn(12)), lines(rng.Intn(12))
		a, b := pre+lines(rng.Intn(4))+post, pre+lines(rng.Intn(4))+post
		if rng.Intn(3) == 0 {
			a += "z"
			if rng.Intn(2) == 0 {
				b += "z"
			}
		}
		whole := ""
		if a != b {
			whole = diffText("p", splitLines(a), splitLines(b), 0)
		}
		if got := Diff("p", []byte(a), []byte(b)); got != whole {
			t.Fatalf("Diff(%q, %q):\n%s\nthe whole files':\n%s", a, b, got, whole)
		}
	}
}
