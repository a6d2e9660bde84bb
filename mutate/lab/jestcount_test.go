package lab

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/internal/testenv"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
)

// TestCountedOnJestReal: on jest (every mutant runs alone there), a loop made endless is
// stopped by the hit counter (the test running is the one the runner's jest environment
// names), confirmed against the original's hits: a timeout of the counter, under a time
// limit of ten minutes that no clock reaches first. The same under ts-jest, under
// @swc/jest (the counter survives swc's transform) and in a jsdom environment (the counter
// and the markers read the jsdom global, where jest puts a process of its own).
func TestCountedOnJestReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	env := testenv.NeedJest(t)
	for _, c := range [][2]string{
		{"ts-jest", `{"name":"jestcount","private":true,"jest":{"preset":"ts-jest","testEnvironment":"node"}}`},
		{"swc", `{"name":"jestcount","private":true,"jest":{"testEnvironment":"node","transform":{"^.+\\.(t|j)sx?$":"@swc/jest"}}}`},
		{"jsdom", `{"name":"jestcount","private":true,"jest":{"preset":"ts-jest","testEnvironment":"jsdom"}}`},
	} {
		t.Run(c[0], func(t *testing.T) {
			t.Parallel()
			countedOnJest(t, env, c[1])
		})
	}
}

// countedOnJest is TestCountedOnJestReal on a repository whose package.json is pkg.
func countedOnJest(t *testing.T, env, pkg string) {
	repo := t.TempDir()
	const src = "export function steps(n: number): number {\n  let s = 0;\n  while (n > 0) {\n    n--;\n    s += 1;\n  }\n  return s;\n}\n"
	for rel, body := range map[string]string{
		"package.json":       pkg,
		"tsconfig.json":      `{"compilerOptions":{"strict":true,"target":"es2020","module":"commonjs","esModuleInterop":true,"types":["jest"]}}`,
		"src/steps.ts":       src,
		"test/steps.test.ts": "import { steps } from \"../src/steps\";\n\nit(\"counts down\", () => {\n  expect(steps(3)).toBe(3);\n});\n",
	} {
		p := filepath.Join(repo, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(env, "node_modules"), filepath.Join(repo, "node_modules")); err != nil {
		t.Fatal(err)
	}
	sb, err := sandbox.New(repo, sandbox.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	ms := textMutants(t, "src/steps.ts", src, [][3]string{{"loop", "n--", "n++"}})
	l := Lab{Root: sb.Root, Files: sb, Runner: runner.NewJest(), MarkerPrefix: "j", Timeout: 10 * time.Minute}
	res, err := l.Execute(context.Background(), []string{"test/steps.test.ts"}, ms)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Mutants) != 1 {
		t.Fatalf("baselines %+v", res.Baselines)
	}
	m := res.Mutants[0]
	if m.Outcome != Timeout || !m.HitLimit || m.AloneWhy != AloneRunner || !strings.HasPrefix(m.Detail, edit.HitLimitMessage+": more than 10000000 loop iterations and calls in one test run alone") {
		t.Errorf("the loop on jest: %s, hit limit %v, alone %q: %s", m.Outcome, m.HitLimit, m.AloneWhy, m.Detail)
	}
}
