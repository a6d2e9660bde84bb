package operators

import (
	"encoding/json"
	"fmt"
	"github.com/oracle-ts/oracle/internal/testenv"
	"github.com/oracle-ts/oracle/mutate/edit"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/oracle-ts/oracle/analyzer"
)

// The round trip, run for real with Node: the guard applied, the red-first
// mutant of the guarded source behaves as the unguarded original, and every
// mutant changes behaviour the way its name says.

const prelude = `const log: string[] = [];
function enrichItem(x: number) { log.push("enrichItem"); return { score: x * 2 }; }
function selectTargets(x: number) { log.push("selectTargets"); return [x, x + 1]; }
function updateRecord(x: number, v?: unknown) { log.push("updateRecord:" + JSON.stringify(v ?? null)); return true; }
`

const epilogue = `
export async function run(cases: unknown[][]) {
  const out: unknown[] = [];
  for (const args of cases) {
    log.length = 0;
    (globalThis as any).reached = false;
    let r: unknown;
    try { r = await (f as any)(...args); } catch (e) { r = "throw"; }
    out.push({ log: [...log], r: r ?? null, reached: (globalThis as any).reached });
  }
  return out;
}
`

type shape struct {
	name  string
	fn    string // the function f, unguarded
	flag  edit.Flag
	def   string
	set   string // JSON arguments with the flag set
	unset string // and unset
}

var shapes = []shape{
	{name: "statement call", flag: optsSkip, set: `[1, {"skip": true}]`, unset: `[1, {}]`,
		fn: `async function f(x: number, opts: { skip?: boolean } = {}) {
  const t = selectTargets(x);
  await enrichItem(t[0]);
  updateRecord(x, t);
  return t.length;
}`},
	{name: "bound call with default", flag: optsSkip, def: "null", set: `[2, {"skip": true}]`, unset: `[2, {"skip": false}]`,
		fn: `function f(x: number, opts: { skip?: boolean }) {
  const t = selectTargets(x);
  const e: { score: number } | null = enrichItem(t[1]);
  updateRecord(x, e);
  return e;
}`},
	{name: "nested flag", flag: edit.Flag{Param: "opts", Props: []string{"a", "b"}}, set: `[3, {"a": {"b": 1}}]`, unset: `[3, {"a": {}}]`,
		fn: `function f(x: number, opts: { a: { b?: number } }) {
  const t = selectTargets(x);
  enrichItem(x);
  updateRecord(x);
}`},
	{name: "whole-parameter flag", flag: edit.Flag{Param: "skip"}, def: `{"score": -1}`, set: `[4, true]`, unset: `[4, false]`,
		fn: `const f = async (x: number, skip: boolean) => {
  const t = selectTargets(x);
  const r = await enrichItem(x);
  updateRecord(x, r);
  return r;
};`},
}

type outcome struct {
	Log     []string `json:"log"`
	R       any      `json:"r"`
	Reached bool     `json:"reached"`
}

func TestRoundTripNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Missing(t, "node not found: CI must have it")
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			orig := prelude + sh.fn + "\n" + epilogue
			tg := target(t, "m.ts", orig, "f", sh.flag)
			var def json.RawMessage
			if sh.def != "" {
				def = json.RawMessage(sh.def)
			}
			guardedSrc, changed, err := edit.Guard(tg, call(t, tg, "enrichItem", 0), def)
			if err != nil || !changed {
				t.Fatalf("guard: changed=%v err=%v", changed, err)
			}
			gt := target(t, "m.ts", string(guardedSrc), "f", sh.flag)
			var pres []*analyzer.Call
			for _, p := range []string{"selectTargets", "updateRecord"} {
				pres = append(pres, call(t, gt, p, 0))
			}
			ms, err := Prove(gt, call(t, gt, "enrichItem", 0), pres)
			if err != nil {
				t.Fatal(err)
			}
			sources := map[string]string{"original": orig, "guarded": string(guardedSrc)}
			for _, m := range ms {
				sources[m.Name] = string(m.Source())
				// Reached markers must keep the mutant running.
				marked, err := edit.MarkReached(m, `(globalThis as any).reached = true`)
				if err != nil {
					t.Fatal(err)
				}
				sources["marked "+m.Name] = string(marked)
			}
			res := runNode(t, node, sources, "["+sh.set+","+sh.unset+"]")
			set := func(name string) outcome { return res[name][0] }
			unset := func(name string) outcome { return res[name][1] }
			has := func(o outcome, prefix string) bool {
				return slices.ContainsFunc(o.Log, func(s string) bool { return strings.HasPrefix(s, prefix) })
			}
			// The original ignores the flag: enrichItem runs either way.
			if !has(set("original"), "enrichItem") || !has(unset("original"), "enrichItem") {
				t.Fatalf("original: %+v", res["original"])
			}
			// Guarded: skipped when set, as before when unset; preserved calls kept.
			if has(set("guarded"), "enrichItem") || !has(set("guarded"), "updateRecord") || !has(set("guarded"), "selectTargets") {
				t.Errorf("guarded, flag set: %+v", set("guarded"))
			}
			if !reflect.DeepEqual(unset("guarded"), unset("original")) {
				t.Errorf("guarded, flag unset: %+v, original %+v", unset("guarded"), unset("original"))
			}
			// red-first behaves as the original, flag set or not.
			if !reflect.DeepEqual(res["red-first"], res["original"]) {
				t.Errorf("red-first: %+v\noriginal: %+v", res["red-first"], res["original"])
			}
			// flag-always-set: the wrapped call never runs; flag-inverted: only when set.
			if has(set("flag-always-set"), "enrichItem") || has(unset("flag-always-set"), "enrichItem") {
				t.Errorf("flag-always-set: %+v", res["flag-always-set"])
			}
			if !has(set("flag-inverted"), "enrichItem") || has(unset("flag-inverted"), "enrichItem") {
				t.Errorf("flag-inverted: %+v", res["flag-inverted"])
			}
			for _, p := range []string{"selectTargets", "updateRecord"} {
				rm, mv := res["preserve-removed:"+p], res["preserve-moved-under-guard:"+p]
				if has(rm[0], p) || has(rm[1], p) {
					t.Errorf("preserve-removed:%s: %+v", p, rm)
				}
				if has(mv[0], p) || !has(mv[1], p) {
					t.Errorf("preserve-moved-under-guard:%s: %+v", p, mv)
				}
			}
			// The marker runs (the mutated code is reached in both cases
			// here) and changes nothing else.
			for _, m := range ms {
				for i, o := range res["marked "+m.Name] {
					u := res[m.Name][i]
					if !o.Reached || u.Reached || !reflect.DeepEqual(o.Log, u.Log) || !reflect.DeepEqual(o.R, u.R) {
						t.Errorf("marked %s, case %d: %+v, unmarked %+v", m.Name, i, o, u)
					}
				}
			}
		})
	}
}

// runNode transpiles each source with esbuild and runs them all in one
// Node process: name → one outcome per case.
func runNode(t *testing.T, node string, sources map[string]string, cases string) map[string][]outcome {
	t.Helper()
	dir := t.TempDir()
	var names []string
	for n := range sources {
		names = append(names, n)
	}
	slices.Sort(names)
	var driver strings.Builder
	driver.WriteString("const out = {};\n")
	for i, n := range names {
		r := api.Transform(sources[n], api.TransformOptions{Loader: api.LoaderTS, Format: api.FormatESModule})
		if len(r.Errors) > 0 {
			t.Fatalf("%s: esbuild: %s\n%s", n, r.Errors[0].Text, sources[n])
		}
		file := fmt.Sprintf("m%d.mjs", i)
		if err := os.WriteFile(filepath.Join(dir, file), r.Code, 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&driver, "out[%q] = await (await import(\"./%s\")).run(%s);\n", n, file, cases)
	}
	driver.WriteString("console.log(JSON.stringify(out));\n")
	if err := os.WriteFile(filepath.Join(dir, "driver.mjs"), []byte(driver.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "driver.mjs")
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, b)
	}
	var res map[string][]outcome
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return res
}
