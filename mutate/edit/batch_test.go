package edit

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/syntaxcheck"
)

// windowCase is a window's text and its wrapper (a function body's or a
// class body's statement).
type windowCase struct {
	wrap string // "statement_block" or "class_body"
	text string
}

// trickyWindows are texts whose verdict together could differ from alone
// if windows leaked into each other: errors reported at another window's
// position, braces closed early or late, `await`, `yield`, labels,
// strict-mode errors, duplicate declarations, multi-line tokens.
var trickyWindows = []windowCase{
	{"statement_block", "acc += x > 0 ? 1 : -1;"},
	{"statement_block", "await x;"},
	{"statement_block", "yield 1;"},
	{"statement_block", "return acc;"},
	{"statement_block", "continue;"},
	{"statement_block", "a; }"},                 // closes the default clause early: the tail's last brace is one too many
	{"statement_block", "{"},                    // leaves a block open: the error is at the next window's `export`
	{"statement_block", "}"},                    // after "{": together, the pair would balance
	{"statement_block", "} } } { { {"},          // leaves its wrapper and comes back: valid alone
	{"statement_block", "} } } let dup; { { {"}, // valid alone; twice together a duplicate at the top level
	{"statement_block", "} } } export default 1; { { {"},
	{"statement_block", "} } } export const e = 1; { { {"},
	{"statement_block", "} } } namespace N { { { {"},    // a namespace would take the next window's `export`
	{"statement_block", "} } } declare global { { { {"}, // with the next: `export {};` is taken in a `declare global`
	{"statement_block", "} } } } { { {"},
	{"statement_block", "} } } declare namespace M { { { {"},
	{"statement_block", "} } } } { { {"},
	{"statement_block", "let a = 1; let a = 2;"},
	{"statement_block", "with (x) {}"},
	{"statement_block", "delete x;"},
	{"statement_block", "let yield = 1;"},
	{"statement_block", "function f() { await x; }"},
	{"statement_block", "function* g() { yield* h(); }"},
	{"statement_block", "break L;"},
	{"statement_block", "L: for (;;) break L;"},
	{"statement_block", "L: L: ;"},
	{"statement_block", "x = `"}, // a template or comment spanning windows
	{"statement_block", "`;"},
	{"statement_block", "x = /*"},
	{"statement_block", "*/ 1;"},
	{"statement_block", "x = 'abc\\"}, // a string continued on the next line
	{"statement_block", "x = /re"},
	{"statement_block", "x = /re/.test(y) ? a / b : c;"},
	{"statement_block", "x = '\u2028';"},
	{"statement_block", "x = <div a=\""}, // a JSX attribute spans lines (.tsx)
	{"statement_block", "\" />;"},
	{"statement_block", "x = <div>"},
	{"statement_block", "</div>;"},
	{"statement_block", "x = {"},
	{"statement_block", "export: 1 };"},
	{"statement_block", "__oracle_window_1__ = 1;"},
	{"statement_block", "if (a) {"},
	{"statement_block", "} else {"},
	{"statement_block", "x = f<"},
	{"statement_block", "T>(y);"},
	{"statement_block", "const c = 1; c = 2;"},
	{"statement_block", "import x from 'y';"},
	{"statement_block", "} } } import x from 'y'; { { {"},
	{"statement_block", "arguments = 1;"},
	{"statement_block", "new.target;"},
	{"statement_block", "x = 010;"},
	{"statement_block", "\"use strict\"; x = 1;"},
	{"class_body", "m() { return super.m(); }"},
	{"class_body", "constructor() { super(); }"},
	{"class_body", "#x = 1; m() { return this.#y; }"},
	{"class_body", "a = 1;"},
	{"class_body", "m() {"},
	{"class_body", "}"},
	{"class_body", "static { await 1; }"},
	{"class_body", "} class B extends Object {"},
	{"class_body", "export() {}"},
	{"class_body", "export"},
}

// settledTogether is settleAll's verdict on each case, and each case's
// own, alone.
func settledTogether(path string, cases []windowCase) (together, alone []bool) {
	var ps []*pending
	for _, c := range cases {
		ps = append(ps, &pending{wrap: windowWrap[c.wrap], text: []byte(c.text)})
	}
	settleAll(path, ps)
	for i, c := range cases {
		together = append(together, ps[i].ok)
		alone = append(alone, syntaxcheck.Check(path, (&pending{wrap: windowWrap[c.wrap], text: []byte(c.text)}).wrapped()) == nil)
	}
	return together, alone
}

// TestWindowsTogether: windows checked together get exactly the verdicts
// they get alone, in the given order, reversed, and shuffled.
func TestWindowsTogether(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 1))
	orders := [][]windowCase{trickyWindows, reversed(trickyWindows)}
	for range 4 {
		c := append([]windowCase(nil), trickyWindows...)
		r.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
		orders = append(orders, c)
	}
	refused := 0
	for _, path := range []string{"a.ts", "a.tsx", "a.js"} {
		for _, cases := range orders {
			together, alone := settledTogether(path, cases)
			for i := range cases {
				if together[i] != alone[i] {
					t.Errorf("%s %s %q: together %v, alone %v", path, cases[i].wrap, cases[i].text, together[i], alone[i])
				}
				if !alone[i] {
					refused++
				}
			}
		}
	}
	if refused == 0 {
		t.Error("no case refused: the table tests nothing")
	}
}

// TestWindowsTogetherRandom: windows made of valid statements, the
// tricky texts above and stray tokens (brackets, quotes, slashes,
// keywords), checked together in random groups, get their verdicts alone.
func TestWindowsTogetherRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 1,500 windows alone")
	}
	stmts := []string{"acc += x * 2;", "if (x > 1 && acc < 3) acc -= 1;", "acc = Math.max(acc, x / 4);", "for (const v of xs) { acc += v; }",
		"if (a) { b(); } else { c(); }", "await f(x);", "yield x;", "L: for (;;) { break L; }", "return a / b / c;", "x = /[/]/.test(s);",
		"x = 'a' + \"b\";", "try { f(); } catch { g(); }", "switch (x) { case 1: break; }", "do { x--; } while (x > 0);", "x = { a: 1, b: [2, 3] };"}
	tokens := strings.Fields("{ } ( ) [ ] ; , : ? . = + / < > ' \" a x 1 await yield return break continue let const function class if else new super L export import default async static => \\")
	r := rand.New(rand.NewPCG(7, 9))
	var cases []windowCase
	for range 1500 {
		var b strings.Builder
		for range 1 + r.IntN(3) {
			switch r.IntN(8) {
			case 0:
				b.WriteString(tokens[r.IntN(len(tokens))])
			case 1:
				b.WriteString(trickyWindows[r.IntN(len(trickyWindows))].text)
			default:
				b.WriteString(stmts[r.IntN(len(stmts))])
			}
			b.WriteString(" \n"[r.IntN(2):][:1])
		}
		wrap := "statement_block"
		if r.IntN(5) == 0 {
			wrap = "class_body"
		}
		cases = append(cases, windowCase{wrap, b.String()})
	}
	accepted := 0
	for lo := 0; lo < len(cases); {
		hi := min(lo+2+r.IntN(40), len(cases))
		together, alone := settledTogether("a.ts", cases[lo:hi])
		for i := range together {
			if together[i] != alone[i] {
				t.Errorf("%s %q: together %v, alone %v", cases[lo+i].wrap, cases[lo+i].text, together[i], alone[i])
			}
			if alone[i] {
				accepted++
			}
		}
		lo = hi
	}
	t.Logf("%d windows, %d accepted", len(cases), accepted)
	if accepted*4 < len(cases) || accepted*4 > 3*len(cases) {
		t.Errorf("%d of %d accepted: the test tells little apart", accepted, len(cases))
	}
}

func reversed(cs []windowCase) []windowCase {
	out := make([]windowCase, len(cs))
	for i, c := range cs {
		out[len(cs)-1-i] = c
	}
	return out
}

// TestChanged: a source with one change, read without being made, has the
// bytes and the common ends of the source Apply makes (changes that
// repeat what is around them, empty ones, at either end).
func TestChanged(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		orig := make([]byte, r.IntN(12))
		for i := range orig {
			orig[i] = "ab"[r.IntN(2)]
		}
		s := uint(r.IntN(len(orig) + 1))
		e := s + uint(r.IntN(len(orig)-int(s)+1))
		text := make([]byte, r.IntN(4))
		for i := range text {
			text[i] = "ab"[r.IntN(2)]
		}
		ch := Change{Start: s, End: e, Text: string(text)}
		out, _, err := Apply(orig, []Change{ch})
		if err != nil {
			t.Fatal(err)
		}
		v := changed{orig, ch}
		pre, suf := v.commonEnds()
		if p, q := analyzer.CommonEnds(orig, out); v.len() != len(out) || p != pre || q != suf {
			t.Fatalf("%q %+v: len %d ends %d %d, want %d %d %d", orig, ch, v.len(), pre, suf, len(out), p, q)
		}
		lo := r.IntN(len(out) + 1)
		hi := lo + r.IntN(len(out)-lo+1)
		if got := v.slice(lo, hi); string(got) != string(out[lo:hi]) {
			t.Fatalf("%q %+v [%d:%d]: %q, want %q", orig, ch, lo, hi, got, out[lo:hi])
		}
	}
}

// TestHoldingIsTheScan: the binary search for the child that holds a range
// finds the node the scan of the children from the first finds, for every
// range of a few sources (one with a syntax error: MISSING nodes are
// empty).
func TestHoldingIsTheScan(t *testing.T) {
	for _, tc := range []struct{ path, src string }{
		{"a.ts", "export class A extends B {\n  #x = 1;\n  m(a: number): number {\n    if (a > 1 && this.#x < 2) { return a * 2; }\n    const f = (y: number) => `${y}${a}`;\n    return f(a) ? 1 : 0;\n  }\n}\nexport const g = async () => { await h(); };\n"},
		{"a.tsx", "export function C(p: { n: number }) {\n  return <div a=\"1\">{p.n > 0 ? <b>yes</b> : null}</div>;\n}\n"},
		{"b.ts", "function f(a) {\n  if (a > 1 { return a\n  g(\n}\n"},
	} {
		_, syn := analyzer.ParseSyntax(tc.path, []byte(tc.src))
		ws := &windows{syn: syn, kids: map[analyzer.Node]children{}}
		scan := func(n analyzer.Node, start, end uint) analyzer.Node {
			for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
				if syn.Start(c) <= start && end <= syn.End(c) {
					return c
				}
			}
			return analyzer.NoNode
		}
		checks := 0
		for start := uint(0); start <= uint(len(tc.src)); start++ {
			for end := start; end <= uint(len(tc.src)); end++ {
				for n := syn.Root(); n >= 0; n = scan(n, start, end) {
					checks++
					if got, want := ws.holding(n, start, end), scan(n, start, end); got != want {
						t.Fatalf("%s [%d, %d) in %s: %d, want %d", tc.path, start, end, syn.Kind(n), got, want)
					}
				}
			}
		}
		unsorted := 0
		for _, c := range ws.kids {
			if !c.sorted {
				unsorted++
			}
		}
		t.Logf("%s: %d checks, %d nodes searched, %d with children out of order", tc.path, checks, len(ws.kids), unsorted)
	}
}
