package modules

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

func fixture(t testing.TB, name string) *Resolver {
	t.Helper()
	r, err := New(filepath.Join("..", "..", "testdata", "resolve", name))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func file(p string) Result    { return Result{Kind: KindFile, Path: p} }
func ext(name string) Result  { return Result{Kind: KindExternal, Package: name} }
func unres(why string) Result { return Result{Kind: KindUnresolved, Reason: why} }

type resolveCase struct {
	importer, spec string
	want           Result // for KindUnresolved, Reason is a substring of the reason
}

var resolveCases = map[string][]resolveCase{
	"relative": {
		{"src/a.ts", "./b", file("src/b.ts")},
		{"src/a.ts", "./b.ts", file("src/b.ts")},
		{"src/a.ts", "../src/b", file("src/b.ts")},
		{"src/a.ts", "./x", file("src/x.tsx")},
		{"src/a.ts", "./decl", file("src/decl.d.ts")},
		{"src/a.ts", "./dir", file("src/dir/index.ts")},
		{"src/a.ts", "./dir/", file("src/dir/index.ts")},
		{"src/a.ts", "./dir/index", file("src/dir/index.ts")},
		{"src/a.ts", "./tsxdir", file("src/tsxdir/index.tsx")},
		{"src/a.ts", "./both", file("src/both.ts")},
		{"src/a.ts", "./both/", file("src/both/index.ts")},
		{"src/a.ts", "./pkgdir", file("src/pkgdir/lib/main.d.ts")},
		{"src/a.ts", "./onlyjs", file("src/onlyjs.js")},
		// ".." is a directory (src/), which has no index file.
		{"src/dir/index.ts", "..", unres(`no file for ".." (tried src/index.ts`)},
	},
	"jsext": {
		{"src/a.ts", "./x.js", file("src/x.ts")},
		{"src/a.ts", "./c.js", file("src/c.tsx")},
		{"src/a.ts", "./c.jsx", file("src/c.tsx")},
		{"src/a.ts", "./plain.js", file("src/plain.js")},
		{"src/a.ts", "./plain", file("src/plain.js")},
	},
	"mts": {
		{"src/a.mts", "./b.mjs", file("src/b.mts")},
		{"src/a.mts", "./b.mts", file("src/b.mts")},
		{"src/a.mts", "./c.cjs", file("src/c.cts")},
		{"src/a.mts", "./c.cts", file("src/c.cts")},
		{"src/a.mts", "./c", unres(`no file for "./c"`)},
	},
	"jsonc": {
		{"src/a.ts", "@lib/util", file("lib/util.ts")},
	},
	"extends-relative": {
		{"src/a.ts", "@shared/x", file("shared/x.ts")},
	},
	"extends-package": {
		{"app/src/a.ts", "~/b", file("app/src/b.ts")},
		{"tool/src/a.ts", "~/c", file("tool/lib/c.ts")},
		{"srv/src/a.ts", "~/d", file("srv/node/d.ts")},
	},
	"extends-array": {
		{"src/i.ts", "@x/m", file("from-b/m.ts")},
		// paths is one option: b.json's replaces a.json's whole map.
		{"src/i.ts", "@a", ext("@a")},
	},
	"configdir": {
		{"app/src/a.ts", "@/util", file("app/src/util.ts")},
	},
	"baseurl": {
		{"src/a.ts", "lib/math", file("src/lib/math.ts")},
		{"src/a.ts", "zod", ext("zod")},
	},
	"paths-fallback": {
		{"src/a.ts", "@app/x", file("present/x.ts")},
		{"src/a.ts", "@app/y", file("third/y.ts")},
		{"src/a.ts", "@app/z", unres(`tsconfig paths pattern "@app/*" of tsconfig.json matched but no substitution exists (tried missing/z.ts`)},
	},
	"paths-longest": {
		{"src/a.ts", "@/components/button", file("ui/components/button.ts")},
		{"src/a.ts", "@/util", file("src/util.ts")},
		{"src/a.ts", "@/exact", file("special/exact.ts")},
	},
	"nearest-tsconfig": {
		{"packages/a/src/x.ts", "@/util", file("packages/a/src/util.ts")},
		{"packages/a/src/deep/y.ts", "@/util", file("packages/a/src/util.ts")},
		{"packages/b/src/x.ts", "@/util", file("packages/b/src/util.ts")},
		{"tools/t.ts", "@/util", file("root-src/util.ts")},
	},
	"references": {
		{"src/main.ts", "@/util", file("src/util.ts")},
		{"scripts/build.ts", "@/util", file("scripts/util.ts")},
		{"vite.config.ts", "@/util", file("scripts/util.ts")},
		{"lib/a.ts", "@/util", file("lib/util.ts")},
	},
	"workspaces-array": {
		{"apps/web/src/a.ts", "@acme/ui", file("packages/ui/src/index.ts")},
		{"apps/web/src/a.ts", "deep-tool", file("tools/gen/deep/index.ts")},
		{"apps/web/src/a.ts", "ignored", ext("ignored")},
	},
	"workspaces-object": {
		{"src/a.ts", "core", file("libs/core/index.ts")},
		{"src/a.ts", "core/util", file("libs/core/util/index.ts")},
	},
	"pnpm": {
		{"apps/web/src/a.ts", "@p/a", file("packages/a/src/index.ts")},
		{"apps/web/src/a.ts", "fixture-pkg", ext("fixture-pkg")},
		{"packages/a/src/index.ts", "web", unres(`workspace package "web" (apps/web/package.json) has no entry point`)},
	},
	"exports": {
		{"app/a.ts", "@acme/ui", file("packages/ui/dist/index.d.ts")},
		{"app/a.ts", "@acme/ui/button", file("packages/ui/src/button.ts")},
		{"app/a.ts", "@acme/ui/features/a", file("packages/ui/src/features/a.ts")},
		{"app/a.ts", "@acme/ui/features/special/b", file("packages/ui/src/special/b.ts")},
		{"app/a.ts", "@acme/ui/features/internal/c", unres(`blocks subpath "./features/internal/c"`)},
		{"app/a.ts", "@acme/ui/arr", file("packages/ui/src/arr.ts")},
		{"app/a.ts", "@acme/ui/js", file("packages/ui/src/js-named.ts")},
		{"app/a.ts", "@acme/ui/escape", unres(`invalid target "./../../outside.ts"`)},
		{"app/a.ts", "@acme/ui/missing", unres(`workspace package "@acme/ui" (packages/ui/package.json) exports no subpath "./missing"`)},
		{"app/a.ts", "@acme/ui/package.json", file("packages/ui/package.json")},
		{"app/a.ts", "@acme/order", file("packages/order/src/default.ts")},
		{"app/a.ts", "@acme/order/t", file("packages/order/src/import.ts")},
		{"app/a.ts", "@acme/order/r", file("packages/order/src/types.ts")},
	},
	"custom-conditions": {
		{"apps/app/src/a.ts", "@acme/lib", file("packages/lib/src/index.ts")},
		{"apps/app/src/a.ts", "@acme/lib/util", file("packages/lib/src/util.ts")},
		{"apps/other/src/a.ts", "@acme/lib", file("packages/lib/dist/index.d.ts")},
		{"apps/other/src/a.ts", "@acme/lib/util", file("packages/lib/dist/util.d.ts")},
	},
	"fallback-main": {
		{"src/a.ts", "@acme/typed", file("packages/typed/lib/typed.d.ts")},
		{"src/a.ts", "plain", file("packages/plain/lib/main.ts")},
		{"src/a.ts", "plain/lib/extra", file("packages/plain/lib/extra.ts")},
		{"src/a.ts", "bare", file("packages/bare/index.ts")},
	},
	"imports": {
		{"src/a.ts", "#internal/x", file("src/internal/x.ts")},
		{"src/a.ts", "#config", file("src/config.d.ts")},
		{"src/a.ts", "#dep", ext("zod")},
		{"src/a.ts", "#blocked", unres(`"imports" entry "#blocked" of package.json is null`)},
		{"src/a.ts", "#nope", unres(`no "imports" entry of package.json matches "#nope"`)},
	},
	"external": {
		{"src/a.ts", "zod", ext("zod")},
		{"src/a.ts", "zod/v4", ext("zod")},
		{"src/a.ts", "@types/node", ext("@types/node")},
		{"src/a.ts", "@types/x/sub/path", ext("@types/x")},
		{"src/a.ts", "node:fs", ext("node:fs")},
		{"src/a.ts", "fs", ext("fs")},
		{"src/a.ts", "../node_modules/zod", ext("zod")},
	},
	"leave-root": {
		{"src/a.ts", "../../x", unres(`"../../x" from "src" leaves the repository root`)},
		{"src/a.ts", "../x", unres(`no file for "../x"`)},
	},
	"unresolvable": {
		{"src/a.ts", "./missing", Result{Kind: KindUnresolved, Reason: `no file for "./missing" (tried src/missing.ts, src/missing.tsx, src/missing.d.ts, src/missing/index.ts, src/missing.js, src/missing.jsx)`}},
		{"src/a.ts", "@app/nothing", unres(`tsconfig paths pattern "@app/*" of tsconfig.json matched but no substitution exists (tried app/nothing.ts, app/nothing.tsx, app/nothing.d.ts, app/nothing/index.ts, lib/nothing.ts`)},
		// A catch-all "*" pattern that finds nothing falls through to packages.
		{"src/a.ts", "zod", ext("zod")},
		{"src/a.ts", "", unres("empty specifier")},
	},
	"extends-cycle": {
		{"src/i.ts", "@/util", file("src/util.ts")},
	},
	"bad-config": {
		{"x/src/a.ts", "@/b", ext("@/b")},
		{"y/src/a.ts", "./a", file("y/src/a.ts")},
	},
}

func caseNames() []string {
	var names []string
	for n := range resolveCases {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func check(t *testing.T, name string, r *Resolver, c resolveCase) {
	t.Helper()
	got := r.Resolve(c.importer, c.spec)
	ok := got == c.want
	if c.want.Kind == KindUnresolved {
		ok = got.Kind == KindUnresolved && strings.Contains(got.Reason, c.want.Reason)
	}
	if !ok {
		t.Errorf("%s: Resolve(%q, %q)\n got  %+v\n want %+v", name, c.importer, c.spec, got, c.want)
	}
}

func TestResolve(t *testing.T) {
	for _, name := range caseNames() {
		cases := resolveCases[name]
		t.Run(name, func(t *testing.T) {
			r := fixture(t, name)
			for _, c := range cases {
				check(t, name, r, c)
			}
			// Cached answers are the same.
			for _, c := range cases {
				check(t, name, r, c)
			}
			if name != "extends-cycle" && name != "bad-config" {
				if d := r.Diagnostics(); len(d) > 0 {
					t.Errorf("unexpected diagnostics: %v", d)
				}
			}
		})
	}
}

func TestResolveConcurrent(t *testing.T) {
	for name, cases := range resolveCases {
		r := fixture(t, name)
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := range cases {
					check(t, name, r, cases[(i+g)%len(cases)])
				}
			}(g)
		}
		wg.Wait()
	}
}

func TestDiagnostics(t *testing.T) {
	r := fixture(t, "extends-cycle")
	r.Resolve("src/i.ts", "@/util")
	want := []Diagnostic{{File: "a.json", Line: 2, Message: "extends cycle: tsconfig.json -> a.json -> tsconfig.json"}}
	if got := r.Diagnostics(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("extends-cycle diagnostics:\n got  %v\n want %v", got, want)
	}

	r = fixture(t, "bad-config")
	for _, f := range []string{"x/src/a.ts", "y/src/a.ts", "z/src/a.ts", "w/src/a.ts"} {
		r.Resolve(f, "@/b")
	}
	want = []Diagnostic{
		{File: "w/tsconfig.json", Line: 3, Message: "referenced project w/gone/tsconfig.json not found"},
		{File: "x/tsconfig.json", Line: 4, Message: `invalid JSONC: expected "," or "}" in object, found "\""`},
		{File: "y/tsconfig.json", Line: 2, Message: `extends "./nope" not found (tried y/nope, y/nope.json)`},
		{File: "z/tsconfig.json", Line: 1, Message: `extends "@acme/missing-config": package not found in a node_modules directory of the repository`},
	}
	if got := r.Diagnostics(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("bad-config diagnostics:\n got  %v\n want %v", got, want)
	}
}

func TestImporterOutsideRoot(t *testing.T) {
	r := fixture(t, "relative")
	if got := r.Resolve("../x.ts", "./b"); got.Kind != KindUnresolved {
		t.Errorf("importer outside the root: got %+v", got)
	}
	abs, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "resolve", "relative", "src", "a.ts"))
	if got := r.Resolve(abs, "./b"); got != file("src/b.ts") {
		t.Errorf("absolute importer: got %+v", got)
	}
}
