package modules

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jsonDepth is the bracket nesting of a JSON text (brackets in strings are
// counted too: an over-estimate is fine).
func jsonDepth(b []byte) int {
	d, m := 0, 0
	for _, c := range b {
		switch c {
		case '{', '[':
			d++
			m = max(m, d)
		case '}', ']':
			d--
		}
	}
	return m
}

func FuzzJSONC(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `"x"`, `1.5e3`, `{"a":1,"b":[true,false,null],}`,
		"// c\n{ /* x */ \"a\": \"//not a comment\", }",
		`{"exports":{".":{"types":"./a.d.ts","default":"./a.js"}}}`,
		`{"a":"\ud83d\ude00\u0041\n"}`, `{"a":1,"a":2,"b":3}`, "\xef\xbb\xbf{}", `{"a" 1}`, `[1,]`, `/*`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseJSONC(data)
		if err != nil {
			if je, ok := err.(*jsonError); !ok || je.off < 0 || je.off > len(data) {
				t.Fatalf("error without a valid offset: %v", err)
			}
			_ = lineOf(data, err.(*jsonError).off)
			return
		}
		if v == nil {
			t.Fatal("nil value without an error")
		}
		// Strict JSON is a subset of JSONC: it must parse, keys in the same
		// order as a json.Decoder token walk sees them.
		if !json.Valid(data) || jsonDepth(data) > 100 {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if v.kind != jObj {
			return
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			t.Fatalf("decoder: %v %v", tok, err)
		}
		var keys []string
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return // e.g. invalid UTF-8 handled differently
			}
			k, _ := tok.(string)
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return
			}
		}
		if strings.Join(keys, "\x00") != strings.Join(v.keys, "\x00") {
			t.Fatalf("key order: json %q, ours %q", keys, v.keys)
		}
	})
}

func FuzzPackageExports(f *testing.F) {
	root := f.TempDir()
	for _, p := range []string{"pkg/src/index.ts", "pkg/src/a.ts", "pkg/dist/index.d.ts", "pkg/dist/index.js", "outside.ts"} {
		full := filepath.Join(root, "packages", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("export {}\n"), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	r, err := New(root)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		`{"exports":"./src/index.ts"}`,
		`{"exports":{".":{"source":"./src/index.ts","types":"./dist/index.d.ts"},"./*":["./src/*.ts",null]}}`,
		`{"exports":{"import":{"types":{"default":"./dist/index.js"}}}}`,
		`{"exports":{"./x/*":null,"./*":"./../../*"}}`,
		`{"types":"./dist/index.d.ts","main":"./dist/index.js"}`,
		`{"exports":[{"require":"./a"},"./src/a.js"]}`,
	} {
		f.Add([]byte(s), ".")
		f.Add([]byte(s), "./a")
	}
	f.Fuzz(func(t *testing.T, data []byte, sub string) {
		pkg, err := parseJSONC(data)
		if err != nil {
			return
		}
		if sub != "." && !strings.HasPrefix(sub, "./") {
			sub = "./" + sub
		}
		for _, conds := range [][]string{defaultConditions, {"source", "types", "import", "default"}} {
			res := r.resolveInPackageJSON("pkg", "packages/pkg", pkg, sub, conds)
			switch res.Kind {
			case KindFile:
				if outside(res.Path) || r.stat(res.Path) != kindFile {
					t.Fatalf("resolved to %q, not a file of the repository", res.Path)
				}
			case KindUnresolved:
				if res.Reason == "" {
					t.Fatal("unresolved without a reason")
				}
			case KindExternal:
				t.Fatalf("exports resolved to an external package: %+v", res)
			}
		}
		// The imports field reads the same way.
		m := &pkgMap{r: r, pkgDir: "packages/pkg", conds: defaultConditions, imports: true, proj: noProject, tr: &trace{}}
		if imp := pkg.get("imports"); imp != nil {
			if tv, star, _, ok := m.lookup(imp, "#"+strings.TrimPrefix(sub, "./")); ok {
				m.target(tv, star, 0)
			}
		}
	})
}
