// Package change reads what a change touched, from git (`git diff
// --merge-base REV HEAD`, hunk by hunk) or from a list of files: the scope
// of `oracle gate` and of `oracle audit --base`.
package change

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// UsageError is an input the caller must fix (exit 2): not a git
// repository, a base that does not exist, a list file that cannot be read.
type UsageError struct {
	Msg string
	// NotGit: root is no git checkout (a caller that can read the change
	// another way says how).
	NotGit bool
}

func (e *UsageError) Error() string { return e.Msg }

// Change is what a change touched: per repo-relative file, the changed line
// ranges of its new version (nil: the whole file, as --files says).
type Change map[string][][2]int

// Origin says where a change read from git comes from: the repository (its
// first commit: the same on every clone), the merge-base and HEAD commits,
// and whether the working tree is the change (--worktree) or the files are
// as committed at HEAD.
type Origin struct {
	Repository string `json:"repository"`
	Base       string `json:"base"`
	Head       string `json:"head"`
	Worktree   bool   `json:"worktree"`
}

// Describe is the origin in a line: "base..head as committed" or "base..the
// working tree".
func (o *Origin) Describe() string {
	if o == nil {
		return "the files listed, as in the working tree"
	}
	if o.Worktree {
		return fmt.Sprintf("%.12s..the working tree (--worktree)", o.Base)
	}
	return fmt.Sprintf("%.12s..%.12s, the files as committed at HEAD", o.Base, o.Head)
}

// git runs git in root; a failure is git's own message.
func git(root string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-c", "core.quotePath=false"}, args...)...)
	cmd.Dir = root
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(msg)
	}
	return out.Bytes(), nil
}

// FromGit is `git diff --merge-base base HEAD` of the repository at
// root, limited to root, with the lines each hunk adds or changes; a working
// tree that differs from HEAD in a file of the change is refused (Git).
func FromGit(root, base string) (Change, error) {
	c, _, err := Git(root, base, false)
	return c, err
}

// shallow says whether the repository at root is a shallow clone (git
// rev-parse --is-shallow-repository).
func shallow(root string) bool {
	out, _ := git(root, "rev-parse", "--is-shallow-repository")
	return strings.TrimSpace(string(out)) == "true"
}

// Git reads the change from git: `git diff --merge-base base HEAD` (with
// worktree, `git diff --merge-base base` and the untracked files: the
// working tree is the change), limited to root. File names are read with
// -z, byte for byte (spaces, quotes, non-ASCII). Without worktree the files
// of the change must be in the working tree as committed at HEAD (the
// gate and the audit read them there): a file that differs is a
// UsageError naming it.
func Git(root, base string, worktree bool) (Change, *Origin, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, nil, fmt.Errorf("git is not installed: the change is read from git")
	}
	if out, err := git(root, "rev-parse", "--is-inside-work-tree"); err != nil || strings.TrimSpace(string(out)) != "true" {
		msg := fmt.Sprintf("%s is not a git repository: run oracle in the repository's checkout", root)
		notGit := true
		if err != nil && strings.Contains(err.Error(), "dubious ownership") {
			// git refuses a repository another user owns (CVE-2022-24765).
			msg, notGit = fmt.Sprintf("git refuses to read %s (the checkout belongs to another user); git says:\n%s", root, err.Error()), false
			if !strings.Contains(err.Error(), "safe.directory") {
				msg += fmt.Sprintf("\ntrust the checkout with: git config --global --add safe.directory %s", root)
			}
		} else if err == nil {
			msg, notGit = fmt.Sprintf("%s is inside a git directory, not a working tree: run oracle in the repository's checkout", root), false
		}
		return nil, nil, &UsageError{Msg: msg, NotGit: notGit}
	}
	if _, err := git(root, "rev-parse", "--verify", "--quiet", base+"^{commit}"); err != nil {
		msg := fmt.Sprintf("the base %s does not exist in this repository", base)
		if shallow(root) {
			msg += ": this is a shallow clone; fetch the history the base needs (git fetch --deepen=50, or actions/checkout with fetch-depth: 0)"
		} else {
			msg += ": give an existing commit or branch with --base (default HEAD~1; a repository with one commit has no HEAD~1)"
		}
		return nil, nil, &UsageError{Msg: msg}
	}
	o := &Origin{Worktree: worktree}
	mb, err := git(root, "merge-base", base, "HEAD")
	if err != nil {
		msg := fmt.Sprintf("%s and HEAD have no merge base: their histories share no commit; give a base HEAD descends from with --base", base)
		if shallow(root) {
			msg = fmt.Sprintf("%s and HEAD have no merge base in this shallow clone: fetch the history the base needs (git fetch --deepen=50, or actions/checkout with fetch-depth: 0)", base)
		}
		return nil, nil, &UsageError{Msg: msg}
	}
	o.Base = strings.TrimSpace(string(mb))
	head, err := git(root, "rev-parse", "--verify", "HEAD")
	if err != nil {
		return nil, nil, fmt.Errorf("git rev-parse HEAD: %v", err)
	}
	o.Head = strings.TrimSpace(string(head))
	if roots, err := git(root, "rev-list", "--max-parents=0", "HEAD"); err == nil {
		rs := strings.Fields(string(roots))
		sort.Strings(rs)
		o.Repository = strings.Join(rs, ",")
	}
	// The same diff twice: the names (-z, exact) and the hunks (the patch,
	// whose headers quote names), paired in git's order.
	diff := []string{"diff", o.Base}
	if !worktree {
		diff = append(diff, o.Head)
	}
	diff = append(diff, "--relative", "--no-color", "--no-ext-diff", "--no-renames", "--no-textconv")
	names, err := git(root, append(diff, "--name-status", "-z")...)
	if err != nil {
		return nil, nil, fmt.Errorf("git diff: %v", err)
	}
	patch, err := git(root, append(diff, "-U0")...)
	if err != nil {
		return nil, nil, fmt.Errorf("git diff: %v", err)
	}
	c, err := pairDiff(names, patch)
	if err != nil {
		return nil, nil, err
	}
	if worktree {
		// New files not yet added are part of the working tree's change.
		out, err := git(root, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
		if err != nil {
			return nil, nil, fmt.Errorf("git ls-files: %v", err)
		}
		for _, f := range splitZ(out) {
			c[f] = nil
		}
		return c, o, nil
	}
	dirty, err := git(root, "diff", "HEAD", "--relative", "--name-only", "--no-renames", "-z")
	if err != nil {
		return nil, nil, fmt.Errorf("git diff HEAD: %v", err)
	}
	var differ []string
	for _, f := range splitZ(dirty) {
		if _, ok := c[f]; ok {
			differ = append(differ, strconv.Quote(f))
		}
	}
	if len(differ) > 0 {
		sort.Strings(differ)
		return nil, nil, &UsageError{Msg: fmt.Sprintf("the working tree differs from HEAD in %s, in the change: the change is read as committed at HEAD; commit or stash the edit, or pass --worktree to take the working tree as the change", strings.Join(differ, ", "))}
	}
	return c, o, nil
}

// splitZ splits NUL-terminated fields.
func splitZ(b []byte) []string {
	var out []string
	for _, f := range strings.Split(string(b), "\x00") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// pairDiff reads the change from the same diff in two forms: names, from
// --name-status -z (STATUS NUL PATH NUL, paths exact), and patch, the -U0
// patch whose file headers git quotes or ends with a tab. The patch's file
// sections ("diff --git " lines) come in the order of the names, one each.
func pairDiff(names, patch []byte) (Change, error) {
	fields := strings.Split(string(names), "\x00")
	type entry struct{ status, path string }
	var entries []entry
	for i := 0; i+1 < len(fields); i += 2 {
		if fields[i] == "" {
			break
		}
		entries = append(entries, entry{fields[i], fields[i+1]})
	}
	want := len(entries)
	for _, e := range entries {
		if e.status == "T" {
			want++ // a type change is two sections: the old deleted, the new added
		}
	}
	var sections [][]byte
	for _, line := range bytes.SplitAfter(patch, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("diff --git ")) {
			sections = append(sections, nil)
		}
		if len(sections) > 0 {
			sections[len(sections)-1] = append(sections[len(sections)-1], line...)
		}
	}
	if len(sections) != want {
		return nil, fmt.Errorf("git diff: %d files named, %d in the patch", len(entries), len(sections))
	}
	c := Change{}
	i := 0
	for _, e := range entries {
		switch {
		case e.status == "T":
			c[e.path] = nil // a new kind of file: all of it
			i += 2
		case strings.HasPrefix(e.status, "D"):
			i++ // deleted: nothing of it is left to test
		default:
			c[e.path] = hunks(sections[i])
			i++
		}
	}
	return c, nil
}

var hunkRe = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)

// hunks reads the hunk headers of one file's -U0 patch: the new-side line
// ranges. A hunk that only deletes lines marks the lines around the
// deletion.
func hunks(section []byte) [][2]int {
	out := [][2]int{}
	for _, line := range strings.Split(string(section), "\n") {
		if !strings.HasPrefix(line, "@@ ") {
			continue
		}
		m := hunkRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		start, _ := strconv.Atoi(m[1])
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		if n == 0 { // a deletion after line start
			out = append(out, [2]int{start, start + 1})
			continue
		}
		out = append(out, [2]int{start, start + n - 1})
	}
	return out
}

// FromList reads a list of changed files (--files FILE, --files-from FILE;
// "-" is standard input): one repo-relative path per line, as a pipeline
// records them (blank lines and # comments skipped; "./" prefixes, CRLF line
// ends and backslashes taken as written on Windows); each file counts whole.
// flag names the option in errors.
func FromList(flag, listFile string, stdin io.Reader) (Change, error) {
	name := listFile
	var r io.Reader
	if listFile == "-" {
		name, r = "standard input", stdin
	} else {
		f, err := os.Open(listFile)
		if err != nil {
			return nil, &UsageError{Msg: fmt.Sprintf("%s %s: %v", flag, listFile, errors.Unwrap(err))}
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, &UsageError{Msg: fmt.Sprintf("%s %s: %v", flag, name, err)}
	}
	c := Change{}
	for i, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		l = filepath.ToSlash(filepath.Clean(strings.ReplaceAll(l, "\\", "/")))
		if !filepath.IsLocal(l) {
			return nil, &UsageError{Msg: fmt.Sprintf("%s %s:%d: %q is not a path inside the repository (want one repo-relative path per line)", flag, name, i+1, l)}
		}
		c[l] = nil
	}
	return c, nil
}

// Files lists the change's files, sorted.
func (c Change) Files() []string {
	var out []string
	for f := range c {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Touches reports whether the change touched a line in [from, to] of file
// (always, for a file --files names).
func (c Change) Touches(file string, from, to int) bool {
	ranges, ok := c[file]
	if !ok {
		return false
	}
	if ranges == nil {
		return true
	}
	for _, r := range ranges {
		if r[0] <= to && r[1] >= from {
			return true
		}
	}
	return false
}
