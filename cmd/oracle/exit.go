package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/oracle-ts/oracle/manifest"
)

// Exit codes of an interrupted run, as a shell reports a process killed by
// the signal.
const (
	exitInterrupt = 130 // SIGINT
	exitTerminate = 143 // SIGTERM
)

// verbFunc is a verb: it ends with nil (exit 0) or an error, which finish
// turns into the exit code, the message on stderr and, with --json, the
// errors[] of the verb's document. ctx ends on SIGINT or SIGTERM.
type verbFunc func(ctx context.Context, args []string, stdout, stderr io.Writer) error

// exitStatus ends a verb with code. Any other error is the tool or the
// environment failing (exit 3), said as "oracle VERB: error".
type exitStatus struct {
	code int
	msg  string          // what is wrong: "oracle VERB: msg" on stderr, the message of errors[]
	line string          // or: the whole line on stderr (not prefixed with the verb), the message of errors[]
	said bool            // line was already said on stderr (a command line error, with the usage after it)
	errs manifest.Errors // input errors with file:line:column and field: a line each on stderr, an entry each in errors[]
	note string          // said on stderr after errs
}

func (e *exitStatus) Error() string {
	switch {
	case e.line != "":
		return e.line
	case e.msg != "":
		return e.msg
	case len(e.errs) > 0:
		return e.errs.Error()
	}
	return fmt.Sprintf("exit %d", e.code)
}

// inputError is the exitStatus of invalid input: manifest.Errors (exit 2,
// each with file:line), a file named on the command line that is not there
// (exit 2), else the tool or the environment failing (exit 3).
func inputError(err error) error {
	var errs manifest.Errors
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A manifest or file named on the command line that is not there is
		// the caller's to fix, not a failure of the tool.
		return &exitStatus{code: exitUsage, line: "oracle: " + err.Error()}
	case errors.As(err, &errs):
		return &exitStatus{code: exitUsage, errs: errs, note: "nothing was written"}
	}
	return &exitStatus{code: exitError, line: "oracle: " + err.Error()}
}

// environment is err said as the environment's failing (exit 3), said so
// once ("environment: environment: ..." when err said it already).
func environment(err error) error {
	if strings.HasPrefix(err.Error(), "environment: ") {
		return err
	}
	return fmt.Errorf("environment: %w", err)
}

// interrupted is how a verb ended by a signal ends.
type interrupted struct {
	code int    // exitInterrupt or exitTerminate
	sig  string // context.Cause of the verb's context
	lost string // what the interrupt lost, and what was cleaned up
}

func (e *interrupted) Error() string { return "interrupted (" + e.sig + "): " + e.lost }

// interruptLost is what each verb says it lost when a signal ends it.
var interruptLost = map[string]string{
	"prove": "nothing was proved; the sandbox is removed",
	"gate":  "nothing was decided; the sandbox is removed",
	"audit": "nothing was decided; the sandbox is removed",
}

// exitCode maps the error a verb ended with to its exit code (SPEC "Output
// and exit codes", docs/reference.md "Exit codes"): nil 0, an *exitStatus
// or *interrupted their own code, anything else 3.
func exitCode(err error) int {
	var st *exitStatus
	var in *interrupted
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &st):
		return st.code
	case errors.As(err, &in):
		return in.code
	}
	return exitError
}

// errorEntries are the errors[] of the --json document of err: an input
// error's own errors (file, line, column, field), else the one message.
func errorEntries(verb string, err error) []*manifest.Error {
	var st *exitStatus
	var in *interrupted
	switch {
	case errors.As(err, &st) && len(st.errs) > 0:
		return st.errs
	case errors.As(err, &st) && st.said:
		// A command line error: the line that says it, not the usage text
		// printed after it.
		return []*manifest.Error{{Message: "invalid command line: " + strings.TrimPrefix(st.line, "oracle "+verb+": ")}}
	case errors.As(err, &st) && st.line != "":
		return []*manifest.Error{{Message: st.line}}
	case errors.As(err, &st) && st.msg != "":
		return []*manifest.Error{{Message: "oracle " + verb + ": " + st.msg}}
	case errors.As(err, &st):
		return []*manifest.Error{{Message: fmt.Sprintf("oracle %s ended with exit code %d", verb, st.code)}}
	case errors.As(err, &in):
		return []*manifest.Error{{Message: "oracle " + verb + ": " + in.Error()}}
	}
	return []*manifest.Error{{Message: "oracle " + verb + ": " + err.Error()}}
}

// say prints on stderr what err has to say that the verb did not say.
func say(verb string, err error, stderr io.Writer) {
	var st *exitStatus
	if !errors.As(err, &st) {
		fmt.Fprintf(stderr, "oracle %s: %v\n", verb, err)
		return
	}
	switch {
	case st.said:
	case st.line != "":
		fmt.Fprintln(stderr, st.line)
	case st.msg != "":
		fmt.Fprintf(stderr, "oracle %s: %s\n", verb, st.msg)
	}
	for _, e := range st.errs {
		fmt.Fprintln(stderr, e.Error())
	}
	if st.note != "" {
		fmt.Fprintln(stderr, st.note)
	}
}

// finish is the one way a verb ends: the exit code of err, its message on
// stderr and, with --json, when the verb printed no document, one document
// of the verb's schema with errors[] built from err (exit 2, 3, 130, 143).
func finish(verb string, asJSON, printed bool, err error, stdout, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	say(verb, err, stderr)
	code := exitCode(err)
	if !asJSON || printed || code == exitOK || code == exitFail {
		return code
	}
	schema := "oracle." + strings.Fields(verb)[0] + "/v1"
	if werr := writeJSON(stdout, errorDoc{Schema: schema, Errors: errorEntries(verb, err)}); werr != nil {
		fmt.Fprintf(stderr, "oracle %s: %v\n", verb, werr)
		return exitError
	}
	return code
}

// exitNow ends the process; tests replace it.
var exitNow = os.Exit

// runVerb runs a verb with its signals: SIGINT and SIGTERM end its context,
// and the verb ends with 130 or 143, like a shell reports a process the
// signal killed. A verb that watches its context (watches) stops its runs
// and removes its sandbox before it returns; any other ends at once (it
// has nothing to clean up), what it would still print on stdout dropped.
func runVerb(verb string, watches bool, run verbFunc, args []string, stdout, stderr io.Writer) int {
	intCtx, stopInt := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stopInt()
	ctx, stopTerm := signal.NotifyContext(intCtx, syscall.SIGTERM)
	defer stopTerm()
	asJSON := jsonFlag(args)
	out := &sealedWriter{w: stdout} // stderr stays the caller's: the progress line asks whether it is a terminal
	signalled := func() error {
		code := exitTerminate
		if intCtx.Err() != nil {
			code = exitInterrupt
		}
		lost := interruptLost[verb]
		if lost == "" {
			lost = "it was stopped"
		}
		return &interrupted{code: code, sig: context.Cause(ctx).Error(), lost: lost}
	}
	// The command ends once: the verb's return, or the signal for a verb
	// that does not watch its context, whichever comes first.
	var once sync.Once
	code := exitOK
	end := func(printed bool, err error) int {
		once.Do(func() { code = finish(verb, asJSON, printed, err, stdout, stderr) })
		return code
	}
	if !watches {
		defer context.AfterFunc(ctx, func() { exitNow(end(out.seal(), signalled())) })()
	}
	err := run(ctx, args, out, stderr)
	if ctx.Err() != nil {
		err = signalled()
	}
	return end(out.written(), err)
}

// sealedWriter counts what a verb wrote (did it print its document?) and,
// once sealed, drops what it writes.
type sealedWriter struct {
	mu     sync.Mutex
	w      io.Writer
	n      int
	sealed bool
}

func (s *sealedWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sealed {
		return len(p), nil
	}
	n, err := s.w.Write(p)
	s.n += n
	return n, err
}

// seal drops what comes after; it reports whether anything was written.
func (s *sealedWriter) seal() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sealed = true
	return s.n > 0
}

func (s *sealedWriter) written() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n > 0
}
