package edit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/oracle-ts/oracle/internal/testenv"
)

// TestSchemaArrowExpression: a mutant in an arrow function's expression
// body is placed, the body becoming a block whose variants return their
// expressions, for every shape of arrow (S is the switch, H a counted hit,
// R a variant's record that it ran).
func TestSchemaArrowExpression(t *testing.T) {
	// The original's per-test records (cover.go) are left out here:
	// TestSchemaCoverMarks checks them.
	short := strings.NewReplacer(ranRecord, " R;", covRecord([]int{1}), "", covRecord([]int{2}), "", `Reflect.get(globalThis, "`+SchemaSwitch+`")`, "S", hitCall, "H;", hitFunc+"()", "H")
	for _, c := range []struct {
		name, src string
		edits     [][2]string // old, new: mutants 1, 2, ...
		hits      bool
		alone     string // the mutants left alone
		want      string
	}{{
		name:  "conditional, two mutants",
		src:   "export const f = (a: number, b: number) => a > b ? a : g(b);\n",
		edits: [][2]string{{"a > b", "a >= b"}, {"g(b)", "g(a)"}}, hits: true,
		want: "export const f = (a: number, b: number) => { if (S === 1) { R; H; return a >= b ? a : g(b); } else if (S === 2) { R; H; return a > b ? a : g(a); } else { H; return a > b ? a : g(b); } };\n",
	}, {
		name:  "no hit counts",
		src:   "export const f = (a: number, b: number) => a > b ? a : g(b);\n",
		edits: [][2]string{{"a > b", "a >= b"}},
		want:  "export const f = (a: number, b: number) => { if (S === 1) { R; return a >= b ? a : g(b); } else { return a > b ? a : g(b); } };\n",
	}, {
		name:  "object literal",
		src:   "export const o = (a: number) => ({ v: a + 1 });\n",
		edits: [][2]string{{"a + 1", "a - 1"}}, hits: true,
		want: "export const o = (a: number) => { if (S === 1) { R; H; return ({ v: a - 1 }); } else { H; return ({ v: a + 1 }); } };\n",
	}, {
		name:  "curried: the innermost arrow around the change switches",
		src:   "export const add = (a: number) => (b: number) => a + b;\n",
		edits: [][2]string{{"a + b", "a - b"}}, hits: true,
		want: "export const add = (a: number) => (b: number) => { if (S === 1) { R; H; return a - b; } else { H; return a + b; } };\n",
	}, {
		name:  "curried, a mutant at each level: the outer one would nest switches, so it runs alone",
		src:   "export const sel = (a: number) => a > 0 ? (b: number) => a + b : (b: number) => b;\n",
		edits: [][2]string{{"a > 0", "a >= 0"}, {"a + b", "a - b"}}, hits: true, alone: "[1]",
		want: "export const sel = (a: number) => a > 0 ? (b: number) => { if (S === 2) { R; H; return a - b; } else { H; return a + b; } } : (b: number) => b;\n",
	}, {
		name:  "an arrow nested in the switched one counts its entries",
		src:   "export const p = (xs: number[], k: number) => xs.map((x) => x * 2).slice(k);\n",
		edits: [][2]string{{"slice(k)", "slice(k + 1)"}}, hits: true,
		want: "export const p = (xs: number[], k: number) => { if (S === 1) { R; H; return xs.map((x) => (H, x * 2)).slice(k + 1); } else { H; return xs.map((x) => (H, x * 2)).slice(k); } };\n",
	}, {
		name:  "async",
		src:   "export const h = async (a: number) => (await g(a)) + 1;\n",
		edits: [][2]string{{"+ 1", "- 1"}}, hits: true,
		want: "export const h = async (a: number) => { if (S === 1) { R; H; return (await g(a)) - 1; } else { H; return (await g(a)) + 1; } };\n",
	}, {
		name:  "a callback in module code",
		src:   "export const xs = [1, 2].map((x) => x * 2);\n",
		edits: [][2]string{{"x * 2", "x / 2"}}, hits: true,
		want: "export const xs = [1, 2].map((x) => { if (S === 1) { R; H; return x / 2; } else { H; return x * 2; } });\n",
	}, {
		name:  "a default parameter is outside the body",
		src:   "export const d = (a: number, b = a + 1) => a * b;\n",
		edits: [][2]string{{"a + 1", "a - 1"}, {"a * b", "a / b"}}, hits: true, alone: "[1]",
		want: "export const d = (a: number, b = a + 1) => { if (S === 2) { R; H; return a / b; } else { H; return a * b; } };\n",
	}, {
		name:  "an insertion at the end of the expression may belong to what follows",
		src:   "export const e = [1].map((x) => x);\n",
		edits: [][2]string{{"x);", "x + 1);"}}, hits: true, alone: "[1]",
		want: "export const e = [1].map((x) => x);\n",
	}, {
		name:  "a block function's body holds the arrow nested in it (lines kept)",
		src:   "export function k(xs: number[]) {\n  return xs.map((x) =>\n    x + 1);\n}\n",
		edits: [][2]string{{"x + 1", "x - 1"}}, hits: true,
		want: "export function k(xs: number[]) { if (S === 1) { R; H;\n  return xs.map((x) =>\n    (H, x - 1));\n} else { H;\n  return xs.map((x) =>\n    (H, x + 1));\n} }\n",
	}, {
		name:  "an arrow whose expression holds a switched block body runs alone; the block is switched as before",
		src:   "export const m = (xs: number[]) => xs.filter((x) => { while (x > 9) x--; return x > 0; }).length + 1;\n",
		edits: [][2]string{{"x > 0", "x >= 0"}, {"+ 1", "- 1"}}, hits: true, alone: "[2]",
		want: "export const m = (xs: number[]) => xs.filter((x) => { if (S === 1) { R; H; while (x > 9) { H; x--; } return x >= 0; } else { H; while (x > 9) { H; x--; } return x > 0; } }).length + 1;\n",
	}, {
		name:  "a loop's body and an arrow's expression end together: the arrow's closes first",
		src:   "export function w(n: number) {\n  let f = (x: number) => x\n  while (n-- > 0) f = (x) => x + n\n  return f(1)\n}\n",
		edits: [][2]string{{"n-- > 0", "n-- >= 0"}}, hits: true,
		want: "export function w(n: number) { if (S === 1) { R; H;\n  let f = (x: number) => (H, x)\n  while (n-- >= 0) { H; f = (x) => (H, x + n) }\n  return f(1)\n} else { H;\n" +
			"  let f = (x: number) => (H, x)\n  while (n-- > 0) { H; f = (x) => (H, x + n) }\n  return f(1)\n} }\n",
	}} {
		t.Run(c.name, func(t *testing.T) {
			var ms []Mutant
			var ids []int
			for i, e := range c.edits {
				at := strings.Index(c.src, e[0])
				m, err := NewMutant("test", fmt.Sprint(i), "a.ts", []byte(c.src), []Change{{Start: uint(at), End: uint(at + len(e[0])), Text: e[1]}})
				if err != nil {
					t.Fatal(err)
				}
				ms, ids = append(ms, m), append(ids, i+1)
			}
			sc, err := buildSchema("a.ts", []byte(c.src), ms, ids, c.hits)
			if err != nil {
				t.Fatal(err)
			}
			var alone []int
			for _, id := range ids {
				if sc.Alone[id] != "" {
					alone = append(alone, id)
				}
			}
			if got := fmt.Sprint(alone); got != cmpOr(c.alone, "[]") {
				t.Errorf("alone %v, want %s (%v)", got, cmpOr(c.alone, "[]"), sc.Alone)
			}
			got := short.Replace(strings.TrimSuffix(strings.TrimSuffix(string(sc.Source), hitHelper), loadRecord))
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

const arrowSample = `export const down = (n: number): number => (n <= 0 ? 0 : 1 + down(n - 1));
export const pick = (xs: number[], i: number) => xs.map((x) => x * 2)[i < 0 ? xs.length + i : i];
export const obj = (a: number) => ({ v: a + 1 });
export const add = (a: number) => (b: number) => a + b;
export const later = async (a: number) => (await Promise.resolve(a)) + 1;
`

// TestSchemaArrowRuns, run by node: in a schema of expression-bodied
// arrows, variant 0 returns what the original module does, with hits
// counted on every entry (a recursion's too, the nested callback's), each
// mutant returns what the mutant alone does, and the mutant that recurses
// forever ends at the hit limit.
func TestSchemaArrowRuns(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Missing(t, "node is missing")
	}
	edits := [][2]string{{"n - 1", "n + 1"}, {"i < 0", "i <= 0"}, {"a + 1", "a - 1"}, {"a + b", "a - b"}, {"+ 1;", "- 1;"}}
	var ms []Mutant
	var ids []int
	for i, e := range edits {
		at := strings.Index(arrowSample, e[0])
		m, err := NewMutant("test", fmt.Sprint(i), "r.ts", []byte(arrowSample), []Change{{Start: uint(at), End: uint(at + len(e[0])), Text: e[1]}})
		if err != nil {
			t.Fatal(err)
		}
		ms, ids = append(ms, m), append(ids, i+1)
	}
	sc, err := BuildSchema("r.ts", []byte(arrowSample), ms, ids)
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Hits || len(sc.Placed) != len(ms) {
		t.Fatalf("hits %v, placed %v, alone %v:\n%s", sc.Hits, sc.Placed, sc.Alone, sc.Source)
	}
	dir := t.TempDir()
	write := func(name string, src []byte) string {
		r := api.Transform(string(src), api.TransformOptions{Loader: api.LoaderTS, Format: api.FormatESModule})
		if len(r.Errors) > 0 {
			t.Fatalf("%s: %s\n%s", name, r.Errors[0].Text, src)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, r.Code, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	args := []string{"--input-type=module", "-e", `
const calls = async (s, d) => [d ? "-" : String(s.down(3)), String(s.pick([1, 2], -1)), JSON.stringify(s.obj(1)), String(s.add(5)(2)), String(await s.later(1))].join(",");
const [schema, ...mutants] = process.argv.slice(1);
const sc = await import(schema);
const out = [];
out.push("bare:" + await calls(sc));
const h = { n: 0, limit: 100, hit: false };
globalThis.` + HitState + ` = h;
out.push("v0:" + await calls(sc));
h.n = 0; sc.down(3); out.push("down(3):" + h.n);
h.n = 0; sc.pick([1, 2], 0); out.push("pick:" + h.n);
for (let v = 1; v <= mutants.length; v++) {
  const alone = await import(mutants[v - 1]);
  globalThis.` + SchemaSwitch + ` = v;
  h.n = 0;
  const got = await calls(sc, v === 1), want = await calls(alone, v === 1);
  out.push("v" + v + ":" + (got === want ? "same" : got + "!=" + want));
}
globalThis.` + SchemaSwitch + ` = 1;
h.n = 0;
try { sc.down(3); out.push("down returned"); } catch (e) { out.push("limit:" + e.message.startsWith(` + "`" + HitLimitMessage + "`" + `) + ":" + h.hit); }
console.log(out.join(" "));`, write("schema.mjs", sc.Source)}
	for i, m := range ms {
		args = append(args, write(fmt.Sprintf("m%d.mjs", i+1), m.Source()))
	}
	orig := exec.Command(node, "--input-type=module", "-e", `const s = await import(process.argv[1]);
console.log([String(s.down(3)), String(s.pick([1, 2], -1)), JSON.stringify(s.obj(1)), String(s.add(5)(2)), String(await s.later(1))].join(","));`, write("orig.mjs", []byte(arrowSample)))
	ob, err := orig.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, ob)
	}
	b, err := exec.Command(node, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, b)
	}
	o := strings.TrimSpace(string(ob))
	// down(3): 4 entries; pick: its own and 2 of the callback.
	want := "bare:" + o + " v0:" + o + " down(3):4 pick:3 v1:same v2:same v3:same v4:same v5:same limit:true:true"
	if got := strings.TrimSpace(string(b)); got != want {
		t.Errorf("got  %s\nwant %s\nschema:\n%s", got, want, sc.Source)
	}
}
