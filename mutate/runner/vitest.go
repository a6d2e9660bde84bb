package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/oracle-ts/oracle/internal/vitestloc"
)

// FindVitest returns the absolute path of the vitest.mjs the package manager would run for
// testFile (repo-relative) in the repository dir: the one lookup of internal/vitestloc, which
// the listing of the tests shares (the test file's directory and those above it, a workspace
// package's own node_modules first, then the workspace's, above dir too, up to the workspace
// root). A missing vitest is an error that says what to install.
func FindVitest(dir, testFile string) (string, error) {
	abs, err := repoFile(dir, testFile)
	if err != nil {
		return "", err
	}
	if p := vitestloc.Find(filepath.Dir(abs)); p != "" {
		return p, nil
	}
	return "", missingVitest(filepath.Clean(dir), filepath.Dir(abs))
}

// repoFile resolves a repo-relative path and refuses one that leaves the repository.
func repoFile(dir, rel string) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("runner: repository dir %q is not absolute", dir)
	}
	if rel == "" || filepath.IsAbs(rel) {
		return "", fmt.Errorf("runner: test file %q must be relative to the repository root", rel)
	}
	abs := filepath.Join(dir, rel)
	if !within(filepath.Clean(dir), abs) {
		return "", fmt.Errorf("runner: test file %q is outside the repository", rel)
	}
	return abs, nil
}

// configFile resolves a config path (Spec.Config): inside the repository,
// or above it when it is a workspace's config the repository lies below.
func configFile(dir, rel string) (string, error) {
	if abs, err := repoFile(dir, rel); err == nil {
		return abs, nil
	}
	abs := filepath.Join(dir, rel)
	if rel == "" || filepath.IsAbs(rel) || !within(filepath.Dir(abs), filepath.Clean(dir)) {
		return "", fmt.Errorf("runner: config %q is neither in the repository nor in a directory above it", rel)
	}
	return abs, nil
}

// VitestDir is where vitest runs the repository root's tests with config
// (repo-relative, as Spec.Config; "" none): the root, or the config's
// directory when it is above the root (a workspace's one config, whose
// include, projects and aliases are written from there).
func VitestDir(root, config string) string {
	if config == "" {
		return root
	}
	dir := filepath.Dir(filepath.Join(root, config))
	if !within(root, dir) && within(dir, root) {
		return dir
	}
	return root
}

func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// missingVitest builds the "what to install" message: it names the nearest package.json and
// whether it already declares vitest (then only the install step is missing).
func missingVitest(root, from string) error {
	for _, pnp := range []string{".pnp.cjs", ".pnp.js"} {
		if _, err := os.Stat(filepath.Join(root, pnp)); err == nil {
			return fmt.Errorf("this is a Yarn Plug'n'Play repository (%s): vitest runs here from a node_modules directory, which Plug'n'Play does not create; set `nodeLinker: node-modules` in .yarnrc.yml and run `yarn install`", pnp)
		}
	}
	pkgDir := packageDir(root, from)
	relPkg, _ := filepath.Rel(root, pkgDir)
	where := "the repository root"
	if relPkg != "." {
		where = relPkg
	}
	if v := declaredVitest(filepath.Join(pkgDir, "package.json")); v != "" {
		return fmt.Errorf("vitest is not installed: %s/package.json declares vitest %s but there is no node_modules/vitest/vitest.mjs from the test file up to the workspace root; run your package manager's install (npm ci) in %s", filepath.ToSlash(relPkg), v, where)
	}
	return fmt.Errorf("vitest is not installed: no node_modules/vitest/vitest.mjs from the test file up to the workspace root; install it in %s with `npm install --save-dev vitest` (or your package manager's equivalent)", where)
}

// workDir is where vitest runs a test file of the repository root whose
// directory is from: where its root is the one vitest has when the tests
// are listed. With a config given (-c), the repository root, where it was
// listed; else the nearest directory from "from" up to root that holds a
// vitest or vite config file (a workspace's one config at its root, with or
// without projects, or a package's own), as vitest's own search from there
// finds it; with none, the nearest package (packageDir).
func workDir(root, from string, config bool) string {
	if config {
		return root
	}
	for d := from; ; d = filepath.Dir(d) {
		if vitestloc.HasConfig(d) {
			return d
		}
		if d == root || !within(root, d) {
			return packageDir(root, from)
		}
	}
}

// packageDir is the nearest directory from "from" up to root that holds a package.json
// (root when none does): the vitest working directory, so the package's own config applies.
func packageDir(root, from string) string {
	for d := from; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "package.json")); err == nil && !fi.IsDir() {
			return d
		}
		if d == root || !within(root, d) {
			return root
		}
	}
}

func declaredVitest(pkgJSON string) string {
	b, err := os.ReadFile(pkgJSON)
	if err != nil {
		return ""
	}
	var p struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if json.Unmarshal(b, &p) != nil {
		return ""
	}
	if v := p.DevDependencies["vitest"]; v != "" {
		return v
	}
	return p.Dependencies["vitest"]
}
