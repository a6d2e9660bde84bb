package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// findRoot returns the repository root: the --root flag when given, else the
// nearest directory from the working directory up that holds oracle.yaml, else
// the nearest holding .git, else the working directory.
func findRoot(flagRoot string) (string, error) {
	if flagRoot != "" {
		abs, err := filepath.Abs(flagRoot)
		if err != nil {
			return "", err
		}
		info, err := os.Stat(abs)
		if err != nil {
			return "", fmt.Errorf("--root %s: %v", flagRoot, err)
		}
		if !info.IsDir() {
			return "", fmt.Errorf("--root %s: not a directory", flagRoot)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for _, marker := range []string{"oracle.yaml", ".git"} {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
				return dir, nil
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return wd, nil
}

// repoRel turns a path given on the command line (relative to the working
// directory, or absolute) into a repo-relative slash path, refusing one that
// leaves the repository.
func repoRel(root, arg string) (string, error) {
	abs := arg
	if !filepath.IsAbs(abs) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		abs = filepath.Join(wd, arg)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the repository %s", arg, root)
	}
	return filepath.ToSlash(rel), nil
}

// parseFlags parses flags given before, between or after the positional
// arguments (`oracle prove MANIFEST --json` as well as `oracle prove --json
// MANIFEST`), and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// verb holds the flags every verb has (--json, --root) and parses a command
// line the same way for all of them.
type verb struct {
	name   string
	usage  string
	fs     *flag.FlagSet
	json   *bool
	root   *string
	stderr io.Writer
}

// newVerb starts a verb's flag set; the caller adds its own flags before parse.
func newVerb(name, usage, schema string, stderr io.Writer) *verb {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// parse says what is wrong itself, in a line (with the flag meant, when
	// it can tell), not the flag package's message and the whole usage.
	fs.SetOutput(io.Discard)
	v := &verb{name: name, fs: fs, stderr: stderr,
		json: fs.Bool("json", false, "print the "+schema+" JSON document"),
		root: fs.String("root", "", "repository root `DIR` (default: nearest directory up with oracle.yaml, else .git, else the working directory)")}
	v.usage = usage
	fs.Usage = func() {}
	return v
}

// timingsFlag adds --timings: this run's measures (seconds, phases, the
// slowest runs, mutants from the cache) in the output, which without it is
// the same bytes for the same inputs (SPEC "Output and exit codes").
func (v *verb) timingsFlag() *bool {
	return v.fs.Bool("timings", false, "also print this run's measures: seconds, phase timings, the slowest runs, mutants from the cache (without it, the same inputs give byte-identical output)")
}

// helpOut is where `VERB -h` and `oracle help VERB` print: standard output
// (help asked for is not an error). run sets it.
var helpOut io.Writer = os.Stdout

// printUsage prints the verb's usage line and its flags, spelled as the
// usage spells them (--json, --base REV), each with its default unless its
// help says it (or it has none: off, empty).
func (v *verb) printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: oracle "+v.usage)
	places := placeholders(v.usage)
	v.fs.VisitAll(func(f *flag.Flag) {
		line := "  --" + f.Name
		if p := places[f.Name]; p != "" {
			line += " " + p
		}
		help := strings.ReplaceAll(f.Usage, "`", "")
		fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(help, "\n", "\n    \t"))
		if f.DefValue != "" && f.DefValue != "false" && !strings.Contains(help, "default") {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// flagError says what is wrong with a command line the flag package
// refused, in one line: an unknown flag with the one meant when it is near
// ("did you mean --threshold?"), a value that does not parse.
func (v *verb) flagError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		var names []string
		v.fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		shown := "--" + name
		if len(name) == 1 { // a one-letter flag is written -C
			shown = "-" + name
		}
		msg = "unknown flag " + shown
		if name == "C" { // git's -C DIR: oracle's is the whole command's, before the verb
			msg += fmt.Sprintf(": -C DIR goes before the verb (oracle -C DIR %s ...); after it, --root DIR names the repository", v.name)
		} else if m := didYouMean(name, names); m != "" {
			msg += " (did you mean --" + m + "?)"
		}
	} else {
		msg = strings.Replace(msg, "for flag -", "for --", 1)
	}
	return fmt.Sprintf("oracle %s: %s; oracle help %s lists its flags", v.name, msg, v.name)
}

// wantsHelp reports whether the command line asks for the verb's help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

// parse parses args, checks the number of positional arguments (exactly n;
// n < 0: any) and finds the repository root. A non-nil error ends the
// command: help asked for (exit 0), a command line error (exit 2, said on
// stderr with the usage).
func (v *verb) parse(args []string, n int) (pos []string, root string, err error) {
	if wantsHelp(args) {
		v.printUsage(helpOut)
		return nil, "", &exitStatus{code: exitOK}
	}
	pos, err = parseFlags(v.fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return nil, "", &exitStatus{code: exitOK}
		}
		line := v.flagError(err)
		fmt.Fprintln(v.stderr, line)
		return nil, "", &exitStatus{code: exitUsage, line: line, said: true}
	}
	if n >= 0 && len(pos) != n {
		var line string
		if n == 0 {
			line = fmt.Sprintf("oracle %s: takes no arguments, got %q", v.name, strings.Join(pos, " "))
		} else {
			fields := strings.Fields(v.usage)
			line = fmt.Sprintf("oracle %s: want %d argument(s), %s; got %d", v.name, n, strings.Join(fields[len(fields)-n:], " "), len(pos))
		}
		fmt.Fprintln(v.stderr, line)
		v.printUsage(v.stderr)
		return nil, "", &exitStatus{code: exitUsage, line: line, said: true}
	}
	root, err = findRoot(*v.root)
	if err != nil {
		return nil, "", &exitStatus{code: exitUsage, msg: err.Error()}
	}
	return pos, root, nil
}

// noteRoot tells, on stderr, which repository root a manifest outside it is
// read against: its paths are relative to that root, not to the manifest's
// own repository (pass --root, or run oracle from there).
func noteRoot(stderr io.Writer, root, manifestPath string) {
	abs, err := filepath.Abs(manifestPath)
	if err != nil {
		return
	}
	if rel, err := filepath.Rel(root, abs); err == nil && filepath.IsLocal(rel) {
		return
	}
	fmt.Fprintf(stderr, "note: the manifest %s is outside the repository root %s (found from the working directory); its paths are read against that root: pass --root to use another\n", manifestPath, root)
}

// existingRepoFile is repoRel for a file that must exist.
func existingRepoFile(root, arg string) (string, error) {
	rel, err := repoRel(root, arg)
	if err != nil {
		return "", err
	}
	if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil || info.IsDir() {
		return "", fmt.Errorf("%s: no such file", arg)
	}
	return rel, nil
}
