package main

import (
	"context"
	"fmt"
	"io"

	"github.com/oracle-ts/oracle/apply"
	"github.com/oracle-ts/oracle/generator"
)

type applyDoc struct {
	Schema     string       `json:"schema"`
	Ticket     string       `json:"ticket"`
	Operations []apply.Edit `json:"operations"`
}

func runApply(_ context.Context, args []string, stdout, stderr io.Writer) error {
	v := newVerb("apply", "apply [--json] [--dry-run] [--root DIR] MANIFEST", "oracle.apply/v1", stderr)
	dryRun := v.fs.Bool("dry-run", false, "print the diff, write nothing")
	asJSON := v.json
	pos, root, err := v.parse(args, 1)
	if err != nil {
		return err
	}
	// The same inputs as gen and prove, validated the same way: oracle.yaml,
	// the fixtures an operation names, the manifest.
	noteRoot(stderr, root, pos[0])
	in, err := generator.Load(root, pos[0])
	if err != nil {
		return inputError(err)
	}
	defer in.Program.Close()
	t := in.Ticket
	edits, contents, err := apply.Edits(in.Program, t)
	if err != nil {
		return inputError(err)
	}
	code := exitOK
	for _, e := range edits {
		if e.Status == apply.Refused {
			code = exitFail
		}
	}
	if code == exitOK && !*dryRun {
		if err := apply.Write(root, edits, contents); err != nil {
			return err
		}
	}
	if *asJSON {
		doc := applyDoc{Schema: "oracle.apply/v1", Ticket: t.Ticket, Operations: edits}
		if err := writeJSON(stdout, doc); err != nil {
			return err
		}
		return exited(code)
	}
	for _, e := range edits {
		switch e.Status {
		case "refused":
			fmt.Fprintf(stdout, "refused   %s %s: %s:%d: %s\n", e.ID, e.Function, e.File, e.Line, e.Reason)
		case "unchanged":
			fmt.Fprintf(stdout, "unchanged %s %s: already guarded\n", e.ID, e.Function)
		default:
			verb := "applied  "
			if *dryRun {
				verb = "would edit"
			}
			fmt.Fprintf(stdout, "%s %s %s\n", verb, e.ID, e.Function)
			if *dryRun {
				fmt.Fprint(stdout, e.Diff)
			}
		}
	}
	if code != exitOK {
		fmt.Fprintln(stdout, "nothing was written: a ticket is applied whole or not at all")
	}
	return exited(code)
}
