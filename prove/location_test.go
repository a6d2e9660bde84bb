package prove

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/operators"
)

// spliceUTF16 replaces, in src, the range from (line, col) to (endLine,
// endCol) (1-based, UTF-16 columns, end exclusive) with repl: what the
// report viewer shows for a mutant.
func spliceUTF16(src string, line, col, endLine, endCol int, repl string) string {
	lines := strings.SplitAfter(src, "\n")
	off := func(l, c int) int {
		n := 0
		for i := 0; i < l-1; i++ {
			n += len(lines[i])
		}
		u := utf16.Encode([]rune(lines[l-1]))
		return n + len(string(utf16.Decode(u[:c-1])))
	}
	return src[:off(line, col)] + repl + src[off(endLine, endCol):]
}

// TestReportLocationsAddressTheOriginal: each mutant's location (in the
// original source, UTF-16 columns) with its replacement gives back the
// mutated source: what Stryker's viewer shows is the mutant (issue 8 item 14).
func TestReportLocationsAddressTheOriginal(t *testing.T) {
	src := `export async function f(id: number, opts: { skip?: boolean } = {}) {
  const label = "héllo 🌍";
  const targets = selectTargets(id, label);
  if (!opts.skip) {
    await enrichItem(targets);
  }
  await updateRecord(id, {
    targets,
  });
  return notify(audit(id));
}
`
	f := analyzer.Parse("x.ts", []byte(src))
	fn := f.Functions[0]
	tg := edit.Target{Path: "x.ts", Src: []byte(src), Fn: fn, Flag: edit.Flag{Param: "opts", Props: []string{"skip"}}}
	var pres []*analyzer.Call
	for _, name := range []string{"selectTargets", "updateRecord"} {
		pres = append(pres, fn.CallSites(name)[0])
	}
	ms, err := operators.Prove(tg, fn.CallSites("enrichItem")[0], pres)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		run := mutantRun(m, []byte(src))
		got := spliceUTF16(src, run.Line, run.Column, run.EndLine, run.EndColumn, run.Replacement)
		if len(m.Sites) == 1 && got != string(m.Source()) {
			t.Errorf("%s: the report's location and replacement give\n%s\nnot the mutant\n%s", m.Name, got, m.Source())
		}
		if run.Line < 1 || run.Column < 1 || run.EndLine < run.Line {
			t.Errorf("%s: location %d:%d-%d:%d", m.Name, run.Line, run.Column, run.EndLine, run.EndColumn)
		}
	}
}
