package modules

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestExpandBraces(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"packages/*", []string{"packages/*"}},
		{"packages/{a,b}", []string{"packages/a", "packages/b"}},
		{"{apps,packages}/*", []string{"apps/*", "packages/*"}},
		{"x/{a,{b,c}}/y", []string{"x/a/y", "x/b/y", "x/c/y"}},
		{"{a,b}/{c,d}", []string{"a/c", "a/d", "b/c", "b/d"}},
		{"lit/{a}", []string{"lit/{a}"}},
		{"lit/{a}/{b,c}", []string{"lit/{a}/b", "lit/{a}/c"}},
		{"open/{a,b", []string{"open/{a,b"}},
	} {
		if got := expandBraces(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("expandBraces(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestWorkspaceGlobs: braces, "**" and "!" negations in workspace patterns
// match what npm and pnpm match.
func TestWorkspaceGlobs(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name":"root","workspaces":["packages/{a,b}","libs/**","!libs/internal/**"]}`)
	for _, d := range []string{"packages/a", "packages/b", "packages/c", "libs/x", "libs/nested/y", "libs/internal/z"} {
		write(d+"/package.json", `{"name":"`+filepath.Base(d)+`","main":"index.ts"}`)
		write(d+"/index.ts", "export const v = 1;\n")
	}
	r, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]Kind{"a": KindFile, "b": KindFile, "x": KindFile, "y": KindFile, "c": KindExternal, "z": KindExternal} {
		if got := r.Resolve("index.ts", name); got.Kind != want {
			t.Errorf("%s: %+v, want %s", name, got, want)
		}
	}
}
