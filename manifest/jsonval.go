package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxSafeInteger is Number.MAX_SAFE_INTEGER: the largest integer a
// JavaScript number holds exactly.
const maxSafeInteger = 1<<53 - 1

// jsonValue converts a YAML value to compact JSON, deterministically:
//
//   - null, booleans and strings map to their JSON counterparts; strings are
//     escaped as encoding/json does, except that <, > and & are kept as is;
//   - integers (any YAML notation: 42, 0x2A, 1_000) are written in decimal
//     and must be safe JavaScript integers (|n| ≤ 2^53-1): a larger one would
//     silently change value in the generated test, so it must be quoted;
//   - floats are written the way JavaScript prints numbers (1e3 is 1000,
//     0.1 is 0.1); .inf and .nan are rejected (JSON has neither);
//   - mappings become objects with their keys in the order written; keys
//     must be strings or integers (taken as written);
//   - timestamps (an unquoted 2024-01-01) are rejected: JSON has no dates,
//     and quoting the value passes it as a string.
//
// Problems are reported at the offending node with its field path; the
// result is nil when there was any.
func (p *parser) jsonValue(n *yaml.Node, path string) json.RawMessage {
	var buf bytes.Buffer
	before := len(p.errs)
	if depth(n, 0) > maxArgDepth {
		p.errorf(n, path, "a value nested more than %d levels deep: the oracle could not load it", maxArgDepth)
		return nil
	}
	p.writeJSON(&buf, n, path)
	if len(p.errs) > before || buf.Len() == 0 {
		return nil
	}
	return json.RawMessage(buf.Bytes())
}

// maxArgDepth bounds how deep an args value nests.
const maxArgDepth = 64

// depth is how deep n nests (stopping past maxArgDepth).
func depth(n *yaml.Node, d int) int {
	if d > maxArgDepth {
		return d
	}
	m := d
	for _, c := range n.Content {
		m = max(m, depth(c, d+1))
	}
	return m
}

func (p *parser) writeJSON(buf *bytes.Buffer, n *yaml.Node, path string) {
	if p.bad[n] {
		return
	}
	switch n.Kind {
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			p.writeJSON(buf, c, index(path, i))
		}
		buf.WriteByte(']')
	case yaml.MappingNode:
		buf.WriteByte('{')
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if p.bad[k] {
				continue
			}
			if k.Kind != yaml.ScalarNode || (k.Tag != "!!str" && k.Tag != "!!int") {
				p.errorf(k, path, "expected an object key (a string), got %s", describe(k))
				continue
			}
			kp := join(path, k.Value)
			if line, dup := seen[k.Value]; dup {
				p.errorf(k, kp, "duplicate key (first given at line %d)", line)
				continue
			}
			seen[k.Value] = k.Line
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSONString(buf, k.Value)
			buf.WriteByte(':')
			p.writeJSON(buf, v, kp)
		}
		buf.WriteByte('}')
	case yaml.ScalarNode:
		p.writeScalar(buf, n, path)
	default:
		p.errorf(n, path, "expected a JSON value, got %s", describe(n))
	}
}

func (p *parser) writeScalar(buf *bytes.Buffer, n *yaml.Node, path string) {
	switch n.Tag {
	case "!!null":
		buf.WriteString("null")
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			p.errorf(n, path, "expected true or false, got %s", n.Value)
			return
		}
		buf.WriteString(strconv.FormatBool(b))
	case "!!str":
		writeJSONString(buf, n.Value)
	case "!!int":
		i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			p.errorf(n, path, "expected an integer, got %s", quote(n.Value))
			return
		}
		if err != nil || i > maxSafeInteger || i < -maxSafeInteger {
			p.errorf(n, path, "integer %s is not exactly representable as a JavaScript number (beyond ±2^53-1): quote it to pass a string", n.Value)
			return
		}
		buf.WriteString(strconv.FormatInt(i, 10))
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			p.errorf(n, path, "number %s is not a finite JSON number", n.Value)
			return
		}
		b, err := json.Marshal(f)
		if err != nil {
			p.errorf(n, path, "number %s is not a finite JSON number", n.Value)
			return
		}
		buf.Write(b)
	case "!!timestamp":
		p.errorf(n, path, "timestamps are not JSON values: quote %s to pass a string", n.Value)
	default:
		p.errorf(n, path, "expected a JSON value, got %s", describe(n))
	}
}

// writeJSONString writes s as a JSON string without HTML escaping.
func writeJSONString(buf *bytes.Buffer, s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	buf.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
