// Package jsonorder writes a value's JSON object with its members in an
// order of the document's: a Go struct that embeds a record has the
// record's fields flattened where it is embedded, all together, and a
// document written before the record was one keeps its order (gate's
// mutant, prove's run: mutate/lab's Decision).
package jsonorder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Marshal is v's JSON object (json.Marshal) with its members in the order
// of keys, those v leaves out (omitempty) left out; a member of v that
// keys does not name is an error unless dropped names it (it is left out).
func Marshal(v any, keys []string, dropped ...string) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for _, k := range keys {
		raw, ok := members[k]
		if !ok {
			continue
		}
		delete(members, k)
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		out.Write(name)
		out.WriteByte(':')
		out.Write(raw)
	}
	for _, k := range dropped {
		delete(members, k)
	}
	if len(members) > 0 {
		return nil, fmt.Errorf("jsonorder: %T has members the order does not name: %v", v, slices.Sorted(maps.Keys(members)))
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}
