package operators

import (
	"fmt"
	"github.com/oracle-ts/oracle/mutate/edit"
	"os"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
)

func mutants(t *testing.T, src string, flag edit.Flag, wrap string, preserves ...string) map[string]edit.Mutant {
	t.Helper()
	tg := target(t, "x.ts", src, "f", flag)
	var ps []*analyzer.Call
	for _, p := range preserves {
		text, occ := p, 0
		if i := strings.IndexByte(p, '#'); i >= 0 {
			text = p[:i]
			fmt.Sscan(p[i+1:], &occ)
		}
		ps = append(ps, call(t, tg, text, occ))
	}
	ms, err := Prove(tg, call(t, tg, wrap, 0), ps)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]edit.Mutant{}
	var names []string
	for _, m := range ms {
		out[m.Name] = m
		names = append(names, m.Name)
		if m.Diff != edit.Diff("x.ts", tg.Src, m.Source()) {
			t.Errorf("%s: edit.Diff is not the diff of the source", m.Name)
		}
	}
	want := []string{"red-first", "flag-inverted", "flag-always-set"}
	for _, p := range ps {
		n := preserveName(tg.Fn, p, ps)
		want = append(want, "preserve-removed:"+n, "preserve-moved-under-guard:"+n)
	}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("mutants %v, want %v", names, want)
	}
	return out
}

func expect(t *testing.T, ms map[string]edit.Mutant, name, want string, line int) {
	t.Helper()
	m, ok := ms[name]
	if !ok {
		t.Fatalf("no mutant %s", name)
	}
	if string(m.Source()) != want {
		t.Errorf("%s: got\n%s\nwant\n%s\n%s", name, m.Source(), want, edit.Diff("x", []byte(want), m.Source()))
	}
	if m.Line != line {
		t.Errorf("%s: line %d, want %d", name, m.Line, line)
	}
}

const guarded = `export async function f(id: number, opts: { skip?: boolean } = {}) {
  const targets = selectTargets(id);
  if (!opts.skip) {
    await enrichItem(targets);
  }
  await updateRecord(id, {
    targets,
  });
  return notify(audit(id));
}
`

func TestMutantsGuarded(t *testing.T) {
	ms := mutants(t, guarded, optsSkip, "enrichItem", "selectTargets", "updateRecord", "audit")
	r := func(old, new string) string { return strings.Replace(guarded, old, new, 1) }
	expect(t, ms, "red-first", r("if (!opts.skip)", "if (!(undefined))"), 3)
	expect(t, ms, "flag-inverted", r("if (!opts.skip)", "if (!(!opts.skip))"), 3)
	expect(t, ms, "flag-always-set", r("if (!opts.skip)", "if (!true)"), 3)
	expect(t, ms, "preserve-removed:selectTargets", r("selectTargets(id)", "(undefined)"), 2)
	expect(t, ms, "preserve-moved-under-guard:selectTargets", r("  const targets = selectTargets(id);\n",
		"  let targets;\n  if (!opts.skip) {\n    targets = selectTargets(id);\n  }\n"), 2)
	// A removed multi-line call keeps its line breaks: later lines do not move.
	expect(t, ms, "preserve-removed:updateRecord", r("updateRecord(id, {\n    targets,\n  })", "(undefined\n\n)"), 6)
	expect(t, ms, "preserve-moved-under-guard:updateRecord", r("  await updateRecord(id, {\n    targets,\n  });\n",
		"  if (!opts.skip) {\n    await updateRecord(id, {\n      targets,\n    });\n  }\n"), 6)
	// Nested in an argument: the call alone goes under the condition.
	expect(t, ms, "preserve-removed:audit", r("audit(id)", "(undefined)"), 9)
	expect(t, ms, "preserve-moved-under-guard:audit", r("audit(id)", "(!opts.skip ? audit(id) : undefined)"), 9)

	m := ms["preserve-removed:selectTargets"]
	if got := string(m.Source()[m.Site[0]:m.Site[1]]); got != "(undefined)" {
		t.Errorf("site %q", got)
	}
	m = ms["red-first"]
	if got := string(m.Source()[m.Site[0]:m.Site[1]]); got != "(undefined)" {
		t.Errorf("site %q", got)
	}
	wantDiff := `--- a/x.ts
+++ b/x.ts
@@ -1,6 +1,6 @@
 export async function f(id: number, opts: { skip?: boolean } = {}) {
   const targets = selectTargets(id);
-  if (!opts.skip) {
+  if (!(undefined)) {
     await enrichItem(targets);
   }
   await updateRecord(id, {
`
	if m.Diff != wantDiff {
		t.Errorf("diff:\n%s", m.Diff)
	}
}

func TestMutantsFlagReferences(t *testing.T) {
	src := `function f(opts?: { skip?: boolean; other?: number }) {
  const { skip, other } = opts ?? {};
  const { skip: s = false } = opts!;
  const direct = opts?.skip;
  const sub = opts["skip"];
  opts.skip = true;
  if (!skip && !s) enrichItem({ skip, direct, sub });
  const later = (skip) => skip;
}
`
	// `opts ?? {}` is not the flag's parent: `skip` from it is not tracked;
	// `opts!` is. The assignment is a write; `later`'s parameter shadows
	// (not tracked: its body's `skip` is a read of the destructured local).
	ms := mutants(t, src, optsSkip, "enrichItem")
	want := strings.NewReplacer(
		"opts?.skip", "(undefined)",
		`opts["skip"]`, "(undefined)",
		"!s)", "!(undefined))",
	).Replace(src)
	expect(t, ms, "red-first", want, 4)
	if n := len(ms["red-first"].Sites); n != 3 {
		t.Errorf("red-first sites: %d", n)
	}

	src2 := `function f(opts: { skip?: boolean } = {}) {
  const { skip, other } = opts;
  if (!skip) enrichItem({ skip, other });
  skip = false;
}
`
	ms = mutants(t, src2, optsSkip, "enrichItem")
	expect(t, ms, "red-first", strings.Replace(src2, "if (!skip) enrichItem({ skip, other })",
		"if (!(undefined)) enrichItem({ skip: (undefined), other })", 1), 3)
	expect(t, ms, "flag-inverted", strings.Replace(src2, "if (!skip) enrichItem({ skip, other })",
		"if (!(!skip)) enrichItem({ skip: (!skip), other })", 1), 3)

	// A whole-parameter flag.
	src3 := "function f(x: number, skip: boolean) {\n  if (!skip) {\n    enrichItem(x);\n  }\n  log({ skip }, (skip) => 1);\n}\n"
	ms = mutants(t, src3, edit.Flag{Param: "skip"}, "enrichItem")
	expect(t, ms, "flag-always-set", strings.NewReplacer("!skip", "!true", "{ skip }", "{ skip: true }").Replace(src3), 2)

	// A nested flag.
	src4 := "function f(o) {\n  if (!o.a.b && o.a) {\n    enrichItem(1);\n  }\n}\n"
	ms = mutants(t, src4, edit.Flag{Param: "o", Props: []string{"a", "b"}}, "enrichItem")
	expect(t, ms, "red-first", strings.Replace(src4, "!o.a.b", "!(undefined)", 1), 2)
}

func TestMutantsNoGuard(t *testing.T) {
	src := "async function f(x, opts) {\n  log();\n  const e = await enrichItem(x);\n  use(e);\n}\n"
	ms := mutants(t, src, optsSkip, "enrichItem")
	rf := ms["red-first"]
	if string(rf.Source()) != src || rf.Diff != "" || !strings.Contains(rf.Note, "never reads opts.skip") || rf.Line != 3 {
		t.Errorf("red-first: %+v", rf)
	}
	expect(t, ms, "flag-always-set", strings.Replace(src, "enrichItem(x)", "(undefined)", 1), 3)
	expect(t, ms, "flag-inverted", strings.Replace(src, "  const e = await enrichItem(x);\n",
		"  let e;\n  if (opts.skip) {\n    e = await enrichItem(x);\n  }\n", 1), 3)
}

func TestPreserveNames(t *testing.T) {
	src := "function f(opts) {\n  if (!opts.skip) enrichItem();\n  write(1);\n  write(2);\n  other();\n}\n"
	ms := mutants(t, src, optsSkip, "enrichItem", "write#1", "write#2", "other")
	for _, n := range []string{"preserve-removed:write (occurrence 1)", "preserve-removed:write (occurrence 2)", "preserve-removed:other"} {
		if _, ok := ms[n]; !ok {
			t.Errorf("no mutant %s", n)
		}
	}
	expect(t, ms, "preserve-moved-under-guard:write (occurrence 2)",
		strings.Replace(src, "  write(2);\n", "  if (!opts.skip) {\n    write(2);\n  }\n", 1), 4)
}

func TestMarkReached(t *testing.T) {
	src := `function f(opts, xs) {
  if (!opts.skip) {
    enrichItem(1);
  }
  if (xs) log(opts.skip, opts.skip);
  xs.map((x) => opts.skip);
  switch (xs) {
    case 1: save(opts.skip);
  }
}
`
	ms := mutants(t, src, optsSkip, "enrichItem", "save")
	got, err := edit.MarkReached(ms["red-first"], "hit(1)")
	if err != nil {
		t.Fatal(err)
	}
	want := `function f(opts, xs) {
  hit(1); if (!(undefined)) {
    enrichItem(1);
  }
  hit(1); if (xs) log((undefined), (undefined));
  hit(1); xs.map((x) => (undefined));
  switch (xs) {
    case 1: hit(1); save((undefined));
  }
}
`
	if string(got) != want {
		t.Errorf("got\n%s", got)
	}
	got, err = edit.MarkReached(ms["preserve-moved-under-guard:save"], "hit(2);")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "    case 1: hit(2); if (!opts.skip) {\n") {
		t.Errorf("got\n%s", got)
	}
	if _, err := edit.MarkReached(ms["red-first"], "a()\nb()"); err == nil {
		t.Errorf("a two-line marker was accepted")
	}
	if _, err := edit.MarkReached(ms["red-first"], "if ("); err == nil {
		t.Errorf("a marker that breaks the parse was accepted")
	}
}

// In code without semicolons, a replacement that starts a statement with
// `(` gets a `;` so that it does not call the previous line.
func TestMutantsNoSemicolons(t *testing.T) {
	src := "function f(opts) {\n  const a = [1]\n  updateRecord(a)\n  opts.skip || enrichItem(a)\n  {}\n  (opts.skip)\n}\n"
	ms := mutants(t, src, optsSkip, "enrichItem", "updateRecord")
	expect(t, ms, "preserve-removed:updateRecord", strings.Replace(src, "  updateRecord(a)", "  ;(undefined)", 1), 3)
	expect(t, ms, "red-first", strings.NewReplacer("  opts.skip ||", "  ;(undefined) ||", "(opts.skip)", "((undefined))").Replace(src), 4)
	expect(t, ms, "flag-always-set", strings.NewReplacer("  opts.skip ||", "  true ||", "(opts.skip)", "(true)").Replace(src), 4)
	ms = mutants(t, "function f(opts) {\n  opts.skip || enrichItem()\n}\n", optsSkip, "enrichItem")
	expect(t, ms, "flag-inverted", "function f(opts) {\n  (!opts.skip) || enrichItem()\n}\n", 2)
}

func TestMutantsPipeline(t *testing.T) {
	src, err := os.ReadFile("../../testdata/pipeline/src/server/index.ts")
	if err != nil {
		t.Fatal(err)
	}
	tg := target(t, "src/server/index.ts", string(src), "processItem", optsSkip)
	var ps []*analyzer.Call
	for _, p := range []string{"selectTargets", "resolveSettings", "extractMetadata", "updateRecord"} {
		ps = append(ps, call(t, tg, p, 0))
	}
	ms, err := Prove(tg, call(t, tg, "enrichItem", 0), ps)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, fmt.Sprintf("%s:%d", m.Name, m.Line))
	}
	want := "red-first:43 flag-inverted:43 flag-always-set:43 " +
		"preserve-removed:selectTargets:35 preserve-moved-under-guard:selectTargets:35 " +
		"preserve-removed:resolveSettings:36 preserve-moved-under-guard:resolveSettings:36 " +
		"preserve-removed:extractMetadata:37 preserve-moved-under-guard:extractMetadata:37 " +
		"preserve-removed:updateRecord:46 preserve-moved-under-guard:updateRecord:46"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s", strings.Join(got, " "))
	}
	wantDiff := `--- a/src/server/index.ts
+++ b/src/server/index.ts
@@ -43,7 +43,10 @@
   if (!opts.skip) {
     patch.score = (await enrichItem(record, settings)).score;
   }
-  const saved = await updateRecord(id, patch);
+  let saved;
+  if (!opts.skip) {
+    saved = await updateRecord(id, patch);
+  }
   stats.processed++;
   if (saved.score !== null) stats.enriched++;
   return { ok: true, id, enriched: saved.score !== null, record: saved };
`
	if d := ms[len(ms)-1].Diff; d != wantDiff {
		t.Errorf("diff:\n%s", d)
	}
	tg.Flag = edit.Flag{Param: "options", Props: []string{"skip"}}
	if _, err := Prove(tg, call(t, tg, "enrichItem", 0), ps); err == nil || !strings.Contains(err.Error(), "processItem has no parameter options") {
		t.Errorf("unknown parameter: %v", err)
	}
}

// TestMutantDiffsLiteral: each mutant's diff, against literal expectations
// written by hand (not recomputed the way the code computes them).
func TestMutantDiffsLiteral(t *testing.T) {
	ms := mutants(t, guarded, optsSkip, "enrichItem", "selectTargets", "updateRecord", "audit")
	for name, want := range map[string]string{
		"red-first": "--- a/x.ts\n+++ b/x.ts\n@@ -1,6 +1,6 @@\n export async function f(id: number, opts: { skip?: boolean } = {}) {\n   const targets = selectTargets(id);\n-  if (!opts.skip) {\n+  if (!(undefined)) {\n     await enrichItem(targets);\n   }\n   await updateRecord(id, {\n",
		"preserve-moved-under-guard:updateRecord": "--- a/x.ts\n+++ b/x.ts\n@@ -3,8 +3,10 @@\n   if (!opts.skip) {\n     await enrichItem(targets);\n   }\n-  await updateRecord(id, {\n-    targets,\n-  });\n+  if (!opts.skip) {\n+    await updateRecord(id, {\n+      targets,\n+    });\n+  }\n   return notify(audit(id));\n }\n",
	} {
		if got := ms[name].Diff; got != want {
			t.Errorf("%s: diff\n%s\nwant\n%s", name, got, want)
		}
	}
}

// TestProveRefused: a mutant the acceptance rule refuses is an error naming
// it (here red-first replaces a read of the flag inside a type, a known
// limit of what counts as a read).
func TestProveRefused(t *testing.T) {
	src := "function f(skip: boolean) {\n  const k = 1 as keyof typeof skip;\n  if (!skip) enrichItem(k);\n}\n"
	tg := target(t, "x.ts", src, "f", edit.Flag{Param: "skip"})
	_, err := Prove(tg, call(t, tg, "enrichItem", 0), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "mutant red-first of x.ts#f does not parse (line 2: ") || !strings.HasSuffix(err.Error(), "): not written") {
		t.Errorf("got %v", err)
	}
}
