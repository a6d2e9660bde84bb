package gate

import (
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// The gate's operator set (conditional-skip's is mutate/edit's): the
// Stryker-compatible operators, named with the mutation-testing-report-
// schema's mutatorName, plus call-statement removal (PIT's void method
// calls: the dropped-write bug) and return values. Built from the tree, each
// mutant re-parsed before it runs.
const (
	EqualityOperator      edit.Operator = "EqualityOperator"
	LogicalOperator       edit.Operator = "LogicalOperator"
	ArithmeticOperator    edit.Operator = "ArithmeticOperator"
	BooleanLiteral        edit.Operator = "BooleanLiteral"
	ConditionalExpression edit.Operator = "ConditionalExpression"
	BlockStatement        edit.Operator = "BlockStatement"
	StringLiteral         edit.Operator = "StringLiteral"
	UpdateOperator        edit.Operator = "UpdateOperator"
	ArrayDeclaration      edit.Operator = "ArrayDeclaration"
	CallStatementRemoval  edit.Operator = "CallStatementRemoval"
	ReturnValue           edit.Operator = "ReturnValue"
	UnaryOperator         edit.Operator = "UnaryOperator"
	OptionalChaining      edit.Operator = "OptionalChaining"
	ObjectLiteral         edit.Operator = "ObjectLiteral"
	MethodExpression      edit.Operator = "MethodExpression"
)

// methodSwaps are Stryker's method-expression replacements.
var methodSwaps = map[string]string{
	"startsWith": "endsWith", "endsWith": "startsWith", "toUpperCase": "toLowerCase", "toLowerCase": "toUpperCase",
	"some": "every", "every": "some", "min": "max", "max": "min", "trimStart": "trimEnd", "trimEnd": "trimStart",
	"charAt": "", "filter": "", "reverse": "", "slice": "", "sort": "", "substring": "", "substr": "", "trim": "",
}

// binaryOps maps a binary operator to its replacements.
var binaryOps = map[string]struct {
	op   edit.Operator
	with []string
}{
	"===": {EqualityOperator, []string{"!=="}}, "!==": {EqualityOperator, []string{"==="}},
	"==": {EqualityOperator, []string{"!="}}, "!=": {EqualityOperator, []string{"=="}},
	"<": {EqualityOperator, []string{"<=", ">="}}, "<=": {EqualityOperator, []string{"<", ">"}},
	">": {EqualityOperator, []string{">=", "<="}}, ">=": {EqualityOperator, []string{">", "<"}},
	"&&": {LogicalOperator, []string{"||"}}, "||": {LogicalOperator, []string{"&&"}}, "??": {LogicalOperator, []string{"&&"}},
	"+": {ArithmeticOperator, []string{"-"}}, "-": {ArithmeticOperator, []string{"+"}},
	"*": {ArithmeticOperator, []string{"/"}}, "/": {ArithmeticOperator, []string{"*"}}, "%": {ArithmeticOperator, []string{"*"}},
}

// Arid says which calls are not worth a mutant: logging and tracing.
type Arid struct {
	// Loggers are the receiver names whose calls are arid (console always
	// is): "logger" makes logger.info(...) arid.
	Loggers []string
}

func (a Arid) isArid(callee string) bool {
	root, _, _ := strings.Cut(callee, ".")
	if root == "console" {
		return true
	}
	for _, l := range a.Loggers {
		if root == l || callee == l {
			return true
		}
	}
	return false
}

// Mutants builds the gate's mutants of the function fn of the file at path
// (src parsed as syn): each a single change inside the function's body,
// re-parsed (a mutant that does not parse is dropped), in source order.
func Mutants(path string, src []byte, syn *analyzer.Syntax, fn *analyzer.Function, arid Arid) []edit.Mutant {
	type cand struct {
		op         edit.Operator
		start, end uint
		text       string
	}
	var cands []cand
	add := func(op edit.Operator, start, end uint, text string) {
		cands = append(cands, cand{op, start, end, text})
	}
	disabled := disabledLines(src)
	lineOf := func(off uint) int { return syn.Line(off) }
	body := syn.Find(fn.BodyStartByte, fn.BodyEndByte, "")
	if body < 0 {
		return nil
	}
	syn.Walk(body, func(n analyzer.Node) bool {
		start, end := syn.Start(n), syn.End(n)
		if disabled[lineOf(start)] {
			return false
		}
		switch syn.Kind(n) {
		case "call_expression":
			if f := syn.Child(n, "function"); f >= 0 && arid.isArid(strings.Join(strings.Fields(syn.Text(f)), "")) {
				return false // logging: nothing inside is mutated
			}
		case "binary_expression":
			if op := operatorToken(syn, n); op >= 0 {
				if r, ok := binaryOps[syn.Text(op)]; ok {
					for _, w := range r.with {
						add(r.op, syn.Start(op), syn.End(op), w)
					}
				}
			}
		case "true":
			add(BooleanLiteral, start, end, "false")
		case "false":
			add(BooleanLiteral, start, end, "true")
		case "unary_expression":
			arg := syn.Child(n, "argument")
			switch {
			case arg < 0:
			case syn.HasToken(n, "!"):
				add(BooleanLiteral, start, end, syn.Text(arg))
			case syn.HasToken(n, "-"):
				add(UnaryOperator, start, end, "+"+syn.Text(arg))
			case syn.HasToken(n, "+"):
				add(UnaryOperator, start, end, "-"+syn.Text(arg))
			}
		case "member_expression":
			if optionalChain(syn, n) {
				obj, prop := syn.Child(n, "object"), syn.Child(n, "property")
				if obj >= 0 && prop >= 0 {
					add(OptionalChaining, start, end, syn.Text(obj)+"."+syn.Text(prop))
				}
			}
			// x.method(...) -> the swapped method, or x (a call dropped): MethodExpression
			if p := syn.Parent(n); syn.Kind(p) == "call_expression" && syn.Field(n) == "function" {
				prop := syn.Child(n, "property")
				if swap, ok := methodSwaps[syn.Text(prop)]; ok && prop >= 0 && !optionalChain(syn, n) {
					if swap != "" {
						add(MethodExpression, syn.Start(prop), syn.End(prop), swap)
					} else if obj := syn.Child(n, "object"); obj >= 0 {
						add(MethodExpression, syn.Start(p), syn.End(p), syn.Text(obj))
					}
				}
			}
		case "object":
			if syn.FirstNamed(n) >= 0 {
				add(ObjectLiteral, start, end, "{}")
			}
		case "update_expression":
			t := syn.Text(n)
			switch {
			case strings.Contains(t, "++"):
				add(UpdateOperator, start, end, strings.Replace(t, "++", "--", 1))
			case strings.Contains(t, "--"):
				add(UpdateOperator, start, end, strings.Replace(t, "--", "++", 1))
			}
		case "if_statement", "while_statement", "do_statement":
			if c := syn.Child(n, "condition"); c >= 0 {
				add(ConditionalExpression, syn.Start(c), syn.End(c), "(true)")
				add(ConditionalExpression, syn.Start(c), syn.End(c), "(false)")
			}
		case "ternary_expression":
			if c := syn.Child(n, "condition"); c >= 0 {
				add(ConditionalExpression, syn.Start(c), syn.End(c), "true")
				add(ConditionalExpression, syn.Start(c), syn.End(c), "false")
			}
		case "statement_block":
			if hasStatement(syn, n) {
				add(BlockStatement, start, end, "{}")
			}
		case "string":
			if v := syn.Text(n); len(v) > 2 {
				add(StringLiteral, start, end, `""`)
			}
		case "array":
			if syn.FirstNamed(n) >= 0 {
				add(ArrayDeclaration, start, end, "[]")
			}
		case "expression_statement":
			e := syn.FirstNamed(n)
			if e >= 0 && syn.Kind(e) == "await_expression" {
				e = syn.FirstNamed(e)
			}
			if e >= 0 && syn.Kind(e) == "call_expression" {
				f := syn.Child(e, "function")
				if f >= 0 && !arid.isArid(strings.Join(strings.Fields(syn.Text(f)), "")) && syn.Kind(f) != "import" {
					add(CallStatementRemoval, start, end, "")
				}
			}
		case "return_statement":
			if e := syn.FirstNamed(n); e >= 0 && syn.Kind(e) != "comment" && syn.Text(e) != "undefined" {
				add(ReturnValue, syn.Start(e), syn.End(e), "undefined")
			}
		case "arrow_function", "function_expression", "function_declaration", "class_declaration", "class":
			// nested functions are mutated as part of the function around them
		case "type_annotation", "type_arguments", "type_parameters", "as_expression", "satisfies_expression":
			if k := syn.Kind(n); k != "as_expression" && k != "satisfies_expression" {
				return false // type-only code
			}
		}
		return true
	})
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].start != cands[j].start {
			return cands[i].start < cands[j].start
		}
		return cands[i].end > cands[j].end
	})
	var out []edit.Mutant
	for _, c := range cands {
		m, err := edit.NewMutant(c.op, "", path, src, []edit.Change{{Start: c.start, End: c.end, Text: c.text}})
		if err != nil || edit.SyntaxCheck(path, m.Source) != nil {
			continue
		}
		m.Name = string(c.op)
		out = append(out, m)
	}
	return out
}

// operatorToken is the operator child of a binary expression.
func operatorToken(syn *analyzer.Syntax, n analyzer.Node) analyzer.Node {
	for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
		if syn.Field(c) == "operator" {
			return c
		}
	}
	return -1
}

func hasStatement(syn *analyzer.Syntax, n analyzer.Node) bool {
	for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
		if syn.Named(c) && syn.Kind(c) != "comment" {
			return true
		}
	}
	return false
}

// disabledLines are the lines after a `// oracle-disable-next-line` comment.
func disabledLines(src []byte) map[int]bool {
	out := map[int]bool{}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "oracle-disable-next-line") && strings.Contains(l, "//") {
			out[i+2] = true
		}
	}
	return out
}

// optionalChain reports whether member expression n is written with `?.`.
func optionalChain(syn *analyzer.Syntax, n analyzer.Node) bool {
	for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
		if syn.Kind(c) == "optional_chain" || syn.Kind(c) == "?." {
			return true
		}
	}
	return false
}
