// Command oracle writes and proves behavioral oracles for TypeScript functions
// changed by automated pipelines. See README.md and the SPEC for the contract.
//
// This package is the command line only: flags, output and exit codes. The work
// is done by the packages it calls.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
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

const usage = `usage: oracle [-C DIR] <verb> [flags] [args]

  -C DIR  run as if oracle was started in DIR

verbs:
  gen [--json] [--dry-run] [--root DIR] MANIFEST
        write the behavioral oracle of each operation of a ticket manifest
  prove [--json] [--report FILE] [--timeout D] [--runner long-lived|process] [--root DIR] MANIFEST
        prove each oracle in a sandbox: green on the code, red on red-first
        and on every mutant; a verdict with an attribution
  apply [--json] [--dry-run] [--root DIR] MANIFEST
        write the guard each operation describes
  gate [--base REV | --files-from FILE] [--threshold N] [--json] [--isolate] [--root DIR]
        the task-scoped mutation gate: mutants in the functions a change
        touched, run against the tests that run them; PASS/FAIL/SKIP
  audit [--json] [--root DIR] [PATH...]
        deterministic evidence of what the tests cannot see: exported
        functions no test runs un-stubbed (blind-function)
  graph [--json] [--root DIR] [FILE[#FUNCTION] ...]
        print the symbol-pinned call graph of the repository (or of the
        functions named)

  oracle --version    the version and the commit it was built from
  oracle help VERB    a verb's flags (also: oracle VERB -h)
`

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
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	helpOut = stdout
	switch args[0] {
	case "--version", "-version", "version":
		fmt.Fprintln(stdout, versionLine())
		return exitOK
	case "graph":
		return runGraph(args[1:], stdout, stderr)
	case "gen":
		return runGen(args[1:], stdout, stderr)
	case "prove":
		return runProve(args[1:], stdout, stderr)
	case "apply":
		return runApply(args[1:], stdout, stderr)
	case "audit":
		return runAudit(args[1:], stdout, stderr)
	case "gate":
		return runGate(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		if len(args) == 2 && args[0] == "help" {
			switch args[1] {
			case "graph", "gen", "prove", "apply", "audit", "gate":
				return run([]string{args[1], "-h"}, stdout, stderr)
			}
			fmt.Fprintf(stderr, "oracle: no verb %q\n\n%s", args[1], usage)
			return exitUsage
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "oracle: unknown verb %q\n\n%s", args[0], usage)
	return exitUsage
}
