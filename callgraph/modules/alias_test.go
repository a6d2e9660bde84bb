package modules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAliases: vitest's resolved resolve.alias, in each form a config
// writes it (an object's key, an array's string find, a regex with $1,
// a replacement that is a package or a relative path), per project.
func TestAliases(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"src/lib/math.ts", "src/lib/index.ts", "src/util/strings.ts", "src/app.ts",
		"packages/web/src/ui/button.ts", "packages/web/src/main.ts", "packages/core/package.json", "packages/core/src/index.ts"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		body := ""
		if strings.HasSuffix(f, "package.json") {
			body = `{"name":"@acme/core","exports":{".":"./src/index.ts"}}`
		}
		os.WriteFile(p, []byte(body), 0o644)
	}
	os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"name":"r","workspaces":["packages/*"]}`), 0o644)
	r, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	r.SetAliases("vitest.config.ts", []AliasScope{
		{Dir: ".", Aliases: []Alias{
			{Find: "@lib", Replacement: abs("src/lib")},
			{Find: "@/", Replacement: abs("src") + "/"},
			{Regex: `^~\/(.*)$`, Replacement: abs("src") + "/$1"},
			{Regex: `^#util-(\w+)$`, Replacement: abs("src/util") + "/$1"},
			{Find: "core", Replacement: "@acme/core"},
			{Find: "outside", Replacement: "/nonexistent/elsewhere/x"},
			{Regex: `^\/?@vite\/env`, Replacement: "/@fs/opt/vite/dist/client/env.mjs"},
			{Regex: `(?<=x)y`, Replacement: "z"}, // a lookbehind: Go cannot compile it
		}},
		{Dir: "packages/web", Aliases: []Alias{{Find: "@ui", Replacement: "./ui"}}},
		// A second project of the same root: its aliases join the first's.
		{Dir: ".", Aliases: []Alias{{Find: "@lib", Replacement: abs("src/util")}, {Regex: `(?i)^STR$`, Replacement: abs("src/util/strings")}}},
	})
	for _, c := range []resolveCase{
		{"src/app.ts", "@lib", file("src/lib/index.ts")},
		{"src/app.ts", "@lib/math", file("src/lib/math.ts")},
		{"src/app.ts", "@library", ext("@library")}, // a prefix without "/" is not a match
		{"src/app.ts", "@/lib/math", file("src/lib/math.ts")},
		{"src/app.ts", "~/util/strings", file("src/util/strings.ts")},
		{"src/app.ts", "#util-strings", file("src/util/strings.ts")},
		{"src/app.ts", "core", file("packages/core/src/index.ts")},
		{"src/app.ts", "outside", ext("outside")},
		{"src/app.ts", "@vite/env", ext("@vite/env")},
		{"src/app.ts", "@lib/missing", unres(`resolve.alias replaces "@lib/missing" by`)},
		{"packages/web/src/main.ts", "@ui/button", file("packages/web/src/ui/button.ts")},
		{"src/app.ts", "@ui/button", ext("@ui/button")}, // the web project's alias only
		{"src/app.ts", "./lib/math", file("src/lib/math.ts")},
		{"src/app.ts", "str", file("src/util/strings.ts")},                 // the second project's, a case-blind regex
		{"packages/web/src/main.ts", "@lib/math", file("src/lib/math.ts")}, // the web project has none: the root's
	} {
		got := r.Resolve(c.importer, c.spec)
		if c.want.Kind == KindUnresolved {
			if got.Kind != KindUnresolved || !strings.Contains(got.Reason, c.want.Reason) {
				t.Errorf("%s imports %q: got %+v, want unresolved with %q", c.importer, c.spec, got, c.want.Reason)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s imports %q: got %+v, want %+v", c.importer, c.spec, got, c.want)
		}
	}
	if d := r.Diagnostics(); len(d) != 1 || d[0].File != "vitest.config.ts" || !strings.Contains(d[0].Message, "(?<=x)y") {
		t.Errorf("diagnostics: %v, want the lookbehind named", d)
	}
}

func TestJSReplacement(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"/src/$1": "/src/${1}", "$&.ts": "${0}.ts", "$$x": "$$x", "a$12b": "a${12}b", "plain": "plain", "end$": "end$"} {
		if got := jsReplacement(in); got != want {
			t.Errorf("jsReplacement(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSymlinkedSourceDir: a file reached through a link to a directory of
// the repository is named by its real path (vite's module id, the path a
// change names); a link out of the repository keeps its own path.
func TestSymlinkedSourceDir(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	elsewhere := t.TempDir()
	for _, f := range []string{"shared/money.ts", "src/app.ts"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	os.WriteFile(filepath.Join(elsewhere, "ext.ts"), nil, 0o644)
	if err := os.Symlink("../shared", filepath.Join(root, "src", "shared")); err != nil {
		t.Fatal(err)
	}
	os.Symlink(elsewhere, filepath.Join(root, "src", "vendor"))
	r, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]Result{
		"./shared/money":  file("shared/money.ts"),
		"../shared/money": file("shared/money.ts"),
		"./vendor/ext":    file("src/vendor/ext.ts"),
	} {
		if got := r.Resolve("src/app.ts", spec); got != want {
			t.Errorf("src/app.ts imports %q: got %+v, want %+v", spec, got, want)
		}
	}
}
