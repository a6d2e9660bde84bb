//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchRepo writes a monorepo of 12 packages holding 1,200 TypeScript files
// of 80 lines (96k lines), a .git and dist outputs, and a node_modules of 500
// packages (450 plain, 50 under @scope, each with files of its own that must
// not be copied) plus one workspace link per package.
func benchRepo(b *testing.B) string {
	b.Helper()
	repo := filepath.Join(b.TempDir(), "mono")
	write := func(rel, content string) {
		p := filepath.Join(repo, rel)
		must(b, os.MkdirAll(filepath.Dir(p), 0o755))
		must(b, os.WriteFile(p, []byte(content), 0o644))
	}
	var src strings.Builder
	for i := range 80 {
		fmt.Fprintf(&src, "export function f%d(x: number): number { return x * %d + 1; }\n", i, i)
	}
	write("package.json", `{"name":"mono","workspaces":["packages/*"]}`)
	for p := range 12 {
		pkg := fmt.Sprintf("packages/p%02d", p)
		write(pkg+"/package.json", fmt.Sprintf(`{"name":"@mono/p%02d"}`, p))
		for i := range 100 {
			write(fmt.Sprintf("%s/src/m%02d/file%03d.ts", pkg, i/10, i), src.String())
		}
		write(pkg+"/dist/index.js", strings.Repeat("x", 10000))
		must(b, os.MkdirAll(filepath.Join(repo, "node_modules/@mono"), 0o755))
		must(b, os.Symlink("../../"+pkg, filepath.Join(repo, fmt.Sprintf("node_modules/@mono/p%02d", p))))
	}
	for i := range 200 {
		write(fmt.Sprintf(".git/objects/%02x/%038x", i%256, i), strings.Repeat("g", 2000))
	}
	for i := range 500 {
		name := fmt.Sprintf("dep%03d", i)
		if i < 50 {
			name = fmt.Sprintf("@scope/dep%03d", i)
		}
		write("node_modules/"+name+"/package.json", fmt.Sprintf(`{"name":%q}`, name))
		for j := range 20 {
			write(fmt.Sprintf("node_modules/%s/lib/f%02d.js", name, j), strings.Repeat("n", 4000))
		}
	}
	return repo
}

// BenchmarkNew measures New (the copy and the links) on benchRepo; Close is
// not timed.
func BenchmarkNew(b *testing.B) {
	repo := benchRepo(b)
	tmp := b.TempDir()
	b.ResetTimer()
	for b.Loop() {
		s, err := New(repo, Options{TempDir: tmp})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkClose measures removing the sandbox of benchRepo.
func BenchmarkClose(b *testing.B) {
	repo := benchRepo(b)
	tmp := b.TempDir()
	for b.Loop() {
		b.StopTimer()
		s, err := New(repo, Options{TempDir: tmp})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
