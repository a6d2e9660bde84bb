package analyzer

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// checkInvariants verifies what holds for any input: positions are 1-based
// and byte ranges lie within the source, nested as they should.
func checkInvariants(t *testing.T, src []byte, f *File) {
	t.Helper()
	n := uint(len(src))
	in := func(what string, a, b uint) {
		if a > b || b > n {
			t.Fatalf("%s range [%d,%d) outside source of %d bytes", what, a, b, n)
		}
	}
	pos := func(what string, line, col int) {
		if line < 1 || col < 1 {
			t.Fatalf("%s position %d:%d", what, line, col)
		}
	}
	for _, fn := range f.Functions {
		pos("function", fn.Line, fn.Column)
		in("function", fn.StartByte, fn.EndByte)
		in("body", fn.BodyStartByte, fn.BodyEndByte)
		if fn.BodyStartByte < fn.StartByte || fn.BodyEndByte > fn.EndByte {
			t.Fatalf("body outside function")
		}
		for _, c := range fn.Calls {
			pos("call", c.Line, c.Column)
			in("call", c.StartByte, c.EndByte)
			in("callee", c.CalleeStartByte, c.CalleeEndByte)
			in("statement", c.StatementStartByte, c.StatementEndByte)
			if c.CalleeStartByte < c.StartByte || c.CalleeEndByte > c.EndByte ||
				c.StartByte < fn.BodyStartByte || c.EndByte > fn.BodyEndByte {
				t.Fatalf("call ranges not nested: %+v in %+v", c, fn)
			}
			if c.StatementEndByte != 0 && (c.StatementStartByte > c.StartByte || c.StatementEndByte < c.EndByte) {
				t.Fatalf("statement does not contain the call: %+v", c)
			}
		}
		for _, p := range fn.Params {
			pos("param", p.Line, 1)
		}
	}
	for _, im := range f.Imports {
		pos("import", im.Line, 1)
	}
	for _, ex := range f.Exports {
		pos("export", ex.Line, 1)
	}
	for _, d := range f.Decls {
		pos("decl", d.Line, 1)
	}
	for _, e := range f.Errors {
		pos("error", e.Line, e.Column)
		if e.Message == "" {
			t.Fatalf("empty error message")
		}
	}
}

// FuzzParse: arbitrary bytes, as TS or TSX, never panic and keep the
// invariants. With FUZZ_SLOW=1, an input that takes more than 2s fails too.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.ts*")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b, filepath.Ext(s) == ".tsx")
		}
	}
	for _, s := range []string{
		"export async function f(a, {b}, ...c) { await g(a?.b()); const { x } = await import('m'); x(); }",
		"function f<in T>() {} export type * from 'm'; for (using x of y) {} let a: import('m').T<X>;",
		"import defer * as ns from 'm'; class C { static accessor x = 1 }",
		"export default () => (await import('./x')).a.b();",
		"const s = '😀'; function f() { g(); }",
		"export import x = require('m'); export = foo;",
		"function f() { g(; }",
		"<div>{f()}</div>",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	p := NewParser()
	defer p.Close()
	f.Fuzz(func(t *testing.T, src []byte, tsx bool) {
		path := "x.ts"
		if tsx {
			path = "x.tsx"
		}
		start := time.Now()
		f := p.Parse(path, src)
		if d := time.Since(start); d > 2*time.Second && os.Getenv("FUZZ_SLOW") != "" {
			t.Fatalf("slow: %v for %d bytes", d, len(src))
		}
		checkInvariants(t, src, f)
	})
}
