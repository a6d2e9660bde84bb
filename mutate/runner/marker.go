package runner

import (
	"encoding/json"
	"strings"
)

// ReachedEnv names the file a MarkerStatement appends its id to.
const ReachedEnv = "ORACLE_REACHED"

// MarkerStatement returns one line of code, valid as a statement in both JavaScript and
// TypeScript (strict mode, with or without @types/node: Reflect.get returns any, so no cast
// is needed and no `as any` breaks a .js file), that appends id and a newline to the file
// named by $ORACLE_REACHED when executed. It needs no import (process.getBuiltinModule,
// Node >= 20.16 / 22.3), works in ESM and CJS, sync or async code, in vitest's forks and
// threads pools, does nothing when the variable is unset, and never throws into the code
// under test.
func MarkerStatement(id string) string { return MarkersStatement(id) }

// MarkersStatement is MarkerStatement for several ids at once (one line each): a coverage
// marker before a statement that holds several mutants.
func MarkersStatement(ids ...string) string {
	b, _ := json.Marshal(strings.Join(ids, "\n") + "\n") // a JSON string is a valid JS string literal
	lit := string(b)
	return `try { const p = Reflect.get(globalThis, "process"); if (p?.env?.` + ReachedEnv + `) p.getBuiltinModule?.("node:fs")?.appendFileSync(p.env.` + ReachedEnv + `, ` + lit + `); } catch {}`
}

// FileMarkerStatement is MarkerStatement for a run of many test files at
// once: it appends "<test file>\t<id>" (the test file vitest's worker is
// running, absolute), once per test file and id in a worker, so the run
// tells which test file entered the code; a body entered a million times
// writes one line, not a million.
func FileMarkerStatement(id string) string {
	b, _ := json.Marshal(id)
	lit := string(b)
	return `try { const g = globalThis, p = Reflect.get(g, "process"); if (p?.env?.` + ReachedEnv + `) { const k = (Reflect.get(g, "__vitest_worker__")?.filepath ?? "?") + "\t" + ` + lit + `; const s = (g.__oracleEntered ??= new Set()); if (!s.has(k)) { s.add(k); p.getBuiltinModule?.("node:fs")?.appendFileSync(p.env.` + ReachedEnv + `, k + "\n"); } } } catch {}`
}

// FileMarkersStatement is MarkersStatement for coverage runs that may hold several test
// files (LongLivedRunner.RunJoint): each id is appended as "<test file>\t<id>" (the file
// vitest's worker is running, absolute; "?" outside a worker), once per test file and
// statement in a worker, so a statement run a million times in a loop writes its ids once.
// The ids are one JSON string literal, "a\nb\n", as in MarkersStatement. A run of one test
// file reads the ids without the file (Result.Markers); a joint run attributes each to its
// file.
func FileMarkersStatement(ids ...string) string {
	b, _ := json.Marshal(strings.Join(ids, "\n") + "\n")
	lit := string(b)
	return `try { const g = globalThis, p = Reflect.get(g, "process"); if (p?.env?.` + ReachedEnv + `) { const f = Reflect.get(g, "__vitest_worker__")?.filepath ?? "?", l = ` + lit + `, k = f + "\t" + l, s = (g.__oracleEntered ??= new Set()); if (!s.has(k)) { s.add(k); p.getBuiltinModule?.("node:fs")?.appendFileSync(p.env.` + ReachedEnv + `, l.split("\n").filter(Boolean).map((i) => f + "\t" + i + "\n").join("")); } } } catch {}`
}
