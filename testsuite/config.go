package testsuite

import (
	"bytes"
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
// test:node && pnpm test:edge`, `run-s lint test:*`, `concurrently
// npm:test:*`, `node --run test:unit`: the first that names one, in the
// order they run), when the vitest
// command there has --config FILE, --config=FILE, -c FILE or -c=FILE. It
// returns the file (repo-relative, slash-separated; it must be a file of
// root), the script that names it, and "" when no script names one (vitest's
// own search is then the default).
func ScriptConfig(root string) (file, script string) { return scriptConfig(root, "vitest") }

// JestScriptConfig is ScriptConfig for jest: the jest config the package's
// own test command names (`jest --config FILE`, `-c FILE`), "" when none.
func JestScriptConfig(root string) (file, script string) { return scriptConfig(root, "jest") }

// scriptConfig is the config the tool's command in the test script (or a
// script it runs) names.
func scriptConfig(root, tool string) (file, script string) {
	scripts := packageScripts(root)
	if scripts == nil {
		return "", ""
	}
	seen := map[string]bool{}
	var walk func(name string) (string, string)
	walk = func(name string) (string, string) {
		body, ok := scripts.body[name]
		if !ok || seen[name] {
			return "", ""
		}
		seen[name] = true
		for _, cmd := range scriptCommands(body) {
			if f, ok := configArg(cmd, tool); ok {
				if rel, ok := repoConfigFile(root, f); ok {
					return rel, name
				}
				continue
			}
			for _, next := range scripts.run(cmd) {
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
	if scripts == nil {
		return out
	}
	names := slices.Clone(scripts.names)
	slices.Sort(names)
	for _, n := range names {
		for _, cmd := range scriptCommands(scripts.body[n]) {
			if f, ok := vitestConfigArg(cmd); ok {
				if rel, ok := repoConfigFile(root, f); ok && out[rel] == "" {
					out[rel] = n
				}
			}
		}
	}
	return out
}

// scriptSet is the scripts of a package.json: each one's body, and their
// names in the file's order (npm-run-all and concurrently expand a pattern
// in that order).
type scriptSet struct {
	body  map[string]string
	names []string
}

// packageScripts reads root's package.json scripts; nil when there is no
// package.json, it is not JSON, or it has no scripts object.
func packageScripts(root string) *scriptSet {
	data, err := os.ReadFile(filepath.Join(root, "package.json"))
	if err != nil {
		return nil
	}
	var pkg struct {
		Scripts json.RawMessage `json:"scripts"`
	}
	if json.Unmarshal(data, &pkg) != nil || len(pkg.Scripts) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(pkg.Scripts))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	set := &scriptSet{body: map[string]string{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		name, _ := tok.(string)
		var v any
		if dec.Decode(&v) != nil {
			return nil
		}
		if body, ok := v.(string); ok {
			if _, dup := set.body[name]; !dup {
				set.names = append(set.names, name)
			}
			set.body[name] = body
		}
	}
	return set
}

// run is the package scripts cmd runs, in the order it runs them: one for
// a package manager's run (runsScript), `node --run X` and antfu's `nr X`;
// every script a pattern of npm-run-all (`run-s test:*`, `run-p a b`,
// `npm-run-all -s lint test:*`) or of concurrently (`npm:test:*`, a command
// of its own: scriptCommands) matches.
func (s *scriptSet) run(cmd []string) []string {
	cmd = withoutRunner(cmd)
	if len(cmd) == 0 {
		return nil
	}
	switch cmd[0] {
	case "npm-run-all", "npm-run-all2", "run-s", "run-p":
		var out []string
		for _, w := range cmd[1:] {
			if w == "--" {
				break
			}
			if !strings.HasPrefix(w, "-") {
				out = append(out, s.matching(w)...)
			}
		}
		return out
	case "nr":
		if len(cmd) > 1 && !strings.HasPrefix(cmd[1], "-") {
			return []string{cmd[1]}
		}
		return nil
	case "node":
		for i, w := range cmd[1:] {
			if w == "--run" && i+2 < len(cmd) {
				return []string{cmd[i+2]}
			}
			if v, ok := strings.CutPrefix(w, "--run="); ok {
				return []string{v}
			}
		}
		return nil
	}
	for _, pm := range []string{"npm:", "pnpm:", "yarn:", "bun:"} { // concurrently's npm:test:*
		if p, ok := strings.CutPrefix(cmd[0], pm); ok && len(cmd) == 1 {
			return s.matching(p)
		}
	}
	if next := runsScript(cmd); next != "" {
		return []string{next}
	}
	return nil
}

// withoutRunner is cmd without a leading npx, pnpx or bunx and their
// flags (`npx -y run-s test:*`).
func withoutRunner(cmd []string) []string {
	if len(cmd) == 0 || !slices.Contains([]string{"npx", "pnpx", "bunx"}, cmd[0]) {
		return cmd
	}
	cmd = cmd[1:]
	for len(cmd) > 0 && strings.HasPrefix(cmd[0], "-") {
		cmd = cmd[1:]
	}
	return cmd
}

// matching is the scripts a pattern of npm-run-all names, in the file's
// order: `*` is any part of one `:`-separated segment, `**` any number of
// segments; a pattern without them names one script. A pattern's arguments
// (`test:unit -- --watch` is one word: "test:unit {1}") are not read.
func (s *scriptSet) matching(pattern string) []string {
	pattern, _, _ = strings.Cut(pattern, " ")
	if !strings.Contains(pattern, "*") {
		return []string{pattern}
	}
	var re strings.Builder
	re.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		switch {
		case strings.HasPrefix(pattern[i:], "**"):
			re.WriteString(".*")
			i++
		case pattern[i] == '*':
			re.WriteString("[^:]*")
		default:
			re.WriteString(regexp.QuoteMeta(pattern[i : i+1]))
		}
	}
	re.WriteString("$")
	m, err := regexp.Compile(re.String())
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range s.names {
		if m.MatchString(n) {
			out = append(out, n)
		}
	}
	return out
}

var commandSeparator = regexp.MustCompile(`&&|\|\||;|\|`)

// scriptCommands splits a script into its commands (at &&, ||, ; and |),
// each into its words (quotes removed). concurrently's arguments are
// commands of their own (`concurrently "vitest -c a.ts" "npm:test:*"`):
// each is one here, in their order.
func scriptCommands(script string) [][]string {
	var cmds [][]string
	for _, part := range commandSeparator.Split(script, -1) {
		w := shellWords(part)
		if c := withoutRunner(w); len(c) > 0 && c[0] == "concurrently" {
			for _, arg := range c[1:] {
				if !strings.HasPrefix(arg, "-") {
					cmds = append(cmds, scriptCommands(arg)...)
				}
			}
			continue
		}
		if len(w) > 0 {
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
func vitestConfigArg(cmd []string) (string, bool) { return configArg(cmd, "vitest") }

// configArg is vitestConfigArg for the command of tool ("vitest", or
// "jest": `jest`, `npx jest`, `node_modules/jest/bin/jest.js`).
func configArg(cmd []string, tool string) (string, bool) {
	at := -1
	for i, w := range cmd {
		if w == tool || strings.HasSuffix(w, "/"+tool) || strings.HasSuffix(w, "/"+tool+".mjs") || strings.HasSuffix(w, "/"+tool+".js") {
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
