package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/oracle-ts/oracle/generator"
	"github.com/oracle-ts/oracle/mutate"
)

type applyDoc struct {
	Schema     string        `json:"schema"`
	Ticket     string        `json:"ticket"`
	Operations []mutate.Edit `json:"operations"`
}

func runApply(args []string, stdout, stderr io.Writer) int {
	v := newVerb("apply", "apply [--json] [--dry-run] [--root DIR] MANIFEST", "oracle.apply/v1", stderr)
	dryRun := v.fs.Bool("dry-run", false, "print the diff, write nothing")
	asJSON := v.json
	pos, root, code, ok := v.parse(args, 1)
	if !ok {
		return code
	}
	// The same inputs as gen and prove, validated the same way: oracle.yaml,
	// the fixtures an operation names, the manifest.
	noteRoot(stderr, root, pos[0])
	in, err := generator.Load(root, pos[0])
	if err != nil {
		return reportInputError(err, "oracle.apply/v1", *asJSON, stdout, stderr)
	}
	defer in.Program.Close()
	t := in.Ticket
	edits, contents, err := mutate.Apply(in.Program, t)
	if err != nil {
		return reportInputError(err, "oracle.apply/v1", *asJSON, stdout, stderr)
	}
	code = exitOK
	for _, e := range edits {
		if e.Status == mutate.EditRefused {
			code = exitFail
		}
	}
	if code == exitOK && !*dryRun {
		if err := mutate.WriteEdits(root, edits, contents); err != nil {
			fmt.Fprintf(stderr, "oracle apply: %v\n", err)
			return exitError
		}
	}
	if *asJSON {
		doc := applyDoc{Schema: "oracle.apply/v1", Ticket: t.Ticket, Operations: edits}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		if err := enc.Encode(doc); err != nil {
			return exitError
		}
		return code
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
	return code
}
