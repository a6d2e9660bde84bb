package gate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
)

// TestMutants: gate.Mutants is mutate/operators' gate driver, the arid
// loggers passed through (the operators' own tests are there).
func TestMutants(t *testing.T) {
	src := "function f(verbose: boolean, msg: string, log: string[]) {\n  if (verbose) log.push(msg);\n  logger.info(\"x\");\n  return log;\n}\n"
	f, syn := analyzer.ParseSyntax("x.ts", []byte(src))
	var got []string
	for _, m := range Mutants("x.ts", []byte(src), syn, f.Functions[0], Arid{Loggers: []string{"logger"}}) {
		got = append(got, fmt.Sprintf("%s %d:%d %q", m.Name, m.Original.Start.Line, m.Original.Start.Column, m.Replacement))
	}
	want := `BlockStatement 1:58 "{}"|ConditionalExpression 2:6 "(true)"|ConditionalExpression 2:6 "(false)"|` +
		`CallStatementRemoval 2:16 ";"|ReturnValue 4:10 "undefined"`
	if strings.Join(got, "|") != want {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
}

// TestMutantsSameProgram: two mutants that make the same program are one,
// the first in the gate's order kept (the block of one call emptied, not
// the call removed as well), in every scope, the indexes kept.
func TestMutantsSameProgram(t *testing.T) {
	src := []byte("export function f(a: boolean, out: number[]) {\n  if (a) {\n    out.push(1);\n  }\n}\n")
	file := analyzer.Parse("src/f.ts", src)
	for _, scope := range []string{ScopeLines, ScopeFunction} {
		j := &job{target: &Target{ID: "src/f.ts#f", File: "src/f.ts"}, fn: file.Functions[0]}
		ms, _, _ := mutants([]*job{j}, map[string][]byte{"src/f.ts": src}, change.Change{"src/f.ts": {{3, 3}}}, nil, nil, Options{Scope: scope})
		var got []string
		seen := map[string]string{}
		for _, mu := range ms {
			m := mu.edit
			got = append(got, fmt.Sprintf("%d %s %d:%d %q", mu.index, m.Operator, m.Original.Start.Line, m.Original.Start.Column, m.Replacement))
			if prev, ok := seen[string(m.Source())]; ok {
				t.Errorf("%s: %s and %s make the same program", scope, prev, m.Operator)
			}
			seen[string(m.Source())] = string(m.Operator)
		}
		want := `0 BlockStatement 1:46 "{}"|3 BlockStatement 2:10 "{}"|5 InlineConstant 3:14 "0"`
		if scope == ScopeFunction {
			want = `0 BlockStatement 1:46 "{}"|1 ConditionalExpression 2:6 "(true)"|2 ConditionalExpression 2:6 "(false)"|3 BlockStatement 2:10 "{}"|5 InlineConstant 3:14 "0"`
		}
		if strings.Join(got, "|") != want {
			t.Errorf("%s:\n%s", scope, strings.Join(got, "\n"))
		}
	}
}

// TestMutantsRegexRevert: a changed regular expression gets its Regex
// mutants and its revert; a revert that makes the program of one of them
// (`/^\d+/` → `/^\d+$/` restored is the `$` removed) is that one mutant.
func TestMutantsRegexRevert(t *testing.T) {
	fn := func(re string) []byte {
		return []byte("export function f(s: string): boolean {\n  return " + re + ".test(s);\n}\n")
	}
	for _, tc := range []struct{ base, head, want string }{
		{`/\d+/`, `/^\d+$/`, `Regex /\d+$/|Regex /^\D+$/|Regex /^\d$/|Regex /^\d+/|Revert /\d+/`},
		{`/^\d+/`, `/^\d+$/`, `Regex /\d+$/|Regex /^\D+$/|Regex /^\d$/|Regex /^\d+/`},
	} {
		src := fn(tc.head)
		changed, base := change.DiffBase("src/f.ts", fn(tc.base), src)
		j := &job{target: &Target{ID: "src/f.ts#f", File: "src/f.ts"}, fn: analyzer.Parse("src/f.ts", src).Functions[0], changed: changed}
		ms, _, _ := mutants([]*job{j}, map[string][]byte{"src/f.ts": src}, change.Change{"src/f.ts": {{2, 2}}},
			change.Tokens{"src/f.ts": changed}, change.Bases{"src/f.ts": base}, Options{})
		var got []string
		for _, mu := range ms {
			got = append(got, fmt.Sprintf("%s %s", mu.edit.Operator, mu.edit.Replacement))
		}
		if strings.Join(got, "|") != tc.want {
			t.Errorf("%s → %s:\n%s\nwant\n%s", tc.base, tc.head, strings.Join(got, "\n"), strings.ReplaceAll(tc.want, "|", "\n"))
		}
	}
}
