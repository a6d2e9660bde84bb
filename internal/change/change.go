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
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Change is what a change touched: per repo-relative file, the changed line
// ranges of its new version (nil: the whole file, as --files says).
type Change map[string][][2]int

// FromGit is `git diff --merge-base base HEAD` of the repository at
// root, limited to root, with the lines each hunk adds or changes.
func FromGit(root, base string) (Change, error) {
	git := func(args ...string) ([]byte, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if err != nil {
			return nil, fmt.Errorf("%s", strings.TrimSpace(errb.String()))
		}
		return out.Bytes(), nil
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("git is not installed: the gate reads the change from git (or give --files)")
	}
	if _, err := git("rev-parse", "--is-inside-work-tree"); err != nil {
		return nil, &UsageError{fmt.Sprintf("%s is not a git repository: run the gate in the repository's checkout, or give the changed files with --files", root)}
	}
	if _, err := git("rev-parse", "--verify", "--quiet", base+"^{commit}"); err != nil {
		msg := fmt.Sprintf("the base %s does not exist in this repository", base)
		if out, _ := git("rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(out)) == "true" {
			msg += ": this is a shallow clone; fetch the history the base needs (git fetch --deepen=50, or actions/checkout with fetch-depth: 0)"
		} else {
			msg += ": give an existing commit or branch with --base (default HEAD~1; a repository with one commit has no HEAD~1)"
		}
		return nil, &UsageError{msg}
	}
	out, err := git("diff", "--merge-base", base, "HEAD", "--relative", "-U0", "--no-color", "--no-ext-diff", "--no-renames")
	if err != nil {
		if strings.Contains(err.Error(), "no merge base") {
			return nil, &UsageError{fmt.Sprintf("%s and HEAD have no merge base (a shallow clone?): fetch more history (git fetch --deepen=50)", base)}
		}
		return nil, fmt.Errorf("git diff: %v", err)
	}
	return parseDiff(out), nil
}

var hunkRe = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)

// parseDiff reads a -U0 unified diff: the new-side line ranges of each file.
// A hunk that only deletes lines marks the lines around the deletion.
func parseDiff(out []byte) Change {
	c := Change{}
	file := ""
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "+++ "):
			file = ""
			if p := strings.TrimPrefix(line, "+++ "); p != "/dev/null" {
				file = strings.TrimPrefix(p, "b/")
				if _, ok := c[file]; !ok {
					c[file] = [][2]int{}
				}
			}
		case strings.HasPrefix(line, "@@ ") && file != "":
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
				c[file] = append(c[file], [2]int{start, start + 1})
				continue
			}
			c[file] = append(c[file], [2]int{start, start + n - 1})
		}
	}
	return c
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
			return nil, &UsageError{fmt.Sprintf("%s %s: %v", flag, listFile, errors.Unwrap(err))}
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, &UsageError{fmt.Sprintf("%s %s: %v", flag, name, err)}
	}
	c := Change{}
	for i, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		l = filepath.ToSlash(filepath.Clean(strings.ReplaceAll(l, "\\", "/")))
		if !filepath.IsLocal(l) {
			return nil, &UsageError{fmt.Sprintf("%s %s:%d: %q is not a path inside the repository (want one repo-relative path per line)", flag, name, i+1, l)}
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
