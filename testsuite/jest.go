package testsuite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/callgraph/modules"
	"github.com/oracle-ts/oracle/internal/text"
	"github.com/oracle-ts/oracle/internal/vitestloc"
)

// RunsJest says whether the repository at root runs its tests on jest: no vitest is found
// for it (internal/vitestloc's lookup, up to the workspace root) and a jest config file, a
// package.json "jest" key, a jest dependency or a test script that runs jest says jest.
// It returns what says so ("jest.config.ts", `package.json "jest"`, ...), "" otherwise.
func RunsJest(root string) string {
	if vitestloc.Find(root) != "" {
		return ""
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "jest.config.") {
			return e.Name()
		}
	}
	b, err := os.ReadFile(filepath.Join(root, "package.json"))
	if err != nil {
		return ""
	}
	var pkg struct {
		Jest            json.RawMessage   `json:"jest"`
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
		Scripts         map[string]string `json:"scripts"`
	}
	if json.Unmarshal(b, &pkg) != nil {
		return ""
	}
	switch {
	case pkg.Jest != nil:
		return `package.json "jest"`
	case pkg.DevDependencies["jest"] != "" || pkg.Dependencies["jest"] != "":
		return "the jest dependency in package.json"
	case strings.Contains(pkg.Scripts["test"], "jest"):
		return `package.json "scripts.test": ` + pkg.Scripts["test"]
	}
	return ""
}

// jestConfig is the part of `jest --showConfig` the suite reads: each project's resolved
// configuration (jest's <rootDir> replaced, its paths absolute).
type jestConfig struct {
	Configs []struct {
		RootDir            string      `json:"rootDir"`
		DisplayName        any         `json:"displayName"`
		SetupFiles         []string    `json:"setupFiles"`
		SetupFilesAfterEnv []string    `json:"setupFilesAfterEnv"`
		ModuleNameMapper   mapperPairs `json:"moduleNameMapper"`
		Roots              []string    `json:"roots"`
		Automock           bool        `json:"automock"`
	} `json:"configs"`
}

// JestProject is one project of a jest configuration as the suite reads it: its roots
// (where jest looks for its test files) and its setupFiles and setupFilesAfterEnv,
// repo-relative, sorted.
type JestProject struct {
	Roots, Setup []string
}

// runs says whether the project may run test file t: t is under one of its roots.
func (jp JestProject) runs(t string) bool {
	for _, r := range jp.Roots {
		if r == "." || t == r || strings.HasPrefix(t, r+"/") {
			return true
		}
	}
	return false
}

// setupApplies says whether the mocks of setup file sf count for test file t: every jest
// project that may run t (by its roots; all of them when none does) has sf among its setup
// files. A mock that only some of t's projects set up leaves the real module to the others:
// it does not stop the walk (a candidate too many costs a run; one too few, a wrong SKIP).
func setupApplies(projects []JestProject, t, sf string) bool {
	var runs []JestProject
	for _, jp := range projects {
		if jp.runs(t) {
			runs = append(runs, jp)
		}
	}
	if len(runs) == 0 {
		runs = projects
	}
	for _, jp := range runs {
		if _, ok := slices.BinarySearch(jp.Setup, sf); !ok {
			return false
		}
	}
	return true
}

// mapperPairs is a project's moduleNameMapper as `jest --showConfig` prints it: a list of
// [regex, replacement] pairs (jest 25 and later), or one object of them, in order (jest
// 24). Any other shape (null) is no alias.
type mapperPairs [][2]any

func (m *mapperPairs) UnmarshalJSON(b []byte) error {
	var pairs [][2]any
	if json.Unmarshal(b, &pairs) == nil {
		*m = pairs
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out [][2]any
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil
		}
		var v any
		if dec.Decode(&v) != nil {
			return nil
		}
		re, _ := k.(string)
		out = append(out, [2]any{re, v})
	}
	*m = out
	return nil
}

// askJest asks the repository's jest, run in root (with config, its --config, when given),
// for its test files (`jest --listTests --json`: its roots, testMatch or testRegex,
// testPathIgnorePatterns, projects) and its resolved configuration (`jest --showConfig`):
// the setupFiles and setupFilesAfterEnv (their mocks count for every test), and each
// project's moduleNameMapper as the aliases the module resolver follows. Nothing of it is
// derived again from the config file.
func askJest(root, config string) ([]string, *Config, error) {
	bin := vitestloc.FindJest(root)
	if bin == "" {
		return nil, nil, fmt.Errorf("jest is not installed: no node_modules/jest/bin/jest.js from the repository up to the workspace root; run your package manager's install (npm ci)")
	}
	args := func(what ...string) []string {
		a := append([]string{bin}, what...)
		a = append(a, "--ci", "--watchman=false")
		if config != "" {
			a = append(a, "--config="+config)
		}
		return a
	}
	listed, err := runNode(root, config, "jest --listTests", args("--listTests", "--json")...)
	if err != nil {
		return nil, nil, err
	}
	var abs []string
	if err := json.Unmarshal(lastJSON(listed), &abs); err != nil {
		return nil, nil, fmt.Errorf("jest --listTests: %v: %s", err, text.FirstLine(string(listed), 300))
	}
	shown, err := runNode(root, config, "jest --showConfig", args("--showConfig")...)
	if err != nil {
		return nil, nil, err
	}
	var jc jestConfig
	if err := json.Unmarshal(shown, &jc); err != nil {
		return nil, nil, fmt.Errorf("jest --showConfig: %v: %s", err, text.FirstLine(string(shown), 300))
	}
	cfg := jc.config(root)
	cfg.Tests, cfg.Listed = repoRelative(root, abs), true
	return cfg.Tests, cfg, nil
}

// lastJSON is the last line of out that starts a JSON value (jest may print a warning
// before its answer).
func lastJSON(out []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if l := bytes.TrimSpace(lines[i]); len(l) > 0 && (l[0] == '[' || l[0] == '{') {
			return l
		}
	}
	return out
}

// config is jest's resolved configuration as the suite's Config: a project per jest
// project, its moduleNameMapper as aliases (jest maps the whole module name to the
// replacement when its pattern matches anywhere in it: the pattern is widened to the whole
// name, its groups kept; of several replacements, the first), the setup files of every
// project, repo-relative.
func (jc jestConfig) config(root string) *Config {
	cfg := &Config{Root: "."}
	var setup []string
	for _, c := range jc.Configs {
		pr := Project{Root: ".", Name: displayName(c.DisplayName)}
		if r := repoRelative(root, []string{c.RootDir}); len(r) == 1 {
			pr.Root = r[0]
		}
		for _, m := range c.ModuleNameMapper {
			re, _ := m[0].(string)
			repl := ""
			switch v := m[1].(type) {
			case string:
				repl = v
			case []any:
				if len(v) > 0 {
					repl, _ = v[0].(string)
				}
			}
			if re == "" || repl == "" {
				continue
			}
			pr.Alias = append(pr.Alias, modules.Alias{Regex: "^(?:.*?)(?:" + re + ")(?:.*)$", Replacement: inRoot(root, repl)})
		}
		// Each root is a scope of the project's aliases (a deeper one than its rootDir,
		// which projects with different roots share): a module under one project's root
		// resolves with its moduleNameMapper. The rootDir's scope holds every project's,
		// for the modules outside the roots that tests load.
		roots := repoRelative(root, c.Roots)
		for _, r := range roots {
			if r != pr.Root && len(pr.Alias) > 0 {
				cfg.Projects = append(cfg.Projects, Project{Root: r, Name: pr.Name, Alias: pr.Alias})
			}
		}
		cfg.Projects = append(cfg.Projects, pr)
		own := append(repoRelative(root, c.SetupFiles), repoRelative(root, c.SetupFilesAfterEnv)...)
		slices.Sort(own)
		cfg.JestProjects = append(cfg.JestProjects, JestProject{Roots: roots, Setup: slices.Compact(own)})
		cfg.Automock = cfg.Automock || c.Automock
		setup = append(setup, own...)
	}
	slices.Sort(setup)
	cfg.SetupFiles = slices.Compact(setup)
	return cfg
}

// displayName is a jest project's displayName: a string, or {name, color}.
func displayName(v any) string {
	switch d := v.(type) {
	case string:
		return d
	case map[string]any:
		n, _ := d["name"].(string)
		return n
	}
	return ""
}

// jestHint is what to do about a jest that could not read its configuration, when its
// message says why in a way oracle can name: a jest.config.ts without ts-node (jest 29
// reads a TypeScript config through it). "" otherwise.
func jestHint(stderr string) string {
	if strings.Contains(stderr, "'ts-node' is required") {
		return "jest cannot read its TypeScript config (jest.config.ts) without ts-node, which is not installed: add ts-node to the repository's devDependencies and install it (npm i -D ts-node), or name a JavaScript config with --config FILE"
	}
	return ""
}
