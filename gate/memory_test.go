package gate

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
)

// bigFunction is a function of n lines of arithmetic, comparisons and
// literals: about 8 gate mutants a line.
func bigFunction(n int) []byte {
	lines := []string{"export function big(x: number): number {", "  let acc = 0;"}
	for i := range n {
		switch i % 5 {
		case 0:
			lines = append(lines, fmt.Sprintf("  if (x > %d && acc < %d) acc += x * %d;", i, i*3, i%7+1))
		case 1:
			lines = append(lines, fmt.Sprintf("  acc = acc - %d + (x %% %d);", i, i%9+2))
		case 2:
			lines = append(lines, fmt.Sprintf("  if (acc >= %d || x === %d) acc -= 1;", i, i))
		case 3:
			lines = append(lines, fmt.Sprintf("  acc = Math.max(acc, x / %d);", i%4+1))
		default:
			lines = append(lines, fmt.Sprintf("  acc += x > 0 ? %d : -%d;", i, i))
		}
	}
	lines = append(lines, "  return acc + x;", "}")
	return []byte(strings.Join(lines, "\n") + "\n")
}

// TestMutantsMemory (issue 42): a mutant holds its change and the one
// source of its file, not a mutated copy of the file: the gate's mutants
// of a 600-line function (4,804, the file 20 KB), as its mutants stage
// hands them to the lab, live in memory proportional to the change (3.9 MB;
// a copy of the file each was 129 MB, and grew with the square of the
// lines).
func TestMutantsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds thousands of mutants")
	}
	const lines = 600
	src := bigFunction(lines)
	file := analyzer.Parse("src/big.ts", src)
	j := &job{target: &Target{ID: "src/big.ts#big", File: "src/big.ts"}, fn: file.Functions[0]}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	// The gate's mutants stage: every operator's mutant of the function,
	// one of each program, as they go to the lab.
	ms, _, _ := mutants([]*job{j}, map[string][]byte{"src/big.ts": src}, change.Change{"src/big.ts": {{1, lines + 4}}}, nil, nil, Options{Scope: ScopeFunction})
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	// A mutant's own memory is its name, diff, spans and change: a few
	// hundred bytes; 4 KB each leaves room and is far below a file's copy.
	bound := int64(len(ms)) * 4 << 10
	t.Logf("%d lines, %d bytes, %d mutants: heap grew %.1f MB (bound %.1f MB)", lines, len(src), len(ms), float64(grown)/(1<<20), float64(bound)/(1<<20))
	if len(ms) < 4*lines {
		t.Fatalf("%d mutants of %d lines, want at least %d", len(ms), lines, 4*lines)
	}
	if grown > bound {
		t.Errorf("the mutants hold %.1f MB, want at most %.1f MB (%d bytes each, the file is %d)", float64(grown)/(1<<20), float64(bound)/(1<<20), grown/int64(len(ms)), len(src))
	}
	runtime.KeepAlive(ms)
}
