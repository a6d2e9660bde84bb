// Command vitest2 measures the long-lived runner on vitest 2 against a fresh
// `vitest run` per run (issue 42): N runs of one test file, alternating the
// original source and a mutant as a prove or a gate does, through
// runner.ProcessRunner and through one runner.LongLivedRunner, on a small
// library in a sandbox whose node_modules is testdata/vitest2's (vitest
// 2.1.9, which scripts/deps installs). It prints a markdown table (min,
// median and max of the runs' wall time; the long-lived runner's first run,
// which starts vitest, apart), the load before and after (uptime), node's
// version, and whether every run's outcome was the same for both runners.
// Not a test: nothing is asserted of the times.
//
//	go run ./bench/vitest2 [-runs N] [-node PATH]
//	go run ./bench/vitest2 -repo DIR -test FILE [-config FILE] [-mutant 'FILE:OLD=>NEW'] [-runs N]
//
// With -repo, a checkout whose node_modules holds vitest 2 (copied to a
// sandbox, never changed) and one of its test files: the runs alternate
// its sources and the mutant -mutant gives (one replacement of OLD by NEW
// in FILE), or all run the sources as they are without it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/mutate/runner"
	sbox "github.com/oracle-ts/oracle/mutate/sandbox"
)

// The library: a few functions and a test file of a dozen tests.
var files = map[string]string{
	"package.json":     `{"name":"mathlib","private":true,"type":"module"}`,
	"vitest.config.ts": "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { include: [\"test/**/*.test.ts\"] } });\n",
	"src/math.ts": `export function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

export function sum(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

export function range(start: number, end: number, step = 1): number[] {
  const out: number[] = [];
  for (let i = start; i < end; i += step) out.push(i);
  return out;
}

export function chunk<T>(xs: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}
`,
	"test/math.test.ts": `import { describe, expect, it } from "vitest";
import { chunk, clamp, range, sum } from "../src/math";

describe("clamp", () => {
  it("keeps a value inside", () => expect(clamp(5, 0, 10)).toBe(5));
  it("raises to the low bound", () => expect(clamp(-1, 0, 10)).toBe(0));
  it("lowers to the high bound", () => expect(clamp(11, 0, 10)).toBe(10));
});
describe("sum", () => {
  it("adds", () => expect(sum([1, 2, 3])).toBe(6));
  it("is 0 for none", () => expect(sum([])).toBe(0));
});
describe("range", () => {
  it("counts up", () => expect(range(0, 3)).toEqual([0, 1, 2]));
  it("steps", () => expect(range(0, 6, 2)).toEqual([0, 2, 4]));
  it("is empty backwards", () => expect(range(3, 0)).toEqual([]));
});
describe("chunk", () => {
  it("splits", () => expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]));
  it("keeps a short list whole", () => expect(chunk([1], 3)).toEqual([[1]]));
});
`,
}

// mutants of src/math.ts, run between the original's runs.
var mutants = [][2]string{
	{"Math.min(hi, Math.max(lo, n))", "Math.max(hi, Math.max(lo, n))"},
	{"s += x", "s -= x"},
	{"i < end", "i <= end"},
	{"i += size", "i += size + 1"},
}

func main() {
	runs := flag.Int("runs", 12, "runs per runner")
	node := flag.String("node", "", "the node binary (default: node on PATH)")
	repo := flag.String("repo", "", "a checkout with vitest 2 in its node_modules (default: the small library, on testdata/vitest2)")
	test := flag.String("test", "", "with -repo: the test file run, repository-relative")
	config := flag.String("config", "", "with -repo: the vitest config, repository-relative (default: vitest's own search)")
	mutant := flag.String("mutant", "", "with -repo: FILE:OLD=>NEW, the mutant the runs alternate with the original")
	flag.Parse()
	var err error
	if *repo != "" {
		err = repoErr(*repo, *test, *config, *mutant, *runs, *node)
	} else {
		err = mainErr(*runs, *node)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/vitest2:", err)
		os.Exit(1)
	}
}

func mainErr(runs int, node string) error {
	nm, err := filepath.Abs("testdata/vitest2/node_modules")
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(nm, "vitest", "vitest.mjs")); err != nil {
		return fmt.Errorf("testdata/vitest2/node_modules is missing: run scripts/deps (from the repository root)")
	}
	repo, err := os.MkdirTemp("", "bench-vitest2-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(repo)
	for rel, body := range files {
		p := filepath.Join(repo, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	if err := os.Symlink(nm, filepath.Join(repo, "node_modules")); err != nil {
		return err
	}
	sb, err := sbox.New(repo, sbox.Options{})
	if err != nil {
		return err
	}
	defer sb.Close()
	src := files["src/math.ts"]
	var seq []string // "" = the original
	for i := 0; len(seq) < runs; i++ {
		m := mutants[i%len(mutants)]
		seq = append(seq, "", strings.Replace(src, m[0], m[1], 1))
	}
	seq = seq[:runs]
	spec := runner.Spec{Dir: sb.Root, TestFile: "test/math.test.ts", Config: "vitest.config.ts", Timeout: 2 * time.Minute}
	return compare(sb.Root, spec, "src/math.ts", src, seq, node, "the small library (src/math.ts, 10 tests), original and 4 mutants alternating")
}

// repoErr is mainErr on a checkout.
func repoErr(repo, test, config, mutant string, runs int, node string) error {
	if test == "" {
		return fmt.Errorf("-repo needs -test")
	}
	sb, err := sbox.New(repo, sbox.Options{})
	if err != nil {
		return err
	}
	defer sb.Close()
	file, src, seq := test, "", make([]string, runs)
	what := fmt.Sprintf("%s, %s as it is", filepath.Base(repo), test)
	if mutant != "" {
		f, rest, ok1 := strings.Cut(mutant, ":")
		old, new, ok2 := strings.Cut(rest, "=>")
		if !ok1 || !ok2 {
			return fmt.Errorf("-mutant: want FILE:OLD=>NEW")
		}
		b, err := os.ReadFile(filepath.Join(sb.Root, f))
		if err != nil {
			return err
		}
		file, src = f, string(b)
		m := strings.Replace(src, old, new, 1)
		if m == src {
			return fmt.Errorf("-mutant: %q is not in %s", old, f)
		}
		for i := 1; i < runs; i += 2 {
			seq[i] = m
		}
		what = fmt.Sprintf("%s, %s, the original and a mutant of %s alternating", filepath.Base(repo), test, f)
	}
	if src == "" {
		b, err := os.ReadFile(filepath.Join(sb.Root, file))
		if err != nil {
			return err
		}
		src = string(b)
	}
	spec := runner.Spec{Dir: sb.Root, TestFile: test, Config: config, Timeout: 2 * time.Minute}
	return compare(sb.Root, spec, file, src, seq, node, what)
}

// compare runs spec len(seq) times with each runner, file (repository-
// relative) written before each run as seq says ("" = src), and prints the
// table.
func compare(root string, spec runner.Spec, file, src string, seq []string, node, what string) error {
	runs := len(seq)
	before := uptime()
	measure := func(r runner.Runner) ([]time.Duration, []runner.Result, error) {
		var ds []time.Duration
		var rs []runner.Result
		for _, body := range seq {
			if body == "" {
				body = src
			}
			if err := os.WriteFile(filepath.Join(root, file), []byte(body), 0o644); err != nil {
				return nil, nil, err
			}
			t0 := time.Now()
			res, err := r.Run(context.Background(), spec)
			if err != nil {
				return nil, nil, err
			}
			ds = append(ds, time.Since(t0))
			rs = append(rs, res)
		}
		return ds, rs, nil
	}
	pd, pr, err := measure(&runner.ProcessRunner{Node: node})
	if err != nil {
		return err
	}
	ll := &runner.LongLivedRunner{Node: node}
	var fell []string
	ll.OnFallback = func(_ runner.Spec, why string) { fell = append(fell, why) }
	ld, lr, err := measure(ll)
	st := ll.Stats()
	ll.Close()
	if err != nil {
		return err
	}
	after := uptime()

	// Same: every field but the times and LastLine (the last line of vitest's
	// output, a diagnostic: a banner vitest prints at start-up, as under
	// typecheck, ends a fresh run's output but the long-lived process printed
	// it once, before its first run).
	same, lastLine := 0, 0
	for i := range pr {
		a, b := pr[i], lr[i]
		if a.LastLine != b.LastLine {
			lastLine++
		}
		a.LastLine, b.LastLine = "", ""
		a.Duration, b.Duration = 0, 0
		for j := range a.Tests {
			a.Tests[j].Duration = 0
		}
		for j := range b.Tests {
			b.Tests[j].Duration = 0
		}
		if reflect.DeepEqual(a, b) {
			same++
		} else if same == i {
			fmt.Fprintf(os.Stderr, "run %d differs:\n  process    %+v\n  long-lived %+v\n", i+1, a, b)
		}
	}
	nodeV, _ := exec.Command(orNode(node), "--version").Output()
	var pkg struct{ Version string }
	if b, err := os.ReadFile(filepath.Join(root, "node_modules", "vitest", "package.json")); err == nil {
		_ = json.Unmarshal(b, &pkg)
	}
	fmt.Printf("vitest %s, node %s, %d runs per runner: %s; %s\n\n",
		pkg.Version, strings.TrimSpace(string(nodeV)), runs, what, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Printf("| runner | first run | min | median | max | total |\n|---|---|---|---|---|---|\n")
	row := func(name string, ds []time.Duration, skipFirst bool) {
		rest := ds
		if skipFirst {
			rest = ds[1:]
		}
		s := append([]time.Duration(nil), rest...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		var total time.Duration
		for _, d := range ds {
			total += d
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s |\n", name, ms(ds[0]), ms(s[0]), ms(s[len(s)/2]), ms(s[len(s)-1]), ms(total))
	}
	row("ProcessRunner (a fresh `vitest run` per run)", pd, false)
	row("LongLivedRunner (min/median/max of runs 2..N)", ld, true)
	fmt.Printf("\nlong-lived stats: runs %d, fallbacks %d %q, starts %d, invalidated %d\n", st.Runs, st.Fallbacks, fell, st.Starts, st.Invalidated)
	fmt.Printf("outcomes: %d of %d runs the same for both runners (times and the output's last line aside; that line differs in %d)\n", same, len(pr), lastLine)
	fmt.Printf("load before: %s\nload after:  %s\n", before, after)
	return nil
}

func orNode(n string) string {
	if n == "" {
		return "node"
	}
	return n
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func uptime() string {
	out, err := exec.Command("uptime").Output()
	if err != nil {
		return "(uptime: " + err.Error() + ")"
	}
	return strings.TrimSpace(string(out))
}
