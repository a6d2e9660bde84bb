package operators

import (
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// opCase is one row of an operator's table: the body of
//
//	function f(opts: { skip?: boolean }, a: any, b: any, xs: any[]) { <src> }
//
// and every mutant the operator alone makes of it (its Mutate on every node
// of its kinds within the body, in tree order; the body itself only for an
// operator of the whole Function), each written as the mutated body.
type opCase struct {
	src  string
	want []string
}

const tableHead = "function f(opts: { skip?: boolean }, a: any, b: any, xs: any[]) {\n  "

// table runs op over each case. For prove's operators the flag is
// opts.skip, the wrapped call enrichItem(...), and every call of save is
// preserved.
func table(t *testing.T, op *Operator, cases []opCase) {
	t.Helper()
	for _, tc := range cases {
		got := mutateWith(t, op, tc.src)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s of %q:\ngot  %q\nwant %q", op.Name, tc.src, got, tc.want)
		}
	}
}

func mutateWith(t *testing.T, op *Operator, body string) []string {
	t.Helper()
	src := tableHead + body + "\n}\n"
	f, syn := analyzer.ParseSyntax("x.ts", []byte(src))
	if len(f.Errors) > 0 {
		t.Fatalf("%q does not parse: %+v", body, f.Errors)
	}
	fn := f.Functions[0]
	c := &Context{Path: "x.ts", Src: []byte(src), Syn: syn, preserved: map[Node]*analyzer.Call{}}
	if op.Verb == ProveVerb {
		tg := edit.Target{Path: "x.ts", Src: []byte(src), Fn: fn, Flag: optsSkip}
		sc, err := edit.NewScope(tg)
		if err != nil {
			t.Fatal(err)
		}
		c.Scope, c.Fn, c.Syn = sc, fn, sc.Syntax()
		syn = c.Syn
		if ws := fn.CallSites("enrichItem"); len(ws) > 0 {
			c.Wrap = ws[0]
		}
		c.Preserves = fn.CallSites("save")
		for _, p := range c.Preserves {
			n, err := sc.CallNode(p)
			if err != nil {
				t.Fatal(err)
			}
			c.preserved[n] = p
		}
	}
	var muts []Mutation
	visit := func(n Node) {
		ms, err := op.Mutate(c, n)
		if err != nil {
			t.Fatalf("%s of %q: %v", op.Name, body, err)
		}
		muts = append(muts, ms...)
	}
	bodyNode := syn.Find(fn.BodyStartByte, fn.BodyEndByte, "")
	if op.Visits(Function) {
		visit(bodyNode)
	}
	syn.Walk(bodyNode, func(n Node) bool {
		if n != bodyNode && op.Visits(syn.Kind(n)) {
			visit(n)
		}
		return true
	})
	var out []string
	for _, mu := range muts {
		m, err := edit.NewMutant(op.Name, mu.Subject, "x.ts", []byte(src), mu.Changes)
		if err != nil {
			t.Fatal(err)
		}
		got := string(m.Source())
		if !strings.HasPrefix(got, tableHead) || !strings.HasSuffix(got, "\n}\n") {
			t.Fatalf("%s changed the code around the body: %q", op.Name, got)
		}
		out = append(out, strings.TrimSuffix(strings.TrimPrefix(got, tableHead), "\n}\n"))
	}
	return out
}
