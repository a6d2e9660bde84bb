package modules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// viteRepo writes files (empty) under a new repository and returns its
// resolver with the aliases of scopes.
func viteRepo(t *testing.T, files []string, scopes func(abs func(string) string) []AliasScope) *Resolver {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	r, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	if scopes != nil {
		r.SetAliases("vite.config.ts", scopes(func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }))
	}
	return r
}

// TestRootRelativeAlias: an alias whose replacement is written from the
// vite root ("@": "/src", the object form or { find, replacement }) is the
// project's src, as vite resolves it: tried under the root first.
func TestRootRelativeAlias(t *testing.T) {
	t.Parallel()
	r := viteRepo(t, []string{"src/lib/math.ts", "src/app.ts", "web/src/ui/button.ts", "web/src/main.ts"}, func(abs func(string) string) []AliasScope {
		return []AliasScope{
			{Dir: ".", Aliases: []Alias{{Find: "@", Replacement: "/src"}, {Regex: `^~/(.*)$`, Replacement: "/src/$1"}, {Find: "gone", Replacement: "/nonexistent/x"}}},
			{Dir: "web", Aliases: []Alias{{Find: "@ui", Replacement: "/src/ui"}}},
		}
	})
	for _, c := range []resolveCase{
		{"src/app.ts", "@/lib/math", file("src/lib/math.ts")},
		{"src/app.ts", "~/lib/math", file("src/lib/math.ts")},
		{"src/app.ts", "gone", ext("gone")}, // nothing under the root: still outside
		{"web/src/main.ts", "@ui/button", file("web/src/ui/button.ts")},
	} {
		if got := r.Resolve(c.importer, c.spec); got != c.want {
			t.Errorf("%s imports %q: got %+v, want %+v", c.importer, c.spec, got, c.want)
		}
	}
}

// TestViteGlob: import.meta.glob's patterns expanded as vite does.
func TestViteGlob(t *testing.T) {
	t.Parallel()
	files := []string{
		"src/main.ts", "src/pages/home.ts", "src/pages/about.tsx", "src/pages/.hidden.ts", "src/pages/skip.ts",
		"src/pages/admin/users.ts", "src/pages/admin/roles.ts", "src/pages/.cache/x.ts",
		"src/pages/node_modules/dep/index.ts", "src/pages/readme.md", "src/widgets/a1.ts", "src/widgets/b2.ts",
		"web/src/modules/m.ts", "web/src/entry.ts", "outside.ts",
	}
	r := viteRepo(t, files, func(abs func(string) string) []AliasScope {
		return []AliasScope{
			{Dir: ".", Aliases: []Alias{{Find: "@", Replacement: abs("src")}, {Find: "~", Replacement: "/src"}}},
			{Dir: "web", Aliases: []Alias{{Find: "@w", Replacement: "/src"}}},
		}
	})
	for _, c := range []struct {
		importer string
		patterns []string
		want     string
	}{
		{"src/main.ts", []string{"./pages/*.ts"}, "src/pages/home.ts src/pages/skip.ts"},
		{"src/main.ts", []string{"./pages/**/*.ts"}, "src/pages/admin/roles.ts src/pages/admin/users.ts src/pages/home.ts src/pages/skip.ts"},
		{"src/main.ts", []string{"./pages/*.{ts,tsx}", "!./pages/skip.ts"}, "src/pages/about.tsx src/pages/home.ts"},
		{"src/main.ts", []string{"./pages/**", "!**/admin/**"}, "src/pages/about.tsx src/pages/home.ts src/pages/readme.md src/pages/skip.ts"},
		{"src/main.ts", []string{"./pages/.*.ts"}, "src/pages/.hidden.ts"},
		{"src/main.ts", []string{"/src/widgets/[ab]?.ts"}, "src/widgets/a1.ts src/widgets/b2.ts"},
		{"src/main.ts", []string{"./widgets/@(a1|zz).ts"}, "src/widgets/a1.ts"},
		{"src/main.ts", []string{"@/pages/admin/*.ts"}, "src/pages/admin/roles.ts src/pages/admin/users.ts"},
		{"src/main.ts", []string{"~/pages/admin/u*.ts"}, "src/pages/admin/users.ts"},
		{"src/pages/home.ts", []string{"./*.ts"}, "src/pages/skip.ts"}, // never the importer
		{"src/main.ts", []string{"../*.ts"}, "outside.ts"},
		{"src/main.ts", []string{"pages/*.ts"}, ""}, // vite refuses a bare pattern
		{"src/main.ts", []string{"../../*.ts"}, ""}, // outside the repository
		{"web/src/entry.ts", []string{"/src/modules/*.ts"}, "web/src/modules/m.ts"},
		{"web/src/entry.ts", []string{"@w/modules/*.ts"}, "web/src/modules/m.ts"},
		{"src/main.ts", []string{"**/m.ts"}, "web/src/modules/m.ts"},
	} {
		got := strings.Join(r.ViteGlob(c.importer, c.patterns), " ")
		if got != c.want {
			t.Errorf("%s globs %q: got %q, want %q", c.importer, c.patterns, got, c.want)
		}
	}
}
