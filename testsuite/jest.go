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
		RootDir            string   `json:"rootDir"`
		DisplayName        any      `json:"displayName"`
		SetupFiles         []string `json:"setupFiles"`
		SetupFilesAfterEnv []string `json:"setupFilesAfterEnv"`
		ModuleNameMapper   [][2]any `json:"moduleNameMapper"`
	} `json:"configs"`
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
		cfg.Projects = append(cfg.Projects, pr)
		setup = append(setup, repoRelative(root, c.SetupFiles)...)
		setup = append(setup, repoRelative(root, c.SetupFilesAfterEnv)...)
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
