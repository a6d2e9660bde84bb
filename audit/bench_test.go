package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/bench/synth"
)

// syntheticSuite generates the 100k-line synthetic monorepo and writes one
// test file per feature module of every package: it imports the module,
// calls its functions, and mocks one module it loads (vi.mock), the way a
// route suite stubs a layer.
func syntheticSuite(b testing.TB) (string, []string) {
	root := b.TempDir()
	if _, err := synth.Generate(root, synth.Default()); err != nil {
		b.Fatal(err)
	}
	var mods []string
	filepath.WalkDir(filepath.Join(root, "packages"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(p, "/features/") && strings.HasSuffix(p, ".ts") && !strings.HasSuffix(p, "index.ts") {
			rel, _ := filepath.Rel(root, p)
			mods = append(mods, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(mods)
	var tests []string
	for i, m := range mods {
		if i%4 != 0 {
			continue
		}
		other := mods[(i+1)%len(mods)]
		t := fmt.Sprintf("tests/t%03d.test.ts", i)
		body := fmt.Sprintf("import { it, expect, vi } from \"vitest\";\nimport * as m from \"../%s\";\nvi.mock(\"../%s\", () => ({ stub: vi.fn().mockReturnValue({ ok: true }) }));\nit(\"runs\", () => {\n  expect(Object.keys(m).length).toBeGreaterThan(0);\n});\n",
			strings.TrimSuffix(m, ".ts"), strings.TrimSuffix(other, ".ts"))
		p := filepath.Join(root, t)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
		tests = append(tests, t)
	}
	return root, tests
}

// BenchmarkAuditSynthetic: audit of the 100k-line synthetic monorepo with
// a test file (importing a module, mocking another) per fourth feature
// module: every rule (go test -bench AuditSynthetic ./audit).
func BenchmarkAuditSynthetic(b *testing.B) {
	root, tests := syntheticSuite(b)
	b.ResetTimer()
	for range b.N {
		rep, err := Audit(context.Background(), root, Options{Tests: tests})
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Findings) == 0 {
			b.Fatal("no finding")
		}
	}
}
