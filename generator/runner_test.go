package generator

import (
	"strings"
	"testing"
)

// TestRunnerOf: the oracle is a vitest file where vitest is installed, else a jest file
// where the tests run on jest (testsuite.RunsJest); on jest it imports its API from
// @jest/globals when the repository declares that package, or when @types/jest, which
// types jest's globals, is not installed and @jest/globals is; else it uses the globals.
func TestRunnerOf(t *testing.T) {
	installed := func(pkg string) map[string]string {
		return map[string]string{"node_modules/" + pkg + "/package.json": `{"name":"` + pkg + `"}`}
	}
	jestPkg := `{"name":"a","devDependencies":{"jest":"^29"}}`
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  TestRunner
	}{
		{"vitest installed", merge(installed("vitest"), map[string]string{"node_modules/vitest/vitest.mjs": "", "package.json": jestPkg}), Vitest},
		{"nothing says jest", map[string]string{"package.json": `{"name":"a"}`}, Vitest},
		{"jest, @types/jest and a hoisted @jest/globals: the globals", merge(installed("@types/jest"), installed("@jest/globals"), map[string]string{"package.json": jestPkg}), Jest(false)},
		{"jest, @jest/globals declared", merge(installed("@types/jest"), installed("@jest/globals"), map[string]string{"package.json": `{"name":"a","devDependencies":{"jest":"^29","@jest/globals":"^29"}}`}), Jest(true)},
		{"jest, no @types/jest: @jest/globals", merge(installed("@jest/globals"), map[string]string{"jest.config.js": "module.exports = {};\n", "package.json": `{"name":"a"}`}), Jest(true)},
		{"jest, neither installed: the globals", map[string]string{"package.json": jestPkg}, Jest(false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RunnerOf(writeRepo(t, tc.files)); got != tc.want {
				t.Errorf("RunnerOf = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// TestJestOracle: on a repository whose tests run on jest, the oracle is the one template
// with jest's spellings: a synchronous jest.mock factory on jest.requireActual (jest hoists
// it: it references only jest and its locals), call-through jest.fn named after the call,
// jest.mocked and a named jest.spyOn, jest.SpiedFunction types; jest's globals unless
// @jest/globals is declared (then imported from it); nothing of vitest's.
func TestJestOracle(t *testing.T) {
	op := "  - kind: conditional-skip\n    function: src/app.ts#run\n    flag: opts.skip\n    wrap: enrich\n    preserve: [updateRecord]\n"
	files := withTicket(base(), op)
	files["package.json"] = `{"name":"a","devDependencies":{"jest":"^29"},"jest":{"preset":"ts-jest"}}`
	content := func(files map[string]string) string {
		t.Helper()
		res := plan(t, files)
		if o := res.Operations[0]; o.Status != StatusGenerated {
			t.Fatalf("%s: %s", o.Status, o.Reason)
		}
		return string(res.Operations[0].Content)
	}
	got := content(files)
	for _, want := range []string{
		"\njest.mock(\"../enrich\", () => {\n  const mod = jest.requireActual<typeof import(\"../enrich\")>(\"../enrich\");\n  return {\n    ...mod,\n    __esModule: true,\n    enrich: jest.fn(mod.enrich).mockName(\"enrich\"),\n  };\n});\n",
		"let enrich: jest.SpiedFunction<typeof import(\"../enrich\").enrich>;\n",
		"let updateRecord: jest.SpiedFunction<typeof import(\"../repo\").updateRecord>;\n",
		"  enrich = jest.mocked((await import(\"../enrich\")).enrich);\n",
		"  updateRecord = jest.spyOn(await import(\"../repo\"), \"updateRecord\").mockName(\"updateRecord\");\n",
		"import { arrange, setup } from \"../../test/app.fixture\";\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	for _, not := range []string{"vi.", "vitest", "importOriginal", "MockInstance", "@jest/globals"} {
		if strings.Contains(got, not) {
			t.Errorf("%q in the jest oracle:\n%s", not, got)
		}
	}
	files["package.json"] = `{"name":"a","devDependencies":{"jest":"^29","@jest/globals":"^29"},"jest":{"preset":"ts-jest"}}`
	files["node_modules/@jest/globals/package.json"] = `{"name":"@jest/globals"}`
	if got := content(files); !strings.Contains(got, "\nimport { afterEach, beforeEach, describe, expect, it, jest } from \"@jest/globals\";\nimport { arrange, setup }") {
		t.Errorf("no import from @jest/globals:\n%s", got)
	}
}
