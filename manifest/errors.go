package manifest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Pos is a position in a manifest or in oracle.yaml.
//
// Line and Column are 1-based; Column counts characters (runes), as
// editors do, not bytes. A Column of 0 means the column is not known (YAML
// syntax errors report a line only). File is the file name as given to
// [ParseTicket] or [LoadTicket] (or "oracle.yaml" for the config).
type Pos struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// String renders p as "file:line:column", or "file:line" when the column is
// unknown.
func (p Pos) String() string {
	if p.Column > 0 {
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// IsValid reports whether p names a position (Line ≥ 1).
func (p Pos) IsValid() bool { return p.Line >= 1 }

// Error is one problem found in a manifest or in oracle.yaml.
type Error struct {
	Pos
	// Field is the path of the field the problem is about, such as
	// "operations[1].wrap" or "fixtures[0].file"; empty for problems with the
	// file as a whole (YAML syntax, encoding, not a mapping).
	Field string `json:"field,omitempty"`
	// Message says what is wrong and what was expected.
	Message string `json:"message"`
}

// Error renders e as "file:line:column: field: message" (the field part is
// left out when Field is empty, the column when it is unknown).
func (e *Error) Error() string {
	if e.Field == "" {
		return e.Pos.String() + ": " + e.Message
	}
	return e.Pos.String() + ": " + e.Field + ": " + e.Message
}

// Errors is every problem found in one file (or in a ticket and the files it
// names), sorted by file, line and column. A non-empty Errors is the error
// returned by the Load and Parse functions of this package; a nil or empty
// Errors is never returned as an error.
type Errors []*Error

// Error renders one problem per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sort orders es by file, line and column, keeping the order in which
// problems were found for equal positions.
func (es Errors) sort() {
	slices.SortStableFunc(es, func(a, b *Error) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
}

// err returns es sorted as an error, or nil when es is empty.
func (es Errors) err() error {
	if len(es) == 0 {
		return nil
	}
	es.sort()
	return es
}
