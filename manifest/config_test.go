package manifest

import (
	"github.com/oracle-ts/oracle/internal/testenv"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseConfigErrors(t *testing.T) {
	const fx = "fixtures:\n  - name: pipeline\n    file: test/p.fixture.ts\n"
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"not a mapping", "- pipeline\n", []string{
			`oracle.yaml:1:1: expected a mapping with "fixtures" and "out", got a list`}},
		{"syntax error", "fixtures: [\n", []string{
			`oracle.yaml:1: invalid YAML: did not find expected node content`}},
		{"not utf-8", "out: \xfe\n", []string{
			`oracle.yaml:1:6: not valid UTF-8 (byte 0xfe): save the file as UTF-8`}},
		{"unknown top level field", "fixture: []\n", []string{
			`oracle.yaml:1:1: fixture: unknown field "fixture"; did you mean "fixtures"? (expected one of: fixtures, out, gate, $schema)`}},
		{"duplicate top level field", "out: a/{id}.ts\nout: b/{id}.ts\n", []string{
			`oracle.yaml:2:1: out: duplicate field (first given at line 1)`}},
		{"fixtures not a list", "fixtures: {name: a, file: a.ts}\n", []string{
			`oracle.yaml:1:11: fixtures: expected a list of {name, file} entries, got a mapping`}},
		{"fixtures null", "fixtures:\n", []string{
			`oracle.yaml:1:10: fixtures: expected a list of {name, file} entries, got nothing`}},
		{"fixture not a mapping", "fixtures:\n  - pipeline\n", []string{
			`oracle.yaml:2:5: fixtures[0]: expected a mapping with name and file, got "pipeline"`}},
		{"fixture unknown field", fx + "    files: x.ts\n", []string{
			`oracle.yaml:4:5: fixtures[0].files: unknown field "files"; did you mean "file"? (expected one of: name, file)`}},
		{"fixture unknown field without suggestion", fx + "    setup: x\n", []string{
			`oracle.yaml:4:5: fixtures[0].setup: unknown field "setup" (expected one of: name, file)`}},
		{"fixture missing fields", "fixtures:\n  - {}\n", []string{
			`oracle.yaml:2:5: fixtures[0].name: required field is missing: expected a fixture name matching [A-Za-z0-9_][A-Za-z0-9._-]*, e.g. pipeline`,
			`oracle.yaml:2:5: fixtures[0].file: required field is missing: expected a repository-relative path to a TypeScript file, e.g. test/fixtures/pipeline.fixture.ts`}},
		{"fixture bad name", "fixtures:\n  - {name: 'a b', file: a.ts}\n", []string{
			`oracle.yaml:2:12: fixtures[0].name: expected a fixture name matching [A-Za-z0-9_][A-Za-z0-9._-]*, e.g. pipeline, got "a b"`}},
		{"fixture name null", "fixtures:\n  - {name: , file: a.ts}\n", []string{
			`oracle.yaml:2:12: fixtures[0].name: expected a fixture name matching [A-Za-z0-9_][A-Za-z0-9._-]*, e.g. pipeline, got nothing`}},
		{"duplicate fixture name", fx + "  - name: pipeline\n    file: test/q.fixture.ts\n", []string{
			`oracle.yaml:4:11: fixtures[1].name: duplicate fixture name "pipeline" (first declared at line 2)`}},
		{"fixture file outside", "fixtures:\n  - {name: a, file: x/../../a.ts}\n", []string{
			`oracle.yaml:2:21: fixtures[0].file: path "x/../../a.ts" leaves the repository; paths are relative to the repository root`}},
		{"fixture file absolute", "fixtures:\n  - {name: a, file: /a.ts}\n", []string{
			`oracle.yaml:2:21: fixtures[0].file: expected a path relative to the repository root, got the absolute path "/a.ts"`}},
		{"fixture file not typescript", "fixtures:\n  - {name: a, file: a.js}\n", []string{
			`oracle.yaml:2:21: fixtures[0].file: expected a TypeScript file (.ts, .tsx, .mts, .cts), got "a.js"`}},
		{"fixture file a list", "fixtures:\n  - {name: a, file: [a.ts]}\n", []string{
			`oracle.yaml:2:21: fixtures[0].file: expected a repository-relative path to a TypeScript file, e.g. test/fixtures/pipeline.fixture.ts, got a list`}},
		{"out null", "out:\n", []string{
			`oracle.yaml:1:5: out: expected a path template like {dir}/__oracles__/{function}.{id}.oracle.test.ts, got nothing`}},
		{"out empty", "out: ''\n", []string{
			`oracle.yaml:1:6: out: expected a path template like {dir}/__oracles__/{function}.{id}.oracle.test.ts, got an empty string`}},
		{"out unknown placeholder", "out: '{dir}/{fn}.{id}.test.ts'\n", []string{
			`oracle.yaml:1:6: out: unknown placeholder {fn} (known: {dir}, {file}, {function}, {id}, {ticket})`}},
		{"out placeholder typo", "out: '{dir}/{func}.{id}.test.ts'\n", []string{
			`oracle.yaml:1:6: out: unknown placeholder {func}; did you mean {function}? (known: {dir}, {file}, {function}, {id}, {ticket})`}},
		{"out placeholder case", "out: '{dir}/{ID}.test.ts'\n", []string{
			`oracle.yaml:1:6: out: unknown placeholder {ID}; did you mean {id}? (known: {dir}, {file}, {function}, {id}, {ticket})`}},
		{"out unclosed brace", "out: '{dir}/{id.test.ts'\n", []string{
			`oracle.yaml:1:6: out: unclosed '{' in template "{dir}/{id.test.ts"`}},
		{"out nested brace", "out: '{dir}/{i{d}.test.ts'\n", []string{
			`oracle.yaml:1:6: out: unclosed '{' in template "{dir}/{i{d}.test.ts"`}},
		{"out stray closing brace", "out: '{dir}/id}.{id}.test.ts'\n", []string{
			`oracle.yaml:1:6: out: unbalanced '}' in template "{dir}/id}.{id}.test.ts"`}},
		{"out without id", "out: '{dir}/__oracles__/{function}.oracle.test.ts'\n", []string{
			`oracle.yaml:1:6: out: template "{dir}/__oracles__/{function}.oracle.test.ts" must contain {id}: operations of a ticket need distinct files`}},
		{"out leaving the repository", "out: '../oracles/{id}.test.ts'\n", []string{
			`oracle.yaml:1:6: out: template "../oracles/{id}.test.ts" must not contain "..": oracles are written inside the repository`}},
		{"out leaving from dir", "out: '{dir}/../../{id}.test.ts'\n", []string{
			`oracle.yaml:1:6: out: template "{dir}/../../{id}.test.ts" must not contain "..": oracles are written inside the repository`}},
		{"out absolute", "out: /tmp/{id}.test.ts\n", []string{
			`oracle.yaml:1:6: out: expected a path relative to the repository root, got the absolute path "/tmp/{id}.test.ts"`}},
		{"out backslash", `out: '{dir}\{id}.test.ts'` + "\n", []string{
			`oracle.yaml:1:6: out: expected '/' as the path separator, got "{dir}\\{id}.test.ts"`}},
		{"out dir not a whole segment", "out: 'x{dir}/{id}.test.ts'\n", []string{
			`oracle.yaml:1:6: out: {dir} must be a whole path segment (like {dir}/__oracles__/...), got "x{dir}"`}},
		{"out not typescript", "out: '{dir}/{id}.test.js'\n", []string{
			`oracle.yaml:1:6: out: template "{dir}/{id}.test.js" must end with a TypeScript test file extension (.ts, .tsx, .mts, .cts)`}},
		{"out declaration file", "out: '{dir}/{id}.d.ts'\n", []string{
			`oracle.yaml:1:6: out: template "{dir}/{id}.d.ts" must end with a TypeScript test file extension (.ts, .tsx, .mts, .cts)`}},
		{"out a directory", "out: '{dir}/{id}/'\n", []string{
			`oracle.yaml:1:6: out: template "{dir}/{id}/" names a directory: expected a file name ending in .ts`}},
		{"all problems sorted", "out: x\nfixtures:\n  - {name: a, file: a.js}\n  - {name: a, file: b.ts}\nextra: 1\n", []string{
			`oracle.yaml:1:6: out: template "x" must contain {id}: operations of a ticket need distinct files`,
			`oracle.yaml:3:21: fixtures[0].file: expected a TypeScript file (.ts, .tsx, .mts, .cts), got "a.js"`,
			`oracle.yaml:4:12: fixtures[1].name: duplicate fixture name "a" (first declared at line 3)`,
			`oracle.yaml:5:1: extra: unknown field "extra" (expected one of: fixtures, out, gate, $schema)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig("oracle.yaml", []byte(tt.in))
			if err == nil {
				t.Fatalf("no error, got %+v", c)
			}
			if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("input:\n%s\ngot:\n  %s\nwant:\n  %s", tt.in, strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			if _, ok := err.(Errors); !ok {
				t.Errorf("error is %T, want Errors", err)
			}
		})
	}
}

func TestParseConfig(t *testing.T) {
	in := "# oracle config\nfixtures:\n  - name: pipeline\n    file: ./test/fixtures/pipeline.fixture.ts\n  - {name: db_2, file: test/db.fixture.mts}\n" +
		"out: \"{dir}/__oracles__/{function}.{id}.oracle.test.ts\"   # optional\n"
	c, err := ParseConfig("oracle.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	p := func(line, col int) Pos { return Pos{File: "oracle.yaml", Line: line, Column: col} }
	want := &Config{
		File: "oracle.yaml",
		Fixtures: []Fixture{
			{Name: "pipeline", File: "test/fixtures/pipeline.fixture.ts", Pos: p(3, 5), FilePos: p(4, 11)},
			{Index: 1, Name: "db_2", File: "test/db.fixture.mts", Pos: p(5, 5), FilePos: p(5, 24)},
		},
		Out: DefaultOut, OutPos: p(6, 6),
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got\n%+v\nwant\n%+v", c, want)
	}
	if f := c.Fixture("db_2"); f == nil || f.File != "test/db.fixture.mts" {
		t.Errorf("Fixture(db_2) = %+v", f)
	}
	if f := c.Fixture("nope"); f != nil {
		t.Errorf("Fixture(nope) = %+v", f)
	}

	for _, in := range []string{"", "# only a comment\n", "{}\n", "fixtures: []\n"} {
		c, err := ParseConfig("oracle.yaml", []byte(in))
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if c.Out != DefaultOut || c.OutPos.IsValid() || len(c.Fixtures) != 0 {
			t.Errorf("%q: got %+v", in, c)
		}
	}
}

func TestOutPath(t *testing.T) {
	tk := &Ticket{Ticket: "PROJ-142"}
	op := &Operation{ID: "skip-enrichment", Function: FuncRef{File: "src/server/index.ts", Name: "processItem"}}
	root := &Operation{ID: "x", Function: FuncRef{File: "a.tsx", Name: "f"}}
	tests := []struct {
		out string
		op  *Operation
		rel string
	}{
		{DefaultOut, op, "src/server/__oracles__/processItem.skip-enrichment.oracle.test.ts"},
		{DefaultOut, root, "__oracles__/f.x.oracle.test.ts"},
		{"", op, "src/server/__oracles__/processItem.skip-enrichment.oracle.test.ts"},
		{"test/oracles/{ticket}/{dir}/{file}.{function}.{id}.test.ts", op, "test/oracles/PROJ-142/src/server/index.processItem.skip-enrichment.test.ts"},
		{"test/oracles/{dir}/{id}.test.ts", root, "test/oracles/x.test.ts"},
		{"./{dir}//{id}.test.mts", op, "src/server/skip-enrichment.test.mts"},
	}
	for _, tt := range tests {
		if tt.out != "" {
			if msg := checkTemplate(tt.out); msg != "" {
				t.Fatalf("template %q: %s", tt.out, msg)
			}
		}
		c := &Config{Out: tt.out}
		if got := c.OutPath(tk, tt.op); got != tt.rel {
			t.Errorf("OutPath(%q, %s) = %q, want %q", tt.out, tt.op.Function, got, tt.rel)
		}
	}
}

// writeFiles creates files (with their directories) under a new temporary
// directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	return testenv.WriteTree(t, "", files)
}

func TestLoadConfig(t *testing.T) {
	t.Run("absent", func(t *testing.T) {
		c, err := LoadConfig(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c, &Config{Out: DefaultOut}) {
			t.Errorf("got %+v", c)
		}
	})
	t.Run("oracle.yml instead", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"oracle.yml": "fixtures: []\n"})
		_, err := LoadConfig(dir)
		if want := "oracle.yml:1:1: oracle reads its config from oracle.yaml: rename this file"; err == nil || err.Error() != want {
			t.Errorf("got %v, want %s", err, want)
		}
	})
	t.Run("fixture files checked", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{
			"oracle.yaml":       "fixtures:\n  - {name: a, file: test/a.fixture.ts}\n  - {name: b, file: test/b.fixture.ts}\n  - {name: c, file: test.ts}\n  - {name: 'd d', file: test/d.ts}\n",
			"test/a.fixture.ts": "export {}\n",
		})
		if err := os.Mkdir(filepath.Join(dir, "test.ts"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(dir)
		want := "oracle.yaml:3:21: fixtures[1].file: file test/b.fixture.ts does not exist in the repository\n" +
			"oracle.yaml:4:21: fixtures[2].file: test.ts is not a regular file\n" +
			"oracle.yaml:5:12: fixtures[3].name: expected a fixture name matching [A-Za-z0-9_][A-Za-z0-9._-]*, e.g. pipeline, got \"d d\""
		if err == nil || err.Error() != want {
			t.Errorf("got %v\nwant %s", err, want)
		}
	})
	t.Run("valid", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{
			"oracle.yaml":       "fixtures:\n  - {name: a, file: test/a.fixture.ts}\nout: 'o/{id}.test.ts'\n",
			"test/a.fixture.ts": "export {}\n",
		})
		c, err := LoadConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		if c.File != "oracle.yaml" || len(c.Fixtures) != 1 || c.Out != "o/{id}.test.ts" {
			t.Errorf("got %+v", c)
		}
	})
	t.Run("unreadable", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "oracle.yaml"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(dir)
		if _, ok := err.(Errors); err == nil || ok {
			t.Errorf("got %v (%T), want an I/O error", err, err)
		}
	})
}

func TestLoadTicketChecksFiles(t *testing.T) {
	const body = "ticket: T-1\noperations:\n" +
		"  - {kind: conditional-skip, id: a, function: src/a.ts#f, flag: p, wrap: g}\n" +
		"  - {kind: conditional-skip, id: b, function: src/missing.ts#f, flag: p, wrap: g}\n" +
		"  - {kind: conditional-skip, id: c, function: src/link.ts#f, flag: p, wrap: g}\n" +
		"  - {kind: conditional-skip, id: d, function: src/dir.ts#f, flag: p, wrap: g}\n" +
		"  - {kind: conditional-skip, id: e, function: src/missing.ts#f, flag: p, wrap: 'g()'}\n"
	outside := writeFiles(t, map[string]string{"secret.ts": "export {}\n"})
	dir := writeFiles(t, map[string]string{
		"tickets/T-1.yaml": body,
		"src/a.ts":         "export function f() {}\n",
	})
	if err := os.Symlink(filepath.Join(outside, "secret.ts"), filepath.Join(dir, "src", "link.ts")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "src", "dir.ts"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Problems on disk are reported with the structural ones; an invalid
	// operation (line 7) is not checked on disk.
	const badWrap = "tickets/T-1.yaml:7:80: operations[4].wrap: expected a call as written at the call site, like \"enrichItem\" or \"audit.write\", got \"g()\" (name the callee without parentheses or arguments)"
	want := "tickets/T-1.yaml:4:47: operations[1].function: file src/missing.ts does not exist in the repository\n" +
		"tickets/T-1.yaml:5:47: operations[2].function: src/link.ts resolves (through a symbolic link) outside the repository\n" +
		"tickets/T-1.yaml:6:47: operations[3].function: src/dir.ts is not a regular file\n" + badWrap
	// An absolute path inside the repository is shown relative to it.
	_, err := LoadTicket(filepath.Join(dir, "tickets", "T-1.yaml"), dir)
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// Without a repository root, nothing is checked on disk.
	_, err = LoadTicket(filepath.Join(dir, "tickets", "T-1.yaml"), "")
	if want := filepath.ToSlash(filepath.Join(dir, "tickets", "T-1.yaml")) + badWrap[len("tickets/T-1.yaml"):]; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// A link inside the repository is fine.
	if err := os.Remove(filepath.Join(dir, "src", "link.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.ts", filepath.Join(dir, "src", "link.ts")); err != nil {
		t.Fatal(err)
	}
	_, err = LoadTicket(filepath.Join(dir, "tickets", "T-1.yaml"), dir)
	want = "tickets/T-1.yaml:4:47: operations[1].function: file src/missing.ts does not exist in the repository\n" +
		"tickets/T-1.yaml:6:47: operations[3].function: src/dir.ts is not a regular file\n" + badWrap
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if _, err := LoadTicket(filepath.Join(dir, "nope.yaml"), dir); err == nil || !os.IsNotExist(err) {
		t.Errorf("missing manifest: got %v", err)
	}
}

func TestCheckFixtures(t *testing.T) {
	tk, err := ParseTicket("t.yaml", []byte("ticket: T-1\noperations:\n"+
		"  - {kind: conditional-skip, id: a, function: a.ts#f, flag: p, wrap: g, fixture: pipline}\n"+
		"  - {kind: conditional-skip, id: b, function: a.ts#f, flag: p, wrap: g, fixture: pipeline}\n"+
		"  - {kind: conditional-skip, id: c, function: a.ts#f, flag: p, wrap: g}\n"+
		"  - {kind: conditional-skip, id: d, function: a.ts#f, flag: p, wrap: g, fixture: other}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := &Config{Fixtures: []Fixture{{Name: "pipeline"}, {Name: "db"}}}
	want := "t.yaml:3:82: operations[0].fixture: no fixture named \"pipline\" in oracle.yaml; did you mean \"pipeline\"? (declared: pipeline, db)\n" +
		"t.yaml:6:82: operations[3].fixture: no fixture named \"other\" in oracle.yaml (declared: pipeline, db)"
	if err := CheckFixtures(tk, c); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if err := CheckFixtures(tk, &Config{}); err == nil || !strings.Contains(err.Error(), "(it declares no fixtures)") {
		t.Errorf("got %v", err)
	}
	c.Fixtures = append(c.Fixtures, Fixture{Name: "pipline"}, Fixture{Name: "other"})
	if err := CheckFixtures(tk, c); err != nil {
		t.Errorf("got %v", err)
	}
}

func TestGateConfig(t *testing.T) {
	c, err := ParseConfig("oracle.yaml", []byte("gate:\n  threshold: 85\n  loggers: [logger, log]\n"))
	if err != nil || c.Gate.Threshold == nil || *c.Gate.Threshold != 85 || strings.Join(c.Gate.Loggers, ",") != "logger,log" {
		t.Fatalf("%+v %v", c.Gate, err)
	}
	if _, err := ParseConfig("oracle.yaml", []byte("gate:\n  threshold: 120\n")); err == nil || !strings.Contains(err.Error(), "gate.threshold: expected a percentage from 0 to 100") {
		t.Errorf("threshold 120: %v", err)
	}
	// NaN compares false with every bound: it would pass every gate.
	for _, v := range []string{".nan", ".NaN", ".inf", "-.inf", "-1", "100.5"} {
		if _, err := ParseConfig("oracle.yaml", []byte("gate:\n  threshold: "+v+"\n")); err == nil || !strings.Contains(err.Error(), "oracle.yaml:2") || !strings.Contains(err.Error(), "expected a percentage from 0 to 100") {
			t.Errorf("threshold %s: %v", v, err)
		}
	}
	for _, v := range []string{"0", "100", "74.5"} {
		if _, err := ParseConfig("oracle.yaml", []byte("gate:\n  threshold: "+v+"\n")); err != nil {
			t.Errorf("threshold %s: %v", v, err)
		}
	}
}
