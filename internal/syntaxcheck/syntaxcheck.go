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
	_, err := CheckLine(path, src)
	return err
}

// CheckLine is Check, with the 1-based line of the first problem (0 when
// esbuild gives none, or none is found).
//
// A source that parses only with TypeScript's experimental decorators
// (a parameter's decorator: `constructor(@Inject(T) t: T)`, what NestJS and
// tsyringe code is made of) parses: a repository that writes them enables
// them in its tsconfig, which esbuild reads there and this check does not.
func CheckLine(path string, src []byte) (int, error) {
	opts := api.TransformOptions{Loader: loaderOf(path), Sourcefile: path, LogLevel: api.LogLevelSilent}
	r := api.Transform(string(src), opts)
	if len(r.Errors) == 0 {
		return 0, nil
	}
	if opts.Loader == api.LoaderTS || opts.Loader == api.LoaderTSX {
		opts.TsconfigRaw = experimentalDecorators
		x := api.Transform(string(src), opts)
		if len(x.Errors) == 0 {
			return 0, nil
		}
		if strings.Contains(r.Errors[0].Text, "experimental decorators") {
			r = x // the file's own error, past its decorators
		}
	}
	e := r.Errors[0]
	var b bytes.Buffer
	line := 0
	if e.Location != nil {
		line = e.Location.Line
		fmt.Fprintf(&b, "line %d: ", line)
	}
	b.WriteString(e.Text)
	return line, fmt.Errorf("esbuild: %s", b.String())
}

// JSX says whether path is parsed with JSX (its text and attributes may
// span lines, and a `<` may start one).
func JSX(path string) bool {
	l := loaderOf(path)
	return l == api.LoaderTSX || l == api.LoaderJSX
}

// loaderOf is esbuild's loader for path: TypeScript unless its extension
// says TSX or JavaScript.
func loaderOf(path string) api.Loader {
	switch {
	case strings.HasSuffix(path, ".tsx"):
		return api.LoaderTSX
	case strings.HasSuffix(path, ".jsx"):
		return api.LoaderJSX
	case strings.HasSuffix(path, ".js"), strings.HasSuffix(path, ".mjs"), strings.HasSuffix(path, ".cjs"):
		return api.LoaderJS
	}
	return api.LoaderTS
}

// experimentalDecorators is the tsconfig of a repository that writes
// TypeScript's legacy decorators.
const experimentalDecorators = `{"compilerOptions":{"experimentalDecorators":true}}`
