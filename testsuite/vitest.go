package testsuite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/callgraph/modules"
	"github.com/oracle-ts/oracle/internal/nodeproc"
	"github.com/oracle-ts/oracle/internal/text"
	"github.com/oracle-ts/oracle/internal/vitestenv"
	"github.com/oracle-ts/oracle/internal/vitestloc"
	"github.com/oracle-ts/oracle/internal/warmnode"
)

// ListTests asks the repository's own vitest which test files it runs
// (`vitest list --filesOnly --json`: its include and exclude, its projects),
// rather than guessing from names; config is the vitest config file to use
// ("" lets vitest find its own). The files come back repo-relative, sorted.
func ListTests(root, config string) ([]string, error) { return listTestsAt(root, root, config) }

// listTestsAt is ListTests with vitest run in dir (root, or the directory
// above it that holds the workspace's config): the files under root, relative
// to it.
func listTestsAt(dir, root, config string) ([]string, error) {
	vitest, err := findVitest(dir)
	if err != nil {
		return nil, err
	}
	args := []string{filepath.Join(vitest, "vitest.mjs"), "list", "--filesOnly", "--json"}
	if config != "" {
		args = append(args, "--config", config)
	}
	if readOnly(dir) {
		args = append(args, "--configLoader", "runner")
	}
	out, err := runNode(dir, config, "vitest list", args...)
	if err != nil {
		return nil, err
	}
	files, err := listedFiles(out)
	if err != nil {
		return nil, err
	}
	abs := make([]string, len(files))
	for i, f := range files {
		abs[i] = f.File
	}
	return repoRelative(root, abs), nil
}

// listedFile is one entry of `vitest list --json`.
type listedFile struct {
	File string `json:"file"`
}

// listedFiles finds the JSON list in what `vitest list --json` printed:
// the first line that opens a JSON array and decodes as the list. What the
// configuration's plugins log on stdout before it ("12:00:01 [WARN] ...",
// "[vite] ...") is passed over, however many brackets it has.
func listedFiles(out []byte) ([]listedFile, error) {
	var firstErr error
	for i := 0; i < len(out); {
		if out[i] == '[' && (i == 0 || out[i-1] == '\n') {
			var files []listedFile
			err := json.NewDecoder(bytes.NewReader(out[i:])).Decode(&files)
			if err == nil {
				return files, nil
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		nl := bytes.IndexByte(out[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	if firstErr != nil {
		return nil, fmt.Errorf("vitest list: %v", firstErr)
	}
	return nil, fmt.Errorf("vitest list printed no JSON list: %s", text.FirstLine(string(out), 300))
}

// configScript asks vitest's node API for its resolved configuration, once
// per gate or audit: the root, and per project its root, include, exclude,
// includeSource, setupFiles and resolve.alias (every written form of the
// alias comes out as one list; vite's own entries are among them); and the
// test files as "vitest list --filesOnly" finds them (the same call on the
// same instance: one node process loads the config once for both), null
// where the API has no such call (vitest older than 3). The environment is
// what "vitest run" sets before it loads the config (prepareVitest), as
// the runs' driver sets it: a config that reads NODE_ENV is read as the
// runs read it.
const configScript = `
process.env.TEST = "true";
process.env.VITEST = "true";
process.env.NODE_ENV ??= "test";
const [root, nodeAPI, config, loader, warmArg] = process.argv.slice(1);
const warm = warmArg === "warm";
const { createVitest } = await import(nodeAPI);
const ctx = await createVitest("test", { watch: false, root, ...(config ? { config } : {}), ...(loader ? { configLoader: loader } : {}) }, {}, {});
const list = (v) => Array.isArray(v) ? v.map(String) : [];
const projects = (ctx.projects ?? []).map((p) => {
  const c = p.config ?? {};
  const vite = p.vite ?? p.server;
  const alias = vite?.config?.resolve?.alias ?? [];
  return {
    name: String(c.name ?? ""), root: String(c.root ?? ""),
    include: list(c.include), exclude: list(c.exclude), includeSource: list(c.includeSource), setupFiles: list(c.setupFiles),
    alias: (Array.isArray(alias) ? alias : Object.entries(alias).map(([find, replacement]) => ({ find, replacement })))
      .map((a) => a.find instanceof RegExp ? { regex: a.find.source, flags: a.find.flags, replacement: String(a.replacement) } : { find: String(a.find), replacement: String(a.replacement) }),
  };
});
const configFile = ctx.vite?.config?.configFile ?? ctx.server?.config?.configFile ?? "";
const specs = typeof ctx.getRelevantTestSpecifications === "function" ? await ctx.getRelevantTestSpecifications([])
  : typeof ctx.globTestSpecifications === "function" ? await ctx.globTestSpecifications([]) : null;
const files = specs === null ? null : specs.map((s) => String(s.moduleId));
const answer = JSON.stringify({ root: String(ctx.config?.root ?? root), configFile: String(configFile), setupFiles: list(ctx.config?.setupFiles), projects, files,
  node: { version: process.version, builtin: typeof process.getBuiltinModule === "function" } });
if (warm) (await import("node:fs")).writeSync(3, answer + "\n");
else process.stdout.write("\n" + answer + "\n");
await ctx.close();
`

// Config is the repository's vitest configuration as vitest resolved it
// (ReadConfig): paths repo-relative, slash-separated.
type Config struct {
	// Root is vitest's root ("." the repository's).
	Root string
	// Above is the config vitest uses for the repository when it is found
	// above it, in its workspace (a package of a workspace with one
	// vitest.config.ts at the workspace's root, under vitest 4 and older,
	// which look for a config upwards): relative to the repository root
	// ("../../vitest.config.ts"); vitest runs from its directory, and the
	// rest of the Config was read there. "" when the config is the
	// repository's own (or there is none).
	Above string
	// SetupFiles of every project, sorted.
	SetupFiles []string
	Projects   []Project
	// JestProjects are a jest configuration's projects, each with its roots
	// and setup files (nil for vitest's): a setup file's mocks count for a
	// test file only when every project that runs it has that setup file.
	JestProjects []JestProject
	// Automock: jest's automock option is on (in some project).
	Automock bool
	// Tests are the test files vitest runs for the repository (what
	// "vitest list --filesOnly" lists): repo-relative, sorted, those under
	// the repository only. Listed says vitest's node API gave them (vitest
	// 3 and newer); without it askVitest asks the CLI (ListTests).
	Tests  []string
	Listed bool
	// Node is what the node that read the configuration (the one on PATH)
	// said of itself: the runner need not start it again to ask
	// (runner.KnowMarkerSupport). Zero when vitest gave no answer.
	Node NodeFacts
}

// NodeFacts are a node binary's version and whether it has
// process.getBuiltinModule, which the runner's reached-markers need.
type NodeFacts struct {
	Version string
	Builtin bool
}

// Project is one vitest project (a configuration without projects is one).
type Project struct {
	Name string
	// Root is the project's root, repo-relative ("." the repository's; a
	// root outside the repository is kept as vitest gave it).
	Root                            string
	Include, Exclude, IncludeSource []string
	// Alias is its resolve.alias, in order, with absolute paths as vitest
	// gave them.
	Alias []modules.Alias
}

// rawConfig is what configScript prints.
type rawConfig struct {
	Root       string    `json:"root"`
	ConfigFile string    `json:"configFile"`
	SetupFiles []string  `json:"setupFiles"`
	Files      *[]string `json:"files"`
	Node       NodeFacts `json:"node"`
	Projects   []struct {
		Name          string   `json:"name"`
		Root          string   `json:"root"`
		Include       []string `json:"include"`
		Exclude       []string `json:"exclude"`
		IncludeSource []string `json:"includeSource"`
		SetupFiles    []string `json:"setupFiles"`
		Alias         []struct {
			Find        string `json:"find"`
			Regex       string `json:"regex"`
			Flags       string `json:"flags"`
			Replacement string `json:"replacement"`
		} `json:"alias"`
	} `json:"projects"`
}

// ReadConfig asks the repository's vitest (its node API, one node process)
// for its resolved configuration (config as for ListTests). Without the
// node API (an old vitest) it is an empty Config.
//
// When vitest, run in root, uses a config above it in its workspace, the
// configuration is read again where vitest runs these tests from (the
// config's directory, with that config: its include, projects and aliases
// are written from there), and Config.Above names it.
//
// vitest run in root may also fail on that config before it says which it
// is (a `projects` glob written from the workspace's root finds no project
// from the package): then, when root has no config of its own and one lies
// above it in its workspace, the configuration is read there, and is that
// one when vitest reads it.
func ReadConfig(root, config string) (*Config, error) { return readConfigKeep(root, config, nil) }

// warm is what keeps the node process that read the configuration
// (Options.KeepWarm, Options.Stop).
type warm struct {
	keep func(*warmnode.Proc)
	stop <-chan struct{}
}

// readConfigKeep is ReadConfig handing keep (when set) the node process
// that read the configuration.
func readConfigKeep(root, config string, keep *warm) (*Config, error) {
	cfg, err := readConfigAt(root, root, config, keep)
	var above *aboveError
	if err != nil && !errors.As(err, &above) && config == "" {
		file := configAboveRoot(root)
		if file == "" {
			return nil, err
		}
		there, errThere := readConfigAt(filepath.Dir(file), root, file, keep)
		if errThere != nil {
			return nil, err
		}
		cfg, above = there, &aboveError{root: root, file: file, dir: filepath.Dir(file)}
	} else if !errors.As(err, &above) {
		return cfg, err
	} else if cfg, err = readConfigAt(above.dir, root, above.file, keep); err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(root, above.file)
	if err != nil {
		return nil, err
	}
	cfg.Above = filepath.ToSlash(rel)
	return cfg, nil
}

// readConfigAt asks vitest, run in dir, for the configuration of root's
// tests (dir is root or above it); keep, when set, is handed the node
// process that answered (probe).
func readConfigAt(dir, root, config string, keep *warm) (*Config, error) {
	vitest, err := findVitest(dir)
	if err != nil {
		return nil, err
	}
	api := filepath.Join(vitest, "dist", "node.js")
	if _, err := os.Stat(api); err != nil {
		return &Config{Root: "."}, nil
	}
	loader := ""
	if readOnly(dir) {
		loader = "runner"
	}
	out, proc, err := probe(dir, config, vitest, api, loader, keep)
	if err != nil {
		return nil, err
	}
	cfg, err := parseConfig(root, dir, out)
	if err != nil || keep == nil {
		proc.Kill()
		return cfg, err
	}
	keep.keep(proc)
	return cfg, nil
}

// probe runs configScript in dir: its output, and with warm the node
// process that printed it, waiting for a second job (warmnode). When the
// warm process gives no answer, the plain run (a process that exits, its
// stdout and stderr apart) says what went wrong, in the words of vitest.
func probe(dir, config, vitest, api, loader string, keep *warm) ([]byte, *warmnode.Proc, error) {
	if keep != nil {
		out, p, err := probeWarm(dir, vitest, api, config, loader, keep.stop)
		if err != nil || p != nil {
			return out, p, err
		}
	}
	out, err := runNode(dir, config, "reading vitest's configuration", "--input-type=module", "-e", configScript, dir, api, config, loader)
	return out, nil, err
}

// probeWarm runs configScript as a warmnode job: from a file (vitest hands
// node's own arguments, -e and its script with them, to its workers), with
// the environment of the runs' driver (no NO_COLOR: the answer comes on fd
// 3, and the modules it imports read the environment once). No process
// when it gave no answer; an error only when stop was closed first.
func probeWarm(dir, vitest, api, config, loader string, stop <-chan struct{}) ([]byte, *warmnode.Proc, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, nil, nil
	}
	tmp, err := os.MkdirTemp("", "oracle-vitest-")
	if err != nil {
		return nil, nil, nil
	}
	defer os.RemoveAll(tmp) // the script is loaded before it answers; the next job has its own temp directory
	script := filepath.Join(tmp, "oracle-config.mjs")
	// argv as under -e: the arguments from argv[1] on.
	src := "process.argv.splice(1, 1);\n" + configScript + "if (warm) " + warmnode.Tail
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		return nil, nil, nil
	}
	p, err := warmnode.Start(node, vitest, dir, vitestenv.For(dir, tmp), script, dir, api, config, loader, "warm")
	if err != nil {
		return nil, nil, nil
	}
	line, _, err := p.Answer(10*time.Minute, stop) // as runNode's limit
	if errors.Is(err, warmnode.ErrStopped) {
		return nil, nil, fmt.Errorf("reading vitest's configuration: interrupted")
	}
	if err != nil || len(line) == 0 {
		p.Kill()
		return nil, nil, nil
	}
	return line, p, nil
}

// configAboveRoot is the vitest config of the nearest directory above root,
// up to its workspace root, that holds one, when root holds none: the one
// vitest 4 and older find from root. "" when there is none.
func configAboveRoot(root string) string {
	if vitestloc.HasConfig(root) || vitestloc.WorkspaceRoot(root) {
		return ""
	}
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		if name := vitestloc.ConfigFile(d); name != "" {
			return filepath.Join(d, name)
		}
		if vitestloc.WorkspaceRoot(d) || filepath.Dir(d) == d {
			return ""
		}
	}
}

// aboveError: vitest, run in root, uses file, a config in dir above root
// in its workspace.
type aboveError struct{ root, file, dir string }

func (e *aboveError) Error() string {
	return fmt.Sprintf("vitest's configuration for %s is %s, above it", e.root, e.file)
}

// ListAbove lists the tests of root when vitest uses a config above it
// (Config.Above): run from the config's directory, with it; the files under
// root, relative to it.
func ListAbove(root, above string) ([]string, error) {
	file := filepath.Join(root, filepath.FromSlash(above))
	return listTestsAt(filepath.Dir(file), root, file)
}

// parseConfig reads configScript's output (vitest run in at): its last line
// (what plugins logged before it is passed over).
func parseConfig(root, at string, out []byte) (*Config, error) {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	var raw rawConfig
	if err := json.Unmarshal(lines[len(lines)-1], &raw); err != nil {
		return nil, fmt.Errorf("reading vitest's configuration: %v: %s", err, text.FirstLine(string(out), 300))
	}
	rel := func(p string) string {
		if r := repoRelative(root, []string{p}); len(r) == 1 {
			return r[0]
		}
		if abs, _ := filepath.Abs(root); filepath.Clean(p) == abs {
			return "."
		}
		if real, _ := filepath.EvalSymlinks(root); filepath.Clean(p) == real {
			return "."
		}
		return p
	}
	if dir := filepath.Dir(raw.ConfigFile); dir != at && dir != realPath(at) && raw.ConfigFile != "" && filepath.IsAbs(raw.ConfigFile) && aboveInWorkspace(root, dir) {
		// vitest found its configuration above the repository, in its
		// workspace (a package of a workspace with one config at the
		// workspace's root): its tests run from there (ReadConfig).
		return nil, &aboveError{root: root, file: raw.ConfigFile, dir: dir}
	}
	cfg := &Config{Root: rel(raw.Root), Node: raw.Node}
	if raw.Files != nil {
		cfg.Tests, cfg.Listed = repoRelative(root, *raw.Files), true
	}
	setup := repoRelative(root, raw.SetupFiles)
	for _, p := range raw.Projects {
		pr := Project{Name: p.Name, Root: rel(p.Root), Include: p.Include, Exclude: p.Exclude, IncludeSource: p.IncludeSource}
		if filepath.IsAbs(pr.Root) && holds(pr.Root, root) {
			pr.Root = "." // a project above the repository (the workspace's config): its aliases apply to all of it
		}
		for _, a := range p.Alias {
			re := a.Regex
			if f := strings.Map(func(r rune) rune {
				if strings.ContainsRune("ims", r) {
					return r
				}
				return -1
			}, a.Flags); re != "" && f != "" {
				re = "(?" + f + ")" + re // JavaScript's i, m, s flags, as Go writes them
			}
			pr.Alias = append(pr.Alias, modules.Alias{Find: a.Find, Regex: re, Replacement: inRoot(root, a.Replacement)})
		}
		cfg.Projects = append(cfg.Projects, pr)
		setup = append(setup, repoRelative(root, p.SetupFiles)...)
	}
	slices.Sort(setup)
	cfg.SetupFiles = slices.Compact(setup)
	return cfg, nil
}

// aboveInWorkspace reports whether dir is a directory above root, at or
// below the workspace root that holds root (vitestloc.WorkspaceRoot).
func aboveInWorkspace(root, dir string) bool {
	for _, base := range []string{root, realPath(root)} {
		if vitestloc.WorkspaceRoot(base) {
			return false
		}
		for d := filepath.Dir(base); ; d = filepath.Dir(d) {
			if d == dir || realPath(d) == dir {
				return true
			}
			if vitestloc.WorkspaceRoot(d) || filepath.Dir(d) == d {
				break
			}
		}
	}
	return false
}

// holds reports whether dir is p or a directory above it (through the
// real paths too).
func holds(dir, p string) bool {
	for _, d := range []string{dir, realPath(dir)} {
		for _, q := range []string{p, realPath(p)} {
			if r, err := filepath.Rel(d, q); err == nil && (r == "." || filepath.IsLocal(r)) {
				return true
			}
		}
	}
	return false
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// inRoot turns an absolute path vitest gave through the repository's real
// path into the same path under root (as the resolver knows it); anything
// else is kept.
func inRoot(root, p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil || real == root {
		return p
	}
	if r, err := filepath.Rel(real, p); err == nil && filepath.IsLocal(r) {
		return filepath.Join(root, r)
	}
	return p
}

// AliasScopes are the projects' aliases for the module resolver.
func (c *Config) AliasScopes() []modules.AliasScope {
	var out []modules.AliasScope
	for _, p := range c.Projects {
		if filepath.IsAbs(p.Root) || len(p.Alias) == 0 {
			continue
		}
		out = append(out, modules.AliasScope{Dir: p.Root, Aliases: p.Alias})
	}
	return out
}

// findVitest is the vitest package the repository's tests run with: the
// lookup the runner makes too (internal/vitestloc), from root up to the
// workspace's root.
func findVitest(root string) (string, error) {
	if p := vitestloc.Find(root); p != "" {
		dir := filepath.Dir(p)
		return dir, vitestTooOld(root, dir)
	}
	return "", fmt.Errorf("vitest is not installed (no node_modules/vitest at %s or above it up to the workspace root): oracle asks the repository's vitest which test files it runs; install the repository's dependencies first (gate and audit work on vitest suites)", root)
}

// vitestTooOld says why the vitest installed at dir cannot serve oracle: a
// vitest before 2.0 has no `vitest list` (oracle asks it which test files
// it runs and which tests they hold); nil for vitest 2 and later, and for
// a version it cannot read (vitest itself says more then).
func vitestTooOld(root, dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &pkg) != nil {
		return nil
	}
	major, _, _ := strings.Cut(pkg.Version, ".")
	if n, err := strconv.Atoi(major); err != nil || n >= 2 {
		return nil
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = dir
	}
	return fmt.Errorf("vitest %s is installed (%s): oracle needs vitest 2 or later, whose `vitest list` tells it which test files the suite runs and which tests they hold (vitest 1 has no `vitest list`); upgrade the repository's vitest and run oracle again", pkg.Version, filepath.ToSlash(rel))
}

// readOnly reports whether root cannot be written: vite's default config
// loader writes the bundled config next to it (vitest.config.ts.timestamp-
// *.mjs) and fails with "failed to load config" in a read-only checkout;
// vitest's --configLoader runner loads it without writing.
func readOnly(root string) bool {
	f, err := os.CreateTemp(root, ".oracle-write-check-*")
	if err != nil {
		return true
	}
	f.Close()
	os.Remove(f.Name())
	return false
}

// runNode runs node with args in root, in the environment of oracle's
// vitest runs (vitestenv.For) without colour, and returns what it printed; what names the step in
// the error, a *ConfigError when vitest could not load its config (config
// is the one given, "" vitest's own search). vitest's temporary files (vite writes transformed sources under
// $TMPDIR/<id>/ssr) go to a private directory removed when node ends, so
// nothing is left in the system's temp directory.
func runNode(root, config, what string, args ...string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "oracle-vitest-")
	if err != nil {
		return nil, fmt.Errorf("temp directory: %w", err) // the verb says it is the environment
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a monorepo's project configs take minutes on a loaded machine
	defer cancel()
	cmd := nodeproc.Command(ctx, "node", root, vitestenv.For(root, tmp, "NO_COLOR=1"), args...) // plain output to parse: the listing runs no test
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ce := configError(root, config, errb.String()); ce != nil {
			return nil, ce
		}
		if hint := jestHint(errb.String()); hint != "" {
			return nil, fmt.Errorf("%s: %v: %s", what, err, hint)
		}
		return nil, fmt.Errorf("%s: %v: %s", what, err, text.FirstLine(errb.String(), 300))
	}
	return out.Bytes(), nil
}

// repoRelative turns the absolute paths vitest reports (through the
// repository's real path or the path it was given) into sorted,
// slash-separated paths relative to root; paths outside it are dropped.
func repoRelative(root string, files []string) []string {
	realRoot, _ := filepath.EvalSymlinks(root)
	var rel []string
	for _, f := range files {
		r, err := filepath.Rel(realRoot, f)
		if err != nil || !filepath.IsLocal(r) {
			if r, err = filepath.Rel(root, f); err != nil || !filepath.IsLocal(r) {
				continue
			}
		}
		rel = append(rel, filepath.ToSlash(r))
	}
	sort.Strings(rel)
	return slices.Compact(rel) // a file of two projects (a browser project's two instances) is listed twice
}
