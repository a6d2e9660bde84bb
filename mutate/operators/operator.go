// Package operators holds every mutation operator of oracle, prove's and the
// gate's, each a unit in a file of its own: its name (the SPEC's run name for
// prove's conditional-skip set, the mutation-testing-report-schema's
// mutatorName for the gate's), the node kinds it visits and the replacements
// it yields there. Registry lists them all; Gate and Prove are the two
// drivers that walk a function and collect the mutants, and both accept a
// mutant by the one rule of edit.Acceptance.
package operators

import (
	"slices"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// Node is a node of the analyzer's tree.
type Node = analyzer.Node

// Verb says which verb's operator set an operator belongs to.
type Verb string

const (
	// ProveVerb: conditional-skip's operators (SPEC "oracle prove").
	ProveVerb Verb = "prove"
	// GateVerb: the Stryker-compatible operators and call-statement
	// removal (SPEC "oracle gate").
	GateVerb Verb = "gate"
)

// Function is the kind an operator names to visit the target function once,
// as a whole (prove's flag operators make one mutant of every flag read).
const Function = "(function)"

// Operator is one mutation operator.
type Operator struct {
	Name edit.Operator
	Verb Verb
	// Kinds are the tree-sitter node kinds Mutate is called on (or
	// Function).
	Kinds []string
	// Mutate yields the replacements of node n, in order; each becomes one
	// mutant. An error is an internal one or bad input (prove reports it).
	Mutate func(c *Context, n Node) ([]Mutation, error)
	// Owns, for a gate operator whose mutant may stand for a construct,
	// says which tokens the mutant owns beside the code it replaces (the
	// gate's token scope asks it through Site); nil: a mutant is the code
	// it edits.
	Owns Owner
	// Reverts, for the revert operator alone (Revert), yields the mutants
	// of the change itself rather than of a node: the base's code restored
	// (c's base revision, c.Base), and notes of those that cannot be built.
	Reverts func(c *Context) ([]edit.Mutant, []string)
}

// Visits reports whether the operator is called on nodes of kind k.
func (o *Operator) Visits(k string) bool { return slices.Contains(o.Kinds, k) }

// Mutation is one replacement an operator yields: the changes of one mutant.
type Mutation struct {
	Changes []edit.Change
	Subject string // what it applied to (a preserved call), or ""
	Note    string // why a mutant that is not a change is one
}

// replace is the mutation that replaces src[start:end] with text.
func replace(start, end uint, text string) Mutation {
	return Mutation{Changes: []edit.Change{{Start: start, End: end, Text: text}}}
}

// Registry is every operator, prove's then the gate's; within a verb, the
// order in which the mutants of one node are listed.
var Registry = []*Operator{
	RedFirst, FlagInverted, FlagAlwaysSet, PreserveRemoved, PreserveMovedUnderGuard,

	EqualityOperator, LogicalOperator, ArithmeticOperator, BooleanLiteral, UnaryOperator,
	OptionalChaining, MethodExpression, ObjectLiteral, UpdateOperator, ConditionalExpression,
	BlockStatement, StringLiteral, InlineConstant, ArrayDeclaration, CallStatementRemoval, ReturnValue, Regex,
	Revert,
}

// Of is the registry's operators of verb v, in order.
func Of(v Verb) []*Operator {
	var out []*Operator
	for _, o := range Registry {
		if o.Verb == v {
			out = append(out, o)
		}
	}
	return out
}

// Context is what an operator reads: the file, its tree and, for prove's
// operators, the target with its flag, wrapped call and preserved calls;
// for the gate's Revert, the target and the change around it.
type Context struct {
	Path string
	Src  []byte
	Syn  *analyzer.Syntax
	Arid Arid

	Fn *analyzer.Function // the target (prove's, and the gate's Revert's)

	// the gate's Revert only
	Base       *change.Base    // the file's base revision: its text, hunks and renamed locals
	Changed    []change.Span   // the change's tokens in the target's code (nil: no change to revert)
	AllChanged []change.Span   // the change's tokens in the file
	Module     bool            // the target is the file's top-level code
	Read       map[string]bool // the base's exports the change deleted that another file reads
	Counted    []edit.Mutant   // the other operators' mutants of the target on the change's code
	// Importable says whether the target's file can import name
	// ("default"; "*": the namespace) from spec at the head (nil: every
	// import can): a revert restoring an import of a module the change
	// deleted, or of a name it no longer exports, is not built.
	Importable func(spec, name string) bool

	// prove only
	Scope     *edit.Scope
	Wrap      *analyzer.Call
	Preserves []*analyzer.Call
	preserved map[Node]*analyzer.Call
	refs      []flagRef
	refsDone  bool
}
