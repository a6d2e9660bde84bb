// Command audit measures `audit --static` in process on the default
// synthetic monorepo (bench/synth) with the test files BenchmarkAuditSynthetic
// writes (one per fourth feature module: it imports the module's namespace
// and vi.mocks the next one): the CPU time (user+sys) and wall time of each
// audit.Audit call, a new Program each time, and min/median/max. CPU time is
// what to compare on a machine other work shares.
//
//	go run ./bench/audit [-runs N] [-keep DIR] [-json FILE]
//
// -json writes the findings of the last run (to compare two versions byte
// for byte).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/audit"
	"github.com/oracle-ts/oracle/bench/synth"
)

func main() {
	runs := flag.Int("runs", 5, "audits to run")
	keep := flag.String("keep", "", "generate the repository into `DIR` and keep it (reused when it is there)")
	out := flag.String("json", "", "write the last run's findings to `FILE`")
	flag.Parse()
	if err := run(*runs, *keep, *out); err != nil {
		fmt.Fprintln(os.Stderr, "bench/audit:", err)
		os.Exit(1)
	}
}

func run(runs int, keep, out string) error {
	root := keep
	if root == "" {
		dir, err := os.MkdirTemp("", "oracle-bench-audit-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		root = dir
	}
	if _, err := os.Stat(filepath.Join(root, "packages")); err != nil {
		if _, err := synth.Generate(root, synth.Default()); err != nil {
			return err
		}
	}
	tests, err := writeTests(root)
	if err != nil {
		return err
	}
	var cpus, walls []float64
	for i := range runs {
		c0, w0 := cpu(), time.Now()
		rep, err := audit.Audit(context.Background(), root, audit.Options{Tests: tests})
		if err != nil {
			return err
		}
		c, w := (cpu() - c0).Seconds(), time.Since(w0).Seconds()
		cpus, walls = append(cpus, c), append(walls, w)
		fmt.Printf("run %d: cpu %.2f s, wall %.2f s, %d findings\n", i+1, c, w, len(rep.Findings))
		if out != "" && i == runs-1 {
			b, err := json.MarshalIndent(rep.Findings, "", " ")
			if err != nil {
				return err
			}
			if err := os.WriteFile(out, b, 0o644); err != nil {
				return err
			}
		}
	}
	if runs > 0 {
		fmt.Printf("cpu min/median/max %s s, wall %s s (%d test files)\n", spread(cpus), spread(walls), len(tests))
	}
	return nil
}

// writeTests writes the test files of audit's BenchmarkAuditSynthetic.
func writeTests(root string) ([]string, error) {
	var mods []string
	err := filepath.WalkDir(filepath.Join(root, "packages"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(p, "/features/") && strings.HasSuffix(p, ".ts") && !strings.HasSuffix(p, "index.ts") {
			rel, _ := filepath.Rel(root, p)
			mods = append(mods, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(mods)
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
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return nil, err
		}
		tests = append(tests, t)
	}
	return tests, nil
}

func spread(xs []float64) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return fmt.Sprintf("%.2f/%.2f/%.2f", s[0], med, s[len(s)-1])
}
