package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/vitestloc"
	"github.com/oracle-ts/oracle/testsuite"
)

// graphDoc is the `oracle graph --json` document (SPEC "oracle graph").
type graphDoc struct {
	Schema    string                    `json:"schema"`
	Functions []*callgraph.FunctionNode `json:"functions"`
	Notes     []callgraph.Note          `json:"notes,omitempty"`
	Errors    []callgraph.FileError     `json:"errors,omitempty"`
}

func runGraph(_ context.Context, args []string, stdout, stderr io.Writer) error {
	// The graph of a large repository allocates a hundred and more
	// megabytes in total while its live heap grows to tens: at the default
	// GOGC the collector ran twenty-odd times on the 100k-line synthetic, at
	// 400 four or five, for about 25 MB more peak memory (90 -> 115 MB;
	// measured). GOGC in the environment still decides when it is set.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(graphGCPercent))
	}
	v := newVerb("graph", "graph [--json] [--root DIR] [FILE[#FUNCTION] ...]", "oracle.graph/v1", stderr)
	asJSON := v.json
	pos, root, err := v.parse(args, -1)
	if err != nil {
		return err
	}

	// FILE[#FUNCTION] selections: files to read, and per file the functions kept.
	var files []string
	keep := map[string][]string{} // file -> function names ("" = all)
	for _, a := range pos {
		file, fn, _ := strings.Cut(a, "#")
		rel, err := repoRel(root, file)
		if err != nil {
			return &exitStatus{code: exitUsage, msg: err.Error()}
		}
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return &exitStatus{code: exitUsage, msg: fmt.Sprintf("%s: no such file", a)}
		}
		if info.IsDir() {
			// A directory: every TypeScript source under it.
			if fn != "" {
				return &exitStatus{code: exitUsage, msg: fmt.Sprintf("%s: a directory has no function #%s; name a file", a, fn)}
			}
			under, err := callgraph.SourcesUnder(root, rel)
			if err != nil {
				return err
			}
			if len(under) == 0 {
				return &exitStatus{code: exitUsage, msg: fmt.Sprintf("%s: no TypeScript source under this directory", a)}
			}
			for _, f := range under {
				if _, seen := keep[f]; !seen {
					files = append(files, f)
					keep[f] = []string{""}
				}
			}
			continue
		}
		if _, seen := keep[rel]; !seen {
			files = append(files, rel)
		}
		keep[rel] = append(keep[rel], fn)
	}
	sort.Strings(files)

	gopts, aliasNote := graphOptions(root, files)
	g, err := callgraph.Build(root, gopts)
	if err != nil {
		return err
	}
	if aliasNote != nil {
		g.Notes = append([]callgraph.Note{*aliasNote}, g.Notes...)
	}
	if len(keep) > 0 {
		fns, err := selectFunctions(g.Functions, keep)
		if err != nil {
			return &exitStatus{code: exitUsage, msg: err.Error()}
		}
		g.Functions = fns
	}

	if *asJSON {
		doc := graphDoc{Schema: "oracle.graph/v1", Functions: g.Functions, Notes: g.Notes, Errors: g.Errors}
		if doc.Functions == nil {
			doc.Functions = []*callgraph.FunctionNode{}
		}
		// Compact: the document of a large repository is megabytes, and
		// indenting it costs more than a third of the encoding (measured).
		// Streamed one function at a time: encoding the whole document into
		// one buffer first grew (and cleared) tens of megabytes (profiled).
		w := bufio.NewWriterSize(stdout, 1<<16)
		if err := writeGraphJSON(w, doc); err != nil || w.Flush() != nil {
			return fmt.Errorf("cannot write the document: %v", err)
		}
		return nil
	}
	writeGraphText(stdout, g)
	for _, e := range g.Errors {
		fmt.Fprintf(stderr, "%s:%d:%d: %s\n", e.File, e.Line, e.Column, e.Message)
	}
	for _, n := range g.Notes {
		fmt.Fprintf(stderr, "%s: %s\n", n.File, n.Reason)
	}
	return nil
}

// writeGraphJSON writes doc as json.Marshal would (then a newline). The
// functions are encoded in chunks of graphJSONChunk, by GOMAXPROCS workers
// at a time, and written in their order: encoding the document of a large
// repository was the last serial step of the command (a tenth of its wall
// time on two cores, measured).
func writeGraphJSON(w *bufio.Writer, doc graphDoc) error {
	head, err := json.Marshal(doc.Schema)
	if err != nil {
		return err
	}
	w.WriteString(`{"schema":`)
	w.Write(head)
	w.WriteString(`,"functions":[`)
	if err := writeFunctionsJSON(w, doc.Functions); err != nil {
		return err
	}
	w.WriteByte(']')
	for _, part := range []struct {
		name string
		v    any
		n    int
	}{{"notes", doc.Notes, len(doc.Notes)}, {"errors", doc.Errors, len(doc.Errors)}} {
		if part.n == 0 { // omitempty
			continue
		}
		b, err := json.Marshal(part.v)
		if err != nil {
			return err
		}
		w.WriteString(`,"` + part.name + `":`)
		w.Write(b)
	}
	_, err = w.WriteString("}\n")
	return err
}

// graphGCPercent is the GOGC of oracle graph (see runGraph).
const graphGCPercent = 400

// graphJSONChunk is how many functions one worker encodes at a time.
const graphJSONChunk = 256

// writeFunctionsJSON writes the functions comma-separated, as json.Marshal
// writes the elements of a slice. At most two chunks per worker are encoded
// and not yet written, so memory stays bounded by the chunks, not the
// document.
func writeFunctionsJSON(w *bufio.Writer, fns []*callgraph.FunctionNode) error {
	type encoded struct {
		buf *bytes.Buffer
		err error
	}
	n := (len(fns) + graphJSONChunk - 1) / graphJSONChunk
	results := make([]chan encoded, n)
	for i := range results {
		results[i] = make(chan encoded, 1)
	}
	ahead := make(chan struct{}, 2*runtime.GOMAXPROCS(0))
	// The chunks' buffers, reused once written: as many as chunks ahead.
	free := make(chan *bytes.Buffer, cap(ahead))
	for range cap(ahead) {
		free <- new(bytes.Buffer)
	}
	go func() {
		for i := 0; i < n; i++ {
			ahead <- struct{}{}
			buf := <-free
			go func(i int) {
				// An Encoder writes each value into buf once (json.Marshal
				// returns a copy); it escapes HTML as Marshal does, and
				// ends each value with a newline, replaced by the comma.
				buf.Reset()
				if i > 0 {
					buf.WriteByte(',')
				}
				enc := json.NewEncoder(buf)
				for _, fn := range fns[i*graphJSONChunk : min((i+1)*graphJSONChunk, len(fns))] {
					if err := enc.Encode(fn); err != nil {
						results[i] <- encoded{buf: buf, err: err}
						return
					}
					buf.Bytes()[buf.Len()-1] = ','
				}
				buf.Truncate(buf.Len() - 1) // the last comma
				results[i] <- encoded{buf: buf}
			}(i)
		}
	}()
	var first error
	for i := 0; i < n; i++ {
		r := <-results[i] // after an error, still received: no encoder is left blocked
		if first == nil {
			if first = r.err; first == nil {
				_, first = w.Write(r.buf.Bytes())
			}
		}
		free <- r.buf
		<-ahead
	}
	return first
}

// selectFunctions keeps the functions named on the command line; a named
// function that does not exist is a usage error that lists what does.
func selectFunctions(all []*callgraph.FunctionNode, keep map[string][]string) ([]*callgraph.FunctionNode, error) {
	var out []*callgraph.FunctionNode
	for _, n := range all {
		for _, name := range keep[n.File] {
			if name == "" || name == n.Name {
				out = append(out, n)
				break
			}
		}
	}
	for file, names := range keep {
		for _, name := range names {
			if name == "" {
				continue
			}
			found := false
			var have []string
			for _, n := range all {
				if n.File == file {
					have = append(have, n.Name)
					found = found || n.Name == name
				}
			}
			if !found {
				return nil, fmt.Errorf("%s: no function %q (functions: %s)", file, name, strings.Join(have, ", "))
			}
		}
	}
	return out, nil
}

// writeGraphText prints one block per function, one line per call:
// `line:col text -> target (via)`.
func writeGraphText(w io.Writer, g *callgraph.Graph) {
	for i, n := range g.Functions {
		if i > 0 {
			fmt.Fprintln(w)
		}
		exp := ""
		if n.Exported {
			exp = ", exported"
		}
		kind := ""
		if n.Kind != "" {
			kind = n.Kind + ", "
		}
		fmt.Fprintf(w, "%s (%sline %d%s)\n", n.ID, kind, n.Line, exp)
		for _, c := range n.Calls {
			var to string
			switch {
			case c.Target != nil && c.Interface != "":
				to = fmt.Sprintf("%s (%s of interface %s)", *c.Target, c.Via, c.Interface)
			case c.Target != nil && c.Declared != "":
				to = fmt.Sprintf("%s (%s, %s: no body)", *c.Target, c.Via, c.Declared)
			case c.Target != nil:
				to = fmt.Sprintf("%s (%s)", *c.Target, c.Via)
			case c.Via == callgraph.ViaExternal:
				to = fmt.Sprintf("%s (external)", c.Package)
			default:
				to = fmt.Sprintf("? (unresolved: %s)", c.Reason)
			}
			nested := ""
			if c.Nested {
				nested = " [nested]"
			}
			if c.New {
				nested += " [new]"
			}
			fmt.Fprintf(w, "  %d:%d %s -> %s%s\n", c.Line, c.Column, c.Text, to, nested)
		}
	}
}

// graphOptions are the graph's options: the files, and the aliases of the
// repository's vitest configuration when it has one and vitest is
// installed (what vitest resolves, the graph follows; without vitest the
// graph is tsconfig's). A configuration vitest cannot read is a note: its
// aliases are not followed.
func graphOptions(root string, files []string) (callgraph.Options, *callgraph.Note) {
	opts := callgraph.Options{Files: files}
	name := vitestloc.ConfigFile(root)
	if name == "" || vitestloc.Find(root) == "" {
		return opts, nil
	}
	cfg, err := testsuite.ReadConfig(root, "")
	if err != nil {
		return opts, &callgraph.Note{File: name, Reason: "its resolve.alias is not followed: " + err.Error()}
	}
	opts.Aliases, opts.AliasConfig = cfg.AliasScopes(), name
	return opts, nil
}
