package change

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestPairDiff(t *testing.T) {
	names := "M\x00src/a.ts\x00D\x00gone.ts\x00A\x00src/my file.ts\x00"
	patch := "diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -3,0 +4,2 @@\n+x\n+y\n@@ -10 +12 @@\n-a\n+b\n@@ -20,2 +21,0 @@\n-c\n-d\n" +
		"diff --git a/gone.ts b/gone.ts\n--- a/gone.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-z\n" +
		"diff --git a/src/my file.ts b/src/my file.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/my file.ts\t\n@@ -0,0 +1,2 @@\n+diff --git a/x b/x\n+q\n"
	c, err := pairDiff([]byte(names), []byte(patch))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(c["src/a.ts"]); got != "[[4 5] [12 12] [21 22]]" {
		t.Errorf("ranges %s", got)
	}
	if _, ok := c["gone.ts"]; ok {
		t.Error("a deleted file is not a target")
	}
	if got := fmt.Sprint(c["src/my file.ts"]); got != "[[1 2]]" {
		t.Errorf("a name with a space: %s (%v)", got, c.Files())
	}
	if !c.Touches("src/a.ts", 1, 4) || c.Touches("src/a.ts", 6, 11) {
		t.Error("Touches")
	}
	if _, err := pairDiff([]byte(names), []byte(patch[:strings.Index(patch, "diff --git a/gone")])); err == nil {
		t.Error("a patch missing a file's section is an error")
	}
}

// repo is a git repository in a temp dir with a commit of files.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := &repo{t, t.TempDir()}
	r.git("init", "-q")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=c@test", "-c", "user.name=c", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (r *repo) write(files map[string]string) {
	r.t.Helper()
	for rel, body := range files {
		p := filepath.Join(r.dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

func (r *repo) commit(files map[string]string) {
	r.t.Helper()
	r.write(files)
	r.git("add", "-A")
	r.git("commit", "-qm", "c")
}

// TestGitNames: names git quotes (spaces, non-ASCII, quotes, a tab) are
// in the change byte for byte, with their lines; deleted and renamed files
// too (a rename is a new file).
func TestGitNames(t *testing.T) {
	r := newRepo(t)
	odd := []string{"src/my file.ts", "src/ünïcödé.ts", `src/say "hi".ts`, "src/tab\there.ts", "src/plain.ts"}
	base := map[string]string{"src/old.ts": "x\n", "src/gone.ts": "g\n"}
	for _, f := range odd {
		base[f] = "a\nb\nc\n"
	}
	r.commit(base)
	next := map[string]string{}
	for _, f := range odd {
		next[f] = "a\nB\nc\n"
	}
	r.commit(next)
	r.git("mv", "src/old.ts", "src/new name.ts")
	r.git("rm", "-q", "src/gone.ts")
	r.git("commit", "-qm", "mv")
	c, o, err := Git(r.dir, "HEAD~2", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range odd {
		if got := fmt.Sprint(c[f]); got != "[[2 2]]" {
			t.Errorf("%q: %s (the change: %q)", f, got, c.Files())
		}
	}
	if got := fmt.Sprint(c["src/new name.ts"]); got != "[[1 1]]" {
		t.Errorf("the renamed file: %s (the change: %q)", got, c.Files())
	}
	if len(c) != len(odd)+1 {
		t.Errorf("the change: %q", c.Files())
	}
	head := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	first := strings.TrimSpace(r.git("rev-list", "--max-parents=0", "HEAD"))
	if o.Head != head || o.Repository != first || o.Base != strings.TrimSpace(r.git("rev-parse", "HEAD~2")) || o.Worktree {
		t.Errorf("origin %+v", o)
	}
}

// TestGitSubdirectory: from a directory under the repository's top, the
// names are relative to it and the rest of the repository is not in the
// change.
func TestGitSubdirectory(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"web/src/a b.ts": "1\n", "api/x.ts": "1\n"})
	r.commit(map[string]string{"web/src/a b.ts": "2\n", "api/x.ts": "2\n"})
	c, _, err := Git(filepath.Join(r.dir, "web"), "HEAD~1", false)
	if err != nil || strings.Join(c.Files(), "|") != "src/a b.ts" {
		t.Errorf("%q %v", c.Files(), err)
	}
}

// TestGitUncommitted: a working tree that differs from HEAD in a file of
// the change is refused, naming it; a dirty file outside the change is
// not; --worktree takes the working tree (and new untracked files) as the
// change.
func TestGitUncommitted(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"src/label.ts": "a\nb\nc\n", "src/clamp.ts": "1\n", "src/other.ts": "o\n"})
	r.commit(map[string]string{"src/label.ts": "a\nB\nc\n"})
	r.write(map[string]string{"src/other.ts": "o2\n"})
	if c, _, err := Git(r.dir, "HEAD~1", false); err != nil || strings.Join(c.Files(), "|") != "src/label.ts" {
		t.Fatalf("a dirty file outside the change: %q %v", c.Files(), err)
	}
	r.write(map[string]string{"src/label.ts": "shift\na\nB\nc\n"})
	_, _, err := Git(r.dir, "HEAD~1", false)
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, `"src/label.ts"`) || !strings.Contains(ue.Msg, "--worktree") {
		t.Fatalf("an uncommitted edit of a changed file: %v", err)
	}
	r.git("add", "src/label.ts") // staged is still not committed
	if _, _, err := Git(r.dir, "HEAD~1", false); !errors.As(err, &ue) {
		t.Fatalf("a staged edit of a changed file: %v", err)
	}
	r.write(map[string]string{"src/new.ts": "n\n"})
	c, o, err := Git(r.dir, "HEAD~1", true)
	if err != nil || !o.Worktree {
		t.Fatal(err, o)
	}
	if got := fmt.Sprint(c["src/label.ts"]); got != "[[1 1] [3 3]]" {
		t.Errorf("--worktree: label.ts %s", got)
	}
	if _, ok := c["src/new.ts"]; !ok || c["src/new.ts"] != nil {
		t.Errorf("--worktree: the untracked file: %q", c.Files())
	}
	if _, ok := c["src/other.ts"]; !ok {
		t.Errorf("--worktree: the dirty file: %q", c.Files())
	}
	if !strings.Contains(o.Describe(), "working tree") {
		t.Errorf("describe: %s", o.Describe())
	}
}

// TestGitRefusals: not a repository, a missing base, and git's "dubious
// ownership" said with git's message and the safe.directory fix.
func TestGitRefusals(t *testing.T) {
	var ue *UsageError
	if _, _, err := Git(t.TempDir(), "HEAD~1", false); !errors.As(err, &ue) || !strings.Contains(ue.Msg, "not a git repository") {
		t.Errorf("not a repository: %v", err)
	}
	r := newRepo(t)
	r.commit(map[string]string{"a.ts": "1\n"})
	if _, _, err := Git(r.dir, "HEAD~1", false); !errors.As(err, &ue) || !strings.Contains(ue.Msg, "does not exist") {
		t.Errorf("no HEAD~1: %v", err)
	}
	// No merge base: a full clone says the histories are unrelated (no
	// "shallow clone?"), a shallow one says to fetch more.
	main := strings.TrimSpace(r.git("rev-parse", "--abbrev-ref", "HEAD"))
	r.git("checkout", "-q", "--orphan", "other")
	r.commit(map[string]string{"b.ts": "1\n"})
	if _, _, err := Git(r.dir, main, false); !errors.As(err, &ue) || !strings.Contains(ue.Msg, "no merge base: their histories share no commit") || strings.Contains(ue.Msg, "shallow") {
		t.Errorf("unrelated histories in a full clone: %v", err)
	}
	r.git("checkout", "-q", main)
	r.git("checkout", "-q", "-b", "feature")
	r.commit(map[string]string{"a.ts": "2\n"})
	r.git("checkout", "-q", main)
	r.commit(map[string]string{"a.ts": "3\n"})
	clone := &repo{t, t.TempDir()}
	clone.git("clone", "-q", "--depth", "1", "--no-single-branch", "file://"+r.dir, ".")
	if _, _, err := Git(clone.dir, "origin/feature", false); !errors.As(err, &ue) || !strings.Contains(ue.Msg, "no merge base in this shallow clone") {
		t.Errorf("a shallow clone: %v", err)
	}
	t.Setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1") // git's own switch for its tests of this refusal
	if _, _, err := Git(r.dir, "HEAD", false); !errors.As(err, &ue) || !strings.Contains(ue.Msg, "dubious ownership") ||
		!strings.Contains(ue.Msg, "safe.directory "+r.dir) || strings.Contains(ue.Msg, "not a git repository") {
		t.Errorf("dubious ownership: %v", err)
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
