package strykerjs

import (
	"fmt"
	"sort"
	"strings"
)

// Detected reports whether a status (StrykerJS's or the gate's) counts as
// detected in the score: killed or timed out.
func Detected(status string) bool {
	switch strings.ToLower(status) {
	case "killed", "timeout":
		return true
	}
	return false
}

// Agreement is the per-mutant comparison of the two tools: the mutants both
// made (the same file, span and replacement), how many of those have the same
// verdict (detected or not), and each one that does not.
type Agreement struct {
	Both, Same  int
	OnlyStryker int
	OnlyGate    int
	Differ      []Pair
}

// Pair is one mutant both tools made, with each tool's status.
type Pair struct {
	Stryker, Gate Mutant
}

func (p Pair) String() string {
	m := p.Stryker
	return fmt.Sprintf("%s:%d:%d-%d:%d %s %q: StrykerJS %s, gate %s (%s)", m.File, m.Line, m.Column, m.EndLine, m.EndColumn,
		m.MutatorName, oneLine(m.Replacement), m.Status, p.Gate.Status, p.Gate.MutatorName)
}

// Agree matches the mutants of both tools by file, span and replacement
// (its whitespace squeezed: StrykerJS prints a replacement through its own
// code generator, the gate keeps the source's); a mutant one tool made at a
// span with no counterpart is counted, not compared.
func Agree(stryker, gate []Mutant) Agreement {
	key := func(m Mutant) string {
		return fmt.Sprintf("%s:%d:%d:%d:%d:%s", m.File, m.Line, m.Column, m.EndLine, m.EndColumn, squeeze(m.Replacement))
	}
	byKey := map[string][]Mutant{}
	for _, g := range gate {
		byKey[key(g)] = append(byKey[key(g)], g)
	}
	var a Agreement
	for _, s := range stryker {
		k := key(s)
		gs := byKey[k]
		if len(gs) == 0 {
			a.OnlyStryker++
			continue
		}
		g := gs[0]
		byKey[k] = gs[1:]
		a.Both++
		if Detected(s.Status) == Detected(g.Status) {
			a.Same++
		} else {
			a.Differ = append(a.Differ, Pair{Stryker: s, Gate: g})
		}
	}
	for _, gs := range byKey {
		a.OnlyGate += len(gs)
	}
	return a
}

func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func sortMutants(ms []Mutant) {
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Replacement < b.Replacement
	})
}
