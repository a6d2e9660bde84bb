// Package syntaxcheck is the one check that a TypeScript or JavaScript
// source parses as vitest's transform (esbuild) reads it: the engine checks
// every mutant with it, testsuite every test file.
package syntaxcheck

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Check runs esbuild's parser over src (TypeScript, TSX or
// JavaScript by path's extension): an error names the first problem.
func Check(path string, src []byte) error {
	loader := api.LoaderTS
	switch {
	case strings.HasSuffix(path, ".tsx"):
		loader = api.LoaderTSX
	case strings.HasSuffix(path, ".jsx"):
		loader = api.LoaderJSX
	case strings.HasSuffix(path, ".js"), strings.HasSuffix(path, ".mjs"), strings.HasSuffix(path, ".cjs"):
		loader = api.LoaderJS
	}
	r := api.Transform(string(src), api.TransformOptions{Loader: loader, Sourcefile: path, LogLevel: api.LogLevelSilent})
	if len(r.Errors) > 0 {
		e := r.Errors[0]
		var b bytes.Buffer
		if e.Location != nil {
			fmt.Fprintf(&b, "line %d: ", e.Location.Line)
		}
		b.WriteString(e.Text)
		return fmt.Errorf("esbuild: %s", b.String())
	}
	return nil
}
