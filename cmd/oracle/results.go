package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/audit"
	"github.com/oracle-ts/oracle/gate"
	"github.com/oracle-ts/oracle/mutate/lab"
)

// Results where reviewers look: --summary writes Markdown for
// $GITHUB_STEP_SUMMARY or a pull-request comment (complete where GitHub
// caps annotations at 10 per type and step), --sarif a SARIF 2.1.0 log for
// code scanning. Both are made from the result alone: the same result, the
// same bytes.

// results are the --summary and --sarif flags of a verb.
type results struct{ summary, sarif *string }

func resultFlags(v *verb) results {
	return results{
		summary: v.fs.String("summary", "", "also write a Markdown summary (for $GITHUB_STEP_SUMMARY or a pull-request comment) to `FILE`"),
		sarif:   v.fs.String("sarif", "", "also write the results as a SARIF 2.1.0 log (code scanning) to `FILE`"),
	}
}

// write writes the summary and the SARIF log, when asked.
func (r results) write(summary []byte, sarif func() ([]byte, error)) error {
	if *r.summary != "" {
		if err := os.WriteFile(*r.summary, summary, 0o644); err != nil {
			return fmt.Errorf("--summary: %w", err)
		}
	}
	if *r.sarif != "" {
		b, err := sarif()
		if err == nil {
			err = os.WriteFile(*r.sarif, b, 0o644)
		}
		if err != nil {
			return fmt.Errorf("--sarif: %w", err)
		}
	}
	return nil
}

// sourceLink makes file:line a link to the file at the commit CI checked
// out ($GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/file#Lline)
// when GitHub's variables are set; elsewhere the text stays plain.
func sourceLink(file string, line int, text string) string {
	server, repo, sha := os.Getenv("GITHUB_SERVER_URL"), os.Getenv("GITHUB_REPOSITORY"), os.Getenv("GITHUB_SHA")
	if server == "" || repo == "" || sha == "" {
		return text
	}
	return fmt.Sprintf("[%s](%s/%s/blob/%s/%s#L%d)", text, server, repo, sha, uriPath(file), line)
}

// uriPath is the repository-relative slash path file as a URI reference
// (RFC 3986): each segment percent-encoded (a space, a non-ASCII letter),
// ':' too (a first segment is no scheme), and the parentheses (a Markdown
// link ends at one).
func uriPath(file string) string {
	segs := strings.Split(file, "/")
	for i, s := range segs {
		segs[i] = strings.NewReplacer(":", "%3A", "(", "%28", ")", "%29").Replace(url.PathEscape(s))
	}
	return strings.Join(segs, "/")
}

// cell is s fit for a Markdown table cell: one line, pipes escaped.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// code is s as inline Markdown code, whatever backticks it holds.
func code(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// summaryMax is the most bytes a --summary holds: GitHub drops a step
// summary over 1 MiB (about 2,400 survivors with their diffs), so a longer
// one is cut, whole rows and blocks, with a closing line that says where
// the whole list is.
const summaryMax = 1000 * 1000

// capped is a Markdown summary under summaryMax: add writes a part (a row,
// a block) whole, or, once one does not fit, nothing more.
type capped struct {
	b   strings.Builder
	cut bool
}

func (c *capped) add(format string, a ...any) bool {
	s := fmt.Sprintf(format, a...)
	if c.cut || c.b.Len()+len(s) > summaryMax-len(cutLine)-100 /* what it says is there */ {
		c.cut = true
		return false
	}
	c.b.WriteString(s)
	return true
}

// cutLine closes a summary cut at summaryMax (%s: how much of it is
// there).
const cutLine = "\n> **This summary is cut here** (%s) to stay under GitHub's 1 MiB limit on a step summary: the SARIF log (`--sarif`), the HTML page (`--html`) and `--json` list them all.\n"

// bytes is the summary, with its closing line when it was cut (listed
// says how much of it is there).
func (c *capped) bytes(listed string) []byte {
	out := strings.TrimRight(c.b.String(), "\n") + "\n"
	if c.cut {
		out += fmt.Sprintf(cutLine, listed)
	}
	return []byte(out)
}

// gateSummary is the gate's result as Markdown: the summary line, the
// reason, the files' scores, the survivors (a table of links, then each
// diff), the notes and the targets not mutation-tested, with why; cut
// under summaryMax.
func gateSummary(res *gate.Result) []byte {
	var c capped
	var head strings.Builder
	writeGateText(&head, &gate.Result{Verdict: res.Verdict, Reason: res.Reason, Score: res.Score, Threshold: res.Threshold,
		Detected: res.Detected, Total: res.Total, Attribution: res.Attribution, Scope: res.Scope, Changed: res.Changed, Shard: res.Shard, Identity: res.Identity}, false)
	first, _, _ := strings.Cut(head.String(), "\n")
	c.add("### oracle %s\n\n", strings.ToLower(first[:4])+first[4:])
	if res.Reason != "" {
		c.add("%s\n\n", strings.ReplaceAll(strings.TrimSpace(res.Reason), "\n", "  \n"))
	}
	if len(res.Files) > 0 {
		c.add("| file | score | detected | mutants | errors |\n|---|---:|---:|---:|---:|\n")
		for _, f := range res.Files {
			sc, _ := gate.Figures(f.Score, res.Threshold)
			c.add("| %s | %s%% | %d | %d | %d |\n", cell(f.File), sc, f.Detected, f.Total, f.Errors)
		}
		c.add("\n")
	}
	var open []gate.Mutant
	for _, m := range res.Mutants {
		if m.Open() {
			open = append(open, m)
		}
	}
	listed, diffs := 0, 0
	if len(open) > 0 {
		c.add("#### Survivors (%d)\n\n| where | outcome | mutant | in |\n|---|---|---|---|\n", len(open))
		for _, m := range open {
			where := fmt.Sprintf("%s:%d:%d", m.File, m.Line, m.Column)
			if c.add("| %s | %s | %s %s | %s |\n", sourceLink(m.File, m.Line, cell(where)), m.Outcome, cell(m.Operator), cell(code(m.Replacement)), cell(code(m.Target))) {
				listed++
			}
		}
		c.add("\n")
		for _, m := range open {
			if c.add("<details><summary>%s:%d:%d %s</summary>\n\n```diff\n%s\n```\n\n</details>\n", m.File, m.Line, m.Column, m.Operator, strings.TrimRight(strings.ReplaceAll(m.Diff, "```", "` ` `"), "\n")) {
				diffs++
			}
		}
		c.add("\n")
	}
	writeSkipped(&c, res.Targets)
	for _, n := range res.Notes {
		c.add("> note: %s\n", cell(n))
	}
	return c.bytes(fmt.Sprintf("%d of %d survivors in the table, %d with their diff", listed, len(open), diffs))
}

// writeSkipped lists the targets not mutation-tested, with why.
func writeSkipped(c *capped, targets []gate.Target) {
	var skipped []gate.Target
	for _, t := range targets {
		if t.Skipped != "" {
			skipped = append(skipped, t)
		}
	}
	if len(skipped) == 0 {
		return
	}
	c.add("#### Not mutation-tested (%d)\n\n", len(skipped))
	for _, t := range skipped {
		c.add("- %s %s: %s\n", sourceLink(t.File, t.Line, code(t.ID)), fmt.Sprintf("(line %d)", t.Line), cell(t.Skipped))
	}
	c.add("\n")
}

// auditSummary is audit's findings as Markdown: the counts, then a table of
// the findings that count, errors first; cut under summaryMax.
func auditSummary(findings []audit.Finding) []byte {
	var c capped
	w := func(format string, a ...any) { c.add(format, a...) }
	var counting []audit.Finding
	errs, warns, ignored := 0, 0, 0
	for _, f := range findings {
		switch {
		case f.Ignored != "":
			ignored++
			continue
		case f.Severity == audit.Error:
			errs++
		case f.Severity == audit.Warning:
			warns++
		}
		counting = append(counting, f)
	}
	w("### oracle audit: %d error(s), %d warning(s), %d ignored\n\n", errs, warns, ignored)
	if len(counting) == 0 {
		w("Nothing found.\n")
		return c.bytes("")
	}
	rank := map[audit.Severity]int{audit.Error: 0, audit.Warning: 1}
	slices.SortStableFunc(counting, func(a, b audit.Finding) int {
		ra, oka := rank[a.Severity]
		rb, okb := rank[b.Severity]
		if !oka {
			ra = 2
		}
		if !okb {
			rb = 2
		}
		return ra - rb
	})
	w("| severity | rule | where | what |\n|---|---|---|---|\n")
	listed := 0
	for _, f := range counting {
		where := fmt.Sprintf("%s:%d", f.File, f.Line)
		if c.add("| %s | %s | %s | %s |\n", f.Severity, cell(f.Rule), sourceLink(f.File, f.Line, cell(where)), cell(f.Message)) {
			listed++
		}
	}
	return c.bytes(fmt.Sprintf("%d of %d findings listed", listed, len(counting)))
}

// SARIF 2.1.0, the parts oracle writes.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name    string      `json:"name"`
		Version string      `json:"version"`
		Rules   []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		ShortDescription sarifMessage `json:"shortDescription"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID           string             `json:"ruleId"`
		Level            string             `json:"level"`
		Message          sarifMessage       `json:"message"`
		Locations        []sarifLocation    `json:"locations"`
		RelatedLocations []sarifLocation    `json:"relatedLocations,omitempty"`
		Suppressions     []sarifSuppression `json:"suppressions,omitempty"`
	}
	sarifLocation struct {
		ID               int           `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
	sarifSuppression struct {
		Kind          string `json:"kind"`
		Justification string `json:"justification,omitempty"`
	}
)

// sarifAt is a location in the repository (%SRCROOT%; the path
// percent-encoded, as a uri is), line 1 when the
// line is not known.
func sarifAt(file string, line, col, endLine, endCol int) sarifLocation {
	r := &sarifRegion{StartLine: max(line, 1), StartColumn: col, EndLine: endLine, EndColumn: endCol}
	if endLine > 0 && endLine < r.StartLine {
		r.EndLine = 0
	}
	return sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: uriPath(file), URIBaseID: "%SRCROOT%"}, Region: r}}
}

func sarifDoc(rules []sarifRule, results []sarifResult) ([]byte, error) {
	if results == nil {
		results = []sarifResult{}
	}
	doc := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0",
		Runs: []sarifRun{{Tool: sarifTool{Driver: sarifDriver{Name: "oracle", Version: version, Rules: rules}}, Results: results}}}
	b, err := json.MarshalIndent(doc, "", "  ")
	return append(b, '\n'), err
}

// Rules of the gate's SARIF results.
var gateRules = []sarifRule{
	{"gate/survived", sarifMessage{"a mutant of the changed code survived: no test fails when the code is changed this way"}},
	{"gate/no-coverage", sarifMessage{"a mutant of the changed code that no related test reaches"}},
	{"gate/untested", sarifMessage{"a function the change touched that no test executes: not mutation-tested"}},
	{"gate/red-tests", sarifMessage{"a related test fails on the unmutated code"}},
}

// gateSARIF is the gate's survivors, uncovered mutants, untested targets and
// a red suite as SARIF results: errors when the gate failed, else warnings;
// a target not mutation-tested is a note, but an error when it failed the
// gate (--untested fail).
func gateSARIF(res *gate.Result) ([]byte, error) {
	level := "warning"
	if res.Verdict == gate.FAIL || res.Verdict == gate.ERROR {
		level = "error"
	}
	var out []sarifResult
	if res.Attribution == gate.AttributionTests {
		out = append(out, sarifResult{RuleID: "gate/red-tests", Level: "error", Message: sarifMessage{res.Reason},
			Locations: []sarifLocation{sarifAt(redFile(res), 1, 0, 0, 0)}})
	}
	for _, m := range res.Mutants {
		if !m.Open() {
			continue
		}
		msg := fmt.Sprintf("%s %s in %s: the code changed to %s and no test failed", m.Operator, m.Outcome, m.Target, code(m.Replacement))
		if m.Outcome == lab.NoCoverage {
			msg = fmt.Sprintf("%s in %s: no related test reaches this code", m.Operator, m.Target)
		}
		out = append(out, sarifResult{RuleID: "gate/" + string(m.Outcome), Level: level, Message: sarifMessage{msg},
			Locations: []sarifLocation{sarifAt(m.File, m.Line, m.Column, m.EndLine, m.EndColumn)}})
	}
	for _, t := range res.Targets {
		if t.Skipped != "" {
			level := "note"
			if res.Attribution == gate.AttributionUntested && t.Untested() { // --untested fail: what failed the gate
				level = "error"
			}
			out = append(out, sarifResult{RuleID: "gate/untested", Level: level, Message: sarifMessage{t.ID + ": " + t.Skipped},
				Locations: []sarifLocation{sarifAt(t.File, t.Line, 0, 0, 0)}})
		}
	}
	return sarifDoc(gateRules, out)
}

// redFile is the test file a red baseline's reason names first, else the
// first related test file.
func redFile(res *gate.Result) string {
	for f := range res.Tests {
		if strings.Contains(res.Reason, f) {
			return f
		}
	}
	for _, t := range res.Targets {
		if len(t.Tests) > 0 {
			return t.Tests[0]
		}
	}
	return "."
}

// auditSARIF is audit's findings as SARIF results, one rule per rule id; an
// ignored finding carries its in-source suppression with the reason.
func auditSARIF(findings []audit.Finding) ([]byte, error) {
	var rules []sarifRule
	seen := map[string]bool{}
	var out []sarifResult
	for _, f := range findings {
		if !seen[f.Rule] {
			seen[f.Rule] = true
			rules = append(rules, sarifRule{ID: f.Rule, ShortDescription: sarifMessage{"oracle audit: " + f.Rule}})
		}
		level := "note"
		switch f.Severity {
		case audit.Error:
			level = "error"
		case audit.Warning:
			level = "warning"
		}
		r := sarifResult{RuleID: f.Rule, Level: level, Message: sarifMessage{f.Message}, Locations: []sarifLocation{sarifAt(f.File, f.Line, 0, 0, 0)}}
		for i, rel := range f.Related {
			l := sarifAt(rel.File, rel.Line, 0, 0, 0)
			l.ID = i + 1
			r.RelatedLocations = append(r.RelatedLocations, l)
		}
		if f.Ignored != "" {
			r.Suppressions = []sarifSuppression{{Kind: "inSource", Justification: f.Ignored}}
		}
		out = append(out, r)
	}
	slices.SortFunc(rules, func(a, b sarifRule) int { return strings.Compare(a.ID, b.ID) })
	if rules == nil {
		rules = []sarifRule{}
	}
	return sarifDoc(rules, out)
}
