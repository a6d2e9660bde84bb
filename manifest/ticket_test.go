package manifest

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// baseOp is a valid operation; mk edits it. Its lines are 3-6 of the
// document mk returns, after "ticket: T-1" and "operations:".
var baseOp = []string{
	"kind: conditional-skip",
	"function: src/a.ts#f",
	"flag: opts.skip",
	"wrap: g",
}

// mk returns a one-operation manifest: baseOp with each edit applied. An
// edit "key: value" replaces the base line of that key or is appended; an
// edit "-key" removes the base line.
func mk(edits ...string) string {
	lines := append([]string(nil), baseOp...)
	for _, e := range edits {
		if strings.HasPrefix(e, "-") {
			for i, l := range lines {
				if strings.HasPrefix(l, e[1:]+":") {
					lines = append(lines[:i], lines[i+1:]...)
					break
				}
			}
			continue
		}
		key := e[:strings.IndexByte(e, ':')+1]
		replaced := false
		for i, l := range lines {
			if strings.HasPrefix(l, key) {
				lines[i], replaced = e, true
				break
			}
		}
		if !replaced {
			lines = append(lines, e)
		}
	}
	return "ticket: T-1\noperations:\n  - " + strings.Join(lines, "\n    ") + "\n"
}

func TestMk(t *testing.T) {
	got := mk("flag: x", "-wrap", "id: a")
	want := "ticket: T-1\noperations:\n  - kind: conditional-skip\n    function: src/a.ts#f\n    flag: x\n    id: a\n"
	if got != want {
		t.Fatalf("mk = %q, want %q", got, want)
	}
}

const knownOpFields = "(expected one of: kind, id, function, flag, wrap, preserve, fixture, args, default)"

func TestParseTicketErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		// The file as a whole.
		{"empty file", "", []string{
			`t.yaml:1:1: empty manifest: expected a mapping with "ticket" and "operations"`}},
		{"only comments", "# nothing\n\n", []string{
			`t.yaml:1:1: empty manifest: expected a mapping with "ticket" and "operations"`}},
		{"top level list", "- ticket: T-1\n", []string{
			`t.yaml:1:1: expected a mapping with "ticket" and "operations", got a list`}},
		{"top level scalar", "\n  hello\n", []string{
			`t.yaml:2:3: expected a mapping with "ticket" and "operations", got "hello"`}},
		{"top level null", "~\n", []string{
			`t.yaml:1:1: expected a mapping with "ticket" and "operations", got null`}},
		{"yaml syntax error", "ticket: T-1\noperations: [\n", []string{
			`t.yaml:2: invalid YAML: did not find expected node content`}},
		{"yaml syntax error later line", "ticket: T-1\nops: 1\nx y\nz: 2\n", []string{
			`t.yaml:3: invalid YAML: could not find expected ':'`}},
		{"not utf-8", "ticket: T-1\n# é\noperations: \xff\n", []string{
			`t.yaml:3:13: not valid UTF-8 (byte 0xff): save the file as UTF-8`}},
		{"latin-1", "ticket: caf\xe9\n", []string{
			`t.yaml:1:12: not valid UTF-8 (byte 0xe9): save the file as UTF-8`}},
		{"control character", "ticket: é\x01\n", []string{
			`t.yaml:1:10: character U+0001 is not allowed in YAML`}},
		{"two documents", "ticket: T-1\n---\nticket: T-2\n", []string{
			`t.yaml:3:1: expected a single YAML document, found a second one (remove the "---" separator)`}},
		{"unknown anchor", "ticket: T-1\noperations: *ops\n", []string{
			`t.yaml:2:13: invalid YAML: unknown anchor 'ops' referenced`}},

		// Top level fields.
		{"top level unknown field with suggestion", "ticket: T-1\noperation: []\n", []string{
			`t.yaml:1:1: operations: required field is missing: expected a non-empty list of operations`,
			`t.yaml:2:1: operation: unknown field "operation"; did you mean "operations"? (expected one of: ticket, operations, $schema)`}},
		{"top level unknown field without suggestion", mk() + "owner: me\n", []string{
			`t.yaml:7:1: owner: unknown field "owner" (expected one of: ticket, operations, $schema)`}},
		{"top level duplicate key", mk() + "ticket: T-2\n", []string{
			`t.yaml:7:1: ticket: duplicate field (first given at line 1)`}},
		{"missing ticket", strings.TrimPrefix(mk(), "ticket: T-1\n"), []string{
			`t.yaml:1:1: ticket: required field is missing: expected a ticket key matching [A-Za-z0-9][A-Za-z0-9._-]*, e.g. PROJ-142`}},
		{"ticket null", strings.Replace(mk(), "ticket: T-1", "ticket:", 1), []string{
			`t.yaml:1:8: ticket: expected a ticket key matching [A-Za-z0-9][A-Za-z0-9._-]*, e.g. PROJ-142, got nothing`}},
		{"ticket with a space", strings.Replace(mk(), "ticket: T-1", "ticket: PROJ 142", 1), []string{
			`t.yaml:1:9: ticket: expected a ticket key matching [A-Za-z0-9][A-Za-z0-9._-]*, e.g. PROJ-142, got "PROJ 142"`}},
		{"ticket a list", strings.Replace(mk(), "ticket: T-1", "ticket: [a]", 1), []string{
			`t.yaml:1:9: ticket: expected a ticket key matching [A-Za-z0-9][A-Za-z0-9._-]*, e.g. PROJ-142, got a list`}},
		{"missing operations", "ticket: T-1\n", []string{
			`t.yaml:1:1: operations: required field is missing: expected a non-empty list of operations`}},
		{"empty operations", "ticket: T-1\noperations: []\n", []string{
			`t.yaml:2:13: operations: expected a non-empty list of operations, got an empty list`}},
		{"operations null", "ticket: T-1\noperations:\n", []string{
			`t.yaml:2:12: operations: expected a non-empty list of operations, got nothing`}},
		{"operations a mapping", "ticket: T-1\noperations:\n  kind: conditional-skip\n", []string{
			`t.yaml:3:3: operations: expected a non-empty list of operations, got a mapping`}},
		{"operation not a mapping", "ticket: T-1\noperations:\n  - src/a.ts#f\n", []string{
			`t.yaml:3:5: operations[0]: expected a mapping with kind, function, flag and wrap, got "src/a.ts#f"`}},

		// Operation fields.
		{"unknown operation field with suggestion", mk("-flag", "flg: opts.skip"), []string{
			`t.yaml:3:5: operations[0].flag: required field is missing: expected <parameter>[.<property>...], e.g. opts.skip`,
			`t.yaml:6:5: operations[0].flg: unknown field "flg"; did you mean "flag"? ` + knownOpFields}},
		{"unknown operation field by case", mk("Fixture: x"), []string{
			`t.yaml:7:5: operations[0].Fixture: unknown field "Fixture"; did you mean "fixture"? ` + knownOpFields}},
		{"unknown operation field by abbreviation", mk("-function", "func: src/a.ts#f"), []string{
			`t.yaml:3:5: operations[0].function: required field is missing: expected <repo-relative file>#<function name or Class.method>, e.g. src/server/index.ts#processItem`,
			`t.yaml:6:5: operations[0].func: unknown field "func"; did you mean "function"? ` + knownOpFields}},
		{"unknown operation field without suggestion", mk("owner: me"), []string{
			`t.yaml:7:5: operations[0].owner: unknown field "owner" ` + knownOpFields}},
		{"duplicate operation field", mk() + "    flag: other\n", []string{
			`t.yaml:7:5: operations[0].flag: duplicate field (first given at line 5)`}},
		{"all required fields missing", "ticket: T-1\noperations:\n  - {}\n", []string{
			`t.yaml:3:5: operations[0].kind: required field is missing: expected one of: conditional-skip`,
			`t.yaml:3:5: operations[0].function: required field is missing: expected <repo-relative file>#<function name or Class.method>, e.g. src/server/index.ts#processItem`,
			`t.yaml:3:5: operations[0].flag: required field is missing: expected <parameter>[.<property>...], e.g. opts.skip`,
			`t.yaml:3:5: operations[0].wrap: required field is missing: expected a string like "enrichItem" or {call: enrichItem, occurrence: 2}`}},
		{"unknown kind", mk("kind: conditonal-skip"), []string{
			`t.yaml:3:11: operations[0].kind: expected one of: conditional-skip, got "conditonal-skip"`}},
		{"unknown kind still checks the rest", mk("kind: skip", "flag: a-b"), []string{
			`t.yaml:3:11: operations[0].kind: expected one of: conditional-skip, got "skip"`,
			`t.yaml:5:11: operations[0].flag: expected <parameter>[.<property>...], e.g. opts.skip, got "a-b"`}},

		// function
		{"function without #", mk("function: src/a.ts"), []string{
			`t.yaml:4:15: operations[0].function: expected <repo-relative file>#<function name or Class.method>, e.g. src/server/index.ts#processItem, got "src/a.ts"`}},
		{"function with two #", mk("function: src/a#b.ts#f"), []string{
			`t.yaml:4:15: operations[0].function: expected <repo-relative file>#<function name or Class.method>, e.g. src/server/index.ts#processItem, got "src/a#b.ts#f" (more than one '#')`}},
		{"function without file", mk("function: '#f'"), []string{
			`t.yaml:4:15: operations[0].function: expected <repo-relative file>#<function name or Class.method>, e.g. src/server/index.ts#processItem, got "#f" (no file before '#')`}},
		{"function without name", mk("function: src/a.ts#"), []string{
			`t.yaml:4:15: operations[0].function: expected a function name (a JavaScript identifier) or Class.method after '#', got ""`}},
		{"function name not an identifier", mk("function: src/a.ts#process-item"), []string{
			`t.yaml:4:15: operations[0].function: expected a function name (a JavaScript identifier) or Class.method after '#', got "process-item"`}},
		{"function absolute path", mk("function: /src/a.ts#f"), []string{
			`t.yaml:4:15: operations[0].function: expected a path relative to the repository root, got the absolute path "/src/a.ts"`}},
		{"function windows drive", mk("function: C:/src/a.ts#f"), []string{
			`t.yaml:4:15: operations[0].function: expected a path relative to the repository root, got the absolute path "C:/src/a.ts"`}},
		{"function backslashes", mk(`function: src\a.ts#f`), []string{
			`t.yaml:4:15: operations[0].function: expected '/' as the path separator, got "src\\a.ts"`}},
		{"function leaving the repository", mk("function: ../x.ts#f"), []string{
			`t.yaml:4:15: operations[0].function: path "../x.ts" leaves the repository; paths are relative to the repository root`}},
		{"function leaving the repository after cleaning", mk("function: a/../../x.ts#f"), []string{
			`t.yaml:4:15: operations[0].function: path "a/../../x.ts" leaves the repository; paths are relative to the repository root`}},
		{"function not typescript", mk("function: src/a.js#f"), []string{
			`t.yaml:4:15: operations[0].function: expected a TypeScript file (.ts, .tsx, .mts, .cts), got "src/a.js"`}},
		{"function declaration file", mk("function: src/a.d.ts#f"), []string{
			`t.yaml:4:15: operations[0].function: expected a TypeScript source file, got the declaration file "src/a.d.ts"`}},
		{"function file without a name", mk("function: src/...ts#f"), []string{
			`t.yaml:4:15: operations[0].function: expected a TypeScript file with a name, got "src/...ts"`}},
		{"function not a string", mk("function: {file: a.ts}"), []string{
			`t.yaml:4:15: operations[0].function: expected <repo-relative file>#<function name or Class.method>, e.g. src/server/index.ts#processItem, got a mapping`}},

		// flag
		{"flag empty segment", mk("flag: opts..skip"), []string{
			`t.yaml:5:11: operations[0].flag: expected <parameter>[.<property>...], e.g. opts.skip, got "opts..skip"`}},
		{"flag trailing dot", mk("flag: opts."), []string{
			`t.yaml:5:11: operations[0].flag: expected <parameter>[.<property>...], e.g. opts.skip, got "opts."`}},
		{"flag starting with a digit", mk("flag: 1opts"), []string{
			`t.yaml:5:11: operations[0].flag: expected <parameter>[.<property>...], e.g. opts.skip, got "1opts"`}},
		{"flag with brackets", mk(`flag: 'opts["skip"]'`), []string{
			`t.yaml:5:11: operations[0].flag: expected <parameter>[.<property>...], e.g. opts.skip, got "opts[\"skip\"]"`}},
		{"flag optional chaining", mk("flag: opts?.skip"), []string{
			`t.yaml:5:11: operations[0].flag: expected <parameter>[.<property>...], e.g. opts.skip, got "opts?.skip"`}},
		{"flag a boolean", mk("flag: true"), []string{
			`t.yaml:5:11: operations[0].flag: expected <parameter>[.<property>...], e.g. opts.skip, got "true" (true is a reserved word, not a parameter name)`}},
		{"wrap a reserved word", mk("wrap: new.Foo"), []string{
			`t.yaml:6:11: operations[0].wrap: expected a call as written at the call site, like "enrichItem" or "audit.write", got "new.Foo" (new is a reserved word)`}},
		{"function a reserved word", mk("function: src/a.ts#class"), []string{
			`t.yaml:4:15: operations[0].function: expected a function name after '#', got the reserved word "class"`}},

		// wrap
		{"wrap with parentheses", mk("wrap: enrichItem()"), []string{
			`t.yaml:6:11: operations[0].wrap: expected a call as written at the call site, like "enrichItem" or "audit.write", got "enrichItem()" (name the callee without parentheses or arguments)`}},
		{"wrap bad chain", mk("wrap: audit..write"), []string{
			`t.yaml:6:11: operations[0].wrap: expected a call as written at the call site, like "enrichItem" or "audit.write", got "audit..write"`}},
		{"wrap a number", mk("wrap: 42"), []string{
			`t.yaml:6:11: operations[0].wrap: expected a string like "enrichItem" or {call: enrichItem, occurrence: 2}, got 42`}},
		{"wrap a list", mk("wrap: [g]"), []string{
			`t.yaml:6:11: operations[0].wrap: expected a string like "enrichItem" or {call: enrichItem, occurrence: 2}, got a list`}},
		{"wrap null", mk("wrap:"), []string{
			`t.yaml:6:10: operations[0].wrap: expected a string like "enrichItem" or {call: enrichItem, occurrence: 2}, got nothing`}},
		{"wrap object occurrence 0", mk("wrap: {call: g, occurrence: 0}"), []string{
			`t.yaml:6:33: operations[0].wrap.occurrence: expected an integer ≥ 1 (which call site, counting from 1), got 0`}},
		{"wrap object occurrence negative", mk("wrap: {call: g, occurrence: -1}"), []string{
			`t.yaml:6:33: operations[0].wrap.occurrence: expected an integer ≥ 1 (which call site, counting from 1), got -1`}},
		{"wrap object occurrence quoted", mk(`wrap: {call: g, occurrence: "2"}`), []string{
			`t.yaml:6:33: operations[0].wrap.occurrence: expected an integer ≥ 1 (which call site, counting from 1), got "2"`}},
		{"wrap object occurrence float", mk(`wrap: {call: g, occurrence: 1.5}`), []string{
			`t.yaml:6:33: operations[0].wrap.occurrence: expected an integer ≥ 1 (which call site, counting from 1), got 1.5`}},
		{"wrap object occurrence huge", mk(`wrap: {call: g, occurrence: 99999999999}`), []string{
			`t.yaml:6:33: operations[0].wrap.occurrence: expected an integer ≥ 1 (which call site, counting from 1), got 99999999999`}},
		{"wrap object without call", mk("wrap: {occurrence: 2}"), []string{
			`t.yaml:6:11: operations[0].wrap.call: required field is missing: the call as written, e.g. enrichItem`}},
		{"wrap object bad call", mk("wrap: {call: 'g()'}"), []string{
			`t.yaml:6:18: operations[0].wrap.call: expected a call as written at the call site, like "enrichItem" or "audit.write", got "g()" (name the callee without parentheses or arguments)`}},
		{"wrap object unknown field", mk("wrap: {call: g, occurence: 2}"), []string{
			`t.yaml:6:21: operations[0].wrap.occurence: unknown field "occurence"; did you mean "occurrence"? (expected one of: call, occurrence)`}},
		{"wrap object duplicate field", mk("wrap: {call: g, call: h}"), []string{
			`t.yaml:6:21: operations[0].wrap.call: duplicate field (first given at line 6)`}},

		// preserve
		{"preserve not a list", mk("preserve: updateRecord"), []string{
			`t.yaml:7:15: operations[0].preserve: expected a list of calls, e.g. [selectTargets, updateRecord], got "updateRecord"`}},
		{"preserve null", mk("preserve:"), []string{
			`t.yaml:7:14: operations[0].preserve: expected a list of calls, e.g. [selectTargets, updateRecord], got nothing`}},
		{"preserve bad entries", mk("preserve: [a, 'b()', 3, {call: c, occurrence: 0}]"), []string{
			`t.yaml:7:19: operations[0].preserve[1]: expected a call as written at the call site, like "enrichItem" or "audit.write", got "b()" (name the callee without parentheses or arguments)`,
			`t.yaml:7:26: operations[0].preserve[2]: expected a string like "enrichItem" or {call: enrichItem, occurrence: 2}, got 3`,
			`t.yaml:7:51: operations[0].preserve[3].occurrence: expected an integer ≥ 1 (which call site, counting from 1), got 0`}},
		{"preserve the wrapped call", mk("preserve: [h, g]"), []string{
			`t.yaml:7:19: operations[0].preserve[1]: "g" is the wrapped call (wrap, line 6): a call cannot be both wrapped and preserved`}},
		{"preserve the wrapped call by occurrence", mk("wrap: {call: g, occurrence: 2}", "preserve: [{call: g, occurrence: 1}, {call: g, occurrence: 2}]"), []string{
			`t.yaml:7:42: operations[0].preserve[1]: "g" is the wrapped call (wrap, line 6): a call cannot be both wrapped and preserved`}},
		{"preserve first occurrence of the unique wrapped call", mk("preserve: [{call: g, occurrence: 1}]"), []string{
			`t.yaml:7:16: operations[0].preserve[0]: "g" is the wrapped call (wrap, line 6): a call cannot be both wrapped and preserved`}},
		{"preserve listed twice", mk("preserve:\n      - a.b\n      - c\n      - a.b"), []string{
			`t.yaml:10:9: operations[0].preserve[2]: "a.b" is already listed (preserve[0], line 8)`}},
		{"preserve listed twice by occurrence", mk("preserve: [{call: c, occurrence: 1}, c]"), []string{
			`t.yaml:7:42: operations[0].preserve[1]: "c" is already listed (preserve[0], line 7)`}},

		// id
		{"id starting with a dash", mk("id: -x"), []string{
			`t.yaml:7:9: operations[0].id: expected an id matching [A-Za-z0-9][A-Za-z0-9._-]*, e.g. skip-enrichment, got "-x"`}},
		{"id with a slash", mk("id: a/b"), []string{
			`t.yaml:7:9: operations[0].id: expected an id matching [A-Za-z0-9][A-Za-z0-9._-]*, e.g. skip-enrichment, got "a/b"`}},
		{"id empty", mk("id: ''"), []string{
			`t.yaml:7:9: operations[0].id: expected an id matching [A-Za-z0-9][A-Za-z0-9._-]*, e.g. skip-enrichment, got ""`}},
		{"default id not valid", mk("function: src/a.ts#_f"), []string{
			`t.yaml:3:5: operations[0].id: the default id "_f-skip" (<function>-<flag leaf>) does not match [A-Za-z0-9][A-Za-z0-9._-]*: give an id`}},
		{"duplicate explicit ids", "ticket: T-1\noperations:\n" +
			"  - {kind: conditional-skip, id: x, function: a.ts#f, flag: p, wrap: g}\n" +
			"  - {kind: conditional-skip, function: a.ts#f, flag: q, wrap: g}\n" +
			"  - {kind: conditional-skip, id: x, function: a.ts#h, flag: p, wrap: g}\n", []string{
			`t.yaml:5:34: operations[2].id: duplicate id "x" is already used by operations[0] (line 3); give each operation a distinct id`}},
		{"duplicate ids ignoring case", "ticket: T-1\noperations:\n" +
			"  - {kind: conditional-skip, id: Skip, function: a.ts#f, flag: p, wrap: g}\n" +
			"  - {kind: conditional-skip, id: skip, function: a.ts#h, flag: p, wrap: g}\n", []string{
			`t.yaml:4:34: operations[1].id: duplicate id "skip" is already used by operations[0] (line 3); ids are compared ignoring case; give each operation a distinct id`}},
		{"duplicate default ids", "ticket: T-1\noperations:\n" +
			"  - {kind: conditional-skip, function: a.ts#f, flag: opts.skip, wrap: g}\n" +
			"  - {kind: conditional-skip, function: b.ts#f, flag: o.skip, wrap: h}\n", []string{
			`t.yaml:4:5: operations[1].id: duplicate id: the default id "f-skip" (<function>-<flag leaf>) is already used by operations[0] (line 3, as its default id); give each operation a distinct id`}},
		{"explicit id equal to an earlier default id", "ticket: T-1\noperations:\n" +
			"  - {kind: conditional-skip, function: a.ts#f, flag: skip, wrap: g}\n" +
			"  - {kind: conditional-skip, id: f-skip, function: a.ts#f, flag: p, wrap: h}\n", []string{
			`t.yaml:4:34: operations[1].id: duplicate id "f-skip" is already used by operations[0] (line 3, as its default id); give each operation a distinct id`}},
		{"duplicate ids in operations with other problems", "ticket: T-1\noperations:\n" +
			"  - {kind: conditional-skip, id: x, function: a.ts#f, flag: p, wrap: g}\n" +
			"  - {kind: conditional-skip, id: x, function: a.ts#f, flag: p, wrap: 'g()'}\n", []string{
			`t.yaml:4:34: operations[1].id: duplicate id "x" is already used by operations[0] (line 3); give each operation a distinct id`,
			`t.yaml:4:70: operations[1].wrap: expected a call as written at the call site, like "enrichItem" or "audit.write", got "g()" (name the callee without parentheses or arguments)`}},

		// fixture
		{"fixture empty", mk("fixture: ''"), []string{
			`t.yaml:7:14: operations[0].fixture: expected a fixture name matching [A-Za-z0-9_][A-Za-z0-9._-]*, e.g. pipeline, got ""`}},
		{"fixture null", mk("fixture:"), []string{
			`t.yaml:7:13: operations[0].fixture: expected a fixture name matching [A-Za-z0-9_][A-Za-z0-9._-]*, e.g. pipeline, got nothing`}},
		{"fixture a path", mk("fixture: test/pipeline.fixture.ts"), []string{
			`t.yaml:7:14: operations[0].fixture: expected a fixture name matching [A-Za-z0-9_][A-Za-z0-9._-]*, e.g. pipeline, got "test/pipeline.fixture.ts"`}},

		// args and default
		{"args a mapping", mk("args: {a: 1}"), []string{
			`t.yaml:7:11: operations[0].args: expected a list of arguments (JSON values), e.g. [42, {}], got a mapping`}},
		{"args a scalar", mk("args: 42"), []string{
			`t.yaml:7:11: operations[0].args: expected a list of arguments (JSON values), e.g. [42, {}], got 42`}},
		{"args null", mk("args:"), []string{
			`t.yaml:7:10: operations[0].args: expected a list of arguments (JSON values), e.g. [42, {}], got nothing`}},
		{"args not JSON", mk("args: [2024-01-01, .inf, 9007199254740993, {d: .nan}, {[a]: 1}, {a: 1, a: 2}, !!int x]"), []string{
			`t.yaml:7:12: operations[0].args[0]: timestamps are not JSON values: quote 2024-01-01 to pass a string`,
			`t.yaml:7:24: operations[0].args[1]: number .inf is not a finite JSON number`,
			`t.yaml:7:30: operations[0].args[2]: integer 9007199254740993 is not exactly representable as a JavaScript number (beyond ±2^53-1): quote it to pass a string`,
			`t.yaml:7:52: operations[0].args[3].d: number .nan is not a finite JSON number`,
			`t.yaml:7:60: operations[0].args[4]: expected an object key (a string), got a list`,
			`t.yaml:7:76: operations[0].args[5].a: duplicate key (first given at line 7)`,
			`t.yaml:7:83: operations[0].args[6]: expected an integer, got "x"`}},
		{"args nested position", mk("args:\n      - id: 1\n        at: 2024-01-01"), []string{
			`t.yaml:9:13: operations[0].args[0].at: timestamps are not JSON values: quote 2024-01-01 to pass a string`}},
		{"default not JSON", mk("default: [-.inf]"), []string{
			`t.yaml:7:15: operations[0].default[0]: number -.inf is not a finite JSON number`}},
		{"default a timestamp", mk("default: 2001-12-14t21:59:43.10-05:00"), []string{
			`t.yaml:7:14: operations[0].default: timestamps are not JSON values: quote 2001-12-14t21:59:43.10-05:00 to pass a string`}},

		// YAML features a manifest cannot use.
		{"alias", "ticket: &t T-1\noperations:\n  - kind: conditional-skip\n    function: src/a.ts#f\n    flag: opts.skip\n    wrap: g\n    id: *t\n", []string{
			`t.yaml:7:9: YAML aliases (*t) are not supported: write the value out`}},
		{"merge key", "ticket: T-1\noperations:\n  - <<: {kind: conditional-skip}\n    function: src/a.ts#f\n    flag: opts.skip\n    wrap: g\n", []string{
			`t.yaml:3:5: YAML merge keys (<<) are not supported: write the fields out`,
			`t.yaml:3:5: operations[0].kind: required field is missing: expected one of: conditional-skip`}},
		{"custom tag", mk("wrap: !call g"), []string{
			`t.yaml:6:11: YAML tag !call is not supported`}},
		{"binary", mk("args: [!!binary aGk=]"), []string{
			`t.yaml:7:12: YAML tag !!binary is not supported`}},
		{"non-scalar key", "ticket: T-1\n? [a]\n: 1\noperations: [{kind: conditional-skip, function: a.ts#f, flag: p, wrap: g}]\n", []string{
			`t.yaml:2:3: expected a field name, got a list`}},

		// Everything at once, sorted by position.
		{"several operations, all problems, sorted", "ticket: T 1\noperations:\n" +
			"  - kind: conditional-skip\n    function: ../a.ts#f\n    flag: p\n    wrap: g\n" +
			"  - kind: nope\n    function: a.ts#f\n    flag: p.\n    wrap: g\n    preserve: [g]\n    flg: x\n", []string{
			`t.yaml:1:9: ticket: expected a ticket key matching [A-Za-z0-9][A-Za-z0-9._-]*, e.g. PROJ-142, got "T 1"`,
			`t.yaml:4:15: operations[0].function: path "../a.ts" leaves the repository; paths are relative to the repository root`,
			`t.yaml:7:11: operations[1].kind: expected one of: conditional-skip, got "nope"`,
			`t.yaml:9:11: operations[1].flag: expected <parameter>[.<property>...], e.g. opts.skip, got "p."`,
			`t.yaml:11:16: operations[1].preserve[0]: "g" is the wrapped call (wrap, line 10): a call cannot be both wrapped and preserved`,
			`t.yaml:12:5: operations[1].flg: unknown field "flg"; did you mean "flag"? ` + knownOpFields}},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		if seen[tt.name] {
			t.Fatalf("two cases named %q", tt.name)
		}
		seen[tt.name] = true
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTicket("t.yaml", []byte(tt.in))
			if err == nil {
				t.Fatalf("no error, got %+v", got)
			}
			if got != nil {
				t.Errorf("ticket returned along with errors")
			}
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("error is %T, want Errors", err)
			}
			var lines []string
			for _, e := range errs {
				lines = append(lines, e.Error())
			}
			if !reflect.DeepEqual(lines, tt.want) {
				t.Errorf("input:\n%s\ngot:\n  %s\nwant:\n  %s", tt.in, strings.Join(lines, "\n  "), strings.Join(tt.want, "\n  "))
			}
			if err.Error() != strings.Join(tt.want, "\n") {
				t.Errorf("Error() = %q", err.Error())
			}
		})
	}
}

func TestErrorFields(t *testing.T) {
	_, err := ParseTicket("tickets/PROJ-142.yaml", []byte(mk("flag: opts..skip")))
	errs, ok := err.(Errors)
	if !ok || len(errs) != 1 {
		t.Fatalf("err = %v", err)
	}
	want := &Error{Pos: Pos{File: "tickets/PROJ-142.yaml", Line: 5, Column: 11}, Field: "operations[0].flag",
		Message: `expected <parameter>[.<property>...], e.g. opts.skip, got "opts..skip"`}
	if !reflect.DeepEqual(errs[0], want) {
		t.Errorf("got %+v, want %+v", errs[0], want)
	}
}

func raw(ss ...string) []json.RawMessage {
	out := []json.RawMessage{}
	for _, s := range ss {
		out = append(out, json.RawMessage(s))
	}
	return out
}

func TestParseTicketSpecExample(t *testing.T) {
	tk, err := LoadTicket("../testdata/manifests/good.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	f := "../testdata/manifests/good.yaml"
	p := func(line, col int) Pos { return Pos{File: f, Line: line, Column: col} }
	want := &Ticket{
		File: f, Ticket: "PROJ-142", TicketPos: p(2, 9),
		Operations: []Operation{{
			Index: 0, Pos: p(4, 5), Kind: "conditional-skip",
			ID: "skip-enrichment", IDPos: p(5, 9),
			Function: FuncRef{File: "src/server/index.ts", Name: "processItem", Pos: p(6, 15)},
			Flag:     FlagPath{Param: "opts", Props: []string{"skip"}, Text: "opts.skip", Pos: p(7, 11)},
			Wrap:     CallRef{Call: "enrichItem", Pos: p(8, 11)},
			Preserve: []CallRef{
				{Call: "selectTargets", Pos: p(9, 16)},
				{Call: "resolveSettings", Pos: p(9, 31)},
				{Call: "extractMetadata", Pos: p(9, 48)},
				{Call: "updateRecord", Pos: p(9, 65)},
			},
			Fixture: "pipeline", FixturePos: p(10, 14),
			Args: raw("42", "{}"), HasArgs: true, ArgsPos: p(11, 11),
			Default: json.RawMessage("null"), DefaultPos: p(12, 14),
		}, {
			Index: 1, Pos: p(13, 5), Kind: "conditional-skip",
			ID: "processBatch-dryRun", IDPos: p(13, 5), IDDefaulted: true,
			Function: FuncRef{File: "src/server/index.ts", Name: "processBatch", Pos: p(14, 15)},
			Flag:     FlagPath{Param: "options", Props: []string{"dryRun"}, Text: "options.dryRun", Pos: p(15, 11)},
			Wrap:     CallRef{Call: "audit.write", Occurrence: 2, Pos: p(16, 11)},
			Preserve: []CallRef{
				{Call: "updateRecord", Pos: p(18, 9)},
				{Call: "audit.write", Occurrence: 1, Pos: p(19, 9)},
			},
		}},
	}
	if !reflect.DeepEqual(tk, want) {
		t.Errorf("got\n%+v\nwant\n%+v", tk, want)
	}
	if got := tk.Operations[0].Function.String(); got != "src/server/index.ts#processItem" {
		t.Errorf("FuncRef.String() = %q", got)
	}
	if got := tk.Operations[1].Wrap.String(); got != "audit.write (occurrence 2)" {
		t.Errorf("CallRef.String() = %q", got)
	}
	if got := tk.Operations[0].Flag.Leaf(); got != "skip" {
		t.Errorf("Leaf() = %q", got)
	}
}

func TestParseTicketJSON(t *testing.T) {
	tk, err := LoadTicket("../testdata/manifests/good.json", "")
	if err != nil {
		t.Fatal(err)
	}
	op := tk.Operations[0]
	if tk.Ticket != "PROJ-143" || op.ID != "processItem-skip" || !op.IDDefaulted || op.Wrap.Call != "enrichItem" ||
		len(op.Preserve) != 1 || op.Preserve[0].Call != "updateRecord" {
		t.Errorf("got %+v", tk)
	}
	if want := raw(`42`, `{"b":1,"a":[true,null,"x"]}`); !reflect.DeepEqual(op.Args, want) {
		t.Errorf("args = %s, want %s", op.Args, want)
	}
	if op.Flag.Pos != (Pos{File: "../testdata/manifests/good.json", Line: 7, Column: 12}) {
		t.Errorf("flag pos = %v", op.Flag.Pos)
	}
}

func TestParseTicketValues(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(t *testing.T, tk *Ticket)
	}{
		{"defaults", mk(), func(t *testing.T, tk *Ticket) {
			op := tk.Operations[0]
			if op.ID != "f-skip" || !op.IDDefaulted || op.IDPos != op.Pos || op.HasArgs || op.Args != nil ||
				op.Default != nil || op.DefaultPos.IsValid() || op.Preserve != nil || op.Fixture != "" {
				t.Errorf("got %+v", op)
			}
		}},
		{"a method: Class.method, default id from the member", mk("function: src/a.ts#OrderService.finalize", "wrap: this.pricing.quote", "preserve: [this.audit, this.#cache.get]"), func(t *testing.T, tk *Ticket) {
			op := tk.Operations[0]
			if op.ID != "finalize-skip" || op.Function.Class != "OrderService" || op.Function.Member != "finalize" || op.Function.Name != "OrderService.finalize" {
				t.Errorf("got %+v", op)
			}
		}},
		{"flag without properties is its own leaf", mk("flag: skip"), func(t *testing.T, tk *Ticket) {
			op := tk.Operations[0]
			if op.ID != "f-skip" || op.Flag.Param != "skip" || len(op.Flag.Props) != 0 {
				t.Errorf("got %+v", op)
			}
		}},
		{"deep flag", mk("flag: ctx.options.flags.skip"), func(t *testing.T, tk *Ticket) {
			fl := tk.Operations[0].Flag
			if fl.Param != "ctx" || !reflect.DeepEqual(fl.Props, []string{"options", "flags", "skip"}) || tk.Operations[0].ID != "f-skip" {
				t.Errorf("got %+v", fl)
			}
		}},
		{"unicode and $ identifiers", mk("function: src/ü.tsx#_$fn", "flag: $opts.überspringen", "wrap: ns.$call", "id: x"), func(t *testing.T, tk *Ticket) {
			op := tk.Operations[0]
			if op.Function.File != "src/ü.tsx" || op.Function.Name != "_$fn" || op.Flag.Leaf() != "überspringen" || op.Wrap.Call != "ns.$call" {
				t.Errorf("got %+v", op)
			}
		}},
		{"properties may be reserved words", mk("flag: opts.default", "wrap: this.repo.save", "preserve: [super.run, audit.delete]"), func(t *testing.T, tk *Ticket) {
			op := tk.Operations[0]
			if op.Flag.Leaf() != "default" || op.Wrap.Call != "this.repo.save" || op.Preserve[1].Call != "audit.delete" {
				t.Errorf("got %+v", op)
			}
		}},
		{"path cleaned", mk("function: ./src//server/../a.mts#f"), func(t *testing.T, tk *Ticket) {
			if got := tk.Operations[0].Function.File; got != "src/a.mts" {
				t.Errorf("file = %q", got)
			}
		}},
		{"cts and default export", mk("function: a.cts#default"), func(t *testing.T, tk *Ticket) {
			if got := tk.Operations[0].Function.String(); got != "a.cts#default" {
				t.Errorf("function = %q", got)
			}
		}},
		{"numeric ticket and id taken as written", strings.Replace(mk("id: 1.0"), "T-1", "0142", 1), func(t *testing.T, tk *Ticket) {
			if tk.Ticket != "0142" || tk.Operations[0].ID != "1.0" {
				t.Errorf("ticket %q id %q", tk.Ticket, tk.Operations[0].ID)
			}
		}},
		{"empty args and preserve", mk("args: []", "preserve: []"), func(t *testing.T, tk *Ticket) {
			op := tk.Operations[0]
			if !op.HasArgs || op.Args == nil || len(op.Args) != 0 || op.Preserve == nil || len(op.Preserve) != 0 {
				t.Errorf("got %+v", op)
			}
		}},
		{"args converted to JSON", mk(`args: [42, -0, 0x1F, 1_000, 0o17, 9007199254740991, 1e3, -0.5, 1.0, 123456789012345678901234567890, "<&>", 'é\x', "tab\t", yes, true, ~, {z: 1, a: {}, 3: []}]`), func(t *testing.T, tk *Ticket) {
			want := raw(`42`, `0`, `31`, `1000`, `15`, `9007199254740991`, `1000`, `-0.5`, `1`, `1.2345678901234568e+29`,
				`"<&>"`, `"é\\x"`, `"tab\t"`, `"yes"`, `true`, `null`, `{"z":1,"a":{},"3":[]}`)
			if got := tk.Operations[0].Args; !reflect.DeepEqual(got, want) {
				t.Errorf("args\n got %s\nwant %s", got, want)
			}
		}},
		{"default null is present", mk("default: null"), func(t *testing.T, tk *Ticket) {
			op := tk.Operations[0]
			if string(op.Default) != "null" || op.DefaultPos != (Pos{"t.yaml", 7, 14}) {
				t.Errorf("default %q at %v", op.Default, op.DefaultPos)
			}
		}},
		{"empty default is null", mk("default:"), func(t *testing.T, tk *Ticket) {
			if got := string(tk.Operations[0].Default); got != "null" {
				t.Errorf("default %q", got)
			}
		}},
		{"default object keeps order", mk("default:\n      items: []\n      count: 0"), func(t *testing.T, tk *Ticket) {
			if got := string(tk.Operations[0].Default); got != `{"items":[],"count":0}` {
				t.Errorf("default %q", got)
			}
		}},
		{"wrap object without occurrence", mk("wrap: {call: g}", "preserve: [{call: g, occurrence: 2}]"), func(t *testing.T, tk *Ticket) {
			op := tk.Operations[0]
			if op.Wrap.Call != "g" || op.Wrap.Occurrence != 0 || op.Preserve[0].Occurrence != 2 {
				t.Errorf("got %+v", op)
			}
		}},
		{"quoted timestamp is a string", mk(`args: ["2024-01-01"]`), func(t *testing.T, tk *Ticket) {
			if got := string(tk.Operations[0].Args[0]); got != `"2024-01-01"` {
				t.Errorf("args %q", got)
			}
		}},
		{"BOM and CRLF", "\ufeff" + strings.ReplaceAll(mk(), "\n", "\r\n"), func(t *testing.T, tk *Ticket) {
			if tk.Operations[0].Flag.Pos != (Pos{"t.yaml", 5, 11}) {
				t.Errorf("flag pos %v", tk.Operations[0].Flag.Pos)
			}
		}},
		{"columns count characters", strings.Replace(mk(), "ticket: T-1", "ticket: T-1 # éééé\n# ü", 1), func(t *testing.T, tk *Ticket) {
			if tk.Operations[0].Flag.Pos != (Pos{"t.yaml", 6, 11}) {
				t.Errorf("flag pos %v", tk.Operations[0].Flag.Pos)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk, err := ParseTicket("t.yaml", []byte(tt.in))
			if err != nil {
				t.Fatalf("input:\n%s\nerror: %v", tt.in, err)
			}
			tt.check(t, tk)
		})
	}
}

func TestColumnsCountCharactersInErrors(t *testing.T) {
	_, err := ParseTicket("t.yaml", []byte(mk("preserve: [é, 'ü()']")))
	want := `t.yaml:7:19: operations[0].preserve[1]: expected a call as written at the call site, like "enrichItem" or "audit.write", got "ü()" (name the callee without parentheses or arguments)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestSampleManifests(t *testing.T) {
	tests := map[string]string{
		"unknown-field.yaml": `../testdata/manifests/unknown-field.yaml:7:5: operations[0].preserves: unknown field "preserves"; did you mean "preserve"? ` + knownOpFields,
		"duplicate-id.yaml":  `../testdata/manifests/duplicate-id.yaml:8:9: operations[1].id: duplicate id "processItem-skip" is already used by operations[0] (line 3, as its default id); give each operation a distinct id`,
		"path-outside.yaml":  `../testdata/manifests/path-outside.yaml:4:15: operations[0].function: path "src/../../outside/index.ts" leaves the repository; paths are relative to the repository root`,
		"bad-flag.yaml":      `../testdata/manifests/bad-flag.yaml:5:11: operations[0].flag: expected <parameter>[.<property>...], e.g. opts.skip, got "opts..skip"`,
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := LoadTicket("../testdata/manifests/"+name, "")
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
		})
	}
}
