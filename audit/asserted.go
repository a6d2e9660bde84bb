package audit

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/text"
)

// Assertions measured (issue 29: "an assertion that never ran in a green
// test is vacuous, whatever the code looks like"). In the first run of the
// mock-swap (swap.go), which runs every test file, every `expect(...)` call
// of a test file is marked: it calls __oracleExpect(id, ...), which appends
// id to $ORACLE_ASSERTED the first time and returns expect(...). A test
// that passed while none of its expect calls ran asserted nothing:
// vacuous-test/never-asserted, whatever the static rules guessed.

// AssertedEnv names the file the marked expect calls append their ids to.
const AssertedEnv = "ORACLE_ASSERTED"

// expectMarker is appended to a marked test file: a function declaration
// (hoisted, so it serves every line of the file).
const expectMarker = "\nfunction __oracleExpect(id, ...a) { try { const g = globalThis, p = Reflect.get(g, \"process\"); if (p?.env?." + AssertedEnv + ") { const s = (g.__oracleAsserted || (g.__oracleAsserted = new Set())); if (!s.has(id)) { s.add(id); p.getBuiltinModule?.(\"node:fs\")?.appendFileSync(p.env." + AssertedEnv + ", id + \"\\n\"); } } } catch {} return expect(...a); }\n"

// markedFile is a test file whose expect calls are marked.
type markedFile struct {
	repls []repl
	ids   map[int]string // the id of each marked assertion, by its index in the file's Assertions
}

// contextExpect is a test taking expect from its context (`({ expect }) =>`):
// the marker's expect would be another one.
var contextExpect = regexp.MustCompile(`\(\s*\{[^}]*\bexpect\b[^}]*\}[^)]*\)\s*=>`)

// markExpects marks the expect(...) calls of test file number fi (those
// outside the ranges skip replaces); nil when it marks none, or when the
// file does not import expect from vitest (with globals, or expect taken
// from the test's context, the marker could not call the same expect).
func markExpects(fi int, f *analyzer.File, syn *analyzer.Syntax, tf *analyzer.TestFile, skip []repl) *markedFile {
	imported := false
	for _, im := range f.Imports {
		imported = imported || im.Specifier == "vitest" && im.Local == "expect" && im.Imported == "expect"
	}
	if !imported || contextExpect.Match(syn.Src()) {
		return nil
	}
	mf := &markedFile{ids: map[int]string{}}
	for ai, a := range tf.Assertions {
		fn, args := syn.Child(a.Call, "function"), syn.Child(a.Call, "arguments")
		if a.Kind != "expect" || syn.Kind(fn) != "identifier" || syn.Text(fn) != "expect" || args < 0 {
			continue
		}
		start, end := syn.Start(a.Call), syn.End(a.Call)
		inside := false
		for _, r := range skip {
			inside = inside || start < r.end && end > r.start
		}
		if inside {
			continue
		}
		id := fmt.Sprintf("%d:%d", fi, ai)
		mf.ids[ai] = id
		mf.repls = append(mf.repls, repl{syn.Start(fn), syn.End(fn), "__oracleExpect"}, repl{syn.Start(args) + 1, syn.Start(args) + 1, fmt.Sprintf("%q, ", id)})
	}
	if len(mf.ids) == 0 {
		return nil
	}
	return mf
}

// assertedRun is what the first run of the mock-swap measured of the
// assertions.
type assertedRun struct {
	marks    map[string]*markedFile  // by test file
	asserted map[string]bool         // the ids that ran
	outcomes map[string]*swapOutcome // by test file
}

// neverAsserted are the vacuous-test/never-asserted findings: a test that
// passed in the run although none of its assertions ran. A test is judged
// only when every assertion in it is a marked expect, its name is
// literal and unique in its file (vitest's report names it), and it passed.
func (s *Suite) neverAsserted(run *assertedRun) []Finding {
	if run == nil {
		return nil
	}
	var out []Finding
	for _, t := range s.Tests {
		mf, in, o := run.marks[t], s.inputs[t], run.outcomes[t]
		if mf == nil || in == nil || in.Structure == nil || o == nil {
			continue
		}
		tf := in.Structure
		names := map[string]int{}
		full := make([]string, len(tf.Blocks))
		for i := range tf.Blocks {
			b := &tf.Blocks[i]
			parts := []string{b.Title}
			literal := b.Title != "" && !b.Has("each")
			for p := b.Parent; p >= 0; p = tf.Blocks[p].Parent {
				parts = append([]string{tf.Blocks[p].Title}, parts...)
				literal = literal && tf.Blocks[p].Title != "" && !tf.Blocks[p].Has("each")
			}
			if literal && b.Kind == analyzer.KindTest {
				full[i] = strings.Join(parts, " ")
				names[full[i]]++
			}
		}
		for i := range tf.Blocks {
			b := &tf.Blocks[i]
			if full[i] == "" || names[full[i]] > 1 || !o.passed[full[i]] {
				continue
			}
			if b.Has("fails") {
				continue // it.fails: passing means it failed
			}
			n, ran, judged := 0, false, true
			var idle, done []analyzer.Assertion // marked assertions that did not run, that ran
			for ai, a := range tf.Assertions {
				if a.Block != i {
					continue
				}
				n++
				id, ok := mf.ids[ai]
				judged = judged && ok
				ran = ran || run.asserted[id]
				switch {
				case ok && run.asserted[id]:
					done = append(done, a)
				case ok && !(a.Constant && !alwaysPasses(in.Syntax, a.Call)):
					idle = append(idle, a) // not `expect(true).toBe(false)`, a marker of a line never to reach
				}
			}
			if n == 0 || !judged {
				continue
			}
			if ran {
				// Some assertions ran, these did not: the branch, the catch
				// or the callback they sit in was not taken while the test
				// passed (no-conditional-expect, by execution). One whose
				// construct asserted on the path taken (the other branch of
				// its if, the catch of its try) is not reported.
				for _, a := range idle {
					if c := construct(in.Syntax, a.Call, b.Body); slices.ContainsFunc(done, func(d analyzer.Assertion) bool { return within(in.Syntax, d.Call, c) }) {
						continue
					}
					out = append(out, Finding{Rule: "vacuous-test/never-asserted", Severity: Warning, File: t, Line: a.Line,
						Message: fmt.Sprintf("in test %q, which passed, `%s` never ran (measured): the branch, catch or callback it sits in was not taken, so it asserts nothing", b.Title, text.OneLine(assertionText(in.Syntax, a.Call), 60))})
				}
				continue
			}
			out = append(out, Finding{Rule: "vacuous-test/never-asserted", Severity: Warning, File: t, Line: b.Line,
				Message: fmt.Sprintf("test %q passed, and none of its %d assertion(s) ran (measured): it asserts nothing", b.Title, n)})
		}
	}
	return out
}

// construct is the innermost node around an assertion, inside a test's
// body, that decides whether it runs: an if, a ternary, a switch, a try, a
// && / || / ?? chain, a loop, or a callback; the body itself when none.
func construct(syn *analyzer.Syntax, call, body analyzer.Node) analyzer.Node {
	for n := syn.Parent(call); n >= 0 && n != body; n = syn.Parent(n) {
		switch syn.Kind(n) {
		case "if_statement", "ternary_expression", "switch_statement", "try_statement", "for_statement", "for_in_statement", "while_statement", "do_statement",
			"arrow_function", "function_expression", "function_declaration", "method_definition":
			return n
		case "binary_expression":
			switch syn.Text(syn.Child(n, "operator")) {
			case "&&", "||", "??":
				return n
			}
		}
	}
	return body
}
