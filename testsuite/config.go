package testsuite

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// ScriptConfig is the vitest config the package's own test command names:
// the "test" script of root's package.json, or the scripts it runs (`pnpm
// test:node && pnpm test:edge`: the first that names one), when the vitest
// command there has --config FILE, --config=FILE, -c FILE or -c=FILE. It
// returns the file (repo-relative, slash-separated; it must be a file of
// root), the script that names it, and "" when no script names one (vitest's
// own search is then the default).
func ScriptConfig(root string) (file, script string) {
	scripts := packageScripts(root)
	if scripts == nil {
		return "", ""
	}
	seen := map[string]bool{}
	var walk func(name string) (string, string)
	walk = func(name string) (string, string) {
		body, ok := scripts[name]
		if !ok || seen[name] {
			return "", ""
		}
		seen[name] = true
		for _, cmd := range scriptCommands(body) {
			if f, ok := vitestConfigArg(cmd); ok {
				if rel, ok := repoConfigFile(root, f); ok {
					return rel, name
				}
				continue
			}
			if next := runsScript(cmd); next != "" {
				if f, s := walk(next); f != "" {
					return f, s
				}
			}
		}
		return "", ""
	}
	return walk("test")
}

// ScriptConfigs are the vitest configs any script of root's package.json
// names, each with the first script (by name) that names it, by file.
func ScriptConfigs(root string) map[string]string {
	out := map[string]string{}
	scripts := packageScripts(root)
	names := make([]string, 0, len(scripts))
	for n := range scripts {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		for _, cmd := range scriptCommands(scripts[n]) {
			if f, ok := vitestConfigArg(cmd); ok {
				if rel, ok := repoConfigFile(root, f); ok && out[rel] == "" {
					out[rel] = n
				}
			}
		}
	}
	return out
}

func packageScripts(root string) map[string]string {
	data, err := os.ReadFile(filepath.Join(root, "package.json"))
	if err != nil {
		return nil
	}
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range pkg.Scripts {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

var commandSeparator = regexp.MustCompile(`&&|\|\||;|\|`)

// scriptCommands splits a script into its commands (at &&, ||, ; and |),
// each into its words (quotes removed).
func scriptCommands(script string) [][]string {
	var cmds [][]string
	for _, part := range commandSeparator.Split(script, -1) {
		if w := shellWords(part); len(w) > 0 {
			cmds = append(cmds, w)
		}
	}
	return cmds
}

func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// vitestConfigArg finds the vitest command in cmd (`vitest`, `npx vitest`,
// `cross-env A=1 vitest run`, `node_modules/.bin/vitest`) and its config
// argument; ok reports that cmd runs vitest with one.
func vitestConfigArg(cmd []string) (string, bool) {
	at := -1
	for i, w := range cmd {
		if w == "vitest" || strings.HasSuffix(w, "/vitest") || strings.HasSuffix(w, "/vitest.mjs") {
			at = i
			break
		}
	}
	if at < 0 {
		return "", false
	}
	args := cmd[at+1:]
	for i, a := range args {
		for _, flag := range []string{"--config", "-c"} {
			if a == flag && i+1 < len(args) {
				return args[i+1], true
			}
			if v, ok := strings.CutPrefix(a, flag+"="); ok {
				return v, true
			}
		}
	}
	return "", false
}

// runsScript is the package script cmd runs (`npm run X`, `npm run-script
// X`, `npm test`, `pnpm X`, `pnpm run X`, `yarn X`, `yarn run X`, `bun run
// X`), "" when it runs none.
func runsScript(cmd []string) string {
	if len(cmd) < 2 {
		return ""
	}
	rest := cmd[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") { // pnpm -s test:unit, npm --silent run x
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return ""
	}
	switch cmd[0] {
	case "npm":
		switch rest[0] {
		case "test", "t":
			return "test"
		case "run", "run-script":
		default:
			return ""
		}
	case "pnpm", "yarn":
		if rest[0] != "run" {
			if rest[0] == "exec" || rest[0] == "dlx" || rest[0] == "vitest" || strings.Contains(rest[0], "/") {
				return ""
			}
			return rest[0]
		}
	case "bun": // bun run X; bun test is bun's own runner
		if rest[0] != "run" {
			return ""
		}
	default:
		return ""
	}
	rest = rest[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return ""
	}
	return rest[0]
}

// repoConfigFile is f (relative to the package, as the script runs) as a
// file of root, repo-relative.
func repoConfigFile(root, f string) (string, bool) {
	if f == "" || filepath.IsAbs(f) {
		return "", false
	}
	rel := filepath.Clean(f)
	if !filepath.IsLocal(rel) {
		return "", false
	}
	if fi, err := os.Stat(filepath.Join(root, rel)); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// ConfigError: vitest cannot load the config it was given or found (the
// config threw, or exported a function that returns no object): vitest's
// message, and the fix.
type ConfigError struct {
	// File is the config vitest tried (as vitest named it), Message its
	// error ("config must export or return an object.").
	File, Message string
	// Fix says what to do: the --config to give, or the scripts that name
	// one.
	Fix string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("vitest cannot load its config %s: %q; %s", e.File, e.Message, e.Fix)
}

var (
	failedToLoad = regexp.MustCompile(`failed to load config from (\S+)`)
	errorLine    = regexp.MustCompile(`^\s*(?:[A-Za-z]*Error|Error \[[A-Z_]+\]): (.+)$`)
)

// configError reads vitest's stderr: a config that did not load ("failed to
// load config from FILE", then the error) is a *ConfigError (its Fix for the
// config given: "" vitest's own search); anything else nil.
func configError(root, config, stderr string) *ConfigError {
	m := failedToLoad.FindStringSubmatchIndex(stderr)
	if m == nil {
		return nil
	}
	file := stderr[m[2]:m[3]]
	if r := repoRelative(root, []string{file}); len(r) == 1 {
		file = r[0]
	}
	msg := ""
	for _, l := range strings.Split(stderr[m[1]:], "\n") {
		if sub := errorLine.FindStringSubmatch(l); sub != nil {
			msg = strings.TrimSpace(sub[1])
			break
		}
	}
	if msg == "" {
		msg = "failed to load config"
	}
	e := &ConfigError{File: file, Message: msg}
	e.explain(root, config, "")
	return e
}

// explain sets e.Fix for the config given (config; named: the script of
// package.json that named it, when it was not --config).
func (e *ConfigError) explain(root, config, named string) {
	file := e.File
	var others []string
	for f, s := range ScriptConfigs(root) {
		if f != file && f != config {
			others = append(others, fmt.Sprintf("--config %s (the %s script of package.json names it)", f, s))
		}
	}
	slices.Sort(others)
	switch {
	case named != "":
		e.Fix = fmt.Sprintf("it is named by the %s script of package.json; give --config FILE with a config vitest can load", named)
	case config != "":
		e.Fix = "give --config FILE with a config vitest can load"
	default:
		e.Fix = "vitest found it by its own search; give --config FILE with a config vitest can load"
	}
	if len(others) == 0 { // no script names one: the config files here
		for _, pat := range []string{"vitest*.config.*", "vite*.config.*"} {
			m, _ := filepath.Glob(filepath.Join(root, pat))
			for _, f := range m {
				if b := filepath.Base(f); b != file && b != config && !strings.Contains(b, ".timestamp-") {
					others = append(others, "--config "+b)
				}
			}
		}
		slices.Sort(others)
		others = slices.Compact(others)
	}
	if len(others) > 0 {
		e.Fix += ": " + strings.Join(others, ", or ")
	}
}
