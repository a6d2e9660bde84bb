package callgraph

import (
	"testing"

	"github.com/oracle-ts/oracle/bench/synth"
)

// BenchmarkBuildSynthetic: the whole-repository graph of the ~100k-line
// synthetic monorepo (bench/synth.Default), parse and resolution, cold (a new
// Program each iteration). bench/graph measures the CLI end to end, with
// peak memory.
func BenchmarkBuildSynthetic(b *testing.B) {
	root := b.TempDir()
	st, err := synth.Generate(root, synth.Default())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(st.Lines), "lines")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := Build(root, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(g.Functions) != st.Functions+st.Members+st.Nested {
			b.Fatalf("functions: got %d, want %d", len(g.Functions), st.Functions+st.Members+st.Nested)
		}
	}
}
