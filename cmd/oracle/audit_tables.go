package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/apply"
	"github.com/oracle-ts/oracle/audit"
	"github.com/oracle-ts/oracle/generator"
	"github.com/oracle-ts/oracle/internal/text"
	"github.com/oracle-ts/oracle/manifest"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
)

// The requirements traceability table of `audit --tables` (SPEC "The
// validator's three tables"). audit may not import the verbs (gen, apply,
// prove live in package mutate and generator): the rows are computed here,
// with what those verbs use, and handed to audit's table writer as data.

// ticketManifests are the ticket manifests of dir (relative to the
// working directory, or absolute; in the repository), or, dir "", of
// tickets/ under root when it exists: the .yaml and .yml files under it,
// sorted, repo-relative.
func ticketManifests(root, dir string) ([]string, error) {
	abs := filepath.Join(root, "tickets")
	if dir != "" {
		abs = dir
		if !filepath.IsAbs(dir) {
			abs, _ = filepath.Abs(dir)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("--tickets %s: no such directory", dir)
		}
		if _, err := repoRel(root, abs); err != nil {
			// A manifest is named by its path in the repository: in its
			// row, and in the header of the oracle gen writes for it (the
			// oracle cell compares those bytes).
			return nil, fmt.Errorf("--tickets %s: outside the repository %s: the ticket manifests are read as files of the repository (their rows, and the oracles gen writes, name them by their path in it): put them under it, as tickets/", dir, root)
		}
	} else if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, nil
	}
	var out []string
	err := filepath.WalkDir(abs, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != abs) {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			rel, err := repoRel(root, p)
			if err != nil {
				return err
			}
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// requirement is one row of the requirements traceability table as read
// before any test runs, and the operation whose proof is still to run (nil
// when the row is complete: no oracle to prove, or a manifest's error).
type requirement struct {
	row   audit.RequirementRow
	proof *generator.Operation
}

// readRequirements reads and checks every ticket manifest (ticketManifests)
// before any test runs: one requirement per operation, nil when there is
// no manifest (no table). Per operation: implemented (apply's dry run makes
// no change: the guard is in the code as apply writes it) and oracle (the
// generated oracle is on disk with the bytes gen writes now); proven is
// proveRequirements'. A manifest that cannot be read or does not match the
// code is a row of its own (manifestRow): one bad ticket never hides the
// others, nor the report.
func readRequirements(ctx context.Context, root string, manifests []string) []requirement {
	if len(manifests) == 0 {
		return nil
	}
	reqs := []requirement{}
	for _, m := range manifests {
		rs, err := requirementsOf(ctx, root, m)
		if err != nil {
			rs = []requirement{{row: manifestRow(m, err)}}
		}
		reqs = append(reqs, rs...)
	}
	return reqs
}

// proveRequirements completes the rows with proven: the oracle gen writes
// now passes on the code and fails on red-first, the code with the guard
// removed (two runs of the repository's runner, vitest or jest, in a
// sandbox the proofs share; r nil, the audit
// is static: UNKNOWN). nil when there is no manifest.
func proveRequirements(ctx context.Context, root string, reqs []requirement, r runner.Runner) ([]audit.RequirementRow, error) {
	if reqs == nil {
		return nil, nil
	}
	rows := make([]audit.RequirementRow, 0, len(reqs))
	box := &proofBox{root: root, r: r}
	defer box.close()
	for _, q := range reqs {
		if q.proof != nil {
			q.row.Proven = provenVerdict(ctx, root, q.proof, box)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		rows = append(rows, q.row)
	}
	return rows, nil
}

// requirementsOf are the requirements of one manifest, read and checked
// against the code (no test runs; on jest, jest says which oracle paths it
// runs: jestTakes, as for gen).
func requirementsOf(ctx context.Context, root, m string) ([]requirement, error) {
	in, err := generator.Load(root, filepath.Join(root, filepath.FromSlash(m)))
	if err != nil {
		return nil, err
	}
	defer in.Program.Close()
	plan, err := generator.Plan(in)
	if err != nil {
		return nil, err
	}
	if err := jestTakes(ctx, root, in, plan); err != nil {
		return nil, err
	}
	edits, _, err := apply.Edits(in.Program, in.Ticket)
	if err != nil {
		return nil, err
	}
	var reqs []requirement
	for i, o := range plan.Operations {
		q := requirement{row: audit.RequirementRow{Manifest: m, Operation: o.ID, Function: o.Function}}
		if i < len(edits) && edits[i].ID == o.ID {
			q.row.Implemented = implementedVerdict(m, edits[i])
		} else {
			q.row.Implemented = audit.Verdict{Cell: audit.CellUnknown, File: m, Evidence: "apply gave no edit for the operation"}
		}
		switch o.Status {
		case generator.StatusGenerated:
			q.row.Oracle = oracleVerdict(root, o)
			q.proof = o
		default:
			q.row.Oracle = oracleLimit(m, o)
			q.row.Proven = q.row.Oracle
		}
		reqs = append(reqs, q)
	}
	return reqs, nil
}

// oracleLimit is the oracle (and proven) cell of an operation gen writes no
// oracle for: it cannot observe a call (a function of the function's own
// module, a package's), or no fixture covers the function. A limit of
// oracle's, not a fault of the code: UNKNOWN with gen's reason, never FAIL
// (an implemented requirement would fail the gate for oracle's reason).
func oracleLimit(m string, o *generator.Operation) audit.Verdict {
	return audit.Verdict{Cell: audit.CellUnknown, File: m, Evidence: fmt.Sprintf("gen writes no oracle for this operation (%s): %s; a limit of oracle's, not the code's", o.Status, o.Reason)}
}

// manifestOperation is the operation column of a manifest's own row.
const manifestOperation = "(the manifest)"

// manifestRow is the row of a manifest that cannot be read or does not
// match the code: FAIL in every cell, its errors (file:line each) the note.
func manifestRow(m string, err error) audit.RequirementRow {
	v := audit.Verdict{Cell: audit.CellFail, File: m}
	msg := err.Error()
	var es manifest.Errors
	if errors.As(err, &es) && len(es) > 0 {
		v.File, v.Line = filepath.ToSlash(es[0].File), es[0].Line
		lines := make([]string, len(es))
		for i, e := range es {
			lines[i] = e.Error()
		}
		msg = strings.Join(lines, "; ")
	}
	v.Evidence = "the manifest cannot be used, none of its operations is checked: " + msg
	return audit.RequirementRow{Manifest: m, Operation: manifestOperation, Implemented: v, Oracle: v, Proven: v}
}

func implementedVerdict(m string, e apply.Edit) audit.Verdict {
	switch e.Status {
	case apply.Unchanged:
		return audit.Verdict{Cell: audit.CellPass}
	case apply.Applied:
		return audit.Verdict{Cell: audit.CellFail, File: e.File, Line: firstChangedLine(e.Diff), Evidence: "the guard is not in the code: `oracle apply` would still edit " + e.Function + " (`oracle apply --dry-run " + m + "` shows the diff)"}
	}
	return audit.Verdict{Cell: audit.CellFail, File: e.File, Line: e.Line, Evidence: "the guard is not in the code, and `oracle apply` refuses to write it: " + e.Reason}
}

// firstChangedLine is the new-file line of a unified diff's first hunk, 0
// when there is none.
func firstChangedLine(diff string) int {
	for _, l := range strings.Split(diff, "\n") {
		if rest, ok := strings.CutPrefix(l, "@@ -"); ok {
			var a, b, c int
			if _, err := fmt.Sscanf(rest, "%d,%d +%d", &a, &b, &c); err == nil {
				return c
			}
			if _, err := fmt.Sscanf(rest, "%d +%d", &a, &c); err == nil {
				return c
			}
		}
	}
	return 0
}

// oracleVerdict is the oracle cell: the oracle gen would write is on disk,
// byte for byte.
func oracleVerdict(root string, o *generator.Operation) audit.Verdict {
	old, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(o.File)))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return audit.Verdict{Cell: audit.CellFail, File: o.File, Evidence: "no oracle: `oracle gen` would write " + o.File}
	case err != nil:
		return audit.Verdict{Cell: audit.CellUnknown, File: o.File, Evidence: "cannot read the oracle: " + err.Error()}
	case string(old) != string(o.Content):
		return audit.Verdict{Cell: audit.CellFail, File: o.File, Evidence: "the oracle differs from what `oracle gen` writes now (stale): run `oracle gen`"}
	}
	return audit.Verdict{Cell: audit.CellPass}
}

// proofBox is the sandbox the proofs of all the operations share, made at
// the first proof.
type proofBox struct {
	root string
	r    runner.Runner
	pool *sandbox.Pool
	sb   *sandbox.Sandbox
}

func (b *proofBox) get() (*sandbox.Sandbox, error) {
	if b.sb == nil {
		b.pool = lab.SandboxPool(b.root, "", 1, b.r)
		sbs, err := b.pool.Grow(1)
		if err != nil {
			return nil, err
		}
		b.sb = sbs[0]
	}
	return b.sb, nil
}

func (b *proofBox) close() {
	if b.pool != nil {
		b.pool.Close()
	}
}

// provenVerdict runs the oracle gen writes now for o in the shared
// sandbox, on the code (it must pass) and on red-first, the code with the
// guard removed (it must fail).
func provenVerdict(ctx context.Context, root string, o *generator.Operation, box *proofBox) audit.Verdict {
	r := box.r
	at := func(c audit.Cell, format string, a ...any) audit.Verdict {
		return audit.Verdict{Cell: c, File: o.File, Evidence: fmt.Sprintf(format, a...)}
	}
	if r == nil {
		return at(audit.CellUnknown, "static audit: the oracle was not run")
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(o.Located.File.Path)))
	if err != nil {
		return at(audit.CellUnknown, "%v", err)
	}
	ms, err := operationMutants(o, src)
	if err != nil {
		return at(audit.CellUnknown, "cannot remove the guard: %v", err)
	}
	ms = slices.DeleteFunc(ms, func(m edit.Mutant) bool { return m.Operator != edit.RedFirst })
	if len(ms) == 0 {
		return at(audit.CellUnknown, "no red-first for %s", o.Function)
	}
	sb, err := box.get()
	if err != nil {
		return at(audit.CellUnknown, "sandbox: %v", err)
	}
	if err := sb.WriteFile(o.File, o.Content); err != nil {
		return at(audit.CellUnknown, "sandbox: %v", err)
	}
	defer sb.Restore(o.File)
	l := &lab.Lab{Root: sb.Root, Files: sb, Runner: r, MarkerPrefix: o.ID, Isolate: true}
	res, err := l.Execute(ctx, []string{o.File}, ms[:1])
	if err != nil || res == nil || len(res.Baselines) == 0 {
		return at(audit.CellUnknown, "the oracle could not run: %v", err)
	}
	if b := res.Baselines[0]; b.Outcome != lab.Passed {
		if why := audit.NeedsOutside(b.Detail); why != "" {
			// The sandbox is a copy of the repository's files: what the run
			// wants besides (.git, the network, a key) decides nothing of
			// the code (as the with-real cell's UNKNOWN).
			msg := text.FirstLine(b.Detail, 200)
			if why = text.FirstLine(why, 200); !strings.Contains(msg, why) {
				msg += " (" + why + ")"
			}
			return at(audit.CellUnknown, "the oracle cannot run in the sandbox, a copy of the repository's files without .git, for want of something outside them: %s", msg)
		}
		return at(audit.CellFail, "the oracle does not pass on the code as it is (%s): %s", b.Outcome, text.FirstLine(b.Detail, 200))
	}
	if len(res.Mutants) == 0 {
		return at(audit.CellUnknown, "the guard-removed run did not happen")
	}
	m := res.Mutants[0]
	switch {
	case m.Outcome.Kills():
		return at(audit.CellPass, "")
	case m.Outcome == lab.Survived:
		return at(audit.CellFail, "the oracle still passes with the guard removed (red-first at %s:%d): it does not prove the guard", path.Clean(o.Located.File.Path), m.Mutant.Line)
	}
	return at(audit.CellUnknown, "with the guard removed the oracle's run is %s: %s", m.Outcome, text.FirstLine(m.Detail, 200))
}
