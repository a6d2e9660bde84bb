// Command graph is the scale benchmark of `oracle graph`: it generates the
// default synthetic monorepo (bench/synth, about 100k lines of TypeScript),
// builds the oracle binary, runs `oracle graph --json` on the repository N
// times, each in a new process, and prints wall time and peak RSS of every run
// and their medians against the goals (wall < 1 s, peak RSS < 300 MB).
//
//	go run ./bench/graph [-keep DIR] [-runs N] [-oracle BIN] [-strict] [-packages N -files N]
//
// Run it from anywhere inside the module. -runs 0 only generates the
// repository (useful with -keep).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/bench/synth"
)

// Goals for the median run.
const (
	goalWall    = time.Second
	goalGenWall = 1500 * time.Millisecond
	goalRSSKiB  = 300 * 1024
)

// invocation is one way of asking the CLI for the graph of repo.
type invocation struct {
	name string
	args func(repo string) []string
	cwd  bool // run with the working directory set to repo
}

// graphInvocations is how the benchmark invokes `oracle graph`, in order of
// preference: the first that exits 0 on the first run is used for every run.
var graphInvocations = []invocation{
	{name: "cd REPO && oracle graph --json", cwd: true,
		args: func(string) []string { return []string{"graph", "--json"} }},
	{name: "oracle graph --json --root REPO",
		args: func(repo string) []string { return []string{"graph", "--json", "--root", repo} }},
}

// genInvocations measure `oracle gen` for the benchmark ticket (-gen).
var genInvocations = []invocation{
	{name: "cd REPO && oracle gen --dry-run " + synth.TicketFile, cwd: true,
		args: func(string) []string { return []string{"gen", "--dry-run", synth.TicketFile} }},
}

type run struct {
	wall     time.Duration
	rssKiB   int64
	outBytes int64
}

func main() {
	keep := flag.String("keep", "", "generate the repository into `DIR` and keep it (default: a temporary directory, removed)")
	runs := flag.Int("runs", 5, "number of runs, each a new process; 0 only generates")
	bin := flag.String("oracle", "", "use this oracle `binary` instead of building ./cmd/oracle")
	strict := flag.Bool("strict", false, "exit 1 when a goal is missed")
	gen := flag.Bool("gen", false, "measure `oracle gen` of one ticket (bench/synth AddTicket) instead of the graph")
	cfg := synth.Default()
	flag.IntVar(&cfg.Packages, "packages", cfg.Packages, "workspace packages (to study scaling; the goals are for the default)")
	flag.IntVar(&cfg.FilesPerPackage, "files", cfg.FilesPerPackage, "module files per package")
	flag.Parse()
	goal := goalWall
	if *gen {
		graphInvocations, goal = genInvocations, goalGenWall
	}
	if err := mainErr(cfg, *keep, *runs, *bin, *strict, *gen, goal); err != nil {
		fmt.Fprintln(os.Stderr, "bench/graph:", err)
		os.Exit(1)
	}
}

func mainErr(cfg synth.Config, keep string, runs int, bin string, strict, gen bool, goal time.Duration) error {
	tmp, err := os.MkdirTemp("", "oracle-bench-graph-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	repo := filepath.Join(tmp, "repo")
	if keep != "" {
		if repo, err = filepath.Abs(keep); err != nil {
			return err
		}
	}
	start := time.Now()
	st, err := synth.Generate(repo, cfg)
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if gen {
		if err := synth.AddTicket(repo); err != nil {
			return err
		}
	}
	fmt.Printf("repo: %s\n", repo)
	fmt.Printf("repo: %d packages, %d .ts files, %d lines, %d functions, %d calls (generated in %v)\n",
		st.Packages, st.Files, st.Lines, st.Functions, st.Calls, time.Since(start).Round(time.Millisecond))
	if runs <= 0 {
		return nil
	}

	if bin == "" {
		if bin, err = buildOracle(tmp); err != nil {
			return err
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return err
	}

	results, _, err := measure(bin, repo, runs, func(i int, r run, inv *invocation) {
		if i == 0 {
			fmt.Printf("invocation: %s\n", inv.name)
		}
		fmt.Printf("run %d: wall %8.3fs  peak RSS %7.1f MB  output %d bytes\n", i+1, r.wall.Seconds(), mb(r.rssKiB), r.outBytes)
	})
	if err != nil {
		return err
	}

	walls := make([]time.Duration, len(results))
	rss := make([]int64, len(results))
	for i, r := range results {
		walls[i], rss[i] = r.wall, r.rssKiB
	}
	mw, mr := median(walls), median(rss)
	fmt.Printf("median: wall %8.3fs  peak RSS %7.1f MB  (%d runs, %d lines, %.0f lines/s)\n",
		mw.Seconds(), mb(mr), len(results), st.Lines, float64(st.Lines)/mw.Seconds())
	okWall, okRSS := mw < goal, mr < goalRSSKiB
	fmt.Printf("goal: wall < %v: %s (%.3fs)\n", goal, verdict(okWall), mw.Seconds())
	fmt.Printf("goal: peak RSS < %d MB: %s (%.1f MB)\n", goalRSSKiB/1024, verdict(okRSS), mb(mr))
	if strict && !(okWall && okRSS) {
		return errors.New("goal missed")
	}
	return nil
}

// measure runs the CLI runs times. The first run probes graphInvocations in
// order; the first that succeeds counts as run 1 and is used for the others.
func measure(bin, repo string, runs int, report func(int, run, *invocation)) ([]run, *invocation, error) {
	var (
		results []run
		inv     *invocation
	)
	for i := 0; i < runs; i++ {
		if inv == nil {
			var errs []string
			for k := range graphInvocations {
				r, err := runOnce(bin, repo, graphInvocations[k])
				if err != nil {
					errs = append(errs, fmt.Sprintf("  %s: %v", graphInvocations[k].name, err))
					continue
				}
				inv = &graphInvocations[k]
				results = append(results, r)
				break
			}
			if inv == nil {
				return nil, nil, fmt.Errorf("no invocation of oracle graph succeeded:\n%s", strings.Join(errs, "\n"))
			}
		} else {
			r, err := runOnce(bin, repo, *inv)
			if err != nil {
				return results, inv, fmt.Errorf("run %d: %w", i+1, err)
			}
			results = append(results, r)
		}
		report(i, results[len(results)-1], inv)
	}
	return results, inv, nil
}

// buildOracle builds ./cmd/oracle of the enclosing module into dir.
func buildOracle(dir string) (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("run inside the oracle module (go env GOMOD is empty)")
	}
	bin := filepath.Join(dir, "oracle")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/oracle")
	cmd.Dir = filepath.Dir(gomod)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/oracle: %w", err)
	}
	fmt.Printf("built: %s in %v\n", bin, time.Since(start).Round(time.Millisecond))
	return bin, nil
}

// runOnce runs the CLI once in a new process, its stdout counted and discarded.
func runOnce(bin, repo string, inv invocation) (run, error) {
	cmd := exec.Command(bin, inv.args(repo)...)
	if inv.cwd {
		cmd.Dir = repo
	}
	out := &countWriter{w: io.Discard}
	var stderr tail
	cmd.Stdout, cmd.Stderr = out, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return run{}, fmt.Errorf("%w; stderr: %s", err, strings.TrimSpace(stderr.String()))
	}
	return run{wall: wall, rssKiB: maxRSSKiB(cmd.ProcessState), outBytes: out.n}, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.w.Write(p)
}

// tail keeps the last 2 KiB written to it.
type tail struct{ b []byte }

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2048 {
		t.b = t.b[len(t.b)-2048:]
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.b) }

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func mb(kib int64) float64 { return float64(kib) / 1024 }

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "MISS"
}
