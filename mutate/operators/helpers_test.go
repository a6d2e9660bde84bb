package operators

import (
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/edit"
)

// target parses src and returns the target for function fn.
func target(t *testing.T, path, src, fn string, flag edit.Flag) edit.Target {
	t.Helper()
	f := analyzer.Parse(path, []byte(src))
	if len(f.Errors) > 0 {
		t.Fatalf("test source does not parse: %+v", f.Errors)
	}
	for _, x := range f.Functions {
		if x.Name == fn {
			return edit.Target{Path: path, Src: []byte(src), Fn: x, Flag: flag}
		}
	}
	t.Fatalf("no function %s", fn)
	return edit.Target{}
}

// call is the occ-th call of text in the target's function (0: the only one).
func call(t *testing.T, tg edit.Target, text string, occ int) *analyzer.Call {
	t.Helper()
	sites := tg.Fn.CallSites(text)
	if occ == 0 && len(sites) == 1 {
		return sites[0]
	}
	if occ < 1 || occ > len(sites) {
		t.Fatalf("call %s occurrence %d: %d sites", text, occ, len(sites))
	}
	return sites[occ-1]
}

var optsSkip = edit.Flag{Param: "opts", Props: []string{"skip"}}
