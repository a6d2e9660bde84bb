package gate

import "strconv"

// Figures formats a score and the threshold it was compared with, both in
// percent, with the fewest decimals (none when they suffice) that keep the
// printed figures in the order the comparison found: a score of 73.7
// against 74 prints as 73.7 and 74.0, never as "74% ... threshold 74" on a
// FAIL. The comparison is the gate's: score < threshold fails.
func Figures(score, threshold float64) (s, t string) {
	for dec := 0; dec <= 6; dec++ {
		s, t = strconv.FormatFloat(score, 'f', dec, 64), strconv.FormatFloat(threshold, 'f', dec, 64)
		ps, _ := strconv.ParseFloat(s, 64)
		pt, _ := strconv.ParseFloat(t, 64)
		if (ps < pt) == (score < threshold) {
			return s, t
		}
	}
	return strconv.FormatFloat(score, 'g', -1, 64), strconv.FormatFloat(threshold, 'g', -1, 64)
}
