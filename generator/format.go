package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/oracle-ts/oracle/internal/nodeproc"
	"github.com/oracle-ts/oracle/internal/text"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// A generated oracle passes the repository's own formatter (SPEC: "passes
// its own linter's autofix"): when the repository has prettier, biome or
// eslint configured and installed, gen runs its fix on the oracle before
// writing it, and prove's staleness check compares the formatted bytes (it
// plans through the same path). The formatter is the repository's own, run
// with node from its node_modules, fed the oracle on stdin under the
// oracle's path (so its configuration and ignore files apply): the same
// version on the same input gives the same bytes. Without one, the output is
// the template's.

// formatter is a repository's formatter for one oracle path.
type formatter struct {
	Name    string // "prettier 3.10.1": what the header says ran
	node    string
	args    []string // after node; the oracle comes on stdin
	dir     string   // working directory: the package root holding the formatter
	extract func(stdout []byte) ([]byte, error)
}

// findFormatter looks, from the oracle's directory up to the repository root,
// for the first package whose node_modules has prettier, biome or eslint and
// that configures it (a config file, or a package.json key). nil when none.
func findFormatter(root, oracle string) *formatter {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil
	}
	abs := filepath.Join(root, filepath.FromSlash(oracle))
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if f := formatterIn(dir, node, abs); f != nil {
			return f
		}
		if rel, err := filepath.Rel(root, dir); err != nil || rel == "." || !filepath.IsLocal(rel) {
			return nil
		}
	}
}

func formatterIn(dir, node, file string) *formatter {
	pkg := readJSON(filepath.Join(dir, "package.json"))
	has := func(names ...string) bool {
		for _, n := range names {
			if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
				return true
			}
		}
		return false
	}
	if bin := filepath.Join(dir, "node_modules", "prettier", "bin", "prettier.cjs"); has("node_modules/prettier/bin/prettier.cjs") &&
		(pkg["prettier"] != nil || has(".prettierrc", ".prettierrc.json", ".prettierrc.yaml", ".prettierrc.yml", ".prettierrc.js", ".prettierrc.cjs", ".prettierrc.mjs", "prettier.config.js", "prettier.config.cjs", "prettier.config.mjs", ".prettierrc.toml")) {
		return &formatter{Name: "prettier " + version(dir, "prettier"), node: node, dir: dir,
			args:    []string{bin, "--stdin-filepath", file},
			extract: func(out []byte) ([]byte, error) { return out, nil }}
	}
	if bin := filepath.Join(dir, "node_modules", "@biomejs", "biome", "bin", "biome"); has("node_modules/@biomejs/biome/bin/biome") && has("biome.json", "biome.jsonc") {
		return &formatter{Name: "biome " + version(dir, "@biomejs/biome"), node: node, dir: dir,
			args:    []string{bin, "format", "--stdin-file-path=" + file},
			extract: func(out []byte) ([]byte, error) { return out, nil }}
	}
	if bin := filepath.Join(dir, "node_modules", "eslint", "bin", "eslint.js"); has("node_modules/eslint/bin/eslint.js") &&
		has("eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", ".eslintrc", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml") {
		return &formatter{Name: "eslint --fix " + version(dir, "eslint"), node: node, dir: dir,
			args: []string{bin, "--fix-dry-run", "--format", "json", "--stdin", "--stdin-filename", file},
			extract: func(out []byte) ([]byte, error) {
				var res []struct {
					Output *string `json:"output"`
				}
				if err := json.Unmarshal(out, &res); err != nil {
					return nil, fmt.Errorf("eslint --format json: %v", err)
				}
				if len(res) == 0 || res[0].Output == nil {
					return nil, nil // nothing to fix
				}
				return []byte(*res[0].Output), nil
			}}
	}
	return nil
}

// format runs the formatter on src; the error says what the formatter said.
func (f *formatter) format(src []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := nodeproc.Command(ctx, f.node, f.dir, nil, f.args...)
	cmd.Stdin = bytes.NewReader(src)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil && !strings.HasPrefix(f.Name, "eslint") { // eslint exits 1 when problems remain
		return nil, fmt.Errorf("%s on the oracle: %v: %s", f.Name, err, text.FirstLine(errb.String(), 300))
	}
	formatted, xerr := f.extract(out.Bytes())
	if xerr != nil {
		return nil, xerr
	}
	if formatted == nil {
		return src, nil
	}
	return formatted, nil
}

func readJSON(p string) map[string]any {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

// version is the installed version of package name under dir.
func version(dir, name string) string {
	m := readJSON(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json"))
	if v, ok := m["version"].(string); ok {
		return v
	}
	return "(unknown version)"
}
