package modules

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

type benchImport struct{ importer, spec string }

// benchTree writes a workspace of pkgs packages of files modules each (pnpm
// workspace, exports with conditions and patterns, a tsconfig with paths per
// package) and returns the imports its files make.
func benchTree(b *testing.B, pkgs, files int) (string, []benchImport) {
	root := b.TempDir()
	write := func(rel, content string) {
		full := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n")
	write("tsconfig.base.json", `{ "compilerOptions": { "strict": true, "paths": { "@/*": ["${configDir}/src/*"] } } }`)
	var imps []benchImport
	for p := 0; p < pkgs; p++ {
		dir := fmt.Sprintf("packages/p%d", p)
		write(dir+"/package.json", fmt.Sprintf(`{"name": "@bench/p%d", "exports": {".": {"source": "./src/index.ts", "types": "./dist/index.d.ts"}, "./*": {"source": "./src/*.ts", "default": "./dist/*.js"}}}`, p))
		write(dir+"/tsconfig.json", `{ "extends": "../../tsconfig.base.json", "compilerOptions": { "customConditions": ["source"] } }`)
		write(dir+"/src/index.ts", "export {}\n")
		for f := 0; f < files; f++ {
			imp := fmt.Sprintf("%s/src/m%d.ts", dir, f)
			write(imp, "export {}\n")
			imps = append(imps,
				benchImport{imp, fmt.Sprintf("./m%d.js", (f+1)%files)},
				benchImport{imp, fmt.Sprintf("@/m%d", (f+2)%files)},
				benchImport{imp, fmt.Sprintf("@bench/p%d", (p+1)%pkgs)},
				benchImport{imp, fmt.Sprintf("@bench/p%d/m%d", (p+2)%pkgs, f)},
				benchImport{imp, "zod"},
				benchImport{imp, "./missing"},
			)
		}
	}
	return root, imps
}

func BenchmarkResolve(b *testing.B) {
	root, imps := benchTree(b, 40, 25)
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			r, err := New(root)
			if err != nil {
				b.Fatal(err)
			}
			for _, im := range imps {
				r.Resolve(im.importer, im.spec)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(imps)), "ns/import")
	})
	b.Run("warm", func(b *testing.B) {
		r, err := New(root)
		if err != nil {
			b.Fatal(err)
		}
		for _, im := range imps {
			if res := r.Resolve(im.importer, im.spec); res.Kind == KindUnresolved && im.spec != "./missing" {
				b.Fatalf("%v: %+v", im, res)
			}
		}
		b.ResetTimer()
		for b.Loop() {
			for _, im := range imps {
				r.Resolve(im.importer, im.spec)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(imps)), "ns/import")
	})
}
