package callgraph

import (
	"fmt"
	"github.com/oracle-ts/oracle/internal/testenv"
	"strings"
	"testing"
)

// writeTree writes files (repo-relative path → contents) under a new temp dir.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	return testenv.WriteTree(t, "", files)
}

// edgeLine renders one call edge the way the cases expect it.
func edgeLine(c CallEdge) string {
	switch {
	case c.Target != nil:
		return fmt.Sprintf("%s -> %s (%s)", c.Text, *c.Target, c.Via)
	case c.Via == ViaExternal:
		return fmt.Sprintf("%s -> external %s", c.Text, c.Package)
	default:
		return fmt.Sprintf("%s -> unresolved: %s", c.Text, c.Reason)
	}
}

// TestResolution: each case is a small repository and, for one function, the
// expected resolution of each of its calls in source order. An expectation
// ending in "…" matches a prefix (for unresolved reasons).
func TestResolution(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		fn    string
		want  []string
	}{
		{
			name: "named, aliased and default imports; local; external; global",
			files: map[string]string{
				"src/a.ts": `import { enrich, persist as save } from "./lib";
import def from "./def";
import { z } from "zod";
function helper() {}
export async function run(id: number) {
  enrich(id);
  save(id);
  def();
  helper();
  z.string();
  console.log(id);
}`,
				"src/lib.ts": `export function enrich(n: number) {}
export const persist = (n: number) => {};`,
				"src/def.ts": `export default function () {}`,
			},
			fn: "src/a.ts#run",
			want: []string{
				"enrich -> src/lib.ts#enrich (import)",
				"save -> src/lib.ts#persist (import)",
				"def -> src/def.ts#default (import)",
				"helper -> src/a.ts#helper (local)",
				"z.string -> external zod",
				"console.log -> unresolved: console is not declared or imported in this module (a global?)",
			},
		},
		{
			name: "namespace import and import = require",
			files: map[string]string{
				"src/a.ts": `import * as audit from "./audit";
import legacy = require("./legacy");
export function run() {
  audit.write("x");
  legacy.old();
}`,
				"src/audit.ts":  `export function write(s: string) {}`,
				"src/legacy.ts": `export function old() {}`,
			},
			fn: "src/a.ts#run",
			want: []string{
				"audit.write -> src/audit.ts#write (namespace)",
				"legacy.old -> src/legacy.ts#old (namespace)",
			},
		},
		{
			name: "re-exports: star, star-as, renamed, default, default-as; barrels three deep",
			files: map[string]string{
				"src/a.ts": `import { deep, renamed, Def, AsDefault, ns } from "./barrel";
export function run() {
  deep();
  renamed();
  Def();
  AsDefault();
  ns.inner();
}`,
				"src/barrel/index.ts": `export * from "./level2";
export { orig as renamed } from "./orig";
export { default as Def } from "./def";
export * as ns from "./inner";
export { default as AsDefault } from "./level2/dflt";`,
				"src/barrel/level2/index.ts":  `export * from "./level3";`,
				"src/barrel/level2/level3.ts": `export * from "./leaf";`,
				"src/barrel/level2/leaf.ts":   `export function deep() {}`,
				"src/barrel/level2/dflt.ts":   `export { default } from "../def";`,
				"src/barrel/orig.ts":          `export function orig() {}`,
				"src/barrel/def.ts":           `export default function named() {}`,
				"src/barrel/inner.ts":         `export const inner = () => 1;`,
			},
			fn: "src/a.ts#run",
			want: []string{
				"deep -> src/barrel/level2/leaf.ts#deep (import)",
				"renamed -> src/barrel/orig.ts#orig (import)",
				"Def -> src/barrel/def.ts#default (import)",
				"AsDefault -> src/barrel/def.ts#default (import)",
				"ns.inner -> src/barrel/inner.ts#inner (namespace)",
			},
		},
		{
			name: "an import re-exported by name, and export default of an identifier",
			files: map[string]string{
				"src/a.ts": `import { again } from "./mid";
import dflt from "./mid2";
export function run() { again(); dflt(); }`,
				"src/mid.ts": `import { orig } from "./orig";
export { orig as again };`,
				"src/mid2.ts": `function impl() {}
export default impl;`,
				"src/orig.ts": `export function orig() {}`,
			},
			fn: "src/a.ts#run",
			want: []string{
				"again -> src/orig.ts#orig (import)",
				"dflt -> src/mid2.ts#impl (import)",
			},
		},
		{
			name: "cycles terminate",
			files: map[string]string{
				"src/a.ts": `import { loop, real } from "./x";
export function run() { loop(); real(); }`,
				"src/x.ts": `export * from "./y";
export { real } from "./z";`,
				"src/y.ts": `export * from "./x";`,
				"src/z.ts": `export * from "./x";
export function real() {}`,
			},
			fn: "src/a.ts#run",
			want: []string{
				"loop -> unresolved: module src/x.ts has no export loop",
				"real -> src/z.ts#real (import)",
			},
		},
		{
			name: "dynamic imports: destructured, member of awaited import, namespace binding",
			files: map[string]string{
				"src/a.ts": `export async function run() {
  const { a, b: renamed } = await import("./dyn");
  a();
  renamed();
  (await import("./dyn")).c();
  const m = await import("./dyn");
  m.a();
}`,
				"src/dyn.ts": `export function a() {}
export function b() {}
export function c() {}`,
			},
			fn: "src/a.ts#run",
			want: []string{
				"a -> src/dyn.ts#a (dynamic-import)",
				"renamed -> src/dyn.ts#b (dynamic-import)",
				"(await import(\"./dyn\")).c -> src/dyn.ts#c (dynamic-import)",
				"m.a -> src/dyn.ts#a (dynamic-import)",
			},
		},
		{
			name: "shadowing: a parameter or a local declaration is not the import",
			files: map[string]string{
				"src/a.ts": `import { enrich, save } from "./lib";
export function run(enrich: () => void) {
  enrich();
  const save = () => {};
  save();
  [1].forEach((x) => { enrich(); });
}
export function other() { enrich(); }`,
				"src/lib.ts": `export function enrich() {}
export function save() {}`,
			},
			fn: "src/a.ts#run",
			want: []string{
				"enrich -> unresolved: enrich is bound inside the function by parameter enrich…",
				"save -> src/a.ts#run.save (local)", // the nested function, never the import
				"[1].forEach -> unresolved: the callee is not a name…",
				"enrich -> unresolved: enrich is bound inside the function by parameter enrich…",
			},
		},
		{
			name: "the same name in two modules: the imported one wins",
			files: map[string]string{
				"src/a.ts": `import { updateRecord } from "./repo";
export function run() { updateRecord(); }`,
				"src/repo.ts":           `export function updateRecord() {}`,
				"src/legacy/records.ts": `export function updateRecord() {}`,
			},
			fn:   "src/a.ts#run",
			want: []string{"updateRecord -> src/repo.ts#updateRecord (import)"},
		},
		{
			name: "type-only imports erase; unresolvable specifiers say why",
			files: map[string]string{
				"src/a.ts": `import type { T } from "./t";
import { type U, gone } from "./missing";
export function run() { T(); gone(); }`,
				"src/t.ts": `export function T() {}`,
			},
			fn: "src/a.ts#run",
			want: []string{
				"T -> unresolved: T is a type-only import of \"./t\" (erased at run time)",
				"gone -> unresolved: cannot resolve \"./missing\": …",
			},
		},
		{
			// Found by the differential test: `export default f` is an alias of
			// f (the compiler names the declaration f, not default).
			name: "differential: export default of an identifier keeps the declaration's name",
			files: map[string]string{
				"src/a.ts": `import fmt from "./money";
export function run() { fmt(); }`,
				"src/money.ts": `export function formatMoney() {}
export default formatMoney;`,
			},
			fn:   "src/a.ts#run",
			want: []string{"fmt -> src/money.ts#formatMoney (import)"},
		},
		{
			// Found by the differential test: ns["f"]() is the export f of ns.
			name: "differential: string-keyed member of a namespace",
			files: map[string]string{
				"src/a.ts": `import * as audit from "./audit";
export function run(k: string) { audit["write"](); audit[k](); }`,
				"src/audit.ts": `export function write() {}`,
			},
			fn: "src/a.ts#run",
			want: []string{
				"audit[\"write\"] -> src/audit.ts#write (namespace)",
				"audit[k] -> unresolved: the callee is not a name…",
			},
		},
		{
			name: "export = and import x = require() of it",
			files: map[string]string{
				"src/a.cts": `import legacy = require("./legacy.cjs");
export function run() { legacy(); }`,
				"src/legacy.cts": `function legacy() {}
export = legacy;`,
			},
			fn:   "src/a.cts#run",
			want: []string{"legacy -> src/legacy.cts#legacy (import)"},
		},
		// The functions of module-level code (issue 26): their calls resolve
		// as any function's, their own scopes first.
		{
			name: "a method of the object given to the default export's call",
			files: map[string]string{
				"src/cmd.ts": `import { defineCommand } from "./define";
import { save } from "./repo";
function local() {}
export default defineCommand({
  async run(ctx: { n: number }) {
    const save2 = (n: number) => n;
    await save(ctx.n);
    save2(1);
    local();
  },
});`,
				"src/define.ts": `export const defineCommand = <T>(c: T): T => c;`,
				"src/repo.ts":   `export async function save(n: number) {}`,
			},
			fn: "src/cmd.ts#default.run",
			want: []string{
				"save -> src/repo.ts#save (import)",
				"save2 -> src/cmd.ts#default.run.save2 (local)",
				"local -> src/cmd.ts#local (local)",
			},
		},
		{
			name: "a router callback",
			files: map[string]string{
				"src/a.ts": `import { wrap, app } from "./lib";
import { save } from "./repo";
export const fee = wrap((n: number) => save(n));
app.get("/x", (c: number) => Geo.dist(save(c)));
export namespace Geo { export function dist(x: number) { return x; } }`,
				"src/lib.ts": `export const wrap = <F>(f: F): F => f;
export const app = { get(p: string, h: (c: number) => void) {} };`,
				"src/repo.ts": `export function save(n: number) { return n; }`,
			},
			fn:   "src/a.ts#app.get.<arrow>",
			want: []string{"Geo.dist -> src/a.ts#Geo.dist (namespace)", "save -> src/repo.ts#save (import)"},
		},
		{
			name: "the arrow bound through a call",
			files: map[string]string{
				"src/a.ts": `import { save } from "./repo";
const wrap = <F>(f: F): F => f;
export const fee = wrap((n: number) => save(n));`,
				"src/repo.ts": `export function save(n: number) { return n; }`,
			},
			fn:   "src/a.ts#fee.<arrow>",
			want: []string{"save -> src/repo.ts#save (import)"},
		},
		{
			name: "a static block",
			files: map[string]string{
				"src/a.ts": `import { save } from "./repo";
export class Limits { static max = 0; static { Limits.max = save(10); } }`,
				"src/repo.ts": `export function save(n: number) { return n; }`,
			},
			fn:   "src/a.ts#Limits.<static>",
			want: []string{"save -> src/repo.ts#save (import)"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkCalls(t, tc.files, tc.fn, tc.want) })
	}
}

// checkCalls builds the graph of files and compares the calls of function
// id fn with want, one edgeLine each ("…" ends a prefix).
func checkCalls(t *testing.T, files map[string]string, fn string, want []string) {
	t.Helper()
	g, err := Build(writeTree(t, files), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var node *FunctionNode
	var ids []string
	for _, n := range g.Functions {
		ids = append(ids, n.ID)
		if n.ID == fn {
			node = n
		}
	}
	if node == nil {
		t.Fatalf("no function %s in graph: %v", fn, ids)
	}
	var got []string
	for _, c := range node.Calls {
		got = append(got, edgeLine(c))
	}
	if len(got) != len(want) {
		t.Fatalf("calls:\n got  %q\n want %q", got, want)
	}
	for i := range got {
		w := want[i]
		if p, ok := strings.CutSuffix(w, "…"); ok {
			if !strings.HasPrefix(got[i], p) {
				t.Errorf("call %d:\n got  %s\n want %s", i, got[i], w)
			}
		} else if got[i] != w {
			t.Errorf("call %d:\n got  %s\n want %s", i, got[i], w)
		}
	}
}

// TestBuildNotesResolverDiagnostics: a configuration file the resolver
// cannot read is a note of the graph (file, line, what is wrong), not a
// silent cause of unresolved calls.
func TestBuildNotesResolverDiagnostics(t *testing.T) {
	root := writeTree(t, map[string]string{
		"tsconfig.json": "{\n  \"compilerOptions\": {\n    \"paths\": { \"@app/*\": [\"src/*\"] \n}\n",
		"src/a.ts":      "import { b } from \"@app/b\";\nexport function a() { return b(); }\n",
		"src/b.ts":      "export function b() { return 1; }\n",
	})
	g, err := Build(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range g.Notes {
		if n.File == "tsconfig.json" && strings.HasPrefix(n.Reason, "line ") {
			return
		}
	}
	t.Errorf("no note for the broken tsconfig.json: %+v", g.Notes)
}
