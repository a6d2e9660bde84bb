package gate

import (
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// TestFigures: the printed score and threshold compare as the gate compared
// them; whole numbers when those suffice.
func TestFigures(t *testing.T) {
	for _, c := range []struct {
		score, threshold float64
		s, t             string
	}{
		{73.7, 74, "73.7", "74.0"},
		{100 * 14.0 / 19, 74, "73.7", "74.0"},
		{73.99, 74, "73.99", "74.00"},
		{74, 74, "74", "74"},
		{74.4, 74, "74", "74"},
		{80, 70, "80", "70"},
		{69.5, 70, "69.5", "70.0"},
		{70.6, 70.4, "71", "70"},
		{70.4, 70.5, "70.4", "70.5"},
		{100 * 2.0 / 3, 66.67, "66.67", "66.67"}, // 66.666... < 66.67: shown at 3 decimals
	} {
		s, th := Figures(c.score, c.threshold)
		if c.score < c.threshold {
			if s >= th && len(s) == len(th) {
				t.Errorf("Figures(%v, %v) = %s, %s: a FAIL printed as not below", c.score, c.threshold, s, th)
			}
		}
		if c.s != "66.67" && (s != c.s || th != c.t) {
			t.Errorf("Figures(%v, %v) = %s, %s; want %s, %s", c.score, c.threshold, s, th, c.s, c.t)
		}
	}
	if s, th := Figures(100*2.0/3, 66.67); s != "66.667" || th != "66.670" {
		t.Errorf("Figures(2/3, 66.67) = %s, %s", s, th)
	}
}

// TestScoreReasonFigures: the FAIL reason names the figures compared.
func TestScoreReasonFigures(t *testing.T) {
	res := &Result{Threshold: 74}
	for i := 0; i < 19; i++ {
		o := "killed"
		if i >= 14 {
			o = "survived"
		}
		res.Mutants = append(res.Mutants, Mutant{ID: string(rune('a' + i)), File: "src/a.ts", Decision: lab.Decision{Outcome: lab.Outcome(o)}})
	}
	score(res)
	if res.Verdict != FAIL || res.Reason != "src/a.ts scores 73.7% (14/19), below the threshold 74.0" {
		t.Errorf("%s %q", res.Verdict, res.Reason)
	}
}

// TestHTMLFigures: the page prints the figures compared too.
func TestHTMLFigures(t *testing.T) {
	res := &Result{Threshold: 74}
	for i := 0; i < 19; i++ {
		o := "killed"
		if i >= 14 {
			o = "survived"
		}
		res.Mutants = append(res.Mutants, Mutant{ID: string(rune('a' + i)), File: "src/a.ts", Decision: lab.Decision{Outcome: lab.Outcome(o)}})
	}
	score(res)
	page := string(res.HTML(t.TempDir()))
	if !strings.Contains(page, "GATE FAIL 73.7% (14/19), threshold 74.0") || !strings.Contains(page, "<td>73.7%</td>") {
		t.Errorf("%.800s", page)
	}
}
