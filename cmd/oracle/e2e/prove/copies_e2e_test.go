package prove

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// sampleCopy is a copy of a sample's checkout with edits made (each edit's
// old text must occur: the caller checks), and the test files (slash paths
// from the checkout's root) vitest runs in it.
type sampleCopy struct {
	edits []fileEdit
	files []string
}

// runCopies runs the files of every copy of the checkout at dir in one
// vitest process under tc, and returns each copy's results. Copy i is
// dir/copies/<i>/: every file of dir but node_modules (found above it, in
// dir), with copy i's edits made; it is a vitest project of its own, with
// the checkout's vitest.config.ts named copy-<i> (the config's aliases are
// written from its own directory, so they resolve in the copy). vitest runs
// each test file in a module graph of its own, so copy i's results are what
// a vitest run of the checkout with copy i's edits gives, without a vitest
// start per copy (TestGateTokenScope's byHand does the same for mutants).
// dir/copies and the root config (copiesConfig) are removed after the run.
func runCopies(t *testing.T, tc Toolchain, dir string, copies []sampleCopy) []VitestReport {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir) // vitest names files by their real path
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(real, "copies")
	defer os.RemoveAll(root)
	defer os.Remove(filepath.Join(real, copiesConfig))
	var projects, filters []string
	for i, c := range copies {
		dst := filepath.Join(root, fmt.Sprint(i))
		copyCheckout(t, real, dst)
		for _, e := range c.edits {
			p := filepath.Join(dst, e.file)
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, bytes.Replace(src, []byte(e.old), []byte(e.new), 1), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		config := filepath.Join(dst, "vitest.config.ts")
		src, err := os.ReadFile(config)
		if err != nil || !bytes.Contains(src, []byte("test: {")) {
			t.Fatalf("%s: no test: { to name the project in (%v)", config, err)
		}
		named := bytes.Replace(src, []byte("test: {"), []byte(fmt.Sprintf("test: {\n    name: \"copy-%d\",", i)), 1)
		if err := os.WriteFile(config, named, 0o644); err != nil {
			t.Fatal(err)
		}
		projects = append(projects, fmt.Sprintf("%q", "copies/"+fmt.Sprint(i)+"/vitest.config.ts"))
		for _, f := range c.files {
			filters = append(filters, filepath.Join(dst, filepath.FromSlash(f)))
		}
	}
	WriteFiles(t, real, map[string]string{copiesConfig: "import { defineConfig } from \"vitest/config\";\n" +
		"export default defineConfig({ test: { projects: [" + strings.Join(projects, ", ") + "] } });\n"})
	vr := RunVitest(t, tc.Node, real, append([]string{"--config", copiesConfig}, filters...)...)
	out := make([]VitestReport, len(copies))
	for i, c := range copies {
		prefix := filepath.Join(root, fmt.Sprint(i)) + string(filepath.Separator)
		for _, f := range vr.TestResults {
			if strings.HasPrefix(f.Name, prefix) {
				out[i].TestResults = append(out[i].TestResults, f)
			}
		}
		for _, f := range c.files {
			if only(out[i], f).TestResults == nil {
				t.Fatalf("vitest ran no %s in copy %d\n%s", f, i, vr.Failures())
			}
		}
		out[i] = counted(out[i])
	}
	return out
}

// copiesConfig is the vitest config in the checkout whose projects are
// runCopies' copies.
const copiesConfig = "vitest.copies.config.ts"

// only is r's results of one test file (a slash path from the checkout's
// root).
func only(r VitestReport, file string) VitestReport {
	var o VitestReport
	for _, f := range r.TestResults {
		if strings.HasSuffix(filepath.ToSlash(f.Name), "/"+file) {
			o.TestResults = append(o.TestResults, f)
		}
	}
	return counted(o)
}

// counted is r with its passed and failed tests counted from its files.
func counted(r VitestReport) VitestReport {
	r.NumPassedTests, r.NumFailedTests = 0, 0
	for _, f := range r.TestResults {
		for _, a := range f.AssertionResults {
			switch a.Status {
			case "passed":
				r.NumPassedTests++
			case "failed":
				r.NumFailedTests++
			}
		}
	}
	return r
}

// copyCheckout copies every file of src but node_modules and copies/ to
// dst.
func copyCheckout(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "node_modules" || rel == "copies" || rel == copiesConfig {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil // the node_modules link
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
