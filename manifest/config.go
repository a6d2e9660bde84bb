package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// ConfigFile is the name of the repository-level config file.
const ConfigFile = "oracle.yaml"

// DefaultOut is the out template used when oracle.yaml gives none.
const DefaultOut = "{dir}/__oracles__/{function}.{id}.oracle.test.ts"

// Placeholders of the out template:
//
//	{dir}       the directory of the function's file ("src/server"); must be a whole path segment
//	{file}      the base name of the function's file without extension ("index")
//	{function}  the function's name ("processItem")
//	{id}        the operation's id ("skip-enrichment"); required
//	{ticket}    the ticket key ("PROJ-142")
var Placeholders = []string{"dir", "file", "function", "id", "ticket"}

// Config is oracle.yaml, parsed and structurally valid.
type Config struct {
	// File is "oracle.yaml", or "" when the repository has none.
	File string
	// Fixtures are in file order; names are unique.
	Fixtures []Fixture
	// Out is the template of oracle paths (DefaultOut when not given); OutPos
	// is its position, the zero Pos when not given.
	Out    string
	OutPos Pos
	// Gate configures `oracle gate`.
	Gate GateConfig
}

// GateConfig is oracle.yaml's gate: the threshold (percent, used when
// --threshold is not given; nil: 70) and the names of logging objects whose
// calls are arid (never mutated), besides console.
type GateConfig struct {
	Threshold *float64
	Loggers   []string
}

// Fixture is one fixture declared in oracle.yaml.
type Fixture struct {
	// Index is the entry's 0-based index in the fixtures list.
	Index int
	Name  string
	// File is the repository-relative path of the fixture module, cleaned.
	File string
	// Pos is the position of the entry; FilePos of its file value.
	Pos     Pos
	FilePos Pos
}

// Fixture returns the fixture named name, or nil.
func (c *Config) Fixture(name string) *Fixture {
	for i := range c.Fixtures {
		if c.Fixtures[i].Name == name {
			return &c.Fixtures[i]
		}
	}
	return nil
}

var (
	configFields  = []string{"fixtures", "out", "gate", "$schema"}
	fixtureFields = []string{"name", "file"}
	gateFields    = []string{"threshold", "loggers"}
)

// LoadConfig reads <repoRoot>/oracle.yaml. A repository without one gets
// an empty config with the default out template. It also checks that every
// fixture file exists in the repository (see LoadTicket). The error is
// Errors when the file is invalid, another error when it cannot be read.
func LoadConfig(repoRoot string) (*Config, error) {
	data, err := os.ReadFile(filepath.Join(repoRoot, ConfigFile))
	if errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(filepath.Join(repoRoot, "oracle.yml")); err == nil {
			return nil, Errors{{Pos: Pos{File: "oracle.yml", Line: 1, Column: 1},
				Message: "oracle reads its config from oracle.yaml: rename this file"}}
		}
		return &Config{Out: DefaultOut}, nil
	}
	if err != nil {
		return nil, err
	}
	c, p := parseConfig(ConfigFile, data)
	for _, f := range c.Fixtures {
		if msg := checkRepoFile(repoRoot, f.File); msg != "" {
			p.errAt(f.FilePos, fmt.Sprintf("fixtures[%d].file", f.Index), "%s", msg)
		}
	}
	if err := p.errs.err(); err != nil {
		return nil, err
	}
	return c, nil
}

// ParseConfig parses and validates the contents of oracle.yaml; name is
// used in positions only. An empty file (or one with only comments) is an
// empty config. The error is Errors.
func ParseConfig(name string, data []byte) (*Config, error) {
	c, p := parseConfig(name, data)
	if err := p.errs.err(); err != nil {
		return nil, err
	}
	return c, nil
}

func parseConfig(name string, data []byte) (*Config, *parser) {
	p := newParser(name)
	c := &Config{File: name, Out: DefaultOut}
	if root, _ := p.document(data); root != nil {
		p.config(root, c)
	}
	return c, p
}

func (p *parser) config(root *yaml.Node, c *Config) {
	fs, ok := p.fields(root, "", configFields, `a mapping with "fixtures" and "out"`)
	if !ok {
		return
	}
	if f, ok := fs["fixtures"]; ok && !p.bad[f.value] {
		if f.value.Kind != yaml.SequenceNode {
			p.errorf(f.value, "fixtures", "expected a list of {name, file} entries, got %s", describe(f.value))
		} else {
			p.fixtures(f.value, c)
		}
	}
	if f, ok := fs["gate"]; ok {
		p.gate(f.value, c)
	}
	if f, ok := fs["out"]; ok {
		const outExpected = "expected a path template like " + DefaultOut
		if s, ok := p.str(f.value, "out", outExpected); ok {
			if msg := checkTemplate(s); msg != "" {
				p.errorf(f.value, "out", "%s", msg)
			} else {
				c.Out, c.OutPos = s, p.pos(f.value)
			}
		}
	}
}

func (p *parser) gate(n *yaml.Node, c *Config) {
	fs, ok := p.fields(n, "gate", gateFields, "a mapping with threshold and loggers")
	if !ok {
		return
	}
	if f, ok := fs["threshold"]; ok {
		var v float64
		if f.value.Kind != yaml.ScalarNode || (f.value.Tag != "!!int" && f.value.Tag != "!!float") || f.value.Decode(&v) != nil || !(v >= 0 && v <= 100) { // NaN compares false: refused too
			p.errorf(f.value, "gate.threshold", "expected a percentage from 0 to 100, got %s", describe(f.value))
		} else {
			c.Gate.Threshold = &v
		}
	}
	if f, ok := fs["loggers"]; ok {
		if f.value.Kind != yaml.SequenceNode {
			p.errorf(f.value, "gate.loggers", "expected a list of names (logger, log), got %s", describe(f.value))
		} else {
			for i, item := range f.value.Content {
				if s, ok := p.str(item, index("gate.loggers", i), "expected a name"); ok {
					c.Gate.Loggers = append(c.Gate.Loggers, s)
				}
			}
		}
	}
}

func (p *parser) fixtures(n *yaml.Node, c *Config) {
	byName := map[string]*yaml.Node{}
	for i, item := range n.Content {
		ip := index("fixtures", i)
		fs, ok := p.fields(item, ip, fixtureFields, "a mapping with name and file")
		if !ok {
			continue
		}
		fx := Fixture{Index: i, Pos: p.pos(item)}
		good := true
		if f, ok := fs["name"]; !ok {
			p.errorf(item, join(ip, "name"), "required field is missing: %s", fixtureExpected)
			good = false
		} else if s, ok := p.str(f.value, join(ip, "name"), fixtureExpected); !ok {
			good = false
		} else if !fixturePattern.MatchString(s) {
			p.errorf(f.value, join(ip, "name"), "%s, got %s", fixtureExpected, quote(s))
			good = false
		} else if prev, dup := byName[s]; dup {
			p.errorf(f.value, join(ip, "name"), "duplicate fixture name %s (first declared at line %d)", quote(s), prev.Line)
			good = false
		} else {
			byName[s] = f.value
			fx.Name = s
		}
		const fileExpected = "expected a repository-relative path to a TypeScript file, e.g. test/fixtures/pipeline.fixture.ts"
		if f, ok := fs["file"]; !ok {
			p.errorf(item, join(ip, "file"), "required field is missing: %s", fileExpected)
			good = false
		} else if s, ok := p.str(f.value, join(ip, "file"), fileExpected); !ok {
			good = false
		} else if clean, msg := checkRepoPath(s); msg != "" {
			p.errorf(f.value, join(ip, "file"), "%s", msg)
			good = false
		} else {
			fx.File, fx.FilePos = clean, p.pos(f.value)
		}
		if good {
			c.Fixtures = append(c.Fixtures, fx)
		}
	}
}

// checkTemplate validates an out template: a relative path with forward
// slashes, only known placeholders, {dir} as a whole segment, {id}
// present, no ".." segment, a TypeScript extension. Together with the
// rules on ids, tickets and function names this keeps every expansion
// inside the repository.
func checkTemplate(s string) string {
	switch {
	case s == "":
		return "expected a path template like " + DefaultOut + ", got an empty string"
	case strings.Contains(s, `\`):
		return fmt.Sprintf("expected '/' as the path separator, got %s", quote(s))
	case strings.HasPrefix(s, "/") || hasDrive(s):
		return fmt.Sprintf("expected a path relative to the repository root, got the absolute path %s", quote(s))
	}
	hasID := false
	for _, seg := range strings.Split(s, "/") {
		if seg == ".." {
			return fmt.Sprintf("template %s must not contain \"..\": oracles are written inside the repository", quote(s))
		}
		rest := seg
		for {
			open := strings.IndexAny(rest, "{}")
			if open < 0 {
				break
			}
			if rest[open] == '}' {
				return fmt.Sprintf("unbalanced '}' in template %s", quote(s))
			}
			end := strings.IndexAny(rest[open+1:], "{}")
			if end < 0 || rest[open+1+end] == '{' {
				return fmt.Sprintf("unclosed '{' in template %s", quote(s))
			}
			closeAt := open + 1 + end
			name := rest[open+1 : closeAt]
			if !slices.Contains(Placeholders, name) {
				msg := fmt.Sprintf("unknown placeholder {%s}", name)
				if sg := suggest(name, Placeholders); sg != "" {
					msg += fmt.Sprintf("; did you mean {%s}?", sg)
				}
				return msg + " (known: {" + strings.Join(Placeholders, "}, {") + "})"
			}
			if name == "dir" && seg != "{dir}" {
				return fmt.Sprintf("{dir} must be a whole path segment (like {dir}/__oracles__/...), got %s", quote(seg))
			}
			if name == "id" {
				hasID = true
			}
			rest = rest[closeAt+1:]
		}
	}
	if !hasID {
		return fmt.Sprintf("template %s must contain {id}: operations of a ticket need distinct files", quote(s))
	}
	if strings.HasSuffix(s, "/") {
		return fmt.Sprintf("template %s names a directory: expected a file name ending in .ts", quote(s))
	}
	base := s[strings.LastIndexByte(s, '/')+1:]
	ext := path.Ext(base)
	if !slices.Contains(tsExtensions, ext) || strings.HasSuffix(base, ".d"+ext) {
		return fmt.Sprintf("template %s must end with a TypeScript test file extension (%s)", quote(s), strings.Join(tsExtensions, ", "))
	}
	return ""
}

// OutPath expands the out template for an operation of ticket t and
// returns the repository-relative, cleaned path of its oracle. With a
// Config, Ticket and Operation from this package, the path is always
// inside the repository.
func (c *Config) OutPath(t *Ticket, op *Operation) string {
	tmpl := c.Out
	if tmpl == "" {
		tmpl = DefaultOut
	}
	base := path.Base(op.Function.File)
	r := strings.NewReplacer(
		"{dir}", path.Dir(op.Function.File),
		"{file}", strings.TrimSuffix(base, path.Ext(base)),
		"{function}", op.Function.Name,
		"{id}", op.ID,
		"{ticket}", t.Ticket,
	)
	return path.Clean(r.Replace(tmpl))
}

// maxNameBytes is the longest file name a file system takes.
const maxNameBytes = 255

// CheckOutPaths checks, before anything is written, the path of every
// oracle t's operations would get: its file name fits a file system, and it
// stays inside the repository at root also when a directory on the way is a
// symbolic link (the error is then at oracle.yaml's out).
func CheckOutPaths(root string, t *Ticket, c *Config) error {
	var errs Errors
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	for i := range t.Operations {
		op := &t.Operations[i]
		rel := c.OutPath(t, op)
		if n := len(path.Base(rel)); n > maxNameBytes {
			pos := op.IDPos
			if !pos.IsValid() {
				pos = op.Pos
			}
			errs = append(errs, &Error{Pos: pos, Field: fmt.Sprintf("operations[%d].id", op.Index),
				Message: fmt.Sprintf("the oracle's file name would be %d bytes (at most %d): give a shorter id", n, maxNameBytes)})
			continue
		}
		// The longest existing directory on the way, with links resolved.
		dir := filepath.Join(root, filepath.FromSlash(path.Dir(rel)))
		for {
			if _, err := os.Lstat(dir); err == nil {
				break
			}
			if up := filepath.Dir(dir); up != dir {
				dir = up
			} else {
				break
			}
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			continue
		}
		if r, err := filepath.Rel(realRoot, real); err != nil || !filepath.IsLocal(r) && r != "." {
			pos, field := c.OutPos, "out"
			if !pos.IsValid() {
				pos, field = op.Function.Pos, fmt.Sprintf("operations[%d].function", op.Index)
			}
			errs = append(errs, &Error{Pos: pos, Field: field,
				Message: fmt.Sprintf("the oracle path %s leaves the repository through a symbolic link (%s is %s)", quote(rel), quote(filepath.ToSlash(mustRel(root, dir))), quote(real))})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func mustRel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return r
	}
	return p
}

// CheckFixtures checks the fixtures operations of t force by name against
// the ones c declares. The error is Errors, positioned in the manifest.
func CheckFixtures(t *Ticket, c *Config) error {
	var errs Errors
	var names []string
	for _, f := range c.Fixtures {
		names = append(names, f.Name)
	}
	for _, op := range t.Operations {
		if op.Fixture == "" || c.Fixture(op.Fixture) != nil {
			continue
		}
		msg := fmt.Sprintf("no fixture named %s in oracle.yaml", quote(op.Fixture))
		if s := suggest(op.Fixture, names); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		if len(names) > 0 {
			msg += " (declared: " + strings.Join(names, ", ") + ")"
		} else {
			msg += " (it declares no fixtures)"
		}
		errs = append(errs, &Error{Pos: op.FixturePos, Field: fmt.Sprintf("operations[%d].fixture", op.Index), Message: msg})
	}
	return errs.err()
}
