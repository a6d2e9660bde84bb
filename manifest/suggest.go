package manifest

import "strings"

// Suggest is suggest, for the checks against the code that other packages
// make (a manifest's flag property, say).
func Suggest(s string, known []string) string { return suggest(s, known) }

// suggest returns the name of known that s is most likely a typo of, or ""
// when none is close: the same name in another case, a name s abbreviates
// (at least 3 characters), or a name at edit distance 1 (names up to 4
// characters) or 2 (longer names). Ties go to the first in known.
func suggest(s string, known []string) string {
	ls := strings.ToLower(s)
	best, bestDist := "", 1<<30
	for _, k := range known {
		lk := strings.ToLower(k)
		if ls == lk {
			return k
		}
		d := distance(ls, lk)
		limit := 2
		if len([]rune(lk)) <= 4 {
			limit = 1
		}
		if len(ls) >= 3 && strings.HasPrefix(lk, ls) {
			d = min(d, limit)
		}
		if d <= limit && d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, counted in runes,
// with a transposition of two adjacent runes counting as one edit.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		if a == b {
			return 0
		}
		return 1 << 20
	}
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
