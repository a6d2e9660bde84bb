package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestGenerate(t *testing.T) {
	cases := []struct {
		name               string
		cfg                Config
		minFiles           int
		minLines, maxLines int
		allConstructs      bool // every construct of the package doc appears
	}{
		{name: "default", cfg: Default(), minFiles: 1000, minLines: 95_000, maxLines: 110_000, allConstructs: true},
		{name: "small", cfg: Config{Seed: 7, Packages: 3, FilesPerPackage: 12, FunctionsPerFile: 2},
			minFiles: 36, minLines: 1_000, maxLines: 6_000},
		{name: "tiny-unlinked", cfg: Config{Seed: 3, Packages: 1, FilesPerPackage: 4, FunctionsPerFile: 1,
			MinBodyLines: 6, MaxBodyLines: 8, NoWorkspaceLinks: true},
			minFiles: 4, minLines: 40, maxLines: 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dirA, dirB := t.TempDir(), t.TempDir()
			start := time.Now()
			stA, err := Generate(dirA, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			elapsed := time.Since(start)
			stB, err := Generate(dirB, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if stA != stB {
				t.Errorf("stats differ between runs: %+v vs %+v", stA, stB)
			}
			if ha, hb := hashTree(t, dirA), hashTree(t, dirB); ha != hb {
				t.Errorf("same config, different trees: %s vs %s", ha, hb)
			}
			t.Logf("%+v in %v", stA, elapsed)

			if stA.Packages != tc.cfg.Packages {
				t.Errorf("Packages = %d, want %d", stA.Packages, tc.cfg.Packages)
			}
			if stA.Files < tc.minFiles {
				t.Errorf("Files = %d, want >= %d", stA.Files, tc.minFiles)
			}
			if stA.Lines < tc.minLines || stA.Lines > tc.maxLines {
				t.Errorf("Lines = %d, want %d..%d", stA.Lines, tc.minLines, tc.maxLines)
			}
			if want := tc.cfg.Packages * tc.cfg.FilesPerPackage * (tc.cfg.FunctionsPerFile + 1); stA.Functions != want {
				t.Errorf("Functions = %d, want %d", stA.Functions, want)
			}
			if stA.Calls < 3*stA.Functions {
				t.Errorf("Calls = %d, want at least 3 per function (%d functions)", stA.Calls, stA.Functions)
			}

			r := load(t, dirA)
			if r.tsFiles != stA.Files || r.tsLines != stA.Lines {
				t.Errorf("on disk: %d .ts files, %d lines; Stats says %d, %d", r.tsFiles, r.tsLines, stA.Files, stA.Lines)
			}
			checkLayout(t, r, tc.cfg)
			checkFunctions(t, r, tc.cfg, stA.Functions, stA.Calls)
			checkImports(t, r, tc.cfg)
			if tc.allConstructs {
				checkConstructs(t, r)
			}
		})
	}
}

func TestGenerateSeedMatters(t *testing.T) {
	cfg := Config{Seed: 1, Packages: 2, FilesPerPackage: 8, FunctionsPerFile: 2}
	a, b := t.TempDir(), t.TempDir()
	if _, err := Generate(a, cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Seed = 2
	if _, err := Generate(b, cfg); err != nil {
		t.Fatal(err)
	}
	if hashTree(t, a) == hashTree(t, b) {
		t.Error("different seeds gave the same tree")
	}
}

func TestGenerateOverwrites(t *testing.T) {
	cfg := Config{Seed: 5, Packages: 2, FilesPerPackage: 6, FunctionsPerFile: 2}
	a, b := t.TempDir(), t.TempDir()
	if _, err := Generate(a, cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(a, cfg); err != nil { // again into the same directory (symlinks exist)
		t.Fatalf("second Generate into the same dir: %v", err)
	}
	if _, err := Generate(b, cfg); err != nil {
		t.Fatal(err)
	}
	if hashTree(t, a) != hashTree(t, b) {
		t.Error("regenerating in place changed the tree")
	}
}

func TestGenerateRejectsBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{},
		{Packages: 1, FilesPerPackage: 3, FunctionsPerFile: 1},
		{Packages: 1, FilesPerPackage: 4, FunctionsPerFile: 0},
		{Packages: 1, FilesPerPackage: 4, FunctionsPerFile: 1, MinBodyLines: 20, MaxBodyLines: 10},
		{Packages: 1, FilesPerPackage: 4, FunctionsPerFile: 1, MinBodyLines: 2, MaxBodyLines: 10},
	} {
		if _, err := Generate(t.TempDir(), cfg); err == nil {
			t.Errorf("Generate(%+v) = nil error, want one", cfg)
		}
	}
}

// TestTypecheck runs tsc --noEmit over generated repositories when SYNTH_TSC
// names a tsc binary (TypeScript 5.5 to 5.9: the base tsconfig uses baseUrl,
// an error since 6.0), e.g.
//
//	(cd /tmp/ts && npm i typescript@5.9) && SYNTH_TSC=/tmp/ts/node_modules/.bin/tsc go test -run Typecheck ./bench/synth
func TestTypecheck(t *testing.T) {
	tsc := os.Getenv("SYNTH_TSC")
	if tsc == "" {
		t.Skip("SYNTH_TSC not set")
	}
	for _, cfg := range []Config{{Seed: 11, Packages: 3, FilesPerPackage: 10, FunctionsPerFile: 2}, Default()} {
		dir := t.TempDir()
		if _, err := Generate(dir, cfg); err != nil {
			t.Fatal(err)
		}
		for _, project := range []string{".", "packages/pkg1"} {
			cmd := exec.Command(tsc, "--noEmit", "-p", project)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%+v: tsc -p %s: %v\n%s", cfg, project, err, out)
			}
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(b.TempDir(), Default()); err != nil {
			b.Fatal(err)
		}
	}
}

// hashTree hashes every path, kind, content and symlink target under dir.
func hashTree(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "L %s -> %s\n", rel, target)
		case d.IsDir():
			fmt.Fprintf(h, "D %s\n", rel)
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "F %s %d\n", rel, len(b))
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// repo is a generated tree read back, with a small resolver of its imports
// (enough for the subset of TypeScript module resolution the generator uses).
type repo struct {
	root    string
	files   map[string]string // slash path -> content (text files, not under node_modules)
	tsFiles int
	tsLines int
	aliases map[string]string // "@pkg0/" -> "packages/pkg0/src/"
	exports map[string]map[string]string
}

func load(t *testing.T, root string) *repo {
	t.Helper()
	r := &repo{root: root, files: map[string]string{}, aliases: map[string]string{}, exports: map[string]map[string]string{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		r.files[rel] = string(b)
		if strings.HasSuffix(rel, ".ts") {
			r.tsFiles++
			r.tsLines += strings.Count(string(b), "\n")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var base struct {
		CompilerOptions struct {
			BaseURL          string              `json:"baseUrl"`
			Paths            map[string][]string `json:"paths"`
			CustomConditions []string            `json:"customConditions"`
			ModuleResolution string              `json:"moduleResolution"`
		} `json:"compilerOptions"`
	}
	mustJSONC(t, r.files["tsconfig.base.json"], &base)
	co := base.CompilerOptions
	if co.BaseURL != "." || co.ModuleResolution != "Bundler" || len(co.CustomConditions) != 1 || co.CustomConditions[0] != "source" {
		t.Errorf("tsconfig.base.json compilerOptions: baseUrl %q, moduleResolution %q, customConditions %v", co.BaseURL, co.ModuleResolution, co.CustomConditions)
	}
	for k, v := range co.Paths {
		if !strings.HasSuffix(k, "/*") || len(v) != 1 || !strings.HasSuffix(v[0], "/*") {
			t.Errorf("tsconfig paths %q: %v", k, v)
			continue
		}
		r.aliases[strings.TrimSuffix(k, "*")] = strings.TrimSuffix(v[0], "*")
	}
	return r
}

// mustJSONC decodes JSON with // and /* */ comments outside strings.
func mustJSONC(t *testing.T, s string, v any) {
	t.Helper()
	var b strings.Builder
	inStr := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			b.WriteByte(c)
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				t.Fatalf("unterminated comment in %q", s)
			}
			i += 2 + end + 1
		default:
			b.WriteByte(c)
		}
	}
	if err := json.Unmarshal([]byte(b.String()), v); err != nil {
		t.Fatalf("decode %q...: %v", s[:min(len(s), 80)], err)
	}
}

type packageJSON struct {
	Name         string                     `json:"name"`
	Workspaces   []string                   `json:"workspaces"`
	Exports      map[string]json.RawMessage `json:"exports"`
	Dependencies map[string]string          `json:"dependencies"`
}

func checkLayout(t *testing.T, r *repo, cfg Config) {
	var root packageJSON
	mustJSONC(t, r.files["package.json"], &root)
	if len(root.Workspaces) != 1 || root.Workspaces[0] != "packages/*" {
		t.Errorf("root workspaces = %v", root.Workspaces)
	}
	for i := 0; i < cfg.Packages; i++ {
		dir := fmt.Sprintf("packages/pkg%d/", i)
		var pj packageJSON
		mustJSONC(t, r.files[dir+"package.json"], &pj)
		if want := fmt.Sprintf("@syn/pkg%d", i); pj.Name != want {
			t.Errorf("%spackage.json name = %q, want %q", dir, pj.Name, want)
		}
		// The "source" condition must come first to win over "default".
		dot := string(pj.Exports["."])
		if !strings.Contains(dot, `"source": "./src/index.ts"`) || strings.Index(dot, `"source"`) > strings.Index(dot, `"default"`) {
			t.Errorf("%spackage.json exports[\".\"] = %s", dir, dot)
		}
		if _, ok := pj.Exports["./features/*"]; !ok {
			t.Errorf("%spackage.json: no subpath pattern export", dir)
		}
		if _, ok := pj.Dependencies["zod"]; !ok {
			t.Errorf("%spackage.json: zod is not a dependency", dir)
		}
		var tc struct {
			Extends string `json:"extends"`
		}
		mustJSONC(t, r.files[dir+"tsconfig.json"], &tc)
		if tc.Extends != "../../tsconfig.base.json" {
			t.Errorf("%stsconfig.json extends %q", dir, tc.Extends)
		}
		if got := r.aliases[fmt.Sprintf("@pkg%d/", i)]; got != dir+"src/" {
			t.Errorf("alias @pkg%d/* -> %q, want %q", i, got, dir+"src/*")
		}
		link := filepath.Join(r.root, "node_modules", "@syn", fmt.Sprintf("pkg%d", i))
		target, err := os.Readlink(link)
		switch {
		case cfg.NoWorkspaceLinks && err == nil:
			t.Errorf("%s exists with NoWorkspaceLinks", link)
		case !cfg.NoWorkspaceLinks && err != nil:
			t.Errorf("workspace link: %v", err)
		case !cfg.NoWorkspaceLinks:
			if _, err := os.Stat(filepath.Join(link, "package.json")); err != nil || target != filepath.FromSlash(fmt.Sprintf("../../packages/pkg%d", i)) {
				t.Errorf("%s -> %s: %v", link, target, err)
			}
		}
	}
}

var (
	fnStart = regexp.MustCompile(`^export (?:default )?(?:async )?function (\w+)\(|^export const (\w+) = (?:async )?(?:function )?\(`)
	fnEnd   = regexp.MustCompile(`^};?$`)
	callRE  = regexp.MustCompile(`[\w$]\(|\?\.\(`) // f( and f?.(, also matching import(
	helper  = regexp.MustCompile(`(?m)^function clamp\(value: number\): number \{$`)
)

// checkFunctions counts the functions and checks the body lengths of the exported ones.
func checkFunctions(t *testing.T, r *repo, cfg Config, want, wantCalls int) {
	minBody, maxBody := cfg.MinBodyLines, cfg.MaxBodyLines
	if minBody == 0 {
		minBody, maxBody = 10, 40
	}
	n, calls := 0, 0
	for name, src := range r.files {
		if !strings.HasSuffix(name, ".ts") {
			continue
		}
		n += len(helper.FindAllStringIndex(src, -1))
		lines := strings.Split(src, "\n")
		for i := 0; i < len(lines); i++ {
			if !fnStart.MatchString(lines[i]) {
				continue
			}
			n++
			j := i + 1
			for j < len(lines) && !fnEnd.MatchString(lines[j]) {
				j++
			}
			for _, l := range lines[i+1 : j] {
				calls += len(callRE.FindAllString(l, -1)) - strings.Count(l, "import(")
			}
			if body := j - i - 1; body < minBody || body > maxBody {
				t.Errorf("%s:%d: body of %d lines, want %d..%d", name, i+1, body, minBody, maxBody)
			}
			i = j
		}
	}
	if n != want {
		t.Errorf("%d functions on disk, Stats.Functions = %d", n, want)
	}
	if calls != wantCalls {
		t.Errorf("%d call expressions in function bodies on disk, Stats.Calls = %d", calls, wantCalls)
	}
}

var (
	staticRE  = regexp.MustCompile(`^(import|export) (.+) from "([^"]+)";$`)
	dynDestRE = regexp.MustCompile(`const \{ (\w+) \} = await import\("([^"]+)"\)`)
	dynCallRE = regexp.MustCompile(`\(await import\("([^"]+)"\)\)\.(\w+)\(`)
	declRE    = regexp.MustCompile(`(?m)^export (default )?(?:async )?function (\w+)|^export const (\w+) =|^export (?:interface|type) (\w+)`)
)

// resolve maps a specifier of file from to a repository file, "external:<pkg>", or "".
func (r *repo) resolve(from, spec string) string {
	probe := func(p string) string {
		p = path.Clean(p)
		for _, c := range []string{p, strings.TrimSuffix(p, ".js") + ".ts", p + ".ts", p + "/index.ts"} {
			if strings.HasSuffix(c, ".js") || !strings.HasSuffix(c, ".ts") {
				continue
			}
			if _, ok := r.files[c]; ok {
				return c
			}
		}
		return ""
	}
	switch {
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		return probe(path.Join(path.Dir(from), spec))
	case strings.HasPrefix(spec, "@syn/"):
		parts := strings.SplitN(spec, "/", 3)
		dir := "packages/" + parts[1] + "/"
		var pj packageJSON
		if err := json.Unmarshal([]byte(r.files[dir+"package.json"]), &pj); err != nil || pj.Name != parts[0]+"/"+parts[1] {
			return ""
		}
		sub := "."
		if len(parts) == 3 {
			sub = "./" + parts[2]
		}
		for key, raw := range pj.Exports {
			var cond map[string]string
			if json.Unmarshal(raw, &cond) != nil || cond["source"] == "" {
				continue
			}
			if key == sub {
				return probe(dir + cond["source"])
			}
			if pre, ok := strings.CutSuffix(key, "*"); ok && strings.HasPrefix(sub, pre) {
				return probe(dir + strings.ReplaceAll(cond["source"], "*", strings.TrimPrefix(sub, pre)))
			}
		}
		return ""
	case strings.HasPrefix(spec, "@pkg"):
		for a, target := range r.aliases {
			if rest, ok := strings.CutPrefix(spec, a); ok {
				return probe(target + rest)
			}
		}
		return ""
	case spec == "zod":
		return "external:zod"
	}
	return ""
}

// exportsOf lists the names a module exports; the value is the module a
// namespace export (`export * as ns`) stands for, "" otherwise.
func (r *repo) exportsOf(t *testing.T, file string) map[string]string {
	if e, ok := r.exports[file]; ok {
		return e
	}
	e := map[string]string{}
	r.exports[file] = e // cycles (there should be none) end here
	for _, m := range declRE.FindAllStringSubmatch(r.files[file], -1) {
		switch {
		case m[1] != "":
			e["default"] = ""
		case m[2] != "":
			e[m[2]] = ""
		case m[3] != "":
			e[m[3]] = ""
		default:
			e[m[4]] = ""
		}
	}
	for _, line := range strings.Split(r.files[file], "\n") {
		m := staticRE.FindStringSubmatch(line)
		if m == nil || m[1] != "export" {
			continue
		}
		target := r.resolve(file, m[3])
		if target == "" || strings.HasPrefix(target, "external:") {
			continue // reported by checkImports
		}
		clause := strings.TrimPrefix(m[2], "type ")
		switch {
		case clause == "*":
			for k, v := range r.exportsOf(t, target) {
				if k != "default" {
					e[k] = v
				}
			}
		case strings.HasPrefix(clause, "* as "):
			e[strings.TrimPrefix(clause, "* as ")] = target
		default:
			for _, spec := range braces(clause) {
				orig, local := spec, spec
				if a, b, ok := strings.Cut(spec, " as "); ok {
					orig, local = a, b
				}
				if _, ok := r.exportsOf(t, target)[orig]; !ok {
					t.Errorf("%s: re-exports %q, which %s does not export", file, orig, target)
				}
				e[local] = r.exportsOf(t, target)[orig]
			}
		}
	}
	return e
}

func braces(s string) []string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "{"), "}")
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, strings.TrimPrefix(p, "type "))
		}
	}
	return out
}

// checkImports resolves every import, re-export and import() of every file,
// and checks that each imported name is exported by its target, including
// the members called through namespaces.
func checkImports(t *testing.T, r *repo, cfg Config) {
	names := make([]string, 0, len(r.files))
	for name := range r.files {
		if strings.HasSuffix(name, ".ts") && !strings.HasSuffix(name, ".d.ts") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	errs := 0
	fail := func(format string, args ...any) {
		if errs++; errs <= 20 {
			t.Errorf(format, args...)
		}
	}
	for _, file := range names {
		src := r.files[file]
		namespaces := map[string]string{} // local -> module it stands for
		for i, line := range strings.Split(src, "\n") {
			m := staticRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			target := r.resolve(file, m[3])
			if target == "" {
				fail("%s:%d: %q does not resolve", file, i+1, m[3])
				continue
			}
			if m[1] == "export" || strings.HasPrefix(target, "external:") {
				r.exportsOf(t, file) // checks re-exported names
				continue
			}
			exp := r.exportsOf(t, target)
			clause := strings.TrimPrefix(m[2], "type ")
			if ns, ok := strings.CutPrefix(clause, "* as "); ok {
				namespaces[ns] = target
				continue
			}
			if def, rest, _ := strings.Cut(clause, ","); !strings.HasPrefix(def, "{") {
				if _, ok := exp["default"]; !ok {
					fail("%s:%d: default import from %s, which has no default export", file, i+1, target)
				}
				clause = rest
			}
			for _, spec := range braces(clause) {
				orig, local := spec, spec
				if a, b, ok := strings.Cut(spec, " as "); ok {
					orig, local = a, b
				}
				v, ok := exp[orig]
				if !ok {
					fail("%s:%d: imports %q, which %s does not export", file, i+1, orig, target)
				}
				if v != "" {
					namespaces[local] = v
				}
			}
		}
		for ns, target := range namespaces {
			re := regexp.MustCompile(`\b` + regexp.QuoteMeta(ns) + `\.(\w+)\(`)
			for _, m := range re.FindAllStringSubmatch(src, -1) {
				if _, ok := r.exportsOf(t, target)[m[1]]; !ok {
					fail("%s: calls %s.%s, which %s does not export", file, ns, m[1], target)
				}
			}
		}
		for _, m := range dynDestRE.FindAllStringSubmatch(src, -1) {
			if target := r.resolve(file, m[2]); target == "" {
				fail("%s: import(%q) does not resolve", file, m[2])
			} else if _, ok := r.exportsOf(t, target)[m[1]]; !ok {
				fail("%s: import(%q) destructures %q, not exported by %s", file, m[2], m[1], target)
			}
		}
		for _, m := range dynCallRE.FindAllStringSubmatch(src, -1) {
			if target := r.resolve(file, m[1]); target == "" {
				fail("%s: import(%q) does not resolve", file, m[1])
			} else if _, ok := r.exportsOf(t, target)[m[2]]; !ok {
				fail("%s: (await import(%q)).%s, not exported by %s", file, m[1], m[2], target)
			}
		}
	}
	// Every package root exports its whole feature API and its util namespace.
	for i := 0; i < cfg.Packages; i++ {
		e := r.exportsOf(t, fmt.Sprintf("packages/pkg%d/src/index.ts", i))
		if ns := e[fmt.Sprintf("util%d", i)]; ns != fmt.Sprintf("packages/pkg%d/src/util/index.ts", i) {
			t.Errorf("pkg%d: util%d stands for %q", i, i, ns)
		}
		if len(e) < 3 {
			t.Errorf("pkg%d exports only %v", i, e)
		}
	}
}

// checkConstructs asserts that every kind of import, export and call site the
// generator promises occurs somewhere in the tree.
func checkConstructs(t *testing.T, r *repo) {
	var all strings.Builder
	for name, src := range r.files {
		if strings.HasSuffix(name, ".ts") {
			all.WriteString(src)
		}
	}
	s := all.String()
	for _, c := range []struct{ what, re string }{
		{"export * from a barrel", `(?m)^export \* from "\./sub/index";$`},
		{"export * as ns", `(?m)^export \* as util\d+ from`},
		{"renamed re-export", `(?m)^export \{[^}]* as core\w+[^}]*\} from`},
		{"default re-export", `(?m)^export \{ default as \w+ \} from`},
		{"export * of a directory", `(?m)^export \* from "\./features/f\d+";$`},
		{"relative import with .js", `(?m)^import .* from "\.\.?/[^"]*\.js";$`},
		{"relative import without extension", `(?m)^import .* from "\.\.?/[^"]*/mod\d+";$`},
		{"path alias import", `(?m)^import \{[^}]*\} from "@pkg\d+/`},
		{"package import", `(?m)^import \{[^}]*\} from "@syn/pkg\d+";$`},
		{"package subpath import", `(?m)^import \{[^}]*\} from "@syn/pkg\d+/features/f\d+";$`},
		{"namespace import", `(?m)^import \* as \w+ from`},
		{"namespace call", `\b\w+Mod\d+\.\w+\(acc`},
		{"namespace call of default", `\b\w+Mod\d+\.default\(`},
		{"package namespace call", `\butil\d+\.\w+\(`},
		{"default import", `(?m)^import \w+(, \{[^}]*\})? from`},
		{"aliased import", `(?m)^import \{[^}]* as \w+Fn[^}]*\} from`},
		{"type-only import", `(?m)^import type \{ \w+Result \} from`},
		{"external import", `(?m)^import \{ z \} from "zod";$`},
		{"external call", `z\.object\(`},
		{"dynamic import destructured", `const \{ \w+ \} = await import\(`},
		{"dynamic import called", `\(await import\("[^"]+"\)\)\.\w+\(`},
		{"default export", `(?m)^export default (async )?function \w+`},
		{"const arrow function", `(?m)^export const \w+ = (async )?\(input`},
		{"function expression", `(?m)^export const \w+ = (async )?function \(`},
		{"async function", `(?m)^export (default )?async function`},
		{"interface", `(?m)^export interface \w+`},
		{"parameter shadowing an import", `const apply\d+ = \((\w+): \(n: number\) => number\): number => (\w+)\(acc\)`},
		{"block const shadowing an import", `\{\n    const \w+ = \(n: number\): number => n \* \d;`},
		{"call in a callback", `\.map\(\(n\) => \w+`},
	} {
		if !regexp.MustCompile(c.re).MatchString(s) {
			t.Errorf("no %s (/%s/) in the generated tree", c.what, c.re)
		}
	}
}
