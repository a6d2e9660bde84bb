// Command oracle writes and proves behavioral oracles for TypeScript functions
// changed by automated pipelines. See README.md and the SPEC for the contract.
//
// This package is the command line only: flags, output and exit codes. The work
// is done by the packages it calls.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// version and commit are stamped by the release build (scripts/build,
// scripts/npm-pack):
//
//	go build -ldflags "-X main.version=0.6.0 -X main.commit=$(git rev-parse HEAD)" ./cmd/oracle
//
// A build that does not stamp them gets the version below and the commit Go's
// VCS stamping recorded (when it did: -buildvcs=false, or a build outside a
// git checkout, records none).
var (
	version  = "0.6.0-dev"
	commit   = ""
	modified = "" // "true": built from a checkout with uncommitted changes
)

// versionLine is what `oracle --version` prints: the version and the commit
// the binary was built from.
func versionLine() string {
	c, dirty := commit, ""
	if modified == "true" {
		dirty = ", modified"
	}
	if c == "" {
		c = "unknown"
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					c = s.Value
				case "vcs.modified":
					if s.Value == "true" {
						dirty = ", modified"
					}
				}
			}
		}
	}
	if len(c) > 12 {
		c = c[:12]
	}
	return fmt.Sprintf("oracle %s (commit %s%s)", version, c, dirty)
}

// Exit codes, for every verb (SPEC "Output and exit codes").
const (
	exitOK    = 0 // PASS, SKIP, or the verb did what was asked
	exitFail  = 1 // FAIL
	exitUsage = 2 // usage, manifest or configuration error
	exitError = 3 // the tool or the environment failed
)

// verbList are the verbs in the order the usage lists them, each with its
// command and what it does in a line or two.
var verbList = []struct {
	name, does string
	run        verbFunc
	// watches: the verb stops its runs and removes its sandbox when its
	// context ends (an interrupt); the others end at once.
	watches bool
}{
	{"gen", "write the behavioral oracle of each operation of a ticket manifest", runGen, false},
	{"prove", "prove each oracle in a sandbox: green on the code, red on red-first\nand on every mutant; a verdict with an attribution", runProve, true},
	{"apply", "write the guard each operation describes", runApply, false},
	{"gate", "the task-scoped mutation gate: mutants on the lines a change wrote,\nrun against the tests that execute them; PASS/FAIL/SKIP", runGate, true},
	{"gate merge", "join the --json documents of a gate's shards into one decision", runGateMerge, false},
	{"audit", "what the tests cannot see: exported functions no test executes,\nvacuous tests, mocks that drift from the code", runAudit, true},
	{"graph", "print the symbol-pinned call graph of the repository (or of the\nfunctions named)", runGraph, false},
}

// usage is the top-level usage: each verb's synopsis as its own flag set
// prints it (`oracle VERB -h`), so it lists every flag the verb has.
func usage() string {
	defer func(w io.Writer) { helpOut = w }(helpOut)
	var b strings.Builder
	b.WriteString("usage: oracle [-C DIR] <verb> [flags] [args]\n\n  -C DIR  run as if oracle was started in DIR\n\nverbs:\n")
	for _, v := range verbList {
		var help bytes.Buffer
		run(append(strings.Fields(v.name), "-h"), &help, io.Discard)
		synopsis, _, _ := strings.Cut(help.String(), "\n")
		synopsis = strings.TrimPrefix(synopsis, "usage: oracle ")
		fmt.Fprintf(&b, "  %s\n        %s\n", synopsis, strings.ReplaceAll(v.does, "\n", "\n        "))
	}
	b.WriteString("\n  oracle --version    the version and the commit it was built from\n  oracle help VERB    a verb's flags (also: oracle VERB -h)\n")
	return b.String()
}

// stdin is what "-" reads (gate --files-from -); tests replace it.
var stdin io.Reader = os.Stdin

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command, with its streams, so tests can call it.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		// Last resort: a bug must not print a Go stack trace at a user.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "oracle: internal error: %v\n(this is a bug in oracle; please report it with the command you ran)\n", r)
			code = exitError
		}
	}()
	if len(args) >= 2 && args[0] == "-C" {
		if err := os.Chdir(args[1]); err != nil {
			fmt.Fprintf(stderr, "oracle: -C %s: %v\n", args[1], err)
			return exitUsage
		}
		args = args[2:]
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return exitUsage
	}
	helpOut = stdout
	switch args[0] {
	case "--version", "-version", "version":
		fmt.Fprintln(stdout, versionLine())
		return exitOK
	case "-h", "-help", "--help", "help":
		if len(args) == 2 && args[0] == "help" {
			for _, v := range verbList {
				if v.name == args[1] && !strings.Contains(v.name, " ") {
					return run([]string{args[1], "-h"}, stdout, stderr)
				}
			}
			fmt.Fprintf(stderr, "oracle: no verb %q\n\n%s", args[1], usage())
			return exitUsage
		}
		fmt.Fprint(stdout, usage())
		return exitOK
	}
	// The verb the arguments name, the longest name that matches (gate
	// merge, not gate).
	best, words := -1, 0
	for i, v := range verbList {
		n := len(strings.Fields(v.name))
		if n > words && len(args) >= n && strings.Join(args[:n], " ") == v.name {
			best, words = i, n
		}
	}
	if best >= 0 {
		v := verbList[best]
		return runVerb(v.name, v.watches, v.run, args[words:], stdout, stderr)
	}
	var names []string
	for _, v := range verbList {
		if !strings.Contains(v.name, " ") {
			names = append(names, v.name)
		}
	}
	if m := didYouMean(args[0], names); m != "" {
		fmt.Fprintf(stderr, "oracle: unknown verb %q (did you mean %s?); oracle help lists the verbs\n", args[0], m)
		return exitUsage
	}
	fmt.Fprintf(stderr, "oracle: unknown verb %q\n\n%s", args[0], usage())
	return exitUsage
}

// jsonFlag reports whether the command line asks for --json.
func jsonFlag(args []string) bool {
	for _, a := range args {
		switch a {
		case "--json", "-json", "--json=true", "-json=true":
			return true
		case "--":
			return false
		}
	}
	return false
}
