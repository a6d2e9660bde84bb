package manifest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func addSeeds(f *testing.F) {
	files, _ := filepath.Glob("../testdata/manifests/*")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		mk(), mk("wrap: {call: a.b, occurrence: 2}", "preserve: [c, {call: a.b, occurrence: 1}]", "args: [1, {a: [x, ~]}]", "default: {}"),
		mk("id: x", "fixture: p", "args: [2024-01-01, .inf, &a 1, *a]"),
		"ticket: T\noperations: [{kind: conditional-skip, function: a.ts#f, flag: p, wrap: g}, {}]\n",
		"fixtures:\n  - {name: a, file: a.ts}\nout: '{dir}/{id}.test.ts'\n",
		"", "---\n---\n", "a: &x [*x]\n", "<<: {a: 1}\n", "\xef\xbb\xbf{\"ticket\": 1}",
	} {
		f.Add([]byte(s))
	}
}

// FuzzParseTicket checks that ParseTicket never panics, that every error
// has a position, and that what it accepts keeps the promised invariants.
func FuzzParseTicket(f *testing.F) {
	addSeeds(f)
	cfg := &Config{Out: DefaultOut}
	f.Fuzz(func(t *testing.T, data []byte) {
		tk, err := ParseTicket("f.yaml", data)
		if err != nil {
			checkErrors(t, err)
			return
		}
		if !idPattern.MatchString(tk.Ticket) || len(tk.Operations) == 0 {
			t.Fatalf("accepted ticket %q with %d operations", tk.Ticket, len(tk.Operations))
		}
		ids := map[string]bool{}
		for _, op := range tk.Operations {
			if !idPattern.MatchString(op.ID) || ids[strings.ToLower(op.ID)] {
				t.Fatalf("bad or duplicate id %q", op.ID)
			}
			ids[strings.ToLower(op.ID)] = true
			if !filepath.IsLocal(op.Function.File) || !isIdentifier(op.Function.Name) || op.Flag.Param == "" || op.Wrap.Call == "" {
				t.Fatalf("accepted %+v", op)
			}
			for _, p := range []Pos{op.Pos, op.IDPos, op.Function.Pos, op.Flag.Pos, op.Wrap.Pos} {
				if !p.IsValid() {
					t.Fatalf("invalid position in %+v", op)
				}
			}
			for _, a := range op.Args {
				if !json.Valid(a) {
					t.Fatalf("args %q are not JSON", a)
				}
			}
			if op.Default != nil && !json.Valid(op.Default) {
				t.Fatalf("default %q is not JSON", op.Default)
			}
			if out := cfg.OutPath(tk, &op); !filepath.IsLocal(out) {
				t.Fatalf("out path %q leaves the repository", out)
			}
		}
	})
}

// FuzzParseConfig checks the same of ParseConfig, and that every accepted
// out template expands inside the repository.
func FuzzParseConfig(f *testing.F) {
	addSeeds(f)
	tk := &Ticket{Ticket: "T-1"}
	ops := []*Operation{
		{ID: "x", Function: FuncRef{File: "a.ts", Name: "f"}},
		{ID: "a..b", Function: FuncRef{File: "..a.ts", Name: "$"}},
		{ID: "1", Function: FuncRef{File: "a/b/c.ts", Name: "_"}},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig("oracle.yaml", data)
		if err != nil {
			checkErrors(t, err)
			return
		}
		for _, op := range ops {
			if out := c.OutPath(tk, op); !filepath.IsLocal(out) {
				t.Fatalf("template %q: out path %q leaves the repository", c.Out, out)
			}
		}
	})
}

func checkErrors(t *testing.T, err error) {
	t.Helper()
	errs, ok := err.(Errors)
	if !ok || len(errs) == 0 {
		t.Fatalf("error %T %v, want non-empty Errors", err, err)
	}
	for i, e := range errs {
		if e.Line < 1 || e.Column < 0 || e.Message == "" || e.File == "" {
			t.Fatalf("bad error %+v", e)
		}
		if i > 0 && (errs[i-1].Line > e.Line || errs[i-1].Line == e.Line && errs[i-1].Column > e.Column) {
			t.Fatalf("errors not sorted: %v", err)
		}
	}
}
