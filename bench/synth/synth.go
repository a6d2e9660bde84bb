// Package synth writes a synthetic, deterministic TypeScript monorepo for
// benchmarks of oracle at scale.
//
// The generated repository looks like a real npm-workspaces monorepo: a root
// package.json with `workspaces: ["packages/*"]`, a JSONC tsconfig.base.json
// with baseUrl/paths aliases and `customConditions: ["source"]`, one
// tsconfig.json per package extending it, and one package `@syn/pkgN` per
// directory packages/pkgN whose package.json `exports` map "." and the subpath
// pattern "./features/*" to sources under the "source" condition. Inside each
// package: barrels three levels deep (`export *`, `export { a as b } from`,
// `export * as ns from`, `export { default as x } from`), and modules whose
// functions call each other through every kind of import oracle resolves:
// relative (with and without `.js`), path alias, package name, package subpath,
// named, aliased, default, namespace, dynamic `import()`, type-only imports,
// shadowing bindings, and calls into an uninstalled external package (`zod`,
// declared by an ambient module in types/external.d.ts so that tsc accepts it).
//
// The same Config always gives a byte-identical tree. All call edges go from a
// module to modules earlier in a fixed order (and from a package to
// lower-numbered packages), so the import graph is acyclic.
package synth

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Config shapes the generated repository. Zero MinBodyLines/MaxBodyLines mean
// 10 and 40.
type Config struct {
	Seed             uint64 // seeds the PCG generator; the same Config gives the same tree
	Packages         int    // workspace packages packages/pkg0 .. pkg{N-1}
	FilesPerPackage  int    // module files per package, not counting barrels and types.ts
	FunctionsPerFile int    // exported functions per module file (plus one local helper)
	MinBodyLines     int    // lines of a function body, inclusive range
	MaxBodyLines     int
	// NoWorkspaceLinks skips the node_modules/@syn/pkgN -> packages/pkgN
	// symlinks that `npm install` would create. Without them tsc cannot resolve
	// the cross-package imports (oracle should: it reads the workspaces).
	NoWorkspaceLinks bool
	// Classes adds a class to every module: a constructor with a parameter
	// property, methods calling each other through this and the module's
	// helper, a nested function, a static factory (new), a getter.
	Classes bool
}

// Default is about 100k lines of TypeScript in about 1,150 .ts files across 8
// workspace packages.
func Default() Config {
	return Config{
		Seed:             1,
		Packages:         8,
		FilesPerPackage:  128,
		FunctionsPerFile: 3,
		MinBodyLines:     8,
		MaxBodyLines:     28,
		Classes:          true,
	}
}

// Stats describes what Generate wrote. Files and Lines count the .ts files
// (modules, barrels, types.ts and the ambient .d.ts). Functions counts what
// oracle graph reports as functions: the exported ones (declarations, const
// arrow functions, function expressions, default exports) and the local
// helper of each module; Calls counts the call expressions in their bodies
// (oracle graph's call sites), including nested ones in callbacks, member
// calls such as ctx.trace.push() and globals such as String(), excluding the
// import() expressions themselves.
type Stats struct {
	Files     int
	Lines     int
	Packages  int
	Functions int
	Calls     int
	// Members and MemberCalls count the class members with a body and the
	// nested functions in them (Config.Classes), and their calls: oracle
	// graph reports Functions+Members functions.
	Members     int
	MemberCalls int
	// Nested counts the named arrow functions declared in the body of a
	// function (const applyN = (f) => f(acc), and the block-scoped const
	// that shadows an import): oracle graph reports them as functions too
	// (outer.applyN), so Functions+Members+Nested in all.
	Nested int
}

// Generate writes the repository described by cfg into dir (created if
// needed; files of the same names are overwritten).
func Generate(dir string, cfg Config) (Stats, error) {
	if cfg.MinBodyLines == 0 {
		cfg.MinBodyLines = 10
	}
	if cfg.MaxBodyLines == 0 {
		cfg.MaxBodyLines = 40
	}
	switch {
	case cfg.Packages < 1 || cfg.Packages > 1000:
		return Stats{}, fmt.Errorf("synth: Packages %d out of range 1..1000", cfg.Packages)
	case cfg.FilesPerPackage < 4:
		return Stats{}, fmt.Errorf("synth: FilesPerPackage %d < 4", cfg.FilesPerPackage)
	case cfg.FunctionsPerFile < 1:
		return Stats{}, fmt.Errorf("synth: FunctionsPerFile %d < 1", cfg.FunctionsPerFile)
	case cfg.MinBodyLines < 6 || cfg.MaxBodyLines < cfg.MinBodyLines:
		return Stats{}, fmt.Errorf("synth: body lines %d..%d: need 6 <= min <= max", cfg.MinBodyLines, cfg.MaxBodyLines)
	}
	g := &gen{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x5eed_0f_0_0_ac1e)), w: &writer{root: dir, made: map[string]bool{}}}
	g.plan()
	g.w.start()
	g.emitRoot()
	for _, p := range g.pkgs {
		g.emitPackage(p)
	}
	if err := g.w.finish(); err != nil {
		return Stats{}, fmt.Errorf("synth: %w", err)
	}
	g.stats.Files, g.stats.Lines, g.stats.Packages = g.w.files, g.w.lines, len(g.pkgs)
	return g.stats, nil
}

// ---- model ----

const (
	kindUtil = iota
	kindCore
	kindFeature
)

const (
	styleDecl = iota
	styleArrow
	styleExpr
	styleDefault
)

type pkg struct {
	idx      int
	name     string // @syn/pkgN
	alias    string // @pkgN
	deps     []int  // lower-numbered packages it imports
	mods     []*module
	features int
	rootAPI  []*fn // functions importable by name from the package root
}

type module struct {
	pkg     *pkg
	order   int
	kind    int
	feature int
	dir     string // relative to src: util, core, features/f2, features/f2/sub
	base    string // mod3
	fns     []*fn
	iface   string
	nsLocal string // local name when imported as a namespace
}

func (m *module) srcPath() string { return m.dir + "/" + m.base }

func (m *module) hasDefault() bool {
	return len(m.fns) > 0 && m.fns[len(m.fns)-1].style == styleDefault
}

type fn struct {
	mod      *module
	name     string
	async    bool
	style    int
	rootName string // name exported from the package root, "" if none
}

var (
	verbs = []string{"compute", "build", "resolve", "format", "parse", "load", "merge", "apply", "collect",
		"validate", "normalize", "render", "score", "index", "sync", "fetch", "plan", "emit", "reduce", "track"}
	nouns = []string{"Order", "Invoice", "Ledger", "Account", "Session", "Record", "Metric", "Route", "Token",
		"Batch", "Policy", "Profile", "Cart", "Report", "Event", "Quota", "Shipment", "Tenant", "Widget", "Schedule"}
)

type gen struct {
	cfg   Config
	rng   *rand.Rand
	w     *writer
	pkgs  []*pkg
	stats Stats
	nfn   int
}

func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }
func (g *gen) intn(n int) int        { return g.rng.IntN(n) }

func (g *gen) plan() {
	for i := 0; i < g.cfg.Packages; i++ {
		p := &pkg{idx: i, name: fmt.Sprintf("@syn/pkg%d", i), alias: fmt.Sprintf("@pkg%d", i)}
		// Dependencies: the previous package and up to two more lower ones.
		if i > 0 {
			p.deps = append(p.deps, i-1)
			for k := 0; k < 2 && i > 1; k++ {
				d := g.intn(i - 1)
				if !containsInt(p.deps, d) {
					p.deps = append(p.deps, d)
				}
			}
		}
		n := g.cfg.FilesPerPackage
		nUtil := max(1, n/16)
		nCore := max(1, n/16)
		nFeat := n - nUtil - nCore
		p.features = max(1, min(8, nFeat/8))
		order := 0
		add := func(kind, feature int, dir string, count int) {
			for j := 0; j < count; j++ {
				m := &module{pkg: p, order: order, kind: kind, feature: feature, dir: dir, base: fmt.Sprintf("mod%d", j)}
				order++
				switch kind {
				case kindUtil:
					m.nsLocal = fmt.Sprintf("utilMod%d", j)
				case kindCore:
					m.nsLocal = fmt.Sprintf("coreMod%d", j)
				default:
					m.nsLocal = strings.ReplaceAll(strings.ReplaceAll(dir, "features/", ""), "/sub", "Sub") + "Mod" + strconv.Itoa(j)
				}
				p.mods = append(p.mods, m)
			}
		}
		add(kindUtil, 0, "util", nUtil)
		add(kindCore, 0, "core", nCore)
		for f := 0; f < p.features; f++ {
			count := nFeat / p.features
			if f < nFeat%p.features {
				count++
			}
			top := count - count/3
			add(kindFeature, f, fmt.Sprintf("features/f%d", f), top)
			add(kindFeature, f, fmt.Sprintf("features/f%d/sub", f), count-top)
		}
		for _, m := range p.mods {
			for k := 0; k < g.cfg.FunctionsPerFile; k++ {
				f := &fn{mod: m, name: verbs[g.intn(len(verbs))] + nouns[g.intn(len(nouns))] + strconv.Itoa(g.nfn)}
				g.nfn++
				f.async = g.chance(0.15)
				switch r := g.rng.Float64(); {
				case r < 0.70:
					f.style = styleDecl
				case r < 0.88:
					f.style = styleArrow
				default:
					f.style = styleExpr
				}
				if k == g.cfg.FunctionsPerFile-1 && k > 0 && m.kind == kindFeature && g.chance(0.25) {
					f.style = styleDefault
				}
				switch {
				case m.kind == kindFeature:
					f.rootName = f.name // export * chains, or export { default as name }
				case m.kind == kindCore && g.chance(0.5):
					f.rootName = "core" + upper(f.name) // export { name as coreName }
				case m.kind == kindCore:
					f.rootName = f.name // export { name }
				}
				if f.rootName != "" {
					p.rootAPI = append(p.rootAPI, f)
				}
				m.fns = append(m.fns, f)
			}
			m.iface = upper(m.fns[0].name) + "Result"
		}
		g.pkgs = append(g.pkgs, p)
	}
}

// ---- emission ----

func (g *gen) emitRoot() {
	var b strings.Builder
	b.WriteString(`{
  "name": "syn-monorepo",
  "version": "0.0.0",
  "private": true,
  "workspaces": [
    "packages/*"
  ],
  "scripts": {
    "typecheck": "tsc --noEmit -p ."
  },
  "devDependencies": {
    "typescript": "~5.9.3"
  }
}
`)
	g.w.write("package.json", b.String())

	b.Reset()
	b.WriteString(`{
  // Shared compiler options of every workspace package (JSONC).
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2022"],
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "customConditions": ["source"],
    "strict": true,
    "isolatedModules": true,
    "skipLibCheck": true,
    "noEmit": true,
    "types": [],
    "outDir": "${configDir}/dist",
    /* Aliases into each package's sources. */
    "baseUrl": ".",
    "paths": {
`)
	for i, p := range g.pkgs {
		fmt.Fprintf(&b, "      %q: [\"packages/pkg%d/src/*\"]", p.alias+"/*", p.idx)
		if i < len(g.pkgs)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("    }\n  }\n}\n")
	g.w.write("tsconfig.base.json", b.String())

	g.w.write("tsconfig.json", `{
  "extends": "./tsconfig.base.json",
  "include": ["packages/*/src/**/*.ts", "types/**/*.d.ts"]
}
`)
	g.w.write(".gitignore", "node_modules/\ndist/\n")
	// Marks the repository root for oracle (which otherwise looks for .git
	// upwards from the working directory); declares no fixtures.
	g.w.write("oracle.yaml", "# oracle configuration of the synthetic benchmark repository.\nfixtures: []\n")
	g.w.write("types/external.d.ts", `// Ambient declaration of the external package "zod", which is a dependency
// of the workspace packages but not installed in this synthetic repository.
declare module "zod" {
  export interface ZodType<T> {
    parse(input: unknown): T;
  }
  export const z: {
    number(): ZodType<number>;
    string(): ZodType<string>;
    object<T extends Record<string, unknown>>(shape: { [K in keyof T]: ZodType<T[K]> }): ZodType<T>;
  };
}
`)
	if !g.cfg.NoWorkspaceLinks {
		for _, p := range g.pkgs {
			g.w.symlink(fmt.Sprintf("node_modules/@syn/pkg%d", p.idx), fmt.Sprintf("../../packages/pkg%d", p.idx))
		}
	}
}

func (g *gen) emitPackage(p *pkg) {
	dir := fmt.Sprintf("packages/pkg%d/", p.idx)
	g.emitManifests(p, dir)
	g.emitRootBarrel(p, dir)
	g.emitBarrels(p, dir)
	for _, m := range p.mods {
		g.emitModule(m)
	}
}

// emitManifests writes the package's package.json (its exports, its
// dependencies), tsconfig.json and src/types.ts.
func (g *gen) emitManifests(p *pkg, dir string) {
	var b strings.Builder
	fmt.Fprintf(&b, `{
  "name": %q,
  "version": "0.0.0",
  "private": true,
  "type": "module",
  "exports": {
    ".": {
      "source": "./src/index.ts",
      "types": "./dist/index.d.ts",
      "default": "./dist/index.js"
    },
    "./features/*": {
      "source": "./src/features/*/index.ts",
      "types": "./dist/features/*/index.d.ts",
      "default": "./dist/features/*/index.js"
    },
    "./package.json": "./package.json"
  },
  "dependencies": {
`, p.name)
	for _, d := range p.deps {
		fmt.Fprintf(&b, "    \"@syn/pkg%d\": \"*\",\n", d)
	}
	b.WriteString("    \"zod\": \"^3.23.8\"\n  }\n}\n")
	g.w.write(dir+"package.json", b.String())
	g.w.write(dir+"tsconfig.json", `{
  "extends": "../../tsconfig.base.json",
  "include": ["src/**/*.ts", "../../types/**/*.d.ts"]
}
`)
	g.w.write(dir+"src/types.ts", `// Shared types of `+p.name+`.
export type Mode = "fast" | "safe";

export interface Context {
  trace: string[];
  depth: number;
  mode?: Mode;
  log?: (message: string) => void;
}
`)
}

// emitRootBarrel writes the package's src/index.ts: its types, each
// feature's barrel, the util namespace and the core functions by name.
func (g *gen) emitRootBarrel(p *pkg, dir string) {
	var b strings.Builder
	fmt.Fprintf(&b, "// Public API of %s.\nexport type { Context, Mode } from \"./types\";\n", p.name)
	for f := 0; f < p.features; f++ {
		switch f % 3 {
		case 0:
			fmt.Fprintf(&b, "export * from \"./features/f%d/index\";\n", f)
		case 1:
			fmt.Fprintf(&b, "export * from \"./features/f%d\";\n", f)
		default:
			fmt.Fprintf(&b, "export * from \"./features/f%d/index.js\";\n", f)
		}
	}
	fmt.Fprintf(&b, "export * as util%d from \"./util/index\";\n", p.idx)
	for _, m := range p.mods {
		if m.kind != kindCore {
			continue
		}
		var names []string
		for _, f := range m.fns {
			if f.rootName == f.name {
				names = append(names, f.name)
			} else {
				names = append(names, f.name+" as "+f.rootName)
			}
		}
		fmt.Fprintf(&b, "export { %s } from \"./core/%s\";\n", strings.Join(names, ", "), m.base)
	}
	g.w.write(dir+"src/index.ts", b.String())
}

// emitBarrels writes the feature, sub-feature and util barrels.
func (g *gen) emitBarrels(p *pkg, dir string) {
	barrels := map[string]*strings.Builder{}
	var order []string
	for _, m := range p.mods {
		if m.kind == kindCore {
			continue
		}
		bb := barrels[m.dir]
		if bb == nil {
			bb = &strings.Builder{}
			barrels[m.dir] = bb
			order = append(order, m.dir)
			fmt.Fprintf(bb, "// Barrel of %s/%s.\n", p.name, m.dir)
		}
		ext := ""
		if m.order%4 == 1 {
			ext = ".js"
		}
		fmt.Fprintf(bb, "export * from \"./%s%s\";\n", m.base, ext)
		if m.hasDefault() {
			fmt.Fprintf(bb, "export { default as %s } from \"./%s\";\n", m.fns[len(m.fns)-1].name, m.base)
		}
	}
	for _, d := range order {
		bb := barrels[d]
		if strings.HasPrefix(d, "features/") && !strings.HasSuffix(d, "/sub") {
			if _, ok := barrels[d+"/sub"]; ok {
				bb.WriteString("export * from \"./sub/index\";\n")
			}
		}
		g.w.write(dir+"src/"+d+"/index.ts", bb.String())
	}
}

// callable is something a function body can call.
type callable struct {
	expr  string // as written at the call site: name, alias, ns.name
	async bool
	ident bool // a plain identifier bound by an import (shadowable)
	local bool // the file's own helper (one argument)
}

type fileGen struct {
	g        *gen
	m        *module
	names    map[string]bool // module-scope bindings
	imports  []string
	calls    []*callable // imported
	pending  []*callable // imported, not yet called
	locals   []*callable // the helper and earlier functions of this file
	types    []string    // interface names usable in annotations
	zod      bool
	dynamics []*module // same-package modules an async function may import()
}

func (fg *fileGen) bind(name string) bool {
	if fg.names[name] {
		return false
	}
	fg.names[name] = true
	return true
}

// spec is how module m's file imports module t of the same package.
func (fg *fileGen) spec(t *module, allowAlias bool) string {
	g := fg.g
	if allowAlias && g.chance(0.3) {
		return t.pkg.alias + "/" + t.srcPath()
	}
	s := relSpec(fg.m.dir, t.srcPath())
	if g.chance(0.4) {
		s += ".js"
	}
	return s
}

func relSpec(fromDir, to string) string {
	r, err := filepath.Rel(filepath.FromSlash(fromDir), filepath.FromSlash(to))
	if err != nil {
		panic(err) // both are clean relative paths
	}
	r = filepath.ToSlash(r)
	if !strings.HasPrefix(r, "../") {
		r = "./" + r
	}
	return r
}

func (g *gen) emitModule(m *module) {
	p := m.pkg
	fg := &fileGen{g: g, m: m, names: map[string]bool{"Context": true, "clamp": true, m.iface: true}}
	for _, f := range m.fns {
		fg.names[f.name] = true
	}
	fg.types = []string{m.iface}

	// The Context type: relative, alias, or from a dependency's root.
	switch r := g.rng.Float64(); {
	case r < 0.1 && len(p.deps) > 0:
		fg.imports = append(fg.imports, fmt.Sprintf("import type { Context } from %q;", g.pkgs[p.deps[0]].name))
	case r < 0.4:
		fg.imports = append(fg.imports, fmt.Sprintf("import type { Context } from %q;", p.alias+"/types"))
	default:
		fg.imports = append(fg.imports, fmt.Sprintf("import type { Context } from %q;", relSpec(m.dir, "types")))
	}
	if m.kind != kindUtil && g.chance(0.35) {
		fg.zod = true
		fg.names["z"] = true
		fg.imports = append(fg.imports, `import { z } from "zod";`)
	}

	// Same-package imports from earlier modules: mostly nearby ones.
	// Modules are ordered util, core, features: util imports only util.
	earlier := p.mods[:m.order]
	if len(earlier) > 0 {
		want := 2 + g.intn(3)
		seen := map[*module]bool{}
		for k := 0; k < want*2 && len(seen) < want; k++ {
			var t *module
			if g.chance(0.6) {
				lo := max(0, len(earlier)-12)
				t = earlier[lo+g.intn(len(earlier)-lo)]
			} else {
				t = earlier[g.intn(len(earlier))]
			}
			if seen[t] {
				continue
			}
			seen[t] = true
			fg.importModule(t)
		}
		for k := 0; k < 2; k++ {
			fg.dynamics = append(fg.dynamics, earlier[g.intn(len(earlier))])
		}
	}

	// Cross-package imports.
	if m.kind != kindUtil {
		for _, d := range p.deps {
			if !g.chance(0.55) {
				continue
			}
			fg.importPackage(g.pkgs[d])
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "// %s/src/%s.ts (generated by oracle bench/synth)\n", p.name, m.srcPath())
	for _, line := range fg.imports {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, `
export interface %s {
  id: number;
  total: number;
  tags: readonly string[];
}

function clamp(value: number): number {
  return value %% 1000003;
}
`, m.iface)
	fg.locals = []*callable{{expr: "clamp", local: true}}
	g.stats.Functions++ // clamp
	for _, f := range m.fns {
		b.WriteByte('\n')
		fg.emitFunction(&b, f)
		fg.locals = append(fg.locals, &callable{expr: f.name, async: f.async})
		g.stats.Functions++
	}
	if g.cfg.Classes {
		fg.emitClass(&b)
	}
	g.w.write(fmt.Sprintf("packages/pkg%d/src/%s.ts", p.idx, m.srcPath()), b.String())
}

// emitClass writes the module's class (Config.Classes). It draws nothing
// from the random generator, so the rest of the tree is the same with or
// without classes.
func (fg *fileGen) emitClass(b *strings.Builder) {
	c := fg.m.iface + "Store"
	fmt.Fprintf(b, `
export class %[1]s {
  private readonly seen = new Set<number>();

  constructor(private readonly base: number) {}

  record(item: %[2]s): number {
    this.seen.add(item.id);
    return this.weigh(clamp(item.total + this.base));
  }

  weigh(value: number): number {
    const scale = (n: number): number => clamp(n * 2);
    return scale(value) + clamp(value);
  }

  static create(): %[1]s {
    return new %[1]s(1);
  }

  get size(): number {
    return clamp(this.seen.size);
  }
}
`, c, fg.m.iface)
	fg.g.stats.Members += 6     // constructor, record, weigh, weigh.scale, create, size
	fg.g.stats.MemberCalls += 9 // record 3, weigh 3 (scale's clamp listed in weigh and in scale), create 1, size 1
}

// importModule imports some of t's functions (same package) in one of several styles.
func (fg *fileGen) importModule(t *module) {
	g := fg.g
	allowAlias := fg.m.kind == kindFeature
	if g.chance(0.2) && fg.bind(t.nsLocal) {
		spec := fg.spec(t, allowAlias)
		fg.imports = append(fg.imports, fmt.Sprintf("import * as %s from %q;", t.nsLocal, spec))
		for _, f := range t.fns {
			e := t.nsLocal + "." + f.name
			if f.style == styleDefault {
				e = t.nsLocal + ".default"
			}
			fg.addCall(&callable{expr: e, async: f.async})
		}
		return
	}
	var def string
	var named []string
	if t.hasDefault() && g.chance(0.6) {
		f := t.fns[len(t.fns)-1]
		if fg.bind(f.name) {
			def = f.name
			fg.addCall(&callable{expr: f.name, async: f.async, ident: true})
		}
	}
	n := 1 + g.intn(2)
	for _, f := range t.fns {
		if f.style == styleDefault || len(named) >= n || !g.chance(0.7) {
			continue
		}
		local := f.name
		if g.chance(0.2) {
			local = f.name + "Fn"
		}
		if !fg.bind(local) {
			continue
		}
		if local != f.name {
			named = append(named, f.name+" as "+local)
		} else {
			named = append(named, f.name)
		}
		fg.addCall(&callable{expr: local, async: f.async, ident: true})
	}
	if def == "" && len(named) == 0 {
		return
	}
	spec := fg.spec(t, allowAlias)
	switch {
	case def != "" && len(named) > 0:
		fg.imports = append(fg.imports, fmt.Sprintf("import %s, { %s } from %q;", def, strings.Join(named, ", "), spec))
	case def != "":
		fg.imports = append(fg.imports, fmt.Sprintf("import %s from %q;", def, spec))
	default:
		fg.imports = append(fg.imports, fmt.Sprintf("import { %s } from %q;", strings.Join(named, ", "), spec))
	}
	if g.chance(0.25) && fg.bind(t.iface) {
		fg.imports = append(fg.imports, fmt.Sprintf("import type { %s } from %q;", t.iface, spec))
		fg.types = append(fg.types, t.iface)
	}
}

// importPackage imports from another workspace package: by name, by subpath,
// its util namespace, or through a path alias.
func (fg *fileGen) importPackage(q *pkg) {
	g := fg.g
	pickNamed := func(from []*fn, spec string) {
		var named []string
		n := 1 + g.intn(2)
		for k := 0; k < 4 && len(named) < n && len(from) > 0; k++ {
			f := from[g.intn(len(from))]
			if !fg.bind(f.rootName) {
				continue
			}
			named = append(named, f.rootName)
			fg.addCall(&callable{expr: f.rootName, async: f.async, ident: true})
		}
		if len(named) > 0 {
			fg.imports = append(fg.imports, fmt.Sprintf("import { %s } from %q;", strings.Join(named, ", "), spec))
		}
	}
	switch r := g.rng.Float64(); {
	case r < 0.5:
		pickNamed(q.rootAPI, q.name)
	case r < 0.65:
		ns := fmt.Sprintf("util%d", q.idx)
		if !fg.bind(ns) {
			return
		}
		fg.imports = append(fg.imports, fmt.Sprintf("import { %s } from %q;", ns, q.name))
		for _, m := range q.mods {
			if m.kind != kindUtil {
				continue
			}
			for _, f := range m.fns {
				if g.chance(0.3) {
					fg.addCall(&callable{expr: ns + "." + f.name, async: f.async})
				}
			}
		}
	case r < 0.88:
		feat := g.intn(q.features)
		var from []*fn
		for _, f := range q.rootAPI {
			if f.mod.kind == kindFeature && f.mod.feature == feat {
				from = append(from, f)
			}
		}
		pickNamed(from, fmt.Sprintf("%s/features/f%d", q.name, feat))
	default:
		var t *module
		for k := 0; k < 4 && (t == nil || t.kind == kindUtil); k++ {
			t = q.mods[g.intn(len(q.mods))]
		}
		var named []string
		for _, f := range t.fns {
			if f.style == styleDefault || len(named) == 2 || !fg.bind(f.name) {
				continue
			}
			named = append(named, f.name)
			fg.addCall(&callable{expr: f.name, async: f.async, ident: true})
		}
		if len(named) > 0 {
			fg.imports = append(fg.imports, fmt.Sprintf("import { %s } from %q;", strings.Join(named, ", "), q.alias+"/"+t.srcPath()))
		}
	}
}

func (fg *fileGen) addCall(c *callable) {
	fg.calls = append(fg.calls, c)
	fg.pending = append(fg.pending, c)
}

// fnGen generates one function body.
type fnGen struct {
	fg     *fileGen
	f      *fn
	b      *strings.Builder
	vars   int
	locals map[string]bool // function-scope const names
	calls  int
}

func (fg *fileGen) emitFunction(b *strings.Builder, f *fn) {
	g := fg.g
	sig := "(input: number, ctx: Context): number"
	if f.async {
		sig = "(input: number, ctx: Context): Promise<number>"
	}
	as := ""
	if f.async {
		as = "async "
	}
	closing := "}\n"
	switch f.style {
	case styleDecl:
		fmt.Fprintf(b, "export %sfunction %s%s {\n", as, f.name, sig)
	case styleDefault:
		fmt.Fprintf(b, "export default %sfunction %s%s {\n", as, f.name, sig)
	case styleArrow:
		fmt.Fprintf(b, "export const %s = %s%s => {\n", f.name, as, sig)
		closing = "};\n"
	case styleExpr:
		fmt.Fprintf(b, "export const %s = %sfunction %s {\n", f.name, as, sig)
		closing = "};\n"
	}
	lines := g.cfg.MinBodyLines + g.intn(g.cfg.MaxBodyLines-g.cfg.MinBodyLines+1)
	fb := &fnGen{fg: fg, f: f, b: b, locals: map[string]bool{}}
	fb.body(lines)
	b.WriteString(closing)
	g.stats.Calls += fb.calls
}

func (fb *fnGen) line(format string, args ...any) {
	fb.b.WriteString("  ")
	fmt.Fprintf(fb.b, format, args...)
	fb.b.WriteByte('\n')
}

func (fb *fnGen) newVar(prefix string) string {
	fb.vars++
	return prefix + strconv.Itoa(fb.vars)
}

// pick chooses a callee whose value (a number) can be used here.
func (fb *fnGen) pick() *callable {
	fg, g := fb.fg, fb.fg.g
	usable := func(c *callable) bool { return fb.f.async || !c.async }
	if g.chance(0.6) {
		for i, c := range fg.pending {
			if usable(c) {
				fg.pending = append(fg.pending[:i:i], fg.pending[i+1:]...)
				return c
			}
		}
	}
	for k := 0; k < 6; k++ {
		var c *callable
		if len(fg.calls) > 0 && g.chance(0.8) {
			c = fg.calls[g.intn(len(fg.calls))]
		} else {
			c = fg.locals[g.intn(len(fg.locals))]
		}
		if usable(c) {
			return c
		}
	}
	return fg.locals[0]
}

// call renders a call of c with first argument arg, as a number-valued expression.
func (fb *fnGen) call(c *callable, arg string) string {
	fb.calls++
	var s string
	if c.local {
		s = fmt.Sprintf("clamp(%s)", arg)
	} else {
		s = fmt.Sprintf("%s(%s, ctx)", c.expr, arg)
	}
	if c.async {
		s = "(await " + s + ")"
	}
	return s
}

func (fb *fnGen) body(lines int) {
	fg, g := fb.fg, fb.fg.g
	fb.line("let acc = %s;", fb.call(fg.locals[0], "input + "+strconv.Itoa(1+g.intn(90))))
	left := lines - 2 // the first line and the return
	for left > 0 {
		n := fb.block(left)
		left -= n
	}
	fb.line("return acc;")
}

// block writes a statement group of at most max lines and returns its line count.
func (fb *fnGen) block(maxLines int) int {
	g := fb.fg.g
	for {
		r := g.intn(100)
		if n, ok := fb.plainBlock(r, maxLines); ok {
			return n
		}
		if n, ok := fb.indirectBlock(r, maxLines); ok {
			return n
		}
	}
}

// plainBlock writes the statement group r draws among those in the
// function's own scope (a call, an if, a loop, a variable, a trace, a zod
// parse, a try) when r falls there and the group fits in maxLines.
func (fb *fnGen) plainBlock(r, maxLines int) (int, bool) {
	fg, g := fb.fg, fb.fg.g
	switch {
	case r < 22: // plain call
		fb.line("acc = %s;", fb.call(fb.pick(), "acc"))
		return 1, true
	case r < 32 && maxLines >= 3:
		fb.line("if (acc %% %d === %d) {", 3+g.intn(7), g.intn(3))
		fb.b.WriteString("  ")
		fb.line("acc += %s;", fb.call(fb.pick(), "acc + 1"))
		fb.line("}")
		return 3, true
	case r < 40 && maxLines >= 3:
		fb.line("for (let i = 0; i < %d; i++) {", 2+g.intn(5))
		fb.line("  acc = (acc * 31 + i) %% 65521;")
		fb.line("}")
		return 3, true
	case r < 50 && maxLines >= 2:
		v := fb.newVar("v")
		fb.line("const %s = %s + %s;", v, fb.call(fb.pick(), "acc"), fb.call(fb.pick(), "acc + "+strconv.Itoa(g.intn(9)+1)))
		fb.line("acc ^= %s;", v)
		return 2, true
	case r < 56:
		fb.calls++
		fb.line("ctx.trace.push(`%s:${acc}`);", fb.f.name)
		return 1, true
	case r < 62 && fg.zod && maxLines >= 3:
		s, v := fb.newVar("schema"), fb.newVar("parsed")
		fb.line("const %s = z.object({ id: z.number(), name: z.string() });", s)
		fb.line("const %s = %s.parse({ id: acc, name: ctx.mode ?? \"fast\" });", v, s)
		fb.line("acc += %s.id;", v)
		fb.calls += 4
		return 3, true
	case r < 67 && maxLines >= 5:
		fb.line("try {")
		fb.line("  acc = %s;", fb.call(fb.pick(), "acc"))
		fb.line("} catch (err) {")
		fb.line("  ctx.log?.(String(err));")
		fb.line("}")
		fb.calls += 2
		return 5, true
	}
	return 0, false
}

// indirectBlock writes the statement group r draws among the others (a
// dynamic import, a callback, a shadowed name, a call not awaited, a typed
// value, a log): not ok when none fits and r is to be drawn again.
func (fb *fnGen) indirectBlock(r, maxLines int) (int, bool) {
	fg, g := fb.fg, fb.fg.g
	switch {
	case r < 73 && fb.f.async && len(fg.dynamics) > 0 && maxLines >= 2:
		t := fg.dynamics[g.intn(len(fg.dynamics))]
		f := t.fns[g.intn(len(t.fns))]
		// A name bound at module scope would be in its temporal dead zone
		// before this line; such names are only called through the import.
		if f.style == styleDefault || fb.locals[f.name] || fg.names[f.name] {
			return 0, false
		}
		fb.locals[f.name] = true
		fb.line("const { %s } = await import(%q);", f.name, fg.spec(t, fg.m.kind == kindFeature))
		fb.line("acc += %s;", fb.call(&callable{expr: f.name, async: f.async}, "acc"))
		return 2, true
	case r < 77 && fb.f.async && len(fg.dynamics) > 0:
		t := fg.dynamics[g.intn(len(fg.dynamics))]
		f := t.fns[g.intn(len(t.fns))]
		name := f.name
		if f.style == styleDefault {
			name = "default"
		}
		s := fmt.Sprintf("(await import(%q)).%s(acc, ctx)", fg.spec(t, false), name)
		if f.async {
			s = "(await " + s + ")"
		}
		fb.calls++
		fb.line("acc += %s;", s)
		return 1, true
	case r < 82:
		c := fb.pick()
		if c.async {
			return 0, false
		}
		fb.line("acc += [1, 2, 3].map((n) => %s).reduce((a, b) => a + b, 0);", fb.call(c, "n"))
		fb.calls += 2
		return 1, true
	case r < 85 && maxLines >= 4:
		c := fb.shadowable()
		if c == nil || fb.locals[c.expr] {
			return 0, false
		}
		fb.locals[c.expr] = true
		fb.line("{")
		fb.line("  const %s = (n: number): number => n * %d;", c.expr, 2+g.intn(5))
		fb.line("  acc = %s(acc);", c.expr)
		fb.line("}")
		fb.calls++
		g.stats.Nested++
		return 4, true
	case r < 88 && maxLines >= 2:
		c := fb.shadowable()
		if c == nil {
			return 0, false
		}
		v := fb.newVar("apply")
		fb.line("const %s = (%s: (n: number) => number): number => %s(acc);", v, c.expr, c.expr)
		fb.line("acc = %s((n) => n + %d);", v, 1+g.intn(9))
		fb.calls += 2
		g.stats.Nested++
		return 2, true
	case r < 92 && !fb.f.async:
		var c *callable
		for _, x := range fg.calls {
			if x.async && g.chance(0.5) {
				c = x
				break
			}
		}
		if c == nil {
			return 0, false
		}
		fb.calls++
		fb.line("void %s(acc, ctx);", c.expr)
		return 1, true
	case r < 96 && maxLines >= 2:
		t := fg.types[g.intn(len(fg.types))]
		v := fb.newVar("summary")
		fb.line("const %s: %s = { id: acc, total: input, tags: [\"%s\"] };", v, t, fb.f.name)
		fb.line("acc += %s.total + %s.tags.length;", v, v)
		return 2, true
	case r >= 96:
		fb.calls++
		fb.line("ctx.log?.(`%s ${acc}`);", fb.f.name)
		return 1, true
	}
	return 0, false
}

// shadowable returns an imported plain identifier the function may shadow.
func (fb *fnGen) shadowable() *callable {
	fg, g := fb.fg, fb.fg.g
	var c []*callable
	for _, x := range fg.calls {
		if x.ident {
			c = append(c, x)
		}
	}
	if len(c) == 0 {
		return nil
	}
	return c[g.intn(len(c))]
}

// ---- output ----

// writer creates the files. Contents are produced in a fixed order by the
// generator; the writes themselves (independent of each other) go to a few
// goroutines, which overlap the file system's latency.
type writer struct {
	root  string
	made  map[string]bool // directories created
	err   error
	files int
	lines int

	jobs chan writeJob
	errs chan error
	wg   sync.WaitGroup
}

type writeJob struct {
	path, content string
}

const writers = 4

func (w *writer) start() {
	w.jobs = make(chan writeJob, 64)
	w.errs = make(chan error, writers)
	for i := 0; i < writers; i++ {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			var err error
			for j := range w.jobs {
				if err == nil {
					err = os.WriteFile(j.path, []byte(j.content), 0o644)
				}
			}
			w.errs <- err
		}()
	}
}

// finish waits for the writes and returns the first error.
func (w *writer) finish() error {
	close(w.jobs)
	w.wg.Wait()
	close(w.errs)
	for err := range w.errs {
		if err != nil && w.err == nil {
			w.err = err
		}
	}
	return w.err
}

func (w *writer) mkdir(rel string) {
	d := path.Dir(rel)
	if w.err != nil || w.made[d] {
		return
	}
	if err := os.MkdirAll(filepath.Join(w.root, filepath.FromSlash(d)), 0o755); err != nil {
		w.err = err
		return
	}
	w.made[d] = true
}

func (w *writer) write(rel, content string) {
	w.mkdir(rel)
	if w.err != nil {
		return
	}
	w.jobs <- writeJob{filepath.Join(w.root, filepath.FromSlash(rel)), content}
	if strings.HasSuffix(rel, ".ts") {
		w.files++
		w.lines += strings.Count(content, "\n")
	}
}

func (w *writer) symlink(rel, target string) {
	w.mkdir(rel)
	if w.err != nil {
		return
	}
	p := filepath.Join(w.root, filepath.FromSlash(rel))
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		w.err = err
		return
	}
	if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
		w.err = err
	}
}

func upper(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
