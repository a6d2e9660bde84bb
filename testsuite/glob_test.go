package testsuite

import (
	"fmt"
	"testing"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/callgraph/modules"
)

// TestGlobCandidates: a module loaded only through vite's import.meta.glob
// (of a production module the test loads, or of the test itself; eager or
// lazy, `import` of one export, negative patterns, the old globEager, a
// pattern from the vite root or an alias) has the test as a candidate;
// a test whose glob matches nothing of it is not one; a root-relative
// alias ("@": "/src") resolves to the repository's src.
func TestGlobCandidates(t *testing.T) {
	lib := map[string]string{
		"src/plugins/a.ts":    "export function a() { return 1; }\n",
		"src/plugins/b.ts":    "export function b() { return 2; }\n",
		"src/plugins/skip.ts": "export function skip() { return 3; }\n",
		"src/aliased.ts":      "export function aliased() { return 4; }\n",
	}
	for _, tc := range []struct {
		name, registry, test string
		want                 string // candidates of src/plugins/a.ts, src/plugins/skip.ts and src/aliased.ts
	}{
		{"lazy glob in production", "export const ps = import.meta.glob('./plugins/*.ts');\n", "import { ps } from '../src/registry';\n", "[test/a.test.ts] [test/a.test.ts] []"},
		{"eager, import, negative", "export const ps = import.meta.glob(['./plugins/*.ts', '!./plugins/skip.ts'], { eager: true, import: 'a' });\n", "import { ps } from '../src/registry';\n", "[test/a.test.ts] [] []"},
		{"globEager from the vite root", "export const ps = import.meta.globEager('/src/plugins/*.ts');\n", "import { ps } from '../src/registry';\n", "[test/a.test.ts] [test/a.test.ts] []"},
		{"a glob through an alias written from the root", "export const ps = import.meta.glob('@/plugins/a.ts');\n", "import { ps } from '../src/registry';\n", "[test/a.test.ts] [] []"},
		{"the test's own glob", "", "const ms = import.meta.glob('../src/plugins/s*.ts');\n", "[] [test/a.test.ts] []"},
		{"an import through a root-relative alias", "", "import { aliased } from '@/aliased';\n", "[] [] [test/a.test.ts]"},
		{"not loaded", "export const ps = import.meta.glob('./plugins/*.ts');\n", "import { a } from '../src/other';\n", "[] [] []"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"test/a.test.ts": "import { it } from 'vitest';\n" + tc.test, "src/registry.ts": tc.registry, "src/other.ts": "export const a = 1;\n"}
			for k, v := range lib {
				files[k] = v
			}
			p, err := callgraph.NewProgram(writeTree(t, files))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(p.Close)
			vc := &Config{Root: ".", Projects: []Project{{Root: ".", Alias: []modules.Alias{{Find: "@", Replacement: "/src"}}}}}
			s, err := New(p, Options{Tests: []string{"test/a.test.ts"}, Vitest: vc})
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(s.Candidates("src/plugins/a.ts"), " ", s.Candidates("src/plugins/skip.ts"), " ", s.Candidates("src/aliased.ts"))
			if got != tc.want {
				t.Errorf("candidates %s, want %s", got, tc.want)
			}
		})
	}
}
