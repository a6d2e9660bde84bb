package main

import (
	"regexp"
	"strings"
)

// didYouMean is the nearest of names to got, when it is near enough to be
// a typo (an edit distance of at most a third of its length, at least 1, or
// one is a prefix of the other), else "".
func didYouMean(got string, names []string) string {
	best, bestD := "", len(got)/3+1
	for _, n := range names {
		if strings.HasPrefix(n, got) && len(got) >= 3 {
			return n
		}
		if d := editDistance(got, n); d <= bestD && (best == "" || d < bestD) {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Damerau-Levenshtein distance of a and b (optimal
// string alignment: a swap of two neighbours counts 1).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// synopsisFlag finds each flag of a synopsis with what follows it.
var synopsisFlag = regexp.MustCompile(`--([a-z][a-z-]*)(?: ([^\s\[\]|-][^\s\[\]]*))?`)

// placeholders maps each flag a verb's synopsis writes to the placeholder
// it is written with (`--base REV`: REV; a switch, `--json`: ""), so that
// the flags' help spells them as the synopsis does.
func placeholders(synopsis string) map[string]string {
	out := map[string]string{}
	for _, m := range synopsisFlag.FindAllStringSubmatch(synopsis, -1) {
		if _, ok := out[m[1]]; !ok {
			out[m[1]] = m[2]
		}
	}
	return out
}
