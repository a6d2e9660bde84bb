package generator

import (
	"path/filepath"
	"testing"

	"github.com/oracle-ts/oracle/bench/synth"
)

// BenchmarkGenSynthetic: `oracle gen` of one ticket on the ~100k-line
// synthetic monorepo, in process, cold (a new Program each iteration): load,
// check against the code, fixtures, strategies, render and syntax check.
// bench/graph -gen measures the CLI end to end.
func BenchmarkGenSynthetic(b *testing.B) {
	root := b.TempDir()
	if _, err := synth.Generate(root, synth.Default()); err != nil {
		b.Fatal(err)
	}
	if err := synth.AddTicket(root); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in, err := Load(root, filepath.Join(root, synth.TicketFile))
		if err != nil {
			b.Fatal(err)
		}
		res, err := Plan(in)
		in.Program.Close()
		if err != nil {
			b.Fatal(err)
		}
		if o := res.Operations[0]; o.Status != StatusGenerated {
			b.Fatalf("the benchmark ticket is %s: %s", o.Status, o.Reason)
		}
	}
}
