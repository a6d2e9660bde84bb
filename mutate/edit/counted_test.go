package edit

import (
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
)

// MarkCounted counts the whole file (every function's entry, every loop:
// a loop in another function than the changed one too) with the marker in
// place, and leaves a file with nothing to count (module code only, a
// directive's body) uncounted; CountedOriginal counts the original the same
// way.
func TestMarkCounted(t *testing.T) {
	const decl = "function " + HitFunc + "() {}"
	cases := []struct {
		name, marker, src, old, text string // marker: MarkCounted's stmt
		counted                      bool
		want                         []string // in the counted mutant, in order
		orig                         string   // in the counted original
	}{
		{"loop", "M", "export function f(n: number) {\n  let i = 0;\n  while (i < n) {\n    i++;\n  }\n  return i;\n}\n", "i++;", ";", true,
			[]string{"f(n: number) { " + HitFunc + "();", "while (i < n) { " + HitFunc + "(); {\n    M; ;\n  } }", "\n" + decl + "\n"},
			"while (i < n) { " + HitFunc + "(); {\n    i++;\n  } }"},
		{"nested arrow", "M", "export function g(xs: number[]) {\n  return xs.map((x) => x + 1);\n}\n", "x + 1", "x - 1", true,
			[]string{"g(xs: number[]) { " + HitFunc + "();", "M; return xs.map((x) => (" + HitFunc + "(), x - 1));"}, ""},
		{"arrow expression body (no statement to mark)", "", "export const h = (a: number) => a * 2;\n", "a * 2", "a / 2", true,
			[]string{"=> (" + HitFunc + "(), a / 2);"}, "=> (" + HitFunc + "(), a * 2);"},
		{"a loop in another function", "M", "export function step(i: number) {\n  return i + 1;\n}\nexport function walk(n: number) {\n  let i = 0;\n  for (; i < n; ) i = step(i);\n  return i;\n}\n", "i + 1", "i - 1", true,
			[]string{"step(i: number) { " + HitFunc + "();\n  M; return i - 1;", "for (; i < n; ) { " + HitFunc + "(); i = step(i); }"},
			"for (; i < n; ) { " + HitFunc + "(); i = step(i); }"},
		{"module code", "", "export const k = 1 + 2;\n", "1 + 2", "1 - 2", false, nil, ""},
		{"directive", "M", "export function d() {\n  \"use strict\";\n  return 1 + 2;\n}\n", "1 + 2", "1 - 2", false, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			at := strings.Index(c.src, c.old)
			m, err := NewMutant("test", "", "a.ts", []byte(c.src), []Change{{Start: uint(at), End: uint(at + len(c.old)), Text: c.text}})
			if err != nil {
				t.Fatal(err)
			}
			out, counted, err := MarkCounted(m, c.marker, decl)
			if err != nil || counted != c.counted {
				t.Fatalf("counted %v, err %v:\n%s", counted, err, out)
			}
			plain := m.Source()
			if c.marker != "" {
				plain, _ = MarkReached(m, c.marker)
			}
			if !counted {
				if string(out) != string(plain) {
					t.Errorf("uncounted, not MarkReached's:\n%s", out)
				}
				return
			}
			if f := analyzer.Parse("a.ts", out); len(f.Errors) > 0 {
				t.Fatalf("does not parse: %s\n%s", f.Errors[0].Message, out)
			}
			rest := string(out)
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("no %q in order in\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
			if c.orig == "" {
				return
			}
			o, ok := CountedOriginal(m, decl)
			if !ok || !strings.Contains(string(o), c.orig) || !strings.HasSuffix(string(o), decl+"\n") {
				t.Errorf("the original, counted (%v):\n%s", ok, o)
			}
		})
	}
}
