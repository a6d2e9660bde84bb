package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// parser collects the problems of one file.
type parser struct {
	file string
	errs Errors
	// bad holds nodes already reported as unusable (aliases, merge keys,
	// unsupported tags); the structural checks skip them silently so that
	// one mistake is reported once.
	bad map[*yaml.Node]bool
}

func newParser(file string) *parser {
	return &parser{file: file, bad: map[*yaml.Node]bool{}}
}

// pos returns the position of n; never line 0.
func (p *parser) pos(n *yaml.Node) Pos {
	line, col := 1, 1
	if n != nil && n.Line > 0 {
		line, col = n.Line, n.Column
		if col < 1 {
			col = 1
		}
	}
	return Pos{File: p.file, Line: line, Column: col}
}

func (p *parser) errAt(pos Pos, field, format string, args ...any) {
	if !pos.IsValid() {
		pos.Line = 1
	}
	p.errs = append(p.errs, &Error{Pos: pos, Field: field, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) errorf(n *yaml.Node, field, format string, args ...any) {
	p.errAt(p.pos(n), field, format, args...)
}

var yamlLineErr = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// document decodes data as a single YAML document and returns its root
// node, or nil when there is none (empty file, or errors already recorded).
// The encoding is checked first so that every problem has a position.
func (p *parser) document(data []byte) (root *yaml.Node, empty bool) {
	if !p.checkEncoding(data) {
		return nil, false
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := p.decode(dec, &doc, data); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, true
		}
		p.yamlError(err, data)
		return nil, false
	}
	var next yaml.Node
	switch err := p.decode(dec, &next, data); {
	case err == nil:
		at := &next
		if len(next.Content) > 0 {
			at = next.Content[0]
		}
		p.errorf(at, "", "expected a single YAML document, found a second one (remove the \"---\" separator)")
		return nil, false
	case !errors.Is(err, io.EOF):
		p.yamlError(err, data)
		return nil, false
	}
	if len(doc.Content) == 0 {
		return nil, true
	}
	root = doc.Content[0]
	p.checkNodes(root)
	return root, false
}

// decode runs dec.Decode, turning a panic of the YAML library (none is
// known, but a user must never see a Go stack trace) into an error.
func (p *parser) decode(dec *yaml.Decoder, n *yaml.Node, data []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: cannot parse this file (%v)", r)
		}
	}()
	return dec.Decode(n)
}

// yamlError records a syntax error reported by the YAML library, with the
// line it names ("yaml: line 3: ..."), or line 1 when it names none.
func (p *parser) yamlError(err error, data []byte) {
	msg := err.Error()
	if m := yamlLineErr.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if line < 1 {
			line = 1
		}
		p.errAt(Pos{File: p.file, Line: line}, "", "invalid YAML: %s", m[2])
		return
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	pos := Pos{File: p.file, Line: 1}
	// "unknown anchor 'x' referenced": point at the first "*x".
	if i := strings.Index(msg, "anchor '"); i >= 0 {
		name := msg[i+len("anchor '"):]
		if j := strings.IndexByte(name, '\''); j > 0 {
			if k := bytes.Index(data, []byte("*"+name[:j])); k >= 0 {
				pos = offsetPos(p.file, data, k)
			}
		}
	}
	p.errAt(pos, "", "invalid YAML: %s", msg)
}

// offsetPos converts a byte offset of data to a position.
func offsetPos(file string, data []byte, off int) Pos {
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return Pos{File: file, Line: line, Column: 1 + utf8.RuneCount(data[start:off])}
}

// checkEncoding reports the first byte that is not UTF-8, or the first
// character YAML does not allow (control characters), with its position.
func (p *parser) checkEncoding(data []byte) bool {
	for off := 0; off < len(data); {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			p.errAt(offsetPos(p.file, data, off), "", "not valid UTF-8 (byte 0x%02x): save the file as UTF-8", data[off])
			return false
		}
		if !yamlAllowed(r) && !(r == 0xFEFF && off == 0) {
			p.errAt(offsetPos(p.file, data, off), "", "character %U is not allowed in YAML", r)
			return false
		}
		off += size
	}
	return true
}

// yamlAllowed reports whether YAML allows r in a stream (YAML 1.2 §5.1).
func yamlAllowed(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7E:
		return true
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// knownTags are the tags a node may carry: the YAML core schema plus
// timestamps (accepted as text in string fields, rejected in JSON values).
var knownTags = map[string]bool{
	"!!str": true, "!!int": true, "!!float": true, "!!bool": true, "!!null": true,
	"!!map": true, "!!seq": true, "!!timestamp": true,
}

// checkNodes rejects, everywhere in the tree, what a manifest cannot mean:
// aliases, merge keys and tags outside the core schema.
func (p *parser) checkNodes(n *yaml.Node) {
	switch {
	case n.Kind == yaml.AliasNode:
		p.bad[n] = true
		p.errorf(n, "", "YAML aliases (*%s) are not supported: write the value out", n.Value)
		return
	case n.Kind == yaml.ScalarNode && n.Tag == "!!merge":
		p.bad[n] = true
		p.errorf(n, "", "YAML merge keys (<<) are not supported: write the fields out")
		return
	case !knownTags[n.Tag]:
		p.bad[n] = true
		p.errorf(n, "", "YAML tag %s is not supported", n.Tag)
		return
	}
	for _, c := range n.Content {
		p.checkNodes(c)
	}
}

// describe renders n for a "got ..." clause.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return "an empty list"
		}
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			if n.Value == "" {
				return "nothing"
			}
			return "null"
		case "!!str":
			return quote(n.Value)
		}
		return n.Value
	}
	return "nothing"
}

// quote renders s in double quotes, shortened when long.
func quote(s string) string {
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return strconv.Quote(s)
}

// field is one key/value pair of a mapping.
type field struct {
	key, value *yaml.Node
}

// fields checks that n is a mapping whose keys are all in known and given
// once, and returns its pairs by key. Unknown keys are reported with the
// closest known name when it is a likely typo. It reports and returns
// false when n is not a mapping; expected describes the mapping for that
// message.
func (p *parser) fields(n *yaml.Node, path string, known []string, expected string) (map[string]field, bool) {
	if p.bad[n] {
		return nil, false
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, path, "expected %s, got %s", expected, describe(n))
		return nil, false
	}
	out := map[string]field{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if p.bad[k] {
			continue
		}
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, path, "expected a field name, got %s", describe(k))
			continue
		}
		name := k.Value
		fp := join(path, name)
		if prev, dup := out[name]; dup {
			p.errorf(k, fp, "duplicate field (first given at line %d)", prev.key.Line)
			continue
		}
		if !slices.Contains(known, name) {
			msg := fmt.Sprintf("unknown field %s", quote(name))
			if s := suggest(name, known); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			p.errorf(k, fp, "%s (expected one of: %s)", msg, strings.Join(known, ", "))
			continue
		}
		out[name] = field{k, v}
	}
	return out, true
}

// str returns the text of a scalar string field. Plain numbers, booleans
// and timestamps are taken as written ("ticket: 142" is "142"); null and
// collections are reported as "<expected>, got ...".
func (p *parser) str(n *yaml.Node, path, expected string) (string, bool) {
	if p.bad[n] {
		return "", false
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, path, "%s, got %s", expected, describe(n))
		return "", false
	}
	return n.Value, true
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func index(path string, i int) string {
	return fmt.Sprintf("%s[%d]", path, i)
}
