package edit

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// SchemaSwitch is the global a schema reads at run time to pick a variant:
// the id of the mutant to run, anything else (unset) the original code.
const SchemaSwitch = "__oracleVariant"

// SchemaLoads is the global a schema counts its module's evaluations in
// (each evaluation adds one, whatever the switch): a harness that finds it
// set before its first variant knows the module was loaded before it, by a
// setup file (vitest's setupFiles), whose instance vi.resetModules does not
// replace, so code that ran while that instance loaded ran without a
// variant.
const SchemaLoads = "__oracleLoads"

// loadRecord is the statement appended to a schema that counts its
// evaluation (SchemaLoads).
const loadRecord = "\nReflect.set(globalThis, \"" + SchemaLoads + "\", (Reflect.get(globalThis, \"" + SchemaLoads + "\") ?? 0) + 1);\n"

// Hit limits (StrykerJS's hitLimit): a schema counts, in every function body
// it switches, each entry of the body and of the functions nested in it and
// each iteration of every loop in it, in the object the harness keeps in
// globalThis[HitState] ({n, limit, hit}). Past limit, while a variant other
// than 0 is active, the count throws an Error whose message starts with
// HitLimitMessage and sets hit (so a variant that catches the error is still
// known): a mutant that loops forever ends within milliseconds. Without the
// object (a run with no harness), nothing is counted.
const (
	HitState        = "__oracleHits"
	HitLimitMessage = "oracle: hit limit reached"
	hitFunc         = "__oracle_hit__"
)

// ranRecord opens every variant's branch (never the original's): it sets
// globalThis[HitState].ran, so the harness knows which tests executed the
// variant (SPEC "Runs and kills": a kill is the failure of a test that
// executed the mutated code). Its grain is the function body the schema
// switches: a test that entered the mutant's function with the variant on.
const ranRecord = " { const h = Reflect.get(globalThis, \"" + HitState + "\"); if (h !== undefined && h !== null) h.ran = true; }"

// hitCall is the statement that counts one hit.
const hitCall = hitFunc + "();"

// hitHelper is the function the counts call, appended to the schema (a
// function declaration: hoisted, so callable from anywhere in the module).
const hitHelper = "\nfunction " + hitFunc + "() { const h = Reflect.get(globalThis, \"" + HitState + "\"); " +
	"if (h !== undefined && ++h.n > h.limit && Reflect.get(globalThis, \"" + SchemaSwitch + "\") > 0) { h.hit = true; " +
	"throw new Error(\"" + HitLimitMessage + ": more than \" + h.limit + \" loop iterations and calls in one test (a mutant that loops)\"); } }\n"

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
	// Hits says the variants count their hits (HitState); false when the
	// counted schema would not parse (then it is built without counts).
	Hits bool
	// Cover is the key of each placed id whose statement the original's
	// branch records for the harness's per-test selection (cover.go); an
	// id without one runs every test.
	Cover map[int]int
}

// BuildSchema instruments orig, the original source of path, with the
// mutants ms (ids[k] is ms[k]'s switch value, > 0). The switch is placed
// from the tree: each function body a mutant changes (the outermost
// function with a block body around the change) becomes
//
//	{ if (<switch> === 3) { <body of mutant 3> } else if ... else { <body> } }
//
// so every variant keeps its own function, parameters, `this` and
// `arguments`. An arrow function's expression body (`(a) => EXPR`) becomes
// a block body the same way, each variant returning its expression:
//
//	(a) => { if (<switch> === 3) { return EXPR3; } else ... else { return EXPR; } }
//
// (an arrow has no `this`, `arguments` or directive of its own, so the block
// returns what the expression did; the expression keeps its text, so no
// line is added). That is for a change no block body holds: a change in an
// arrow nested in a block body is a variant of that body, as before. Of
// arrows nested in one another (a curried `a => b => E`), the innermost
// around the change switches, and the switch is read when it is called; an
// arrow whose expression holds a body switched for another mutant would
// nest switches, so its mutants are left Alone. So is a mutant that
// changes code outside a function body (a default parameter, module code),
// or a block body that starts with a directive ("use strict"). The result must be accepted as a
// mutant is (Acceptance), else BuildSchema fails and every mutant runs
// alone.
//
// Every variant's body and the original's count their hits (HitState): see
// HitLimitMessage.
func BuildSchema(path string, orig []byte, ms []Mutant, ids []int) (*Schema, error) {
	sc, err := buildSchema(path, orig, ms, ids, true)
	if err != nil {
		if plain, perr := buildSchema(path, orig, ms, ids, false); perr == nil {
			return plain, nil
		}
	}
	return sc, err
}

func buildSchema(path string, orig []byte, ms []Mutant, ids []int, hits bool) (*Schema, error) {
	if len(ms) != len(ids) {
		return nil, fmt.Errorf("schema: %d mutants, %d ids", len(ms), len(ids))
	}
	f, s := analyzer.ParseSyntax(path, orig)
	if s == nil {
		return nil, fmt.Errorf("schema: cannot parse %s: %s", path, f.Errors[0].Message)
	}
	sc := &Schema{Path: path, Alone: map[int]string{}, Hits: hits, Cover: map[int]int{}}
	chosen, err := chooseBodies(s, path, orig, ms, ids, sc.Alone)
	if err != nil {
		return nil, err
	}
	bodies, err := placeVariants(s, path, orig, ms, ids, chosen, hits, sc)
	if err != nil {
		return nil, err
	}
	chs, err := switchChanges(s, path, orig, bodies, hits, sc.Cover)
	if err != nil {
		return nil, err
	}
	out, _, err := Apply(orig, chs)
	if err != nil {
		return nil, fmt.Errorf("schema of %s: %w", path, err)
	}
	if len(bodies) > 0 {
		out = append(out, loadRecord...)
	}
	if hits && len(bodies) > 0 {
		out = append(out, hitHelper...)
	}
	accept := Accepting(path, orig)
	defer accept.Close()
	if err := accept.CheckWhole(out); err != nil {
		return nil, fmt.Errorf("schema of %s does not parse (%w)", path, err)
	}
	sc.Source = out
	return sc, nil
}

// schemaBody is one function body of a schema and the "if (...) {...}"
// branches switched into it, in mutant order.
type schemaBody struct {
	n        analyzer.Node
	variants []string
	ms       []Mutant // its mutants and their ids (cover.go)
	ids      []int
}

// chooseBodies returns each mutant's function body (NoNode when it runs
// alone, with the reason recorded in alone by its id).
func chooseBodies(s *analyzer.Syntax, path string, orig []byte, ms []Mutant, ids []int, alone map[int]string) ([]analyzer.Node, error) {
	chosen := make([]analyzer.Node, len(ms)) // each mutant's body, NoNode when alone
	for k, m := range ms {
		id := ids[k]
		if m.Path != path || id <= 0 {
			return nil, fmt.Errorf("schema: mutant %s of %s (id %d) in the schema of %s", m.Name, m.Path, id, path)
		}
		start, end := changedRange(orig, m.Source())
		n := functionBody(s, start, end)
		switch {
		case n < 0:
			alone[id] = "the change is outside a function body"
		case directive(s, n):
			alone[id] = "the function body starts with a directive"
			n = analyzer.NoNode
		}
		chosen[k] = n
	}
	// An arrow's expression may hold the body another mutant switches (a
	// function nested in it): switches never nest, so the arrow's mutants
	// run alone.
	for k, n := range chosen {
		if n < 0 || isBlock(s, n) {
			continue
		}
		for _, o := range chosen {
			if o >= 0 && o != n && s.Start(n) <= s.Start(o) && s.End(o) <= s.End(n) {
				alone[ids[k]] = "the arrow's expression holds a function body switched for another mutant"
				chosen[k] = analyzer.NoNode
				break
			}
		}
	}
	return chosen, nil
}

// placeVariants groups the mutants placed in a body by that body (in the
// order the bodies are first met) as the branches of its switch, and records
// each placed id in sc.Placed.
func placeVariants(s *analyzer.Syntax, path string, orig []byte, ms []Mutant, ids []int, chosen []analyzer.Node, hits bool, sc *Schema) ([]*schemaBody, error) {
	cond := `Reflect.get(globalThis, "` + SchemaSwitch + `")`
	var bodies []*schemaBody
	byNode := map[analyzer.Node]*schemaBody{}
	var err error
	for k, m := range ms {
		id, n := ids[k], chosen[k]
		if n < 0 {
			continue
		}
		bs, be := bodyRange(s, n)
		tail := uint(len(orig)) - be
		src := m.Source()
		inner := string(src[bs : uint(len(src))-tail])
		if hits {
			if inner, err = countHitsFn(path, s, n, src, tail); err != nil {
				return nil, fmt.Errorf("schema: mutant %s: %w", m.Name, err)
			}
		}
		if !isBlock(s, n) {
			inner = returning(inner, hits)
		}
		b := byNode[n]
		if b == nil {
			b = &schemaBody{n: n}
			byNode[n] = b
			bodies = append(bodies, b)
		}
		b.variants = append(b.variants, fmt.Sprintf("if (%s === %d) {%s%s} else ", cond, id, ranRecord, inner))
		b.ms, b.ids = append(b.ms, m), append(b.ids, id)
		sc.Placed = append(sc.Placed, id)
	}
	return bodies, nil
}

// switchChanges are the edits replacing each body with its switch: the
// branches, then the original body as the last else.
func switchChanges(s *analyzer.Syntax, path string, orig []byte, bodies []*schemaBody, hits bool, cover map[int]int) ([]Change, error) {
	var chs []Change
	for _, b := range bodies {
		bs, be := bodyRange(s, b.n)
		block := isBlock(s, b.n)
		body, err := countHitsMarked(s, orig, bs, be, block, hits, coverMarks(s, orig, bs, be, b.ms, b.ids, cover))
		if err != nil {
			return nil, fmt.Errorf("schema of %s: %w", path, err)
		}
		text := " " + strings.Join(b.variants, "") + "{" + body + "} "
		if !block {
			text = "{ " + strings.Join(b.variants, "") + "{" + returning(body, hits) + "} }"
		}
		chs = append(chs, Change{Start: bs, End: be, Text: text})
	}
	return chs, nil
}

// isBlock reports whether the function body n is a block (not an arrow's
// expression).
func isBlock(s *analyzer.Syntax, n analyzer.Node) bool { return s.Kind(n) == "statement_block" }

// bodyRange is the part of the function body n a schema switches: inside
// the braces of a block, the whole of an expression.
func bodyRange(s *analyzer.Syntax, n analyzer.Node) (uint, uint) {
	if isBlock(s, n) {
		return s.Start(n) + 1, s.End(n) - 1
	}
	return s.Start(n), s.End(n)
}

// returning is the inside of the block that returns expr, an arrow's
// expression body (counted, as a block body is on entry, when hits).
func returning(expr string, hits bool) string {
	if hits {
		return " " + hitCall + " return " + expr + "; "
	}
	return " return " + expr + "; "
}

// countHitsFn is countHits for the body n of orig (parsed as s) in mut, a
// mutant of orig whose last tail bytes are orig's: only the function that
// holds n is parsed again (a snippet of mut: the function declaration, a
// function expression in parentheses, a method in a class), not the whole
// file once per mutant (a file of 100 KB takes about 50 ms to parse).
func countHitsFn(path string, s *analyzer.Syntax, n analyzer.Node, mut []byte, tail uint) (string, error) {
	fn := s.Parent(n)
	if fn < 0 {
		return "", fmt.Errorf("the body at byte %d has no function", s.Start(n))
	}
	start, end := s.Start(fn), uint(len(mut))-(uint(len(s.Src()))-s.End(fn))
	from, _ := bodyRange(s, n)
	to := uint(len(mut)) - tail
	if start > from || end < to {
		return "", fmt.Errorf("the body at byte %d is not inside its function", from)
	}
	prefix, suffix := "(", ")"
	switch s.Kind(fn) {
	case "function_declaration", "generator_function_declaration":
		prefix, suffix = "", ""
	case "method_definition":
		prefix, suffix = "class __oracle_class__ {\n", "\n}"
	}
	snippet := make([]byte, 0, len(prefix)+int(end-start)+len(suffix))
	snippet = append(append(append(snippet, prefix...), mut[start:end]...), suffix...)
	at := func(off uint) uint { return off - start + uint(len(prefix)) }
	return countHits(path, snippet, at(from), at(to), isBlock(s, n))
}

// countHits is src[from:to], a function body of src (inside the braces of
// a block, else an arrow's expression), with a hit counted (hitCall) on
// entry to a block (entry: an expression's entry is counted by the block
// the schema makes of it, see returning), on entry to every function
// nested in it (unless its block starts with a directive; a nested arrow's
// expression E becomes `(hitCall, E)`), and on every iteration of every
// loop in it (the loop's body wrapped in a block that counts first).
func countHits(path string, src []byte, from, to uint, entry bool) (string, error) {
	f, s := analyzer.ParseSyntax(path, src)
	if s == nil || len(f.Errors) > 0 {
		return "", fmt.Errorf("cannot parse: %s", f.Errors[0].Message)
	}
	return countHitsIn(s, src, from, to, entry)
}

func countHitsIn(s *analyzer.Syntax, src []byte, from, to uint, entry bool) (string, error) {
	return countHitsMarked(s, src, from, to, entry, true, nil)
}

// countHitsMarked is countHitsIn when count (else no hit is counted) with
// marks (text by offset: cover.go's records) inserted too, each after what
// closes and what the walk opens at its offset.
func countHitsMarked(s *analyzer.Syntax, src []byte, from, to uint, entry, count bool, marks map[uint]string) (string, error) {
	type insert struct {
		at    uint
		close bool
		text  string
		seq   int // the order the walk made it in
	}
	var ins []insert
	if entry && count {
		ins = append(ins, insert{at: from, text: " " + hitCall})
	}
	s.Walk(s.Root(), func(n analyzer.Node) bool {
		if !count || s.End(n) <= from || s.Start(n) >= to {
			return false
		}
		if s.Start(n) < from || s.End(n) > to {
			return true // an ancestor of the body
		}
		body := s.Child(n, "body")
		switch kind := s.Kind(n); {
		case body < 0:
		case kind == "for_statement" || kind == "for_in_statement" || kind == "while_statement" || kind == "do_statement":
			ins = append(ins, insert{at: s.Start(body), text: "{ " + hitCall + " "}, insert{at: s.End(body), close: true, text: " }"})
		case isFunctionLike(kind) && s.Kind(body) == "statement_block" && !directive(s, body):
			ins = append(ins, insert{at: s.Start(body) + 1, text: " " + hitCall})
		case kind == "arrow_function" && s.Kind(body) != "statement_block":
			ins = append(ins, insert{at: s.Start(body), text: "(" + hitFunc + "(), "}, insert{at: s.End(body), close: true, text: ")"})
		}
		return true
	})
	for _, off := range slices.Sorted(maps.Keys(marks)) {
		ins = append(ins, insert{at: off, text: marks[off]})
	}
	// In offset order; at one offset, what closes before what opens, the
	// inner of two closes first (the later in the walk, which visits an
	// outer node before the nodes inside it) and the outer of two opens.
	for i := range ins {
		ins[i].seq = i
	}
	slices.SortFunc(ins, func(a, b insert) int {
		if a.at != b.at {
			return cmp.Compare(a.at, b.at)
		}
		switch {
		case a.close && !b.close:
			return -1
		case b.close && !a.close:
			return 1
		case a.close:
			return cmp.Compare(b.seq, a.seq)
		}
		return cmp.Compare(a.seq, b.seq)
	})
	var b strings.Builder
	at := from
	for _, in := range ins {
		if in.at < at || in.at > to {
			return "", fmt.Errorf("hit count at byte %d outside the body", in.at)
		}
		b.Write(src[at:in.at])
		b.WriteString(in.text)
		at = in.at
	}
	b.Write(src[at:to])
	return b.String(), nil
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

// functionBody is the function body a schema switches for a change of
// [start, end), or NoNode: the block body of the outermost function whose
// braces strictly contain it (the one rule for block bodies: a function
// nested in a block body is a variant of that body), else, when no block
// body holds it, the expression body of the innermost arrow function that
// contains it (the switch is read as late as can be: of a curried
// `a => b => E`, when the inner arrow is called). An insertion at the end
// of an expression could belong to what follows the arrow (`f(x => a, b)`),
// so it is not taken.
func functionBody(s *analyzer.Syntax, start, end uint) analyzer.Node {
	expr := analyzer.NoNode
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
		if s.Kind(n) == "arrow_function" && s.Field(next) == "body" && s.Kind(next) != "statement_block" &&
			(start < end || start < s.End(next)) {
			expr = next
		}
		n = next
	}
	return expr
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

// Placement says, by id (ids[k] is ms[k]'s, as BuildSchema's), why a
// schema of ms (mutants of path, whose original source is orig) would leave
// each to run alone; an id it places a switch for is not in it: what
// BuildSchema decides before it builds (chooseBodies, Schema.Alone), for a
// plan made before any schema is written. BuildSchema may still refuse the
// whole file (a schema that would not be accepted).
func Placement(path string, orig []byte, ms []Mutant, ids []int) (map[int]string, error) {
	f, s := analyzer.ParseSyntax(path, orig)
	if s == nil {
		return nil, fmt.Errorf("schema: cannot parse %s: %s", path, f.Errors[0].Message)
	}
	alone := map[int]string{}
	if _, err := chooseBodies(s, path, orig, ms, ids, alone); err != nil {
		return nil, err
	}
	return alone, nil
}
