package change

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// changedText is the text of each span of Diff, a deletion point as "^".
func changedText(path, base, head string) []string {
	var b []byte
	if base != "\x00" {
		b = []byte(base)
	}
	out := []string{}
	for _, s := range Diff(path, b, []byte(head)) {
		if s.Start == s.End {
			out = append(out, "^"+head[s.Start:min(s.Start+4, len(head))])
			continue
		}
		out = append(out, head[s.Start:s.End])
	}
	return out
}

func TestDiffTokens(t *testing.T) {
	for _, tc := range []struct {
		name, base, head string
		want             []string
	}{
		{"a literal", "export function f(it: number) {\n  return it * 1;\n}\n", "export function f(it: number) {\n  return it * 2;\n}\n", []string{"2"}},
		{"a trailing comment", "export const a = 1;\n", "export const a = 1; // one\n", []string{}},
		{"whitespace and a block comment", "function f(a){return a+1}\n", "function f(a) {\n  /* add */\n  return a + 1;\n}\n", []string{}},
		{"a widened parameter type", "export function f(a: number): number { return a; }\n", "export function f(a: number | string): number | string { return a as number; }\n", []string{}},
		{"an added interface and type alias", "export const x = 1;\n", "export interface P { a: number }\ntype Q = P[];\nexport const x = 1;\n", []string{}},
		{"type arguments, non-null, optional parameter", "function f(m, a) { return m.get(a).x; }\n", "function f(m: Map<string, {x: number}>, a?: string) { return m.get<string>(a!)!.x; }\n", []string{}},
		{"overload signatures", "export function f(a) { return a; }\nclass C {\n  m(a) { return a; }\n}\n",
			"export function f(a: string): string;\nexport function f(a: number): number;\nexport function f(a) { return a; }\nclass C {\n  m(a: string): string;\n  m(a) { return a; }\n}\n", []string{}},
		{"an added operand", "if (value < lo) {}\n", "if (Number.isNaN(value) || value < lo) {}\n", []string{"Number.isNaN(value) ||"}},
		{"an added statement", "function f() {\n  a();\n}\n", "function f() {\n  a();\n  b();\n}\n", []string{"b()"}},
		{"a deletion", "const x = a || b;\n", "const x = a;\n", []string{"^;\n"}},
		{"a new file", "\x00", "// c\nexport const a = 1;\n", []string{"export const a = 1"}},
		{"a string", "const s = \"a\";\n", "const s = \"b\";\n", []string{"\"b\""}},
		{"quotes and a trailing comma", "const s = [\"a\", 1];\n", "const s = [\n  'a',\n  1,\n];\n", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := changedText("x.ts", tc.base, tc.head)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Errorf("changed %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCounts(t *testing.T) {
	changed := []Span{{10, 12}, {30, 30}}
	for _, tc := range []struct {
		name string
		site Site
		want bool
	}{
		{"replaces a changed token", Site{Replaced: Span{9, 11}}, true},
		{"next to it", Site{Replaced: Span{12, 14}}, false},
		{"before it", Site{Replaced: Span{0, 10}}, false},
		{"a deletion point inside", Site{Replaced: Span{28, 32}}, true},
		{"a deletion point at its edge", Site{Replaced: Span{30, 34}}, false},
		{"a block around a changed token", Site{Replaced: Span{0, 20}, Own: []Span{{0, 1}, {19, 20}}}, false},
		{"a block whose brace is new", Site{Replaced: Span{11, 20}, Own: []Span{{11, 12}, {19, 20}}}, true},
		{"a construct the change wrote whole", Site{Replaced: Span{10, 12}, Own: []Span{{5, 6}}}, true},
		{"a construct partly written", Site{Replaced: Span{10, 14}, Own: []Span{{5, 6}}}, false},
		{"a condition written whole in kept parentheses", Site{Replaced: Span{9, 13}, Own: []Span{{5, 6}}, Inner: Span{10, 12}}, true},
		{"a condition partly written in kept parentheses", Site{Replaced: Span{9, 15}, Own: []Span{{5, 6}}, Inner: Span{10, 14}}, false},
	} {
		if got := Counts(tc.site, changed); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDiffSlides: an inserted run that could stand one token earlier or
// later is placed where it covers whole statements.
func TestDiffSlides(t *testing.T) {
	for _, tc := range []struct {
		name, base, head string
		want             []string
	}{
		{"a statement before a kept export", "export function f() {}\n", "export const L = { max: 10 * 3 };\nexport function f() {}\n", []string{"export const L = { max: 10 * 3 }"}},
		{"a block before a kept brace", "function f(x) {\n  a();\n}\n", "function f(x) {\n  a();\n  if (x) {\n    b();\n  }\n}\n", []string{"if (x) {\n    b();\n  }"}},
	} {
		if got := changedText("x.ts", tc.base, tc.head); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: changed %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestDiffBrackets: a closing bracket is the partner of its opening one
// (bench/trial26-27.md finding 7): the new `}` is the new block's, not the
// kept block's around it, which the change did not write (each span as
// line:column of its start and its text).
func TestDiffBrackets(t *testing.T) {
	for _, tc := range []struct {
		name, base, head string
		want             []string
	}{
		{"a body rewritten into a nested if, a guard added below (ufo eb29945)", "export function withBase(input: string, base: string) {\n  if (isEmptyURL(base) || hasProtocol(input)) {\n    return input;\n  }\n  const _base = withoutTrailingSlash(base);\n  if (input.startsWith(_base)) {\n    return input;\n  }\n  return joinURL(_base, input);\n}\n\nexport function withoutBase(input: string, base: string) {\n  if (isEmptyURL(base)) {\n    return input;\n  }\n  const _base = withoutTrailingSlash(base);\n  if (!input.startsWith(_base)) {\n    return input;\n  }\n  const trimmed = input.slice(_base.length);\n  return trimmed[0] === \"/\" ? trimmed : \"/\" + trimmed;\n}\n\n",
			"export function withBase(input: string, base: string) {\n  if (isEmptyURL(base) || hasProtocol(input)) {\n    return input;\n  }\n  const _base = withoutTrailingSlash(base);\n  if (input.startsWith(_base)) {\n    const nextChar = input[_base.length];\n    // Ensure '/admin-dashboard' is not considered as having base '/admin/'\n    if (!nextChar || nextChar === \"/\" || nextChar === \"?\") {\n      return input;\n    }\n  }\n  return joinURL(_base, input);\n}\n\nexport function withoutBase(input: string, base: string) {\n  if (isEmptyURL(base)) {\n    return input;\n  }\n  const _base = withoutTrailingSlash(base);\n  if (!input.startsWith(_base)) {\n    return input;\n  }\n  // Ensure '/admin-dashboard' is not considered as having base '/admin/'\n  const nextChar = input[_base.length];\n  if (nextChar && nextChar !== \"/\" && nextChar !== \"?\") {\n    return input;\n  }\n  const trimmed = input.slice(_base.length);\n  return trimmed[0] === \"/\" ? trimmed : \"/\" + trimmed;\n}\n",
			[]string{"7:5 const nextChar = input[_base.length]; … if (!nextChar || nextChar === \"/\" || nextChar === \"?\") {", "11:5 }",
				"25:3 const nextChar = input[_base.length]; if (nextChar && nextChar !== \"/\" && nextChar !== \"?\") { return input; }"}},
		{"an object appended to a kept object, the run body changed (nuxt/cli 82fe2d63)", "export default defineCommand({\n  meta: {\n    name: 'info',\n    description: 'Get information about Nuxt project',\n  },\n  args: {\n    ...rootDirArgs,\n  },\n  async run(ctx) {\n    const cwd = resolveRootDir(ctx.args)\n    print(cwd)\n  },\n})\n",
			"export default defineCommand({\n  meta: {\n    name: 'info',\n    description: 'Get information about Nuxt project',\n  },\n  args: {\n    ...rootDirArgs,\n    json: {\n      type: 'boolean',\n      description: 'Print project info as JSON',\n    },\n  },\n  async run(ctx) {\n    const cwd = resolveRootDir(ctx.args)\n    if (ctx.args.json) {\n      return print({ cwd })\n    }\n    print(cwd)\n  },\n})\n",
			[]string{"7:19 , json: { type: 'boolean', description: 'Print project info as JSON', }", "15:5 if (ctx.args.json) { return print({ cwd }) }"}},
		{"a call wrapped around kept arguments", "const v = f(a(1));\n", "const v = f(g(a(1)));\n", []string{"1:13 g(", "1:19 )"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, s := range Diff("x.ts", []byte(tc.base), []byte(tc.head)) {
				line := 1 + strings.Count(tc.head[:s.Start], "\n")
				col := s.Start - strings.LastIndex(tc.head[:s.Start], "\n")
				text := strings.Join(strings.Fields(tc.head[s.Start:s.End]), " ")
				if c := strings.Index(text, "// "); c >= 0 { // a comment
					text = text[:c] + "… " + text[strings.Index(text, "if ("):]
				}
				got = append(got, fmt.Sprintf("%d:%d %s", line, col, text))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("changed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestCodeTokens: the token diff of a change read from git: a renamed
// file is diffed against its old name (a pure `git mv` changes nothing, a
// rename with an edit only the edit), a new file is all new, a comment is
// no code; the same with --worktree (the working tree against the base),
// and from a subdirectory.
func TestCodeTokens(t *testing.T) {
	r := newRepo(t)
	long := "export function f(a: number): number {\n  const b = a * 2;\n  const c = b + 1;\n  return c - a;\n}\n"
	r.commit(map[string]string{"web/src/moved.ts": long, "web/src/edited.ts": long, "web/src/commented.ts": long, "web/README.md": "x\n"})
	r.git("mv", "web/src/moved.ts", "web/src/here.ts")
	r.git("mv", "web/src/edited.ts", "web/src/there.ts")
	r.commit(map[string]string{"web/src/there.ts": strings.Replace(long, "b + 1", "b + 3", 1), "web/src/commented.ts": long + "// done\n",
		"web/src/new.ts": "// new\nexport const n = 1;\n", "web/README.md": "y\n"})
	want := map[string]string{"src/here.ts": "", "src/there.ts": "3", "src/commented.ts": "", "src/new.ts": "export const n = 1"}
	check := func(how string, c Change, o *Origin) {
		t.Helper()
		toks, err := CodeTokens(filepath.Join(r.dir, "web"), o, c)
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		got := map[string]string{}
		for f, spans := range toks {
			src, _ := os.ReadFile(filepath.Join(r.dir, "web", f))
			var texts []string
			for _, s := range spans {
				texts = append(texts, string(src[s.Start:s.End]))
			}
			got[f] = strings.Join(texts, "|")
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q", how, got, want)
		}
	}
	c, o, err := Git(filepath.Join(r.dir, "web"), "HEAD~1", false)
	if err != nil {
		t.Fatal(err)
	}
	check("committed", c, o)
	r.git("reset", "-q", "--soft", "HEAD~1")
	c, o, err = Git(filepath.Join(r.dir, "web"), "HEAD", true)
	if err != nil {
		t.Fatal(err)
	}
	check("--worktree", c, o)
}

// TestHunks: each hunk is a stretch between two kept tokens whose base
// bytes restore the base's code there; all of them restored give the base
// back byte for byte.
func TestHunks(t *testing.T) {
	for _, tc := range []struct {
		name, base, head string
		want             []string // each hunk as "head text => base text"
	}{
		{"a callee replaced", "function f() {\n  const o = new EmptyObject();\n  return o;\n}\n", "function f() {\n  // faster\n  const o = Object.create(null);\n  return o;\n}\n",
			[]string{" Object.create =>  new EmptyObject", "null => "}},
		{"a statement deleted", "function f(a) {\n  a.x = 1;\n  a.y = 2;\n  return a;\n}\n", "function f(a) {\n  a.x = 1;\n  return a;\n}\n",
			[]string{";\n   => ;\n  a.y = 2;\n  "}},
		{"a statement added", "function f(a) {\n  return a;\n}\n", "function f(a) {\n  a.n++;\n  return a;\n}\n",
			[]string{"\n  a.n++;\n   => \n  "}},
		{"a string key changed", "const m = { 'a-b': 1 };\n", "const m = { 'a_b': 1 };\n", []string{" 'a_b' =>  'a-b'"}},
		{"no change", "const a = 1;\n", "const a = 1; // one\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, hunks, _, _ := diff2("x.ts", []byte(tc.base), []byte(tc.head), nil)
			var got []string
			restored := tc.head
			for k := len(hunks) - 1; k >= 0; k-- {
				h := hunks[k]
				got = append([]string{tc.head[h.Head.Start:h.Head.End] + " => " + tc.base[h.BaseSpan.Start:h.BaseSpan.End]}, got...)
				restored = restored[:h.Head.Start] + tc.base[h.BaseSpan.Start:h.BaseSpan.End] + restored[h.Head.End:]
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("hunks %q, want %q", got, tc.want)
			}
			if codeText(restored) != codeText(tc.base) {
				t.Errorf("all hunks restored:\n%s\nwant the base's code:\n%s", restored, tc.base)
			}
		})
	}
}

// codeText is src's code tokens joined by spaces.
func codeText(src string) string {
	var out []string
	for _, tk := range codeTokens("x.ts", []byte(src)) {
		out = append(out, tk.text)
	}
	return strings.Join(out, " ")
}

// TestDiffRefactors (issue 41): what changes no behaviour is no changed
// token: a local renamed consistently (its declaration and every use), a
// function declaration moved within its file; what only looks like one
// is (a rename that captures a name, an object's shorthand key, a
// top-level name).
func TestDiffRefactors(t *testing.T) {
	fn := func(body string) string { return "export function f(a: number, b: number) {\n" + body + "\n}\n" }
	for _, tc := range []struct {
		name, base, head string
		want             []string
		refactors        []string
	}{
		{"a local renamed", fn("  const c = a * 2;\n  return c > 9 ? c : b;"), fn("  const kid = a * 2;\n  return kid > 9 ? kid : b;"), []string{}, []string{"local c renamed kid"}},
		{"a parameter renamed", "export function f(n: number) {\n  return n + 1;\n}\n", "export function f(value: number) {\n  return value + 1;\n}\n", []string{}, []string{"local n renamed value"}},
		{"an arrow's parameter and a loop's variable renamed",
			"export function f(xs: number[]) {\n  for (const x of xs) {\n    g(x);\n  }\n  return xs.map((v) => v * 2);\n}\n",
			"export function f(xs: number[]) {\n  for (const item of xs) {\n    g(item);\n  }\n  return xs.map((n) => n * 2);\n}\n", []string{}, []string{"local x renamed item", "local v renamed n"}},
		{"a destructured local renamed", fn("  const [x, y] = [a, b];\n  return x - y;"), fn("  const [lo, y] = [a, b];\n  return lo - y;"), []string{}, []string{"local x renamed lo"}},
		{"a local renamed and a literal changed: the literal", fn("  const c = a * 2;\n  return c + 1;"), fn("  const kid = a * 2;\n  return kid + 3;"), []string{"3"}, []string{"local c renamed kid"}},
		{"renamed to a name the function reads (captured): the use that changed meaning", fn("  const c = a * 2;\n  return c + b;"), fn("  const b2 = a * 2;\n  return b2 + b2;"), []string{"b2"}, []string{"local c renamed b2"}},
		{"renamed to a name an outer variable has: the use that now reads the local", fn("  const c = a * 2;\n  return c + b + d;"), fn("  const d = a * 2;\n  return d + b + d;"), []string{"d"}, []string{"local c renamed d"}},
		{"renamed where the scope reads the old name (captured): no rename", fn("  const c = a * 2;\n  return g(c, e);"), fn("  const e = a * 2;\n  return g(e, c);"), []string{"e", "^e, c", ", c"}, nil},
		{"a shorthand key renamed with its variable: the key changed", fn("  const n = a + 1;\n  return { n };"), fn("  const m = a + 1;\n  return { m };"), []string{"m", "m"}, nil},
		{"a top-level name renamed: not a local", "const K = 1;\nexport function f() {\n  return K;\n}\n", "const L = 1;\nexport function f() {\n  return L;\n}\n", []string{"L", "L"}, nil},
		{"a name swapped for another in scope: not a rename", fn("  return g(a, b);"), fn("  return g(b, b);"), []string{"b"}, nil},
		{"a function moved", "export function a(x: number) {\n  return x + 1;\n}\n\nexport function b(x: number) {\n  return x * 2;\n}\n",
			"export function b(x: number) {\n  return x * 2;\n}\n\nexport function a(x: number) {\n  return x + 1;\n}\n", []string{}, []string{"function b moved", "function a moved"}},
		{"a method moved within its class", "export class C {\n  a(x: number) {\n    return x + 1;\n  }\n  b(x: number) {\n    return x * 2;\n  }\n}\n",
			"export class C {\n  b(x: number) {\n    return x * 2;\n  }\n  a(x: number) {\n    return x + 1;\n  }\n}\n", []string{}, []string{"method C.b moved", "method C.a moved"}},
		{"a method moved to another class: written anew there", "export class C {\n  a(x: number) {\n    return x + 1;\n  }\n}\nexport class D {\n  b(x: number) {\n    return x * 2;\n  }\n}\n",
			"export class C {\n}\nexport class D {\n  b(x: number) {\n    return x * 2;\n  }\n  a(x: number) {\n    return x + 1;\n  }\n}\n", []string{"^\n}\ne", "^\nexp", "a(x: number) {\n    return x + 1;\n  }"}, nil},
		{"methods of one name (the last wins): their order is behaviour, no move", "export class C {\n  a() {\n    return 1;\n  }\n  a() {\n    return 2;\n  }\n}\n",
			"export class C {\n  a() {\n    return 2;\n  }\n  a() {\n    return 1;\n  }\n}\n", []string{"2", "1"}, nil},
		{"a declaration deleted before a function kept in place: a deletion, no move", "export const RATE = 1.2;\nexport function used(a: number) {\n  return a + 1;\n}\n",
			"export function used(a: number) {\n  return a + 1;\n}\n", []string{"^ fun"}, nil},
		{"a function moved, another changed: the change", "function a(x: number) {\n  return x + 1;\n}\nexport const K = 1;\nfunction b(x: number) {\n  return x * 2;\n}\n",
			"function b(x: number) {\n  return x * 2;\n}\nexport const K = 2;\nfunction a(x: number) {\n  return x + 1;\n}\n", []string{"2"}, []string{"function b moved", "function a moved"}},
		{"a function moved above one that changed: the change", "function a(x: number) {\n  return x + 1;\n}\nfunction b(x: number) {\n  return x * 2;\n}\n",
			"function b(x: number) {\n  return x * 2;\n}\nfunction a(x: number) {\n  return x + 2;\n}\n", []string{"2"}, []string{"function b moved"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := changedText("x.ts", tc.base, tc.head)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Errorf("changed %q, want %q", got, tc.want)
			}
			_, b := DiffBase("x.ts", []byte(tc.base), []byte(tc.head))
			if !reflect.DeepEqual(b.Refactors, tc.refactors) {
				t.Errorf("refactors %q, want %q", b.Refactors, tc.refactors)
			}
		})
	}
}
