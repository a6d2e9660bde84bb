package gate

import (
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
)

// BenchmarkMutants1500: the gate's mutants stage on a 1500-line function
// written whole by the change (issue 42's scale shape: about 12,000
// mutants). Not in the test command (a benchmark).
func BenchmarkMutants1500(b *testing.B) {
	const lines = 1500
	src := bigFunction(lines)
	for b.Loop() {
		file := analyzer.Parse("src/big.ts", src)
		j := &job{target: &Target{ID: "src/big.ts#big", File: "src/big.ts"}, fn: file.Functions[0]}
		ms, _, _ := mutants([]*job{j}, map[string][]byte{"src/big.ts": src}, change.Change{"src/big.ts": {{1, lines + 4}}}, nil, nil, Options{Scope: ScopeFunction})
		b.ReportMetric(float64(len(ms)), "mutants")
	}
}
