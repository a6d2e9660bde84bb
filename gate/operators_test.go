package gate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
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
