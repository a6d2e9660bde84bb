package callgraph

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/bench/synth"
	"github.com/oracle-ts/oracle/callgraph/modules"
	"github.com/oracle-ts/oracle/internal/par"
)

// TestReachFunctionsMatchesReference: the interned walk (reach.go) gives
// exactly what the straightforward walk over string-keyed maps below (the
// walk it replaced) gives, from every file of every sample under testdata
// and from files of the 100k-line synthetic monorepo (with test files that
// import a module and vi.mock another, as audit's benchmark writes them),
// under no stub, the file's own vi.mock calls (as audit reads them), and
// arbitrary stubs of whole modules and single exports. The new walks run in
// parallel on one Program, as audit runs them (go test -race -short runs
// the samples without the synthetic).
func TestReachFunctionsMatchesReference(t *testing.T) {
	roots := []string{"../testdata/graph/imports", "../testdata/graph/paths", "../testdata/graph/workspace",
		"../testdata/services", "../testdata/pipeline"}
	for _, glob := range []string{"../testdata/resolve/*", "../audit/testdata/rules/*"} {
		dirs, _ := filepath.Glob(glob)
		for _, d := range dirs {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				roots = append(roots, d)
			}
		}
	}
	roots = append(roots, writeShapes(t))
	synthRoot := ""
	if !testing.Short() { // -short (with -race): the samples only
		synthRoot = t.TempDir()
		if _, err := synth.Generate(synthRoot, synth.Default()); err != nil {
			t.Fatal(err)
		}
		writeSynthTests(t, synthRoot)
		roots = append(roots, synthRoot)
	}
	walks := 0
	for _, root := range roots {
		files, _, err := walkSources(root)
		if err != nil {
			t.Fatal(err)
		}
		if root == synthRoot { // its test files, and every 16th module
			var some []string
			for i, f := range files {
				if strings.HasPrefix(f, "tests/") || i%16 == 0 {
					some = append(some, f)
				}
			}
			files = some
		}
		p, err := NewProgram(root)
		if err != nil {
			t.Fatal(err)
		}
		type walk struct {
			from *analyzer.File
			name string
			stub Stub
		}
		var ws []walk
		for _, f := range files {
			from, _ := p.Module(f)
			if from == nil {
				continue
			}
			ws = append(ws, walk{from, "no stub", nil},
				walk{from, "its vi.mock calls", mockStub(p, from)},
				walk{from, "every third module", hashStub(3, 0)},
				walk{from, "every fifth module and export", hashStub(5, 5)},
				walk{from, "every second export", hashStub(0, 2)})
		}
		type result struct{ fns, stubbed map[string]bool }
		got := make([]result, len(ws))
		par.Each(len(ws), func(i int) {
			got[i].fns, got[i].stubbed = p.ReachFunctions(ws[i].from, ws[i].stub)
		})
		for i, w := range ws {
			fns, stubbed := p.referenceReachFunctions(w.from, w.stub)
			if !reflect.DeepEqual(got[i].fns, fns) || !reflect.DeepEqual(got[i].stubbed, stubbed) {
				t.Errorf("%s: ReachFunctions(%s, %s):\n fns %s\n want %s\n stubbed %s\n want %s", root, w.from.Path, w.name,
					keys(got[i].fns), keys(fns), keys(got[i].stubbed), keys(stubbed))
			}
			walks++
		}
		p.Close()
	}
	if walks < 300 {
		t.Fatalf("only %d walks compared", walks)
	}
	t.Logf("%d walks compared", walks)
}

// writeShapes writes a small repository with the shapes the walk follows:
// class inheritance (a chain deeper than the walk follows), constructor
// calls, barrels (export *, export * as, re-export by another name),
// namespaces, dynamic imports (destructured or whole), module-level code
// and side-effect imports, an interface, and test files with whole,
// partial (call-through) and factory-importing vi.mock calls.
func writeShapes(t *testing.T) string {
	root := t.TempDir()
	var chain strings.Builder
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&chain, "export class C%d extends C%d {\n  m%d() { return c%d(); }\n}\nfunction c%d() { return %d; }\n", i, i+1, i, i, i, i)
	}
	chain.WriteString("export class C24 {\n  m24() { return 24; }\n}\n")
	files := map[string]string{
		"package.json":  `{"name":"shapes","type":"module"}`,
		"tsconfig.json": `{"compilerOptions":{"strict":true}}`,
		"src/base.ts": `export class Base {
  hello() { return helper(); }
  static make() { return new Base(); }
}
function helper() { return 1; }
export interface Greeter { greet(): string }
export class Polite implements Greeter { greet() { return helper() + "!"; } }
`,
		"src/derived.ts": `import { Base } from "./base";
export class Derived extends Base {
  constructor() { super(); init(); }
  run() { return this.hello(); }
}
function init() { return 0; }
`,
		"src/make.ts": `import { Derived } from "./derived";
import { Polite } from "./base";
export function make() { return new Derived(); }
export function polite() { return new Polite().greet(); }
`,
		"src/util.ts": `export function u1() { return u2(); }
export function u2() { return 1; }
export const u3 = () => u2();
export type T = number;
export default function u4() { return u1(); }
`,
		"src/ns.ts": `export function n1() { return 1; }
export function n2() { return n1(); }
`,
		"src/barrel.ts": `export * from "./util";
export * as ns from "./ns";
export { make as build } from "./make";
export { default as u4 } from "./util";
`,
		"src/lazy.ts": `export async function lazy() { const { u1 } = await import("./util"); return u1(); }
export async function lazyAll() { const m = await import("./ns"); return m.n2(); }
`,
		"src/effects.ts": `export function setup() { return 1; }
setup();
`,
		"src/side.ts": `import "./effects";
import { n2 } from "./ns";
export const value = n2();
`,
		"src/chain.ts": chain.String(),
		"src/deep.ts": `import { C6 } from "./chain";
export function deep() { return new C6(); }
`,
		"test/a.test.ts": `import { it, vi } from "vitest";
import { build, ns, u1 } from "../src/barrel";
import { make } from "../src/make";
vi.mock("../src/util", async (orig) => ({ ...(await orig()), u2: vi.fn(), u1: vi.fn((await orig()).u1) }));
vi.mock("../src/effects", async () => { const m = await import("../src/ns"); return { setup: m.n1 }; });
it("runs", () => { build(); ns.n1(); u1(); make(); });
`,
		"test/b.test.ts": `import { it, vi } from "vitest";
import { C3 } from "../src/chain";
import { deep } from "../src/deep";
import "../src/side";
vi.mock("../src/ns");
function helperOfTest() { return new C3().m3(); }
it("runs", () => { helperOfTest(); deep(); });
`,
		"test/c.test.ts": `import { it, vi } from "vitest";
import * as all from "../src/barrel";
import { lazy, lazyAll } from "../src/lazy";
import u4 from "../src/util";
vi.mock("../src/make", () => ({ make: vi.fn(), polite: vi.fn() }));
it("runs", async () => { all.u3(); await lazy(); await lazyAll(); u4(); });
`,
		"test/d.test.ts": `import { it } from "vitest";
import { Derived } from "../src/derived";
import { Base } from "../src/base";
it("runs", () => { new Derived().run(); Base.make(); });
`,
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func keys(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return fmt.Sprint(len(out), out)
}

// writeSynthTests writes a test file per fourth feature module of the
// synthetic monorepo: it imports the module and mocks the next one, once
// with a factory and once partially (as audit's BenchmarkAuditSynthetic).
func writeSynthTests(t *testing.T, root string) {
	files, _, err := walkSources(root)
	if err != nil {
		t.Fatal(err)
	}
	var mods []string
	for _, f := range files {
		if strings.Contains(f, "/features/") && !strings.HasSuffix(f, "index.ts") {
			mods = append(mods, f)
		}
	}
	for i, m := range mods {
		if i%4 != 0 {
			continue
		}
		other := strings.TrimSuffix(mods[(i+1)%len(mods)], ".ts")
		factory := `() => ({ stub: vi.fn().mockReturnValue({ ok: true }) })`
		if i%8 == 0 {
			factory = `async (orig) => ({ ...(await orig()), stub: vi.fn() })`
		}
		body := fmt.Sprintf("import { it, expect, vi } from \"vitest\";\nimport * as m from \"../%s\";\nvi.mock(\"../%s\", %s);\nit(\"runs\", () => {\n  expect(Object.keys(m).length).toBeGreaterThan(0);\n});\n",
			strings.TrimSuffix(m, ".ts"), other, factory)
		p := filepath.Join(root, "tests", fmt.Sprintf("t%03d.test.ts", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mockStub is what from's vi.mock calls replace, as audit reads them: a
// whole module, or the exports a partial mock overrides without calling
// through.
func mockStub(p *Program, from *analyzer.File) Stub {
	mocks := map[string][]*analyzer.Mock{}
	for i := range from.Mocks {
		m := &from.Mocks[i]
		if r := p.Resolver().Resolve(from.Path, m.Specifier); r.Kind == modules.KindFile {
			mocks[r.Path] = append(mocks[r.Path], m)
		}
	}
	return func(module, export string) bool {
		for _, m := range mocks[module] {
			if export == "" && !m.Partial {
				return true
			}
			if export != "" && m.Partial {
				for _, o := range m.Overrides {
					if o.Name == export {
						return !o.CallThrough
					}
				}
			}
		}
		return false
	}
}

// hashStub stubs the modules (one in wholeEvery) and the exports (one in
// exportEvery) whose hash says so; 0: none.
func hashStub(wholeEvery, exportEvery uint32) Stub {
	return func(module, export string) bool {
		h := fnv.New32a()
		h.Write([]byte(module + "#" + export))
		n := h.Sum32()
		if export == "" {
			return wholeEvery > 0 && n%wholeEvery == 0
		}
		return exportEvery > 0 && n%exportEvery == 0
	}
}

// referenceReachFunctions is ReachFunctions as it was before reach.go
// interned the walk (kept as the reference its results are compared with):
// what a file runs, as far as names and declarations
// decide: the module-level code of every module it loads, the functions it
// takes by name from them (a whole module when it takes the namespace or
// does not destructure a dynamic import), every member of a class it takes,
// and, transitively, every function those call (resolved call edges). A
// module stub replaces is not entered; an export it replaces is not taken.
// What only from's vi.mock factories call or import is not run by from.
// It returns the function ids reached and the stubbed modules the walk met.
func (p *Program) referenceReachFunctions(from *analyzer.File, stub Stub) (fns map[string]bool, stubbed map[string]bool) {
	fns, stubbed = map[string]bool{}, map[string]bool{}
	loaded := map[string]bool{}
	files := map[string]*analyzer.File{}
	module := func(path string) *analyzer.File {
		f, ok := files[path]
		if !ok {
			f, _ = p.Module(path)
			files[path] = f
		}
		return f
	}
	takenAll := map[string]bool{}
	var fnQueue []string
	addFn := func(id string) {
		if !fns[id] {
			fns[id] = true
			fnQueue = append(fnQueue, id)
		}
	}
	isStubbed := func(module, export string) bool {
		if stub == nil {
			return false
		}
		if stub(module, "") {
			stubbed[module] = true
			return true
		}
		return export != "" && stub(module, export)
	}
	// The vi.mock factories of the file are its scaffolding: what only a
	// factory's code calls or imports is not run by the file (SPEC: a
	// function called only inside a vi.mock factory is not tested by it).
	var factories [][2]uint
	for _, m := range from.Mocks {
		if m.FactoryEndByte > m.FactoryStartByte {
			factories = append(factories, [2]uint{m.FactoryStartByte, m.FactoryEndByte})
		}
	}
	inFactory := func(start uint) bool {
		for _, r := range factories {
			if start >= r[0] && start < r[1] {
				return true
			}
		}
		return false
	}
	var load func(f *analyzer.File)
	var take func(module, name string)
	// addClass counts every method of class c (of file) and of its bases in
	// the repository as run: an instance exists (a test imports the class,
	// or code it runs constructs one), and its methods are called through
	// it in ways calls are not followed (a local variable, a factory's
	// result, an interface).
	classes := map[string]bool{}
	var addClass func(file string, c *analyzer.Class, depth int)
	addClass = func(file string, c *analyzer.Class, depth int) {
		if depth > 16 || c.Interface || classes[file+"#"+c.Name] {
			return
		}
		classes[file+"#"+c.Name] = true
		for _, m := range c.Members {
			if m.Function != "" {
				addFn(file + "#" + m.Function)
			}
		}
		for _, ext := range c.Extends {
			if tf, tc, _ := p.resolveType(file, ext); tc != nil {
				if mf := module(tf); mf != nil {
					load(mf)
				}
				addClass(tf, tc, depth+1)
			}
		}
	}
	// edges follows the resolved calls of a list (module-level code, a body).
	edges := func(f *analyzer.File, key string, calls []analyzer.Call) {
		for _, t := range p.callTargets(f, key, calls) {
			if isStubbed(t.module, t.export) {
				continue
			}
			mf := module(t.module)
			if mf != nil {
				load(mf)
			}
			addFn(t.id)
			if cls, ok := strings.CutSuffix(t.id[len(t.module)+1:], ".constructor"); ok && mf != nil {
				if c := classByName(mf, cls); c != nil {
					addClass(mf.Path, c, 0)
				}
			}
		}
	}
	load = func(f *analyzer.File) {
		if loaded[f.Path] {
			return
		}
		loaded[f.Path] = true
		key, calls, imports := f.Path+"#", f.TopCalls, []Import(nil)
		if f == from && len(factories) > 0 {
			key, calls, imports = f.Path+"# outside vi.mock factories", nil, p.runtimeImports(f, inFactory, true)
			for _, c := range f.TopCalls {
				if !inFactory(c.StartByte) {
					calls = append(calls, c)
				}
			}
		} else {
			imports = p.TakenImports(f)
		}
		// The functions of module-level code: their calls are the module's
		// TopCalls, followed here, but for those a variable holds (HeldBy):
		// they run, and their calls are followed, when it is taken.
		var held []*analyzer.Function
		for _, fn := range f.Functions {
			if fn.Parent == nil && (fn.Kind == analyzer.FuncProperty || fn.Kind == analyzer.FuncExpression) {
				if fn.HeldBy != "" && f != from {
					held = append(held, fn)
					continue
				}
				fns[f.Path+"#"+fn.Qual] = true
			}
		}
		if f != from && len(held) > 0 {
			key, calls = f.Path+"#<load>", nil
			for _, c := range f.TopCalls {
				in := false
				for _, fn := range held {
					in = in || c.StartByte >= fn.StartByte && c.StartByte < fn.EndByte
				}
				if !in {
					calls = append(calls, c)
				}
			}
		}
		edges(f, key, calls)
		for _, im := range imports {
			if isStubbed(im.Module, "") {
				continue
			}
			if len(im.Names) == 0 {
				if mf := module(im.Module); mf != nil {
					load(mf)
				}
			}
			for _, n := range im.Names {
				take(im.Module, n)
			}
		}
	}
	take = func(mod, name string) {
		if isStubbed(mod, name) {
			return
		}
		mf := module(mod)
		if mf == nil {
			return
		}
		load(mf)
		if name == "*" {
			if takenAll[mod] {
				return
			}
			takenAll[mod] = true
			for _, ex := range mf.Exports {
				switch {
				case ex.TypeOnly:
				case ex.Kind == analyzer.ExportAll || ex.Kind == analyzer.ExportAllAs:
					if r := p.resolveModule(mod, ex.Specifier); r.file != "" && r.reason == "" {
						take(r.file, "*")
					}
				case ex.Name != "":
					take(mod, ex.Name)
				}
			}
			return
		}
		sym := p.exportOf(mod, name)
		if sym.reason != "" || sym.external != "" || sym.file == "" {
			return
		}
		if sym.namespace {
			take(sym.file, "*")
			return
		}
		df := module(sym.file)
		if df == nil {
			return
		}
		load(df)
		for _, fn := range df.Functions {
			if fn.Parent == nil && fn.HeldBy == sym.name && df != from {
				addFn(sym.file + "#" + fn.Qual)
			}
		}
		if c := classByName(df, sym.name); c != nil {
			addClass(sym.file, c, 0)
			return
		}
		addFn(sym.file + "#" + sym.name)
	}
	load(from)
	for _, fn := range from.Functions { // a test file's own helpers
		addFn(from.Path + "#" + fn.Qual)
	}
	for len(fnQueue) > 0 {
		id := fnQueue[0]
		fnQueue = fnQueue[1:]
		file, qual, _ := strings.Cut(id, "#")
		f := module(file)
		if f == nil {
			continue
		}
		if fn := p.functionOf(f, qual); fn != nil {
			edges(f, id, fn.Calls)
		}
	}
	return fns, stubbed
}
