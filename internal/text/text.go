// Package text holds the small string helpers messages share: one line of
// a tool's output, one line of code, cut to a length.
package text

import "strings"

// FirstLine is the first line of s, trimmed, cut to max runes ("..." added).
func FirstLine(s string, max int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "..."
	}
	return s
}

// OneLine is s with its whitespace runs made single spaces, cut to max
// runes (the last one "…").
func OneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}
