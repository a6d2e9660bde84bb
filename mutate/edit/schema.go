package edit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/oracle-ts/oracle/analyzer"
)

// SchemaSwitch is the global a schema reads at run time to pick a variant:
// the id of the mutant to run, anything else (unset) the original code.
const SchemaSwitch = "__oracleVariant"

// Schema is one source file holding several mutants behind a run-time
// switch (Stryker's mutant schemata): the file is written once, and the
// switch (globalThis.__oracleVariant) picks the mutant per run.
type Schema struct {
	Path   string
	Source []byte // the instrumented file
	// Placed lists the ids of the mutants in Source; Alone the others, each
	// with why it needs a file of its own.
	Placed []int
	Alone  map[int]string
}

// BuildSchema instruments orig, the original source of path, with the
// mutants ms (ids[k] is ms[k]'s switch value, > 0). The switch is placed
// from the tree: each function body a mutant changes (the outermost
// function with a block body around the change) becomes
//
//	{ if (<switch> === 3) { <body of mutant 3> } else if ... else { <body> } }
//
// so every variant keeps its own function, parameters, `this` and
// `arguments`. A mutant that changes code outside a block function body, or
// a body that starts with a directive ("use strict"), is left Alone. The
// result must be accepted as a mutant is (Acceptance), else BuildSchema
// fails and every mutant runs alone.
func BuildSchema(path string, orig []byte, ms []Mutant, ids []int) (*Schema, error) {
	if len(ms) != len(ids) {
		return nil, fmt.Errorf("schema: %d mutants, %d ids", len(ms), len(ids))
	}
	f, s := analyzer.ParseSyntax(path, orig)
	if s == nil {
		return nil, fmt.Errorf("schema: cannot parse %s: %s", path, f.Errors[0].Message)
	}
	sc := &Schema{Path: path, Alone: map[int]string{}}
	type body struct {
		n        analyzer.Node
		variants []string // "if (...) {...}" branches, in mutant order
	}
	var bodies []*body
	byNode := map[analyzer.Node]*body{}
	cond := `Reflect.get(globalThis, "` + SchemaSwitch + `")`
	for k, m := range ms {
		id := ids[k]
		if m.Path != path || id <= 0 {
			return nil, fmt.Errorf("schema: mutant %s of %s (id %d) in the schema of %s", m.Name, m.Path, id, path)
		}
		start, end := changedRange(orig, m.Source)
		n := outermostBody(s, start, end)
		if n < 0 {
			sc.Alone[id] = "the change is outside a function body"
			continue
		}
		if directive(s, n) {
			sc.Alone[id] = "the function body starts with a directive"
			continue
		}
		bs, be := s.Start(n)+1, s.End(n)-1 // inside the braces
		tail := uint(len(orig)) - be
		inner := m.Source[bs : uint(len(m.Source))-tail]
		b := byNode[n]
		if b == nil {
			b = &body{n: n}
			byNode[n] = b
			bodies = append(bodies, b)
		}
		b.variants = append(b.variants, fmt.Sprintf("if (%s === %d) {%s} else ", cond, id, inner))
		sc.Placed = append(sc.Placed, id)
	}
	var chs []Change
	for _, b := range bodies {
		bs, be := s.Start(b.n)+1, s.End(b.n)-1
		chs = append(chs, Change{Start: bs, End: be, Text: " " + strings.Join(b.variants, "") + "{" + string(orig[bs:be]) + "} "})
	}
	out, _, err := Apply(orig, chs)
	if err != nil {
		return nil, fmt.Errorf("schema of %s: %w", path, err)
	}
	if err := Accepting(path, orig).Check(out); err != nil {
		return nil, fmt.Errorf("schema of %s does not parse (%w)", path, err)
	}
	sc.Source = out
	return sc, nil
}

// changedRange is the range of orig that mut replaced: orig less the common
// prefix and suffix.
func changedRange(orig, mut []byte) (uint, uint) {
	p := 0
	for p < len(orig) && p < len(mut) && orig[p] == mut[p] {
		p++
	}
	q := 0
	for q < len(orig)-p && q < len(mut)-p && orig[len(orig)-1-q] == mut[len(mut)-1-q] {
		q++
	}
	return uint(p), uint(len(orig) - q)
}

// outermostBody is the block body of the outermost function-like node whose
// braces strictly contain [start, end), or NoNode.
func outermostBody(s *analyzer.Syntax, start, end uint) analyzer.Node {
	best := analyzer.NoNode
	for n := s.Root(); n >= 0; {
		next := analyzer.NoNode
		for ch := s.FirstChild(n); ch >= 0; ch = s.Next(ch) {
			if s.Start(ch) <= start && end <= s.End(ch) {
				next = ch
				break
			}
		}
		if next < 0 {
			break
		}
		if s.Kind(next) == "statement_block" && s.Field(next) == "body" && isFunctionLike(s.Kind(n)) &&
			s.Start(next) < start && end < s.End(next) {
			return next
		}
		n = next
	}
	return best
}

func isFunctionLike(kind string) bool {
	switch kind {
	case "function_declaration", "function_expression", "function", "arrow_function", "method_definition",
		"generator_function_declaration", "generator_function":
		return true
	}
	return false
}

// directive reports whether body n starts with a string expression
// statement ("use strict"): inside a block it would no longer be one.
func directive(s *analyzer.Syntax, n analyzer.Node) bool {
	first := s.FirstNamed(n)
	for first >= 0 && s.Kind(first) == "comment" {
		first = s.Next(first)
	}
	return first >= 0 && s.Kind(first) == "expression_statement" && s.Kind(s.FirstNamed(first)) == "string"
}

// SyntaxCheck runs esbuild's parser over src (TypeScript, TSX or
// JavaScript by path's extension): an error names the first problem.
func SyntaxCheck(path string, src []byte) error {
	loader := api.LoaderTS
	switch {
	case strings.HasSuffix(path, ".tsx"):
		loader = api.LoaderTSX
	case strings.HasSuffix(path, ".jsx"):
		loader = api.LoaderJSX
	case strings.HasSuffix(path, ".js"), strings.HasSuffix(path, ".mjs"), strings.HasSuffix(path, ".cjs"):
		loader = api.LoaderJS
	}
	r := api.Transform(string(src), api.TransformOptions{Loader: loader, Sourcefile: path, LogLevel: api.LogLevelSilent})
	if len(r.Errors) > 0 {
		e := r.Errors[0]
		var b bytes.Buffer
		if e.Location != nil {
			fmt.Fprintf(&b, "line %d: ", e.Location.Line)
		}
		b.WriteString(e.Text)
		return fmt.Errorf("esbuild: %s", b.String())
	}
	return nil
}
