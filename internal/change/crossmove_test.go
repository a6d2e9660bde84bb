package change

import (
	"fmt"
	"strings"
	"testing"
)

// diffAll is what CodeChange makes of files: each file's changed spans (as
// their texts) and its refactors.
func diffAll(files []revisions) string {
	moves := crossMoves(files)
	var out []string
	for _, f := range files {
		if f.head == nil {
			continue
		}
		spans, b := diffBase(f.path, f.base, f.head, moves[f.path])
		var texts []string
		for _, s := range spans {
			texts = append(texts, fmt.Sprintf("%q", f.head[s.Start:s.End]))
		}
		line := f.path + ": " + strings.Join(texts, " ")
		if b != nil && len(b.Refactors) > 0 {
			line += " (" + strings.Join(b.Refactors, "; ") + ")"
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

const movedFn = `function isPlain(value: unknown): boolean {
  if (value === null || typeof value !== "object") {
    return false;
  }
  return Object.getPrototypeOf(value) === Object.prototype;
}
`

// TestCrossFileMove: a function moved to another file of the change (a new
// one or not, renamed or not), imported back and called under its new
// name, is no changed token anywhere; a body changed on the way, an old
// name still called, or two deleted copies are changes as before.
func TestCrossFileMove(t *testing.T) {
	baseA := "import { x } from \"./x\";\n\nexport function merge(a: unknown, b: unknown) {\n  if (!_isPlain(a)) return b;\n  return _isPlain(b) ? x(a, b) : a;\n}\n\n" + strings.Replace(movedFn, "isPlain", "_isPlain", 1)
	headA := "import { isPlain } from \"./_utils\";\nimport { x } from \"./x\";\n\nexport function merge(a: unknown, b: unknown) {\n  if (!isPlain(a)) return b;\n  return isPlain(b) ? x(a, b) : a;\n}\n"
	cases := []struct {
		name  string
		files []revisions
		want  string
	}{
		{"moved to a new file, renamed, exported", []revisions{
			{"src/a.ts", []byte(baseA), []byte(headA)},
			{"src/_utils.ts", nil, []byte("// From is-plain-obj\nexport " + movedFn)},
		}, "src/a.ts:  (function _isPlain moved to src/_utils.ts as isPlain)\nsrc/_utils.ts: "},
		{"moved beside another function, the same name", []revisions{
			{"src/a.ts", []byte(strings.ReplaceAll(baseA, "_isPlain", "isPlain")), []byte(headA)},
			{"src/_utils.ts", []byte("export const one = 1;\n"), []byte("export const one = 1;\n\nexport " + movedFn)},
		}, "src/a.ts:  (function isPlain moved to src/_utils.ts)\nsrc/_utils.ts: "},
		{"its body changed on the way", []revisions{
			{"src/a.ts", []byte(baseA), []byte(headA)},
			{"src/_utils.ts", nil, []byte("export " + strings.Replace(movedFn, "return false", "return true", 1))},
		}, `src/a.ts: "import { isPlain } from \"./_utils\"" "isPlain" "isPlain" ""` + "\n" + `src/_utils.ts: "export function isPlain(value: unknown): boolean {\n  if (value === null || typeof value !== \"object\") {\n    return true;\n  }\n  return Object.getPrototypeOf(value) === Object.prototype;\n}"`},
		{"the old name still called", []revisions{
			{"src/a.ts", []byte(baseA), []byte(strings.Replace(headA, "return isPlain(b)", "return _isPlain(b)", 1))},
			{"src/_utils.ts", nil, []byte("export " + movedFn)},
		}, `src/a.ts: "import { isPlain } from \"./_utils\"" "isPlain" ""` + "\n" + `src/_utils.ts: "export function isPlain(value: unknown): boolean {\n  if (value === null || typeof value !== \"object\") {\n    return false;\n  }\n  return Object.getPrototypeOf(value) === Object.prototype;\n}"`},
		{"it was exported from its file", []revisions{
			{"src/a.ts", []byte(strings.Replace(baseA, "function _isPlain", "export function _isPlain", 1)), []byte(headA)},
			{"src/_utils.ts", nil, []byte("export " + movedFn)},
		}, `src/a.ts: "import { isPlain } from \"./_utils\"" "isPlain" "isPlain" ""` + "\n" + `src/_utils.ts: "export function isPlain(value: unknown): boolean {\n  if (value === null || typeof value !== \"object\") {\n    return false;\n  }\n  return Object.getPrototypeOf(value) === Object.prototype;\n}"`},
		{"two copies deleted", []revisions{
			{"src/a.ts", []byte(baseA), []byte(headA)},
			{"src/b.ts", []byte("export const b = 2;\n" + strings.Replace(movedFn, "isPlain", "_isPlain", 1)), []byte("export const b = 2;\n")},
			{"src/_utils.ts", nil, []byte("export " + movedFn)},
		}, `src/a.ts: "import { isPlain } from \"./_utils\"" "isPlain" "isPlain" ""` + "\n" + `src/b.ts: ""` + "\n" + `src/_utils.ts: "export function isPlain(value: unknown): boolean {\n  if (value === null || typeof value !== \"object\") {\n    return false;\n  }\n  return Object.getPrototypeOf(value) === Object.prototype;\n}"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := diffAll(c.files); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestCrossFileMoveCommitted: the same read from a git commit (CodeChange):
// the function a commit moved to a new file, renamed, imported back, is no
// code token of either file, and the file it left says what moved.
func TestCrossFileMoveCommitted(t *testing.T) {
	r := newRepo(t)
	baseA := "export function merge(a: unknown, b: unknown) {\n  return _isPlain(a) && _isPlain(b) ? b : a;\n}\n\n" + strings.Replace(movedFn, "isPlain", "_isPlain", 1)
	headA := "import { isPlain } from \"./_utils\";\n\nexport function merge(a: unknown, b: unknown) {\n  return isPlain(a) && isPlain(b) ? b : a;\n}\n"
	r.commit(map[string]string{"src/a.ts": baseA})
	r.commit(map[string]string{"src/a.ts": headA, "src/_utils.ts": "export " + movedFn})
	ch, o, err := Git(r.dir, "HEAD~1", false)
	if err != nil {
		t.Fatal(err)
	}
	toks, bases, err := CodeChange(r.dir, o, ch)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"src/a.ts", "src/_utils.ts"} {
		if len(toks[f]) != 0 {
			t.Errorf("%s: changed %v", f, toks[f])
		}
	}
	if b := bases["src/a.ts"]; b == nil || fmt.Sprint(b.Refactors) != "[function _isPlain moved to src/_utils.ts as isPlain]" {
		t.Errorf("src/a.ts's refactors: %+v", b)
	}
}
