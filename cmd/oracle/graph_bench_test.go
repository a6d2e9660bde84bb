package main

import (
	"bufio"
	"io"
	"testing"

	"github.com/oracle-ts/oracle/bench/synth"
	"github.com/oracle-ts/oracle/callgraph"
)

// BenchmarkGraphJSONSynthetic: encoding the `oracle graph --json` document
// of the 100k-line synthetic monorepo (the graph is built once, outside the
// timing).
func BenchmarkGraphJSONSynthetic(b *testing.B) {
	root := b.TempDir()
	if _, err := synth.Generate(root, synth.Default()); err != nil {
		b.Fatal(err)
	}
	g, err := callgraph.Build(root, callgraph.Options{})
	if err != nil {
		b.Fatal(err)
	}
	doc := graphDoc{Schema: "oracle.graph/v1", Functions: g.Functions, Notes: g.Notes, Errors: g.Errors}
	b.ResetTimer()
	for b.Loop() {
		w := bufio.NewWriterSize(io.Discard, 1<<16)
		if err := writeGraphJSON(w, doc); err != nil || w.Flush() != nil {
			b.Fatal(err)
		}
	}
}
