// Package apply is `oracle apply`: the guard each operation of a ticket
// describes, written into the code (mutate/edit's Guard), the whole ticket or
// nothing.
package apply

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/generator"
	"github.com/oracle-ts/oracle/internal/atomicfile"
	"github.com/oracle-ts/oracle/manifest"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// Status is what became of one operation's guard edit.
type Status string

const (
	Applied   Status = "applied"
	Unchanged Status = "unchanged" // already guarded
	Refused   Status = "refused"
)

// Edit is the guard edit of one operation.
type Edit struct {
	ID       string `json:"id"`
	Function string `json:"function"`
	File     string `json:"file"` // repo-relative
	Status   Status `json:"status"`
	Reason   string `json:"reason,omitempty"` // refused: why the edit is not safe
	Line     int    `json:"line,omitempty"`   // refused: the line the reason is about, when known
	Diff     string `json:"diff,omitempty"`   // applied: the unified diff
}

// Edits computes the guard edit of every operation of the ticket, operation
// after operation on the file as the previous ones left it. Nothing is
// written: Write does that, and only when no operation was refused (a
// ticket is applied whole or not at all). The returned map holds the new
// contents of the files that change.
func Edits(p *callgraph.Program, t *manifest.Ticket) ([]Edit, map[string][]byte, error) {
	root := p.Root()
	contents := map[string][]byte{}
	var edits []Edit
	for i := range t.Operations {
		op := &t.Operations[i]
		e := Edit{ID: op.ID, Function: op.Function.String(), File: op.Function.File}
		src, ok := contents[e.File]
		if !ok {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.File)))
			if err != nil {
				return nil, nil, err
			}
			src = b
		}
		// Locate on the current contents (an earlier operation may have edited
		// the file): parse them afresh.
		f := analyzer.Parse(e.File, src)
		loc, errs := locateIn(p, f, op)
		if len(errs) > 0 {
			return nil, nil, errs
		}
		out, changed, err := edit.Guard(edit.Target{Path: e.File, Src: src, Fn: loc.Func, Flag: edit.Flag{Param: op.Flag.Param, Props: op.Flag.Props}}, loc.Wrap, op.Default)
		var refusal *edit.Refusal
		switch {
		case errors.As(err, &refusal):
			e.Status, e.Reason, e.Line = Refused, refusal.Reason, refusal.Line
		case err != nil:
			return nil, nil, fmt.Errorf("%s: %w", op.ID, err)
		case !changed:
			e.Status = Unchanged
		default:
			e.Status, e.Diff = Applied, edit.Diff(e.File, src, out)
			contents[e.File] = out
		}
		edits = append(edits, e)
	}
	return edits, contents, nil
}

// locateIn checks an operation against a parsed file (its current contents).
func locateIn(p *callgraph.Program, f *analyzer.File, op *manifest.Operation) (*generator.Located, manifest.Errors) {
	fn, err := callgraph.FindFunction(f, op.Function.Name)
	if err != nil {
		return nil, manifest.Errors{{Pos: op.Function.Pos, Field: fmt.Sprintf("operations[%d].function", op.Index), Message: err.Error()}}
	}
	wrap, e := generator.FindCall(fn, op.Wrap, fmt.Sprintf("operations[%d].wrap", op.Index))
	if e != nil {
		return nil, manifest.Errors{e}
	}
	// The flag and the preserved calls are checked as gen checks them.
	if _, errs := generator.Locate(p, op); len(errs) > 0 {
		return nil, errs
	}
	return &generator.Located{File: f, Func: fn, Wrap: wrap}, nil
}

// Write writes the new contents atomically, unless an edit was refused.
func Write(root string, edits []Edit, contents map[string][]byte) error {
	for _, e := range edits {
		if e.Status == Refused {
			return fmt.Errorf("not applied: %s was refused", e.ID)
		}
	}
	for rel, data := range contents {
		dst := filepath.Join(root, filepath.FromSlash(rel))
		info, err := os.Stat(dst)
		if err != nil {
			return err
		}
		if err := atomicfile.Write(dst, data, info.Mode().Perm()); err != nil {
			return fmt.Errorf("writing %s: %w", rel, err)
		}
	}
	return nil
}
