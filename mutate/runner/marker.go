package runner

import (
	"encoding/json"
	"strconv"
	"strings"
)

// ReachedEnv names the file a MarkerStatement appends its id to.
const ReachedEnv = "ORACLE_REACHED"

// JestWorker is the global where a jest run keeps, for the markers, what vitest's worker
// state (__vitest_worker__) holds where they read it: the test file (filepath) and the task
// that runs (current), kept by the runner's jest environment (jest_env.cjs). The markers
// read vitest's first: under vitest they do what they did before it.
const JestWorker = "__oracleJestWorker__"

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
	return `try { const g = Object(globalThis), p = Reflect.get(g, "process"); if (p?.env?.` + ReachedEnv + `) { const k = ((Reflect.get(g, "__vitest_worker__") ?? Reflect.get(g, "` + JestWorker + `"))?.filepath ?? "?") + "\t" + ` + lit + `; const s = (g.__oracleEntered || (g.__oracleEntered = new Set())); if (!s.has(k)) { s.add(k); p.getBuiltinModule?.("node:fs")?.appendFileSync(p.env.` + ReachedEnv + `, k + "\n"); } } } catch {}`
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
	return `try { const g = Object(globalThis), p = Reflect.get(g, "process"); if (p?.env?.` + ReachedEnv + `) { const f = (Reflect.get(g, "__vitest_worker__") ?? Reflect.get(g, "` + JestWorker + `"))?.filepath ?? "?", l = ` + lit + `, k = f + "\t" + l, s = (g.__oracleEntered || (g.__oracleEntered = new Set())); if (!s.has(k)) { s.add(k); p.getBuiltinModule?.("node:fs")?.appendFileSync(p.env.` + ReachedEnv + `, l.split("\n").filter(Boolean).map((i) => f + "\t" + i + "\n").join("")); } } } catch {}`
}

// RanMarkerStatement is MarkerStatement for a mutant run alone: it appends, once per test
// (or per suite, or per file load) that executes it, "<id>\t@t\t<test>" where <test> is the
// JSON string of the test's full name as Test.Name has it (describe titles and the test's
// title joined by spaces; a test with an empty title is its describe titles alone, as
// vitest's fullName has it: ufo's trailing-slash tests are named by object keys, "" one), or "<id>\t@s\t\"\"" when it runs outside a test: in a
// beforeAll or afterAll hook of a describe block, or while the file loads or is collected
// (the block is not named: what reads it, lab's load-time kill, asks only whether the code
// ran outside every test). vitest's worker state (__vitest_worker__.current, vitest
// 4 and 5) names the task that runs: the test during its beforeEach hooks, body and
// afterEach hooks, the suite during its beforeAll and afterAll hooks, the file while it is
// collected. A concurrent test (test.concurrent, sequence.concurrent) is not named: the
// state names the last one started, not the one running, so the line is "<id>\t@s\t\"\""
// (every test of the file may have executed it). Without a
// worker state the line is "<id>\t@s\t\"\"" (every test may have executed it). Run
// again in the same task (a loop), it costs a few property reads: the task and id it
// last wrote for are kept in the worker state, and the state is read by a plain
// property access of Object(globalThis) (any to TypeScript, so the statement
// type-checks in strict mode), not Reflect.get: 5,000,000 iterations of a loop take
// about 20 ms more so, seconds with Reflect.get and process.env read each time.
// Result.Reached reads the id as MarkerStatement's; Result.ReachedIn and ReachedOutside
// the tests and suites.
func RanMarkerStatement(id string) string {
	b, _ := json.Marshal(id)
	return `try { const g = Object(globalThis), w = g.__vitest_worker__ ?? g.` + JestWorker + `, c = w?.current; ` + ranCore(string(b)) + ` } catch {}`
}

// RanMarkerFunc is the declaration of fn, a function whose call does what
// RanMarkerStatement(id) does, the global object and the worker state read once and
// kept on the function (a property of it, not a global): where the global is a vm
// context's (jest's environments, vitest's vm pools) each read of it goes through the
// context's interceptors, and a loop that runs the statement 10,000,000 times took seconds
// more for it. A mutant run alone declares it with its counter (the lab's aloneSource).
// call is the statement that calls it.
func RanMarkerFunc(fn, id string) (call, decl string) {
	b, _ := json.Marshal(id)
	return fn + `();`, `function ` + fn + `() { try { const f = Object(` + fn + `); let r = f.r; if (r === undefined || r.w === undefined) { const g = Object(globalThis); r = f.r = { g, w: g.__vitest_worker__ ?? g.` + JestWorker + ` }; } const g = r.g, w = r.w, c = w?.current; ` + ranCore(string(b)) + ` } catch {} }`
}

// ranCore is RanMarkerStatement's work, given g (the global object), w (the worker
// state) and c (the task running).
func ranCore(lit string) string {
	return `if (c === undefined || w.__oracleRanTask !== c || w.__oracleRanId !== ` + lit + `) { const p = Reflect.get(g, "process"); if (c !== undefined) { w.__oracleRanTask = c; w.__oracleRanId = ` + lit + `; } if (p?.env?.` + ReachedEnv + `) { let s; if (c && typeof c === "object") { const m = (g.__oracleRanIn || (g.__oracleRanIn = new WeakMap())); s = m.get(c); if (!s) { s = new Set(); m.set(c, s); } } if (!s || !s.has(` + lit + `)) { s?.add(` + lit + `); const n = []; for (let x = c; x && typeof x === "object" && x !== x.file && !("filepath" in x); x = x.suite) n.unshift(String(x.name)); const t = (c?.type === "test" || c?.type === "custom") && !c.concurrent; p.getBuiltinModule?.("node:fs")?.appendFileSync(p.env.` + ReachedEnv + `, ` + lit + ` + (t ? "\t@t\t" : "\t@s\t") + JSON.stringify(t ? (n[n.length - 1] === "" ? n.slice(0, -1) : n).join(" ") : "") + "\n"); } } }`
}

// ranLine reads a line RanMarkerStatement wrote: its id, whether it names a test (else a
// suite, "" for the file), and the name.
func ranLine(l string) (id string, test bool, name string, ok bool) {
	parts := strings.SplitN(l, "\t", 3)
	if len(parts) != 3 || (parts[1] != "@t" && parts[1] != "@s") {
		return "", false, "", false
	}
	if err := json.Unmarshal([]byte(parts[2]), &name); err != nil {
		return "", false, "", false
	}
	return parts[0], parts[1] == "@t", name, true
}

// HitCounter is the declaration of fn, the function a mutant run alone calls for each hit
// of its counted function body (edit.MarkCounted: the body's entry, the entry of every
// function nested in it, each iteration of every loop in it), so that a mutant that loops
// forever stops within about a second, not at the run's wall-clock limit (SPEC "Runs and
// kills": a hit-limit stop is confirmed by counting). It counts per test (the task vitest's
// worker state, or the runner's jest environment, names as running; the file's load is
// one more), and
//
//   - limit > 0: past limit hits in one test it appends "<id>\t@h\t<limit>" to the file
//     $ORACLE_REACHED names (once) and throws an Error whose message starts with
//     msg at every hit after (Result.HitLimit);
//   - record > 0 (a power of two): each time a test's count reaches a power of two at
//     least record, it appends "<id>\t@n\t<count>" (Result.HitsOver): the original code,
//     counted so, says at most how many hits its tests make (below twice the greatest).
//
// Like the markers it needs no import, type-checks in strict TypeScript and never throws
// but the limit's error; one hit costs a few property reads: the global object, the
// worker state and the count are read once and kept on the function (RanMarkerFunc says
// why).
func HitCounter(fn, msg, id string, limit, record int64) string {
	b, _ := json.Marshal(id)
	lit := string(b)
	lim, rec := strconv.FormatInt(limit, 10), strconv.FormatInt(record, 10)
	write := `try { const p = Reflect.get(g, "process"); if (p?.env?.` + ReachedEnv + `) p.getBuiltinModule?.("node:fs")?.appendFileSync(p.env.` + ReachedEnv + `, `
	return `function ` + fn + `() { const f = Object(` + fn + `); let s = f.s; ` +
		`if (s === undefined || s.w === undefined) { const g = Object(globalThis); s = f.s = { g, w: g.__vitest_worker__ ?? g.` + JestWorker + ` }; } ` +
		`const g = s.g, c = s.w?.current; let h = s.h ?? (s.h = g.__oracleHitCount); ` +
		`if (h === undefined) { h = s.h = g.__oracleHitCount = { c, n: 0, by: new Map(), hit: false }; } else if (h.c !== c) { h.by.set(h.c, h.n); h.c = c; h.n = h.by.get(c) ?? 0; } ` +
		`const n = ++h.n; ` +
		`if (` + lim + ` > 0 && n > ` + lim + `) { if (!h.hit) { h.hit = true; ` + write + lit + ` + "\t@h\t` + lim + `\n"); } catch {} } ` +
		`throw new Error(` + strconv.Quote(msg+": more than "+lim+" loop iterations and calls in one test (a mutant that loops)") + `); } ` +
		`if (` + rec + ` > 0 && n >= ` + rec + ` && n < 1073741824 && (n & (n - 1)) === 0) { ` + write + lit + ` + "\t@n\t" + n + "\n"); } catch {} } }`
}

// hitLine reads a line HitCounter wrote: its id, and the limit that stopped a test (kind
// "@h") or a count a test reached (kind "@n").
func hitLine(l string) (id, kind string, n int64, ok bool) {
	parts := strings.SplitN(l, "\t", 3)
	if len(parts) != 3 || (parts[1] != "@h" && parts[1] != "@n") {
		return "", "", 0, false
	}
	n, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return "", "", 0, false
	}
	return parts[0], parts[1], n, true
}
