package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/oracle-ts/oracle/generator"
	"github.com/oracle-ts/oracle/manifest"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// genDoc is the `oracle gen --json` document (SPEC "JSON documents").
type genDoc struct {
	Schema     string  `json:"schema"`
	Ticket     string  `json:"ticket"`
	Operations []genOp `json:"operations"`
}

type genOp struct {
	ID       string `json:"id"`
	Function string `json:"function"`
	Status   string `json:"status"`
	File     string `json:"file,omitempty"`
	Fixture  string `json:"fixture,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Unchanged: generated, and the file on disk already had these bytes.
	Unchanged bool          `json:"unchanged,omitempty"`
	Warnings  []string      `json:"warnings,omitempty"`
	Observed  []genObserved `json:"observed,omitempty"`
}

type genObserved struct {
	Call     string `json:"call"`
	Role     string `json:"role"`
	Target   string `json:"target"`
	Strategy string `json:"strategy"`
	Why      string `json:"why"`
}

// errorDoc is the --json document for a run that stopped on invalid input.
type errorDoc struct {
	Schema string            `json:"schema"`
	Errors []*manifest.Error `json:"errors"`
}

func runGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	v := newVerb("gen", "gen [--json] [--dry-run] [--root DIR] MANIFEST", "oracle.gen/v1", stderr)
	dryRun := v.fs.Bool("dry-run", false, "plan and check, write nothing")
	asJSON := v.json
	pos, root, err := v.parse(args, 1)
	if err != nil {
		return err
	}
	in, res, err := loadPlan(ctx, root, pos[0], stderr)
	if err != nil {
		return err
	}
	defer in.Program.Close()
	if *dryRun {
		generator.MarkUnchanged(root, res)
	} else if err := generator.Write(root, res); err != nil {
		return err
	}
	code := exitOK
	doc := genDoc{Schema: "oracle.gen/v1", Ticket: res.Ticket, Operations: []genOp{}}
	for _, o := range res.Operations {
		g := genOp{ID: o.ID, Function: o.Function, Status: string(o.Status), Fixture: o.Fixture, Reason: o.Reason, Unchanged: o.Unchanged, Warnings: o.Warnings}
		if o.Status == generator.StatusGenerated {
			g.File = o.File
		}
		for _, ob := range o.Observed {
			g.Observed = append(g.Observed, genObserved{Call: ob.Call, Role: string(ob.Role), Target: ob.Target, Strategy: string(ob.Strategy), Why: ob.Why})
		}
		if o.Status == generator.StatusError {
			code = exitFail
		}
		doc.Operations = append(doc.Operations, g)
	}
	if *asJSON {
		if err := writeJSON(stdout, doc); err != nil {
			return err
		}
		return exited(code)
	}
	for _, o := range res.Operations {
		for _, w := range o.Warnings {
			fmt.Fprintf(stderr, "warning: %s: %s\n", o.ID, w)
		}
		switch o.Status {
		case generator.StatusGenerated:
			verb := "generated"
			switch {
			case o.Unchanged:
				verb = "unchanged" // no byte differs from the file on disk
			case *dryRun:
				verb = "would write"
			}
			fx := "no fixture"
			if o.Fixture != "" {
				fx = "fixture " + o.Fixture
			}
			fmt.Fprintf(stdout, "%-9s %s %s -> %s (%s)\n", verb, o.ID, o.Function, o.File, fx)
			for _, ob := range o.Observed {
				fmt.Fprintf(stdout, "          %s %s -> %s: %s (%s)\n", ob.Role, ob.Call, ob.Target, ob.Strategy, ob.Why)
			}
		case generator.StatusSkipped:
			fmt.Fprintf(stdout, "skipped   %s %s: %s\n", o.ID, o.Function, o.Reason)
		default:
			fmt.Fprintf(stdout, "error     %s %s: %s\n", o.ID, o.Function, o.Reason)
		}
	}
	return exited(code)
}

// loadPlan loads a manifest and plans its oracles (what gen writes, what
// prove proves; on jest, only where jest runs them: jestTakes). On no error
// the caller closes in.Program.
func loadPlan(ctx context.Context, root, manifestPath string, stderr io.Writer) (in generator.Input, res *generator.Result, err error) {
	noteRoot(stderr, root, manifestPath)
	in, err = generator.Load(root, manifestPath)
	if err != nil {
		return in, nil, inputError(err)
	}
	res, err = generator.Plan(in)
	if err != nil {
		in.Program.Close()
		return in, nil, inputError(err)
	}
	if err := jestTakes(ctx, root, in, res); err != nil {
		in.Program.Close()
		return in, nil, environment(err)
	}
	return in, res, nil
}

// jestTakes makes, on a repository whose oracles are jest files
// (in.Runner), every generated operation whose oracle jest would not run an
// error that says so (gen writes it not: exit 1; prove judges it FAIL
// [oracle], as any operation that cannot have an oracle): jest is asked
// which of the oracles' paths it takes as test files (runner.JestRunner's
// Finds: its own roots, testMatch or testRegex, testPathIgnorePatterns;
// nothing of them derived here). An error is jest's or the environment's.
func jestTakes(ctx context.Context, root string, in generator.Input, res *generator.Result) error {
	if !in.Runner.Jest {
		return nil
	}
	var files []string
	for _, o := range res.Operations {
		if o.Status == generator.StatusGenerated {
			files = append(files, o.File)
		}
	}
	if len(files) == 0 {
		return nil
	}
	found, err := runner.NewJest().Finds(ctx, root, files)
	if err != nil {
		return err
	}
	for _, o := range res.Operations {
		if o.Status == generator.StatusGenerated && !found[o.File] {
			o.Status, o.Content = generator.StatusError, nil
			o.Reason = fmt.Sprintf("jest would not run the oracle %s: it is not one of jest's test files (`jest --listTests --runTestsByPath %s` leaves it out: jest's roots, testMatch or testRegex, or testPathIgnorePatterns); set `out:` in oracle.yaml to a path jest's tests match (default: {dir}/__oracles__/{function}.{id}.oracle.test.ts)", o.File, o.File)
		}
	}
	return nil
}

// exited is the error a verb that said all it had to say ends with code
// with (nil for 0).
func exited(code int) error {
	if code == exitOK {
		return nil
	}
	return &exitStatus{code: code}
}

// writeJSON prints doc, indented, on w.
func writeJSON(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(doc)
}
