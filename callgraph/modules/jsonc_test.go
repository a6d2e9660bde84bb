package modules

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseJSONC(t *testing.T) {
	v, err := parseJSONC([]byte("\xef\xbb\xbf// c\n{\n  \"b\": [1, 2,], /* x // y */\n  \"a\": \"http://x\", // z\n  \"b\": {\"z\": null, \"y\": true,},\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(v.keys, ","); got != "b,a" {
		t.Errorf("keys %q, want b,a (first position of a repeated key)", got)
	}
	if s, _ := v.get("a").str(); s != "http://x" {
		t.Errorf("a = %q", s)
	}
	if b := v.get("b"); b.kind != jObj || strings.Join(b.keys, ",") != "z,y" {
		t.Errorf("b = %+v, want the last value, keys z,y", b)
	}
	if s, _ := mustParse(t, `"\u00e9\ud83d\ude00\/\n"`).str(); s != "é😀/\n" {
		t.Errorf("escapes: %q", s)
	}

	for src, want := range map[string]string{
		"{\n\"a\": 1\n\"b\": 2}": `3: expected "," or "}" in object, found "\""`,
		"[1,,]":                  `1: unexpected ","`,
		"{,}":                    `1: expected a string key, found ","`,
		"/* open":                `1: unterminated /* comment`,
		"{\"a\": tru}":           `1: unexpected "t"`,
		"{} x":                   `1: unexpected "x" after the document`,
		"":                       `1: empty document`,
		"\"a\nb\"":               `1: unterminated string`,
		strings.Repeat("[", 300): `1: nesting deeper than 200`,
		"\x00":                   `1: unexpected byte 0x00`,
	} {
		_, err := parseJSONC([]byte(src))
		if err == nil {
			t.Errorf("%q: no error, want %s", src, want)
			continue
		}
		je := err.(*jsonError)
		if got := strings.TrimSpace(strconv.Itoa(lineOf([]byte(src), je.off)) + ": " + je.msg); got != want {
			t.Errorf("%q: error %q, want %q", src, got, want)
		}
	}
}

func mustParse(t *testing.T, s string) *jval {
	t.Helper()
	v, err := parseJSONC([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}
