package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/oracle-ts/oracle/audit"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/manifest"
)

type auditDoc struct {
	Schema   string          `json:"schema"`
	Findings []audit.Finding `json:"findings"`
	Counts   map[string]int  `json:"counts"`
}

func runAudit(args []string, stdout, stderr io.Writer) int {
	v := newVerb("audit", "audit [--json] [--base REV] [--enable RULE,...] [--root DIR] [PATH...]", "oracle.audit/v1", stderr)
	base := v.fs.String("base", "", "functions the change `git diff --merge-base REV HEAD` touched make an error when blind (the rest warnings)")
	enable := v.fs.String("enable", "", "turn on sub-rules that are off by default, comma-separated: `vacuous-test/no-assertion`")
	// fail ends the audit on an error: the message on stderr, and with
	// --json one document with errors[] on stdout (exit 2 and 3 too).
	asJSON := func() bool {
		for _, a := range args {
			if a == "--json" || a == "-json" || a == "--json=true" || a == "-json=true" {
				return true
			}
		}
		return *v.json
	}
	fail := func(code int, file string, line int, format string, a ...any) int {
		msg := fmt.Sprintf(format, a...)
		fmt.Fprintf(stderr, "oracle audit: %s\n", msg)
		if asJSON() {
			writeJSON(stdout, stderr, errorDoc{Schema: "oracle.audit/v1", Errors: []*manifest.Error{{Pos: manifest.Pos{File: file, Line: line}, Message: msg}}}, code)
		}
		return code
	}
	pos, root, code, ok := v.parse(args, -1)
	if !ok {
		if code != exitOK && asJSON() {
			writeJSON(stdout, stderr, errorDoc{Schema: "oracle.audit/v1", Errors: []*manifest.Error{{Message: "invalid command line (see the usage on stderr)"}}}, code)
		}
		return code
	}
	cfg, err := manifest.LoadConfig(root)
	if err != nil {
		return reportInputError(err, "oracle.audit/v1", *v.json, stdout, stderr)
	}
	opts := audit.Options{}
	for _, e := range strings.Split(*enable, ",") {
		if e = strings.TrimSpace(e); e != "" {
			opts.Enable = append(opts.Enable, e)
		}
	}
	if err := audit.CheckEnable(opts.Enable); err != nil {
		return fail(exitUsage, "", 0, "%v", err)
	}
	for _, fx := range cfg.Fixtures {
		opts.Fixtures = append(opts.Fixtures, fx.File)
	}
	for _, p := range pos {
		rel, err := repoRel(root, p)
		if err != nil {
			return fail(exitUsage, "", 0, "%v", err)
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
			return fail(exitUsage, "", 0, "%s: no such file or directory in the repository %s", p, root)
		}
		opts.Paths = append(opts.Paths, rel)
	}
	if *base != "" {
		ch, err := change.FromGit(root, *base)
		var ue *change.UsageError
		if errors.As(err, &ue) {
			return fail(exitUsage, "", 0, "%s", ue.Msg)
		}
		if err != nil {
			return fail(exitError, "", 0, "%v", err)
		}
		opts.Change = ch
	}
	rep, err := audit.Audit(root, opts)
	if err != nil {
		return fail(exitError, "", 0, "%v", err)
	}
	code = exitOK
	counts := map[string]int{}
	for _, f := range rep.Findings {
		if f.Ignored != "" {
			counts["ignored"]++
			continue
		}
		counts[f.Rule]++
		counts[string(f.Severity)]++
		if f.Severity == audit.Error {
			code = exitFail
		}
	}
	if *v.json {
		doc := auditDoc{Schema: "oracle.audit/v1", Findings: rep.Findings, Counts: counts}
		if doc.Findings == nil {
			doc.Findings = []audit.Finding{}
		}
		return writeJSON(stdout, stderr, doc, code)
	}
	rule := ""
	for _, f := range rep.Findings {
		if f.Rule != rule {
			if rule != "" {
				fmt.Fprintln(stdout)
			}
			rule = f.Rule
			fmt.Fprintf(stdout, "%s (%d)\n", rule, counts[rule])
		}
		ign := ""
		if f.Ignored != "" {
			ign = " [ignored: " + f.Ignored + "]"
		}
		fmt.Fprintf(stdout, "  %s %s:%d %s%s\n", f.Severity, f.File, f.Line, f.Message, ign)
		if inGitHubActions() && f.Ignored == "" {
			kind := "warning"
			if f.Severity == audit.Error {
				kind = "error"
			}
			fmt.Fprintln(stdout, "::"+kind+annotation(f.File, f.Line, f.Rule+": "+f.Message)[len("::error"):])
		}
	}
	summary := fmt.Sprintf("AUDIT %d error(s), %d warning(s), %d ignored", counts["error"], counts["warning"], counts["ignored"])
	if counts["info"] > 0 {
		summary += fmt.Sprintf(", %d info", counts["info"])
	}
	if counts[audit.CannotAudit] > 0 {
		summary += fmt.Sprintf(", %d test file(s) cannot be audited", counts[audit.CannotAudit])
	}
	fmt.Fprintln(stdout, summary)
	return code
}
