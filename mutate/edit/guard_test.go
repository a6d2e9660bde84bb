package edit

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
)

// target parses src and returns the target for function fn.
func target(t *testing.T, path, src, fn string, flag Flag) Target {
	t.Helper()
	f := analyzer.Parse(path, []byte(src))
	if len(f.Errors) > 0 {
		t.Fatalf("test source does not parse: %+v", f.Errors)
	}
	for _, x := range f.Functions {
		if x.Name == fn {
			return Target{Path: path, Src: []byte(src), Fn: x, Flag: flag}
		}
	}
	t.Fatalf("no function %s", fn)
	return Target{}
}

func call(t *testing.T, tg Target, text string, occ int) *analyzer.Call {
	t.Helper()
	sites := tg.Fn.CallSites(text)
	if occ == 0 && len(sites) == 1 {
		return sites[0]
	}
	if occ < 1 || occ > len(sites) {
		t.Fatalf("call %s occurrence %d: %d sites", text, occ, len(sites))
	}
	return sites[occ-1]
}

var optsSkip = Flag{Param: "opts", Props: []string{"skip"}}

type guardCase struct {
	name   string
	path   string // default x.ts
	src    string
	flag   Flag   // default opts.skip
	wrap   string // default enrichItem
	occ    int
	def    string // JSON; "" = absent
	want   string // expected source; "" with refuse set
	refuse string // expected refusal reason
	merged bool   // the guard is merged into an enclosing if's condition (its line changes)
}

var guardCases = []guardCase{
	{name: "an early return after the call does not guard it",
		src:  "function f(opts) {\n  enrichItem(1);\n  if (opts.skip) return;\n}\n",
		want: "function f(opts) {\n  if (!opts.skip) {\n    enrichItem(1);\n  }\n  if (opts.skip) return;\n}\n"},
	{name: "an early return with more in its block does not guard",
		src:  "function f(opts) {\n  if (opts.skip) { log(); }\n  enrichItem(1);\n}\n",
		want: "function f(opts) {\n  if (opts.skip) { log(); }\n  if (!opts.skip) {\n    enrichItem(1);\n  }\n}\n"},
	{name: "the only statement of an if: merged condition", merged: true,
		src:  "function f(opts, config) {\n  if (!config.repo) {\n    enrichItem(1);\n  }\n}\n",
		want: "function f(opts, config) {\n  if (!config.repo && !opts.skip) {\n    enrichItem(1);\n  }\n}\n"},
	{name: "merged condition: an || condition keeps its parentheses", merged: true,
		src:  "function f(opts, a, b) {\n  if (a || b) enrichItem(1);\n}\n",
		want: "function f(opts, a, b) {\n  if ((a || b) && !opts.skip) enrichItem(1);\n}\n"},
	{name: "not the only statement: nested guard",
		src:  "function f(opts, a) {\n  if (a) {\n    log();\n    enrichItem(1);\n  }\n}\n",
		want: "function f(opts, a) {\n  if (a) {\n    log();\n    if (!opts.skip) {\n      enrichItem(1);\n    }\n  }\n}\n"},
	{name: "default null widens the declared type",
		def:  "null",
		src:  "async function f(opts) {\n  const e: number = await enrichItem(1);\n  use(e);\n}\n",
		want: "async function f(opts) {\n  let e: number | null = null;\n  if (!opts.skip) {\n    e = await enrichItem(1);\n  }\n  use(e);\n}\n"},
	{name: "statement await",
		src: `export async function f(x: number, opts: { skip?: boolean } = {}) {
  log("a");
  await enrichItem(x);
  log("b");
}
`, want: `export async function f(x: number, opts: { skip?: boolean } = {}) {
  log("a");
  if (!opts.skip) {
    await enrichItem(x);
  }
  log("b");
}
`},
	{name: "statement call, four spaces",
		src:  "function f(opts: { skip: boolean }) {\n    if (a) {\n        log();\n    }\n    enrichItem(1);\n}\n",
		want: "function f(opts: { skip: boolean }) {\n    if (a) {\n        log();\n    }\n    if (!opts.skip) {\n        enrichItem(1);\n    }\n}\n"},
	{name: "tabs",
		src:  "function f(opts) {\n\tlog();\n\tenrichItem(1);\n}\n",
		want: "function f(opts) {\n\tlog();\n\tif (!opts.skip) {\n\t\tenrichItem(1);\n\t}\n}\n"},
	{name: "CRLF",
		src:  "function f(opts) {\r\n  log();\r\n  enrichItem(1);\r\n}\r\n",
		want: "function f(opts) {\r\n  log();\r\n  if (!opts.skip) {\r\n    enrichItem(1);\r\n  }\r\n}\r\n"},
	{name: "optional parameter reads with ?.",
		src:  "function f(x, opts?: { skip?: boolean }) {\n  enrichItem(x);\n}\n",
		want: "function f(x, opts?: { skip?: boolean }) {\n  if (!opts?.skip) {\n    enrichItem(x);\n  }\n}\n"},
	{name: "whole parameter flag",
		flag: Flag{Param: "skip"},
		src:  "function f(x: number, skip: boolean) {\n  enrichItem(x);\n}\n",
		want: "function f(x: number, skip: boolean) {\n  if (!skip) {\n    enrichItem(x);\n  }\n}\n"},
	{name: "nested flag",
		flag: Flag{Param: "opts", Props: []string{"a", "b"}},
		src:  "function f(opts) {\n  enrichItem();\n}\n",
		want: "function f(opts) {\n  if (!opts.a.b) {\n    enrichItem();\n  }\n}\n"},
	{name: "assignment of a property of the result",
		src:  "async function f(opts) {\n  patch.score = (await enrichItem(r)).score;\n}\n",
		want: "async function f(opts) {\n  if (!opts.skip) {\n    patch.score = (await enrichItem(r)).score;\n  }\n}\n"},
	{name: "void",
		src:  "function f(opts) {\n  void enrichItem(r);\n}\n",
		want: "function f(opts) {\n  if (!opts.skip) {\n    void enrichItem(r);\n  }\n}\n"},
	{name: "multi-line statement, template literal kept",
		src:  "function f(opts) {\n  enrichItem(a, {\n    b: `line1\nline2`,\n\n    c: 1,\n  });\n}\n",
		want: "function f(opts) {\n  if (!opts.skip) {\n    enrichItem(a, {\n      b: `line1\nline2`,\n\n      c: 1,\n    });\n  }\n}\n"},
	{name: "trailing comment moves with the statement",
		src:  "function f(opts) {\n  enrichItem(a); // expensive\n  log();\n}\n",
		want: "function f(opts) {\n  if (!opts.skip) {\n    enrichItem(a); // expensive\n  }\n  log();\n}\n"},
	{name: "statement not at line start",
		src:  "function f(opts) {\n  log(); enrichItem(a);\n}\n",
		want: "function f(opts) {\n  log(); if (!opts.skip) {\n    enrichItem(a);\n  }\n}\n"},
	{name: "in a case",
		src:  "function f(opts, k) {\n  switch (k) {\n    case 1:\n      enrichItem(a);\n      break;\n  }\n}\n",
		want: "function f(opts, k) {\n  switch (k) {\n    case 1:\n      if (!opts.skip) {\n        enrichItem(a);\n      }\n      break;\n  }\n}\n"},
	{name: "in a closure",
		src:  "function f(opts, xs) {\n  xs.forEach((x) => {\n    enrichItem(x);\n  });\n}\n",
		want: "function f(opts, xs) {\n  xs.forEach((x) => {\n    if (!opts.skip) {\n      enrichItem(x);\n    }\n  });\n}\n"},
	{name: "bound and used, default, const becomes let, annotation kept",
		def: "null",
		src: `async function f(x, opts) {
  const enriched: Item | null = await enrichItem(x);
  return enriched;
}
`, want: `async function f(x, opts) {
  let enriched: Item | null = null;
  if (!opts.skip) {
    enriched = await enrichItem(x);
  }
  return enriched;
}
`},
	{name: "bound and used, object default compacted, var stays var, no semicolons",
		def:  "{ \"score\": 0 }",
		src:  "async function f(x, opts) {\n  var e = await enrichItem(x)\n  use(e)\n}\n",
		want: "async function f(x, opts) {\n  var e = {\"score\":0}\n  if (!opts.skip) {\n    e = await enrichItem(x)\n  }\n  use(e)\n}\n"},
	{name: "bound by a destructuring pattern",
		def:  `{"score":0}`,
		src:  "async function f(x, opts) {\n  const { score } = await enrichItem(x);\n  use({ score });\n}\n",
		want: "async function f(x, opts) {\n  let { score } = {\"score\":0};\n  if (!opts.skip) {\n    ({ score } = await enrichItem(x));\n  }\n  use({ score });\n}\n"},
	{name: "bound, multi-line initializer",
		def:  "0",
		src:  "function f(x, opts) {\n  let n = enrichItem(\n    x,\n  ).n; // n\n  use(n);\n}\n",
		want: "function f(x, opts) {\n  let n = 0;\n  if (!opts.skip) {\n    n = enrichItem(\n      x,\n    ).n; // n\n  }\n  use(n);\n}\n"},
	{name: "bound and never used: the declaration is wrapped whole",
		src:  "async function f(x, opts) {\n  const unused = await enrichItem(x);\n  log();\n}\n",
		want: "async function f(x, opts) {\n  if (!opts.skip) {\n    const unused = await enrichItem(x);\n  }\n  log();\n}\n"},
	{name: "bound and used without default: refused",
		src:    "async function f(x, opts) {\n  const enriched = await enrichItem(x);\n  log();\n  return enriched.score;\n}\n",
		refuse: "the result of enrichItem is bound to `enriched` and used at line 4; give `default:` in the operation"},
	{name: "used in a closure before the declaration: refused",
		src:    "async function f(x, opts) {\n  const g = () => e;\n  const e = await enrichItem(x);\n}\n",
		refuse: "the result of enrichItem is bound to `e` and used at line 2; give `default:` in the operation"},
	{name: "return: refused",
		src:    "async function f(x, opts) {\n  log();\n  return await enrichItem(x);\n}\n",
		refuse: "enrichItem is called inside `return ...` at line 3; the guard edit supports a call that is a statement or a declaration's initializer"},
	{name: "argument: refused",
		src:    "function f(x, opts) {\n  log(enrichItem(x));\n}\n",
		refuse: "enrichItem is called in an argument of `log(...)` at line 2; the guard edit supports a call that is a statement or a declaration's initializer"},
	{name: "condition: refused",
		src:    "function f(x, opts) {\n  if (enrichItem(x)) log();\n}\n",
		refuse: "enrichItem is called in the head of `if (...)` at line 2; the guard edit supports a call that is a statement or a declaration's initializer"},
	{name: "larger expression: refused",
		src:    "function f(x, opts) {\n  a = b || enrichItem(x);\n}\n",
		refuse: "enrichItem is called inside the larger expression `b || enrichItem(x)` at line 2; the guard edit supports a call that is a statement or a declaration's initializer"},
	{name: "callee of a call: refused",
		src:    "function f(x, opts) {\n  enrichItem(x).then(log);\n}\n",
		refuse: "enrichItem is called inside the larger expression `enrichItem(x).then(log)` at line 2; the guard edit supports a call that is a statement or a declaration's initializer"},
	{name: "index: refused",
		src:    "function f(x, opts) {\n  v = cache[enrichItem(x)];\n}\n",
		refuse: "enrichItem is called inside the larger expression `cache[enrichItem(x)]` at line 2; the guard edit supports a call that is a statement or a declaration's initializer"},
	{name: "several declarators: refused",
		src:    "function f(x, opts) {\n  const a = 1, b = enrichItem(x);\n}\n",
		refuse: "enrichItem is called in a declaration of 2 variables at line 2; the guard edit supports a declaration of one variable: split it"},
	{name: "braceless if: merged condition", merged: true,
		src:  "function f(x, opts) {\n  if (x) enrichItem(x);\n}\n",
		want: "function f(x, opts) {\n  if (x && !opts.skip) enrichItem(x);\n}\n"},
	{name: "braceless if with an else: refused",
		src:    "function f(x, opts) {\n  if (x) enrichItem(x);\n  else log();\n}\n",
		refuse: "enrichItem is called in a statement that is not in a { } block at line 2; add braces around it first"},
	{name: "second occurrence",
		occ:  2,
		src:  "function f(opts) {\n  enrichItem(1);\n  enrichItem(2);\n}\n",
		want: "function f(opts) {\n  enrichItem(1);\n  if (!opts.skip) {\n    enrichItem(2);\n  }\n}\n"},
	{name: "tsx",
		path: "x.tsx",
		src:  "export function F(opts) {\n  enrichItem(<div>a</div>);\n  return <p/>;\n}\n",
		want: "export function F(opts) {\n  if (!opts.skip) {\n    enrichItem(<div>a</div>);\n  }\n  return <p/>;\n}\n"},
}

// Already guarded: Guard changes nothing.
var guardedCases = []guardCase{
	// Guards already there, in the spellings code uses (issue 8 items 17, 20): unchanged.
	{name: "already guarded: !== true",
		src:  "function f(opts) {\n  if (opts.skip !== true) {\n    enrichItem(1);\n  }\n}\n",
		want: "function f(opts) {\n  if (opts.skip !== true) {\n    enrichItem(1);\n  }\n}\n"},
	{name: "already guarded: an early return",
		src:  "function f(opts) {\n  log();\n  if (opts.skip) return;\n  enrichItem(1);\n}\n",
		want: "function f(opts) {\n  log();\n  if (opts.skip) return;\n  enrichItem(1);\n}\n"},
	{name: "already guarded: an early throw in braces, === true",
		src:  "function f(opts) {\n  if (opts.skip === true) {\n    throw new Error(\"skipped\");\n  }\n  enrichItem(1);\n}\n",
		want: "function f(opts) {\n  if (opts.skip === true) {\n    throw new Error(\"skipped\");\n  }\n  enrichItem(1);\n}\n"},
	{name: "already guarded: a conjunct of the enclosing condition (eslint --fix)",
		src:  "function f(opts, config) {\n  if (!config.repo && !opts.skip) {\n    enrichItem(1);\n  }\n}\n",
		want: "function f(opts, config) {\n  if (!config.repo && !opts.skip) {\n    enrichItem(1);\n  }\n}\n"},
	{name: "plain", src: "function f(opts) {\n  if (!opts.skip) {\n    enrichItem(1);\n  }\n}\n"},
	{name: "parentheses and optional chaining", src: "function f(opts) {\n  if (!( (opts)?.skip )) enrichItem(1);\n}\n"},
	{name: "subscript", src: "function f(opts) {\n  if (!opts[\"skip\"]) { log(); enrichItem(1); }\n}\n"},
	{name: "deeper", src: "function f(opts, y) {\n  if (!opts.skip) {\n    if (y) {\n      log(enrichItem(1));\n    }\n  }\n}\n"},
	{name: "else of the flag", src: "function f(opts) {\n  if (opts.skip) {\n    log();\n  } else {\n    enrichItem(1);\n  }\n}\n"},
	{name: "bound with default, applied", src: "function f(opts) {\n  let e = null;\n  if (!opts.skip) {\n    e = enrichItem(1);\n  }\n  use(e);\n}\n"},
	{name: "whole parameter", flag: Flag{Param: "skip"}, src: "function f(skip) {\n  if (!skip) {\n    enrichItem(1);\n  }\n}\n"},
	{name: "nested flag", flag: Flag{Param: "o", Props: []string{"a", "b"}}, src: "function f(o) {\n  if (!o?.a?.b) {\n    enrichItem(1);\n  }\n}\n"},
	{name: "nested flag, non-null", flag: Flag{Param: "o", Props: []string{"a", "b"}}, src: "function f(o) {\n  if (!(o?.a!.b)) {\n    enrichItem(1);\n  }\n}\n"},
}

func (c guardCase) run(t *testing.T) ([]byte, bool, error, Target) {
	t.Helper()
	path := c.path
	if path == "" {
		path = "x.ts"
	}
	flag := c.flag
	if flag.Param == "" {
		flag = optsSkip
	}
	wrap := c.wrap
	if wrap == "" {
		wrap = "enrichItem"
	}
	var def json.RawMessage
	if c.def != "" {
		def = json.RawMessage(c.def)
	}
	fn := "f"
	if strings.Contains(c.src, "function F(") {
		fn = "F"
	}
	tg := target(t, path, c.src, fn, flag)
	out, changed, err := Guard(tg, call(t, tg, wrap, c.occ), def)
	return out, changed, err, tg
}

func TestGuard(t *testing.T) {
	for _, c := range guardCases {
		t.Run(c.name, func(t *testing.T) {
			out, changed, err, tg := c.run(t)
			if c.refuse != "" {
				var r *Refusal
				if !errors.As(err, &r) || r.Reason != c.refuse {
					t.Fatalf("got err %v, want refusal\n%s", err, c.refuse)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !changed || string(out) != c.want {
				t.Fatalf("changed=%v, got\n%s\nwant\n%s\ndiff:\n%s", changed, out, c.want, Diff("x", []byte(c.want), out))
			}
			// Every byte outside the statement's lines is kept.
			w := call(t, tg, c.wrapText(), c.occ)
			ls := bytes.LastIndexByte(tg.Src[:w.StatementStartByte], '\n') + 1
			if !c.merged && !bytes.Equal(out[:ls], tg.Src[:ls]) {
				t.Errorf("bytes before the statement's line changed")
			}
			le := bytes.IndexByte(tg.Src[w.StatementEndByte:], '\n')
			if le >= 0 && !bytes.HasSuffix(out, tg.Src[int(w.StatementEndByte)+le:]) {
				t.Errorf("bytes after the statement's line changed")
			}
			// Idempotent: applying again changes nothing.
			again := guardCase{name: c.name, path: c.path, src: string(out), flag: c.flag, wrap: c.wrap, occ: c.occ, def: c.def}
			out2, changed2, err2, _ := again.run(t)
			if err2 != nil || changed2 || !bytes.Equal(out2, out) {
				t.Errorf("second application: changed=%v err=%v\n%s", changed2, err2, out2)
			}
		})
	}
	for _, c := range guardedCases {
		t.Run("guarded/"+c.name, func(t *testing.T) {
			out, changed, err, tg := c.run(t)
			if err != nil || changed || !bytes.Equal(out, tg.Src) {
				t.Fatalf("changed=%v err=%v\n%s", changed, err, out)
			}
		})
	}
}

func (c guardCase) wrapText() string {
	if c.wrap == "" {
		return "enrichItem"
	}
	return c.wrap
}

// The pipeline sample: its unguarded variant guarded is the sample itself.
func TestGuardPipeline(t *testing.T) {
	guarded, err := os.ReadFile("../../testdata/pipeline/src/server/index.ts")
	if err != nil {
		t.Fatal(err)
	}
	unguarded := strings.Replace(string(guarded),
		"  if (!opts.skip) {\n    patch.score = (await enrichItem(record, settings)).score;\n  }\n",
		"  patch.score = (await enrichItem(record, settings)).score;\n", 1)
	if unguarded == string(guarded) {
		t.Fatal("the sample changed: update the test")
	}
	tg := target(t, "src/server/index.ts", unguarded, "processItem", optsSkip)
	out, changed, err := Guard(tg, call(t, tg, "enrichItem", 0), nil)
	if err != nil || !changed {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	if string(out) != string(guarded) {
		t.Fatalf("got\n%s", Diff("index.ts", guarded, out))
	}
	wantDiff := `--- a/src/server/index.ts
+++ b/src/server/index.ts
@@ -40,7 +40,9 @@
     score: null,
     payload: { targets, profile: settings.profile, metadata },
   };
-  patch.score = (await enrichItem(record, settings)).score;
+  if (!opts.skip) {
+    patch.score = (await enrichItem(record, settings)).score;
+  }
   const saved = await updateRecord(id, patch);
   stats.processed++;
   if (saved.score !== null) stats.enriched++;
`
	if d := Diff(tg.Path, tg.Src, out); d != wantDiff {
		t.Errorf("diff:\n%s", d)
	}
	tg2 := target(t, "src/server/index.ts", string(guarded), "processItem", optsSkip)
	out2, changed, err := Guard(tg2, call(t, tg2, "enrichItem", 0), nil)
	if err != nil || changed || !bytes.Equal(out2, guarded) {
		t.Fatalf("idempotence: changed=%v err=%v", changed, err)
	}
}

func TestGuardErrors(t *testing.T) {
	tg := target(t, "x.ts", "function f(opts) {\n  enrichItem(1);\n}\n", "f", optsSkip)
	w := call(t, tg, "enrichItem", 0)
	if _, _, err := Guard(tg, w, json.RawMessage("{bad")); err == nil || !strings.Contains(err.Error(), "default") {
		t.Errorf("bad default: %v", err)
	}
	other := tg
	other.Src = []byte("const x = 1;\n")
	if _, _, err := Guard(other, w, nil); err == nil {
		t.Errorf("function not in the source: no error")
	}
	if len(tg.Fn.CallSites("nothing")) != 0 {
		t.Errorf("CallSites of a missing call: sites")
	}
}

func TestDetectStyle(t *testing.T) {
	for _, c := range []struct{ src, nl, unit string }{
		{"a\n  b\n    c\n", "\n", "  "},
		{"a\r\n    b\r\n        c\r\n", "\r\n", "    "},
		{"a\n\tb\n\t\tc\n", "\n", "\t"},
		{"/**\n * doc\n */\nf {\n    x\n}\n", "\n", "    "},
		{"x", "\n", "  "},
	} {
		nl, unit := detectStyle([]byte(c.src))
		if nl != c.nl || unit != c.unit {
			t.Errorf("%q: got %q %q", c.src, nl, unit)
		}
	}
}
