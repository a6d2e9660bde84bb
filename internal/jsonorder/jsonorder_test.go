package jsonorder

import (
	"encoding/json"
	"testing"
)

type record struct {
	Outcome string   `json:"outcome"`
	Detail  string   `json:"detail,omitempty"`
	Tests   []string `json:"tests"`
}

type entry struct {
	ID string `json:"id"`
	record
	Diff string `json:"diff,omitempty"`
}

func TestMarshalOrders(t *testing.T) {
	for _, c := range []struct {
		e       entry
		dropped []string
		want    string
	}{
		{entry{"a", record{"killed", "x<y", []string{}}, "d"}, nil, `{"id":"a","outcome":"killed","detail":"x\u003cy","diff":"d","tests":[]}`},
		{entry{"a", record{"survived", "", nil}, ""}, nil, `{"id":"a","outcome":"survived","tests":null}`},
		{entry{"a", record{"survived", "", nil}, "d"}, []string{"tests"}, `{"id":"a","outcome":"survived","diff":"d"}`},
	} {
		keys := []string{"id", "outcome", "detail", "diff", "tests"}
		if c.dropped != nil {
			keys = []string{"id", "outcome", "detail", "diff"}
		}
		got, err := Marshal(c.e, keys, c.dropped...)
		if err != nil || string(got) != c.want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", c.e, got, err, c.want)
		}
		if !json.Valid(got) {
			t.Errorf("%s is not JSON", got)
		}
	}
	if _, err := Marshal(entry{ID: "a"}, []string{"id"}); err == nil {
		t.Error("a member the order does not name: no error")
	}
}
