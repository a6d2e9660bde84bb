package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// Batched runs (the default; Lab.Isolate turns them off).
//
// Each mutated file is written once as a schema (edit.BuildSchema): every
// mutant behind a run-time switch, the original as the default. A harness
// test file next to the test file runs, in one vitest run, a describe block
// per variant: it resets the module registry and imports the test file
// again with the variant's switch set (code that runs while a module loads
// is the variant's too, as alone), so the test file's own tests and hooks
// run once per variant. The test file itself is not changed. The import is the same
// specifier each time (no `?query`): the module is evaluated afresh after
// the reset, and vite transforms it once, not once per variant (a quarter
// of the batches' time on unjs/ufo; checked with vitest 3.2, 4.1 and 5.1).
//
// The guards against contamination (a variant leaving state that makes a
// later one fail):
//   - the baseline runs first and last in the batch and must pass both
//     times; otherwise no result of the batch is used;
//   - a batch that times out, crashes or cannot load uses no result;
//   - a batch result is used only when it is a kill by an assertion or an
//     exception in a test body (with both baselines green); every other
//     variant (survived, no-coverage, error, setup failure) and every mutant
//     the schema could not place runs alone, as with Isolate.
//   - a variant runs only the tests that reached its statement in the
//     opening baseline (per-test selection, select.go) when the original,
//     run on that same selection in the batch, passed; a variant whose
//     selection's baseline is not green in the report has no result used.
// So a batch can only save time: every outcome other than a clean kill is
// established by an isolated run. With one exception, under Lab.Coverage:
// a mutant whose code the coverage runs reached, and whose variant passed
// every test in the clean batch of each test file that reached it, survived
// (the coverage run already told it from no-coverage; StrykerJS trusts its
// survivors the same way). Isolate runs it alone as before.

// HarnessPrefix starts the name of the harness file written next to a test
// file for a batched run.
const HarnessPrefix = "__oracle_batch__."

// MovedPrefix starts the name the test file's own content takes beside it
// when the harness takes its place (Lab.inPlace): a config whose include
// lists test files by path matches no file of another name.
const MovedPrefix = "__oracle_tests__."

// variantTitle is the describe title of block i of a batch (switch value v).
func variantTitle(i, v int) string { return fmt.Sprintf("%s%d-%d", variantPrefix, i, v) }

// variantPrefix starts every block's title: a test named so is a harness's.
const variantPrefix = "oracle-variant-"

// block is one describe block of a batch's harness, built once
// (selectBlocks) and carried to the harness, its snapshots and the reading
// of its run: a baseline of the original code, or a variant (its task's
// mutant behind its switch); and, once a run of the batch is read
// (readBlocks), what the run reported for it (heard).
type block struct {
	n    int   // its place in the batch: its title's and the harness's notes' number
	v    int   // its switch value: 0 the original, else its task's n+1
	key  int   // its selection key (select.go), 0 for none
	task *task // the variant's; nil for a baseline
	// heard is what the run last read reported for it (readBlocks).
	heard heard
}

// heard is what a batch's run reported for one of its blocks: its tests
// (named within the block), the hit limit, its time limit and the tests
// that ran its code (variant); the selection it ran (selected, whose
// baseline is block sel: nil when the note names none); how long it took
// (took, when timed).
type heard struct {
	variant
	selected bool
	sel      *block
	took     time.Duration
	timed    bool
}

// title is the block's describe title.
func (bl *block) title() string { return variantTitle(bl.n, bl.v) }

// What the harness appends to the reached file ($ORACLE_REACHED) about
// variant i: it hit the hit limit (and which), it ran past its time limit
// (batchWave's limit), and how long it took, in milliseconds; and about the
// batch: a schema was loaded before it (preloadNote).
const (
	limitNote = "oracle-limit-"
	// preloadNote: a schema was loaded before the harness's first variant.
	preloadNote = "oracle-preloaded"
	// globalsNote: a load or a variant added or replaced a global.
	globalsNote = "oracle-globals"
	slowNote    = "oracle-slow-"
	// noLoadNote: the variant's load threw, at import or in a describe
	// body vitest collected: the tests it registered are not the file's, and
	// it runs alone (AloneLoadThrew).
	noLoadNote = "oracle-noload-"
	timeNote   = "oracle-time-"
	// ranNote: a test of variant i executed the variant's code (its name,
	// a JSON string, after a tab); ranAllNote: the variant's code ran
	// outside a test (while the file loaded, or in a beforeAll hook).
	ranNote    = "oracle-ran-"
	ranAllNote = "oracle-ranall-"
	// concNote: the variant's code ran in a concurrent test, which shares
	// the flag with the tests beside it (so every test counts as having run
	// it, and a kill by one that did not is possible: concurrentKill).
	concNote = "oracle-conc-"
	// selNote: variant i ran only the tests of its selection, whose
	// baseline is block j ("oracle-sel-i-j"; select.go).
	selNote = "oracle-sel-"
	// overlapNote: a block started while another was running: the variants
	// did not run one after the other (they share the switch).
	overlapNote = "oracle-overlap"
)

// HitLimitFloor and HitLimitFactor derive a batch's hit limit from its
// opening baseline: HitLimitFactor times the most hits any of its tests
// counted, at least HitLimitFloor (StrykerJS's factor).
const (
	HitLimitFloor  = 100_000
	HitLimitFactor = 100
)

// SPEC "Runs and kills": a hit-limit stop is confirmed by counting, not by
// a clock. A variant stopped by its batch's hit limit is a suspect: it runs
// again in a batch of its test file (again) with the limit raised
// ConfirmRaise-fold, at least ConfirmHitFloor hits; stopped again it is a
// timeout (Run.HitLimit), finishing its tests decide. A finite loop of
// 5,000,000 iterations finishes under the raised limit; an endless one
// stops within about a second.
const (
	ConfirmRaise    = 100
	ConfirmHitFloor = 10_000_000
)

// hitRule is how a harness derives each variant's hit limit from the most
// hits a test (or the load) of the original counted: factor times that, at
// least floor.
type hitRule struct{ floor, factor int }

// batchHits is a batch's rule; confirmHits a suspects' batch's, the
// batch's raised ConfirmRaise-fold (at least ConfirmHitFloor).
var (
	batchHits   = hitRule{HitLimitFloor, HitLimitFactor}
	confirmHits = hitRule{max(ConfirmHitFloor, ConfirmRaise*HitLimitFloor), ConfirmRaise * HitLimitFactor}
)

// harness is the source of the batch harness for test file base (a name in
// the harness's directory) running blocks in order (each its describe
// block, titled by its title, its notes naming its number), each variant
// within limit.
//
// Per variant: the switch is set before its tests and cleared after; the
// hit counter (edit.HitState) is reset before the variant's beforeAll hooks
// and before each test, unlimited for the original (the opening baseline
// records the most hits its beforeAll hooks or a test counted) and
// limited for a mutant (HitLimitFactor times that, at least HitLimitFloor);
// every test and hook of the test file gets vitest's own time-out capped at
// limit (applied as the file is collected: vitest binds a test's time-out
// when it is defined), and once the variant has run past limit its later
// tests are skipped. The harness appends to $ORACLE_PROGRESS as it goes
// (the runner's Spec.Stall), and to $ORACLE_REACHED what the batch reads
// (limitNote, slowNote, timeNote), each line after the harness file's path
// and a tab (the file vitest's worker runs: a joint run of several harnesses
// tells whose note it is).
func harness(base string, blocks []*block, limit time.Duration, hr hitRule, aside []string) []byte {
	var b strings.Builder
	b.WriteString("// Written by oracle prove for a batched run; removed with the sandbox.\n")
	b.WriteString("import { afterAll, afterEach, beforeAll, beforeEach, describe, vi } from \"vitest\";\n")
	// The realm's globals as the harness starts (setup files have run): a
	// variant's load or tests that add a global or replace one's value
	// leave it to the variants after it (a module that builds a table once
	// per realm, kept in globalThis, builds it once per batch), so a variant
	// passing in that batch may pass only because an earlier one set the
	// global: globalsNote, and the batch's survivors are not trusted (a
	// global added with the value undefined is no state). Accessors are
	// compared by their functions (Node replaces some lazy
	// globals by data properties on first use: not a change).
	fmt.Fprintf(&b, `const OWN = new Set([%q, %q, %q]);
function realm() {
  const m = new Map();
  for (const k of Reflect.ownKeys(globalThis)) {
    if (OWN.has(k)) continue;
    const d = Reflect.getOwnPropertyDescriptor(globalThis, k);
    m.set(k, d && "value" in d ? d.value : undefined);
  }
  return m;
}
const base = realm();
let globalsNoted = false;
function globalsMoved() {
  if (globalsNoted) return;
  for (const [k, v] of realm()) {
    // A global added whose value is undefined holds nothing a later variant
    // could read (vercel/ai's telemetry tests reset the one they set with
    // globalThis.X = undefined in an afterEach, and every survivor of
    // stream-text.test.ts's batch ran alone for it).
    if (!base.has(k) && v === undefined && "value" in (Reflect.getOwnPropertyDescriptor(globalThis, k) ?? {})) continue;
    // Node's fetch (undici) makes its default dispatcher, an Agent (a
    // connection pool), on first use and keeps it in globalThis under this
    // symbol: Node's state, not a variant's (vercel/ai on Node 20: every
    // batch that fetched saw it added). A test's MockAgent there still is.
    if (typeof k === "symbol" && (Symbol.keyFor(k) ?? "").startsWith("undici.globalDispatcher") && v?.constructor?.name === "Agent") continue;
    if (!base.has(k) || (v !== undefined && base.get(k) !== undefined && !Object.is(v, base.get(k)))) {
      globalsNoted = true;
      note(%q, %q);
      return;
    }
  }
}
`, edit.HitState, edit.SchemaSwitch, edit.SchemaLoads, runner.ReachedEnv, globalsNote)
	harnessRuntime(&b, limit, hr)
	// The tests set aside (aside.go): every block leaves them out.
	names, _ := json.Marshal(append([]string{}, aside...))
	fmt.Fprintf(&b, "const ASIDE = new Set(%s);\n", names)
	b.WriteString("// A test's name within its block: its full name after the block's title.\n")
	b.WriteString("const aside = (t) => ASIDE.size > 0 && ASIDE.has(nameOf(t).slice(nameOf(t).indexOf(\" \") + 1));\n")
	harnessSelect(&b)
	harnessRegistry(&b)
	harnessLoad(&b)
	harnessPrune(&b)
	harnessVariant(&b)
	spec, _ := jsonString("./" + base)
	for _, bl := range blocks {
		// Once a test of a variant failed, its later tests are skipped (the
		// variant is killed or sent alone either way), as StrykerJS bails.
		// The block's suite collector (what suite returns) is load's: it
		// guards the describe bodies the test file registers in it.
		fmt.Fprintf(&b, `const block%d = suite(%q, async () => {
  variant(%d, %d, %d);
  await load(%d, %d, () => import(%s), block%d);
  vi.resetConfig();
});
`, bl.n, bl.title(), bl.n, bl.v, bl.key, bl.n, bl.v, spec, bl.n)
	}
	return []byte(b.String())
}

// harnessRuntime writes the harness's state and helpers: the variant's time
// limit, the hit counter, how it notes what the batch reads, and how a
// test's full name is read.
func harnessRuntime(b *strings.Builder, limit time.Duration, hr hitRule) {
	fmt.Fprintf(b, `const LIMIT = %d;
// A variant's hit limit: FACTOR times the most hits a test (or the load) of
// the original counted, at least FLOOR.
const FLOOR = %d;
const FACTOR = %d;
const hits = { n: 0, limit: Infinity, hit: false, most: 0 };
Reflect.set(globalThis, %q, hits);
const proc = Reflect.get(globalThis, "process");
const fs = proc?.getBuiltinModule?.("node:fs");
const worker = Reflect.get(globalThis, "__vitest_worker__");
const self = worker?.filepath ?? "?";
// A progress line (the runner's stall watch reads only that the file
// grows) is written at most every 100 ms: one per test cost a file append
// per test of every variant.
let progressed = 0;
function note(env, line) {
  try {
    if (env === %q) {
      const now = performance.now();
      if (now - progressed < 100) return;
      progressed = now;
    }
    const f = proc?.env?.[env];
    if (f) fs?.appendFileSync(f, (env === %q ? self + "\t" : "") + line + "\n");
  } catch {}
}
const config = worker?.config;
// A test's location (the source-mapped stack of its definition) is read
// from the baselines, never from a batch: without it, the registration of
// each variant's tests formats no stack (a third of a batch on unjs/pathe).
if (config && typeof config === "object") config.includeTaskLocation = false;
// process's own functions as the harness starts: a test that replaces one
// (process.cwd = () => "C:\\w", pathe's "on Windows" tests) and restores it
// only when its assertions pass leaves it replaced once a variant fails
// it, for every block after; each block starts with them restored, as a
// run of the test file alone starts with them.
const procFns = new Map();
for (const k of proc ? Reflect.ownKeys(proc) : []) {
  const d = Reflect.getOwnPropertyDescriptor(proc, k);
  if (d && "value" in d && typeof d.value === "function") procFns.set(k, d.value);
}
function restoreProcess() {
  for (const [k, f] of procFns) {
    try {
      if (Reflect.get(proc, k) !== f) Reflect.set(proc, k, f);
    } catch {}
  }
}
// Under a config that runs suites concurrently, the variants still run one
// after the other (they share the switch): describe.sequential up to vitest
// 4, a describe with { concurrent: false } from 5 (which has no
// describe.sequential: plain describe blocks ran at the same time there).
const suite = !config?.sequence?.concurrent ? describe : describe.sequential ?? ((name, fn) => describe(name, { concurrent: false }, fn));
// The block running now (-1: none): a block that starts while another runs
// (variants run concurrently after all) notes it, and the batch is not read.
let running = -1;
const cap = (t) => (typeof t === "number" && t > 0 && t < LIMIT ? t : LIMIT);
let loadMost = 0;
// The variants whose code ran while the file loaded (ranAllNote).
const loadRan = new Set();
let lastLoad = -1;
// A test's full name as the report has it (describe titles and its title).
function nameOf(t) {
  const n = [];
  for (let x = t; x && typeof x === "object" && x !== x.file && !("filepath" in x); x = x.suite) n.unshift(String(x.name));
  if (n[n.length - 1] === "") n.pop(); // vitest's fullName of a test with an empty title
  return n.join(" ");
}
// A schema loaded before the harness (a setup file imports it) keeps an
// instance the variants' loads do not replace, whose load-time code ran
// without a variant: the batch's survivors are not trusted then.
if (Reflect.get(globalThis, %q)) note(%q, %q);
Reflect.deleteProperty(globalThis, %q);
`, limit.Milliseconds(), hr.floor, hr.factor, edit.HitState, runner.ProgressEnv, runner.ReachedEnv, edit.SchemaLoads, runner.ReachedEnv, preloadNote, edit.SchemaLoads)
}

// harnessRegistry writes collected and registryOf: each block runs its
// tests on the module registry its own load left. vitest collects every
// block (each load a fresh import of the test file after vi.resetModules)
// before any test runs, so a test that imports a module at run time
// (`await import("../repo")` in a beforeEach, a generated oracle's way)
// would get the instance the last block loaded, not the one its own test
// file and fixture hold: a fixture that imports the database statically
// migrated one instance, the code under test wrote to another ("no such
// table"), and the batch's baseline failed where the file alone passes.
// The registry's entries (vitest 4 and 5: evaluatedModules; vitest 2 and
// 3: moduleCache) are noted as each block's collection ends, and set back
// as its tests start; an entry loaded since is reset, as vi.resetModules
// resets it. vitest's own modules are left alone, as vi.resetModules
// leaves them. A registry of another shape: nothing is done.
func harnessRegistry(b *strings.Builder) {
	b.WriteString(`const OWN_MODULES = [/\/vitest\/dist\//, /\/vite-node\/dist\//, /vitest-virtual-\w+\/dist/, /@vitest\/dist/];
const MODULE_FIELDS = ["promise", "exports", "evaluated", "resolving"];
function registry() {
  const m = worker?.evaluatedModules?.idToModuleMap ?? worker?.moduleCache;
  return m instanceof Map ? m : null;
}
function registryNodes(f) {
  const m = registry();
  for (const [id, node] of m ?? []) {
    if (node !== null && typeof node === "object" && !OWN_MODULES.some((re) => re.test(String(id)))) f(node);
  }
}
function registrySnapshot() {
  const s = new Map();
  registryNodes((node) => {
    s.set(node, {
      fields: MODULE_FIELDS.map((k) => [k, Object.hasOwn(node, k), node[k]]),
      importers: node.importers instanceof Set ? [...node.importers] : null,
    });
  });
  return s;
}
function registryRestore(s) {
  registryNodes((node) => {
    const saved = s.get(node);
    if (saved) {
      for (const [k, had, v] of saved.fields) {
        if (had) node[k] = v;
        else delete node[k];
      }
    } else {
      node.promise = undefined;
      node.exports = undefined;
      node.evaluated = false;
    }
    if (node.importers instanceof Set) {
      node.importers.clear();
      for (const x of saved?.importers ?? []) node.importers.add(x);
    }
  });
}
// The registry each block's collection left, by block; the block being
// collected (-1: none).
const registries = new Map();
let collecting = -1;
function collected(i) {
  if (collecting >= 0) registries.set(collecting, registrySnapshot());
  collecting = i;
}
function registryOf(i) {
  collected(-1);
  const s = registries.get(i);
  if (s) registryRestore(s);
}
`)
}

// harnessLoad writes load: the test file imported afresh under a variant.
func harnessLoad(b *strings.Builder) {
	fmt.Fprintf(b, `// load imports the test file, and so every module it loads afresh, under
// variant v, as a run of the mutant alone would: code that runs while a
// module loads (a table built at the top level), or while vitest collects
// the file's describe bodies after it, is the variant's too, under
// the hit limit derived from the original's load. A variant that fails to
// load has no test: it runs alone, where that failure is judged.
async function load(i, v, importIt, block) {
  Reflect.set(globalThis, %q, v);
  hits.limit = v === 0 ? Infinity : Math.max(FLOOR, FACTOR * loadMost);
  hits.hit = false;
  hits.n = 0;
  // The describe bodies vitest collected after the last load ran under its
  // switch, which stays set: what they ran of the variant is its load's.
  if (hits.ran && lastLoad >= 0) loadRan.add(lastLoad);
  hits.ran = false;
  try {
    await importIt();
  } catch (e) {
    if (v === 0) throw e;
    note(%q, %q + i); // the suites it registered before the throw are not the file's
  } finally {
    if (hits.ran && v !== 0) loadRan.add(i);
    hits.ran = false;
    lastLoad = v !== 0 ? i : -1;
    globalsMoved();
    if (v === 0) loadMost = Math.max(loadMost, hits.n);
    if (hits.hit) note(%q, %q + i + "-" + hits.limit + "-" + loadMost);
    // The switch stays set: vitest runs the test file's describe bodies
    // after the import returns, and code there (an app built with its
    // middleware) is the variant's too; the next variant's load sets its
    // own, and the last one loaded is the original's (0).
    Reflect.deleteProperty(globalThis, %q);
    hits.limit = Infinity;
    hits.hit = false;
    hits.n = 0;
  }
  if (v !== 0) guard(block, i);
}
// guard: a describe body of the test file that throws under a variant (code
// under test called while vitest collects: pathe's test/utils.spec.ts calls
// normalizeAliases in its describe) would fail the collection of the whole
// harness, every variant's tests with it. Each suite the variant's load
// registered is collected through a wrapper that, when its body throws,
// gives that suite skipped and empty, and the variant's other tests are
// not read (noLoadNote): it runs alone, as one that throws at import. (A
// suite collector's tasks and collect are vitest's own, from vitest 1 to 5;
// without them, nothing.)
function guard(block, i) {
  for (const c of Array.isArray(block?.tasks) ? block.tasks : []) {
    if (c?.type !== "collector" || typeof c.collect !== "function") continue;
    const collect = c.collect;
    c.collect = async (file) => {
      try {
        return await collect.call(c, file);
      } catch (e) {
        const s = c.suite;
        if (!s || typeof s !== "object") throw e;
        note(%q, %q + i);
        s.tasks = [];
        s.mode = "skip";
        return s;
      }
    };
  }
}
`, edit.SchemaSwitch, runner.ReachedEnv, noLoadNote, runner.ReachedEnv, limitNote, edit.SchemaLoads, runner.ReachedEnv, noLoadNote)
}

// harnessPrune writes prune and bail: the tests a variant does not run
// taken out of its block, or marked skipped.
func harnessPrune(b *strings.Builder) {
	b.WriteString(`// The tests a variant does not run are taken out of its block before they
// start, not skipped one by one in a hook: each skipped test cost its
// hooks, a context and two task updates sent to vitest's main process, for
// hundreds of tests per variant (unjs/pathe: 196,000 of a batch's 214,000
// tests skipped, 57 s; without them 34 s). prune, in the block's beforeAll
// (vitest lists a suite's children after its beforeAll hooks): a test the
// selection does not keep is removed, and a describe left with no test;
// vitest's -t filter runs the same tests. bail, after the variant's first
// failure (or its time limit): every test and describe not yet started is
// marked skipped (the lists vitest is walking are already made). A removed
// test stays in the report without a result (pending: skipped).
const isSuite = (x) => x !== null && typeof x === "object" && x.type === "suite" && Array.isArray(x.tasks);
function prune(s, keep) {
  s.tasks = s.tasks.filter((t) => (isSuite(t) ? (prune(t, keep), t.tasks.length > 0) : keep(t)));
}
const firstTest = (s) => s.tasks.reduce((f, t) => f ?? (isSuite(t) ? firstTest(t) : t), null);
const keeps = (s, keep) => s.tasks.some((t) => (isSuite(t) ? keeps(t, keep) : keep(t)));
// select: prune to the tests keep keeps; where it keeps none (a baseline
// whose key has no selection), the block keeps its first test, skipped: a
// block with no test is a suite vitest fails ("No test found in suite").
function select(s, keep) {
  if (keeps(s, keep)) return prune(s, keep);
  const first = firstTest(s);
  prune(s, (t) => t === first);
  if (first) {
    first.mode = "skip";
    first.result = { state: "skip" };
  }
}
function bail(s) {
  for (const t of isSuite(s) ? s.tasks : []) {
    if (t.result) {
      bail(t);
      continue;
    }
    t.mode = "skip";
    if (!isSuite(t)) t.result = { state: "skip" };
  }
}
`)
}

// harnessVariant writes variant: the hooks that set a variant's switch,
// count its hits, cap its time and note what it ran.
func harnessVariant(b *strings.Builder) {
	fmt.Fprintf(b, `function variant(i, v, k) {
  let failed = false;
  let start = 0;
  // The block's suite (its beforeAll's argument: the first up to vitest 4,
  // the second from 5).
  let own = null;
  // The tests this block runs (full names: selection), null: every test.
  let sel = null;
  // Which tests executed the variant's code (the schema sets hits.ran in
  // its branch): code run outside a test (at load, in a beforeAll hook)
  // counts for every test after it.
  let ranAll = false;
  const ranOutside = () => {
    if (!ranAll && v !== 0) note(%q, %q + i);
    ranAll = true;
  };
  note(%q, "collect " + i);
  collected(i);
  if (v !== 0 && k > 0) variants.set(k, (variants.get(k) ?? 0) + 1);
  beforeAll(function () {
    if (running !== -1) note(%q, %q);
    running = i;
    own = [...arguments].find(isSuite) ?? null;
    restoreProcess();
    registryOf(i);
    Reflect.set(globalThis, %q, v);
    hits.limit = v === 0 ? Infinity : Math.max(FLOOR, FACTOR * hits.most);
    hits.hit = false;
    hits.n = 0;
    start = performance.now();
    if (loadRan.has(i)) ranOutside();
    hits.ran = false;
    if (i === 0) covered(covOut);
    sel = k > 0 ? selection(i, v, k) : null;
    if ((sel !== null || ASIDE.size > 0) && own) select(own, (t) => !aside(t) && (sel === null || sel.has(keyOf(t))));
    note(%q, "start " + i);
  });
  afterAll(() => {
    running = -1;
    Reflect.deleteProperty(globalThis, %q);
    Reflect.deleteProperty(globalThis, %q); // a module its tests loaded
    globalsMoved();
    if (hits.hit) note(%q, %q + i + "-" + hits.limit + "-" + hits.most);
    note(%q, %q + i + "-" + Math.round(performance.now() - start));
    if (i === 0) opened(!failed);
    if (v === 0 && k > 0) selected(i, k, !failed);
    hits.limit = Infinity;
    note(%q, "done " + i);
  });
  beforeEach((ctx) => {
    ctx.onTestFailed?.(() => {
      failed = true;
      bail(own);
    });
    if (v === 0) hits.most = Math.max(hits.most, hits.n); // the file's beforeAll hooks, before the first test
    hits.n = 0;
    if (hits.ran) ranOutside(); // a beforeAll (or afterAll) hook since the last test
    hits.ran = false;
    if (!failed && performance.now() - start > LIMIT) {
      failed = true;
      note(%q, %q + i);
      bail(own);
    }
    if (i === 0) covered(covOut);
    if (failed && typeof ctx.skip === "function") ctx.skip();
    if (sel !== null && !sel.has(keyOf(ctx.task)) && typeof ctx.skip === "function") ctx.skip();
    if (aside(ctx.task) && typeof ctx.skip === "function") ctx.skip();
    note(%q, "test " + i);
  });
  afterEach((ctx) => {
    // A concurrent test shares the flag with the tests running beside it:
    // what it saw counts for every test.
    if (hits.ran && ctx?.task?.concurrent) {
      ranOutside();
      if (v !== 0) note("`+runner.ReachedEnv+`", "`+concNote+`" + i);
    }
    if (v !== 0 && hits.ran && !ranAll) note(%q, %q + i + "\t" + JSON.stringify(nameOf(ctx?.task)));
    if (i === 0) covered(ctx?.task?.concurrent ? covOut : testCov(ctx?.task));
    hits.ran = false;
    if (v === 0) hits.most = Math.max(hits.most, hits.n);
    note(%q, "tested " + i);
  });
  vi.setConfig({ testTimeout: cap(config?.testTimeout), hookTimeout: cap(config?.hookTimeout) });
  vi.resetModules();
}
`, runner.ReachedEnv, ranAllNote, runner.ProgressEnv, runner.ReachedEnv, overlapNote, edit.SchemaSwitch, runner.ProgressEnv, edit.SchemaSwitch, edit.SchemaLoads, runner.ReachedEnv, limitNote, runner.ReachedEnv, timeNote, runner.ProgressEnv, runner.ReachedEnv, slowNote, runner.ProgressEnv, runner.ReachedEnv, ranNote, runner.ProgressEnv)
}

func jsonString(s string) (string, error) {
	// A Go-quoted ASCII string is a valid JS string literal when it has no
	// escapes beyond \" and \\ (paths here have none).
	q := fmt.Sprintf("%q", s)
	if strings.ContainsAny(s, "\\\"\n\r") {
		return q, fmt.Errorf("unsupported path %q", s)
	}
	return q, nil
}

// batch runs the tasks left (no run yet) in batches, each against its
// test files (of tests, in that order), and sets the runs it established
// (a kill, a timeout; the rest run alone), each task's hit limit, why it
// runs alone, and the clean batches it passed. A covered task (its test
// files are those whose coverage run reached it) whose variant passed in
// the batch of each of them survived. baseline is each test file's
// baseline time.
func (l *Lab) batch(ctx context.Context, tests []string, tasks []*task, timeout time.Duration, baseline map[string]time.Duration) error {
	placed, written, keys, err := l.schemas(tasks)
	defer func() {
		for _, p := range written {
			l.Files.Restore(p)
		}
	}()
	if err != nil {
		return err
	}
	// Each mutant in the batches of its test files, in tests' order, until
	// one kills it (more sandboxes, each with a vitest of its own, did not
	// pay on two cores: vitest keeps both busy; measured on ufo). The batches
	// run in waves: a test file's batch joins a wave when none of its
	// variants is one of an earlier test file's batch still to run (that
	// batch may kill it first); a wave's batches run in one vitest run when
	// the runner can (runner.JointRunner), so each batch holds exactly the
	// variants it held when the batches ran one after the other.
	left := func(test string) []*task {
		var ts []*task
		for _, t := range placed {
			if t.run == nil && slices.Contains(t.tests, test) {
				ts = append(ts, t)
			}
		}
		return ts
	}
	pending := slices.Clone(tests)
	for len(pending) > 0 {
		var wave []batchPlan
		var rest []string
		earlier := map[*task]bool{} // variants of the batches before, in this wave or still to run
		for _, test := range pending {
			ts := left(test)
			if len(ts) == 0 {
				continue
			}
			if slices.ContainsFunc(ts, func(t *task) bool { return earlier[t] }) {
				rest = append(rest, test)
			} else {
				wave = append(wave, batchPlan{test: test, tasks: ts, keys: keys})
			}
			for _, t := range ts {
				earlier[t] = true
			}
		}
		if err := l.batchWave(ctx, wave, timeout, baseline); err != nil {
			return err
		}
		if err := l.batchWave(ctx, again(wave), timeout, baseline); err != nil {
			return err
		}
		pending = rest
	}
	for _, t := range tasks {
		if t.run == nil && t.covered && len(t.tests) > 0 && t.passed == len(t.tests) {
			t.run = &Run{Test: t.tests[len(t.tests)-1], Mutant: &t.job.Mutant, Outcome: Survived, Batched: true}
		}
	}
	return nil
}

// schemas writes one schema per file of the tasks left (no run yet), to be
// restored after the batches (written, even with an error): the tasks it
// placed a switch for, in order, and the selection key of those that have
// one (edit.Schema.Cover); each other task gets why it runs alone.
func (l *Lab) schemas(tasks []*task) (placed []*task, written []string, keys map[*task]int, err error) {
	keys = map[*task]int{}
	paths, byPath := byFile(tasks, func(t *task) bool { return t.run == nil })
	for _, p := range paths {
		ts := byPath[p]
		orig, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)))
		if err != nil {
			for _, t := range ts {
				t.why = AloneUnreadable
			}
			continue // these run alone, which reports the problem
		}
		var sms []edit.Mutant
		var svs []int
		// No reached markers in the variants: a batch judges by the tests
		// alone, and a marker in a loop would append to a file on every
		// iteration (100,000 times before a hit limit).
		for _, t := range ts {
			sms = append(sms, t.job.Mutant)
			svs = append(svs, t.n+1)
		}
		sc, err := edit.BuildSchema(p, orig, sms, svs)
		if err != nil {
			for _, t := range ts {
				t.why = AloneNoSchema + ": the file's schema could not be built"
			}
			continue // every mutant of this file runs alone
		}
		if err := l.Files.WriteFile(p, sc.Source); err != nil {
			return nil, written, nil, fmt.Errorf("sandbox: %w", err)
		}
		written = append(written, p)
		for _, t := range ts {
			in := slices.Contains(sc.Placed, t.n+1)
			if in {
				placed = append(placed, t)
				if k, ok := sc.Cover[t.n+1]; ok {
					keys[t] = k
				}
			}
			if a, ok := sc.Alone[t.n+1]; ok {
				t.why = AloneNoSchema + ": " + a
			} else if !in {
				t.why = AloneNoSchema
			}
		}
	}
	slices.SortFunc(placed, func(a, b *task) int { return a.n - b.n })
	return placed, written, keys, nil
}

// batchPlan is one test file's batch: the tasks its variants are.
type batchPlan struct {
	test  string
	tasks []*task
	keys  map[*task]int // their selection keys (schemas)
	// again: a batch of variants that run again (again.go): every test,
	// the hit limit raised (confirmHits), a stop by it final.
	again bool
}

// byFile groups the tasks keep says to keep by the file their mutants
// change: the files, sorted, and each one's tasks in order.
func byFile(tasks []*task, keep func(*task) bool) ([]string, map[string][]*task) {
	byPath := map[string][]*task{}
	var paths []string
	for _, t := range tasks {
		if !keep(t) {
			continue
		}
		p := t.job.Mutant.Path
		if _, ok := byPath[p]; !ok {
			paths = append(paths, p)
		}
		byPath[p] = append(byPath[p], t)
	}
	slices.Sort(paths)
	return paths, byPath
}

// batchRun is one batch as run: its harness, its blocks (the original's
// first and last), each variant's time limit and the run's spec.
type batchRun struct {
	plan    batchPlan
	test    string
	moved   string // where the test file's content is, when the harness took its place
	harness string
	snap    string // the harness's snapshot file ("" when none was written)
	blocks  []*block
	limit   time.Duration
	spec    runner.Spec
}

// batchWave runs the batches of the wave, which share no variant, in one
// vitest run when the runner can (runner.JointRunner), and records the
// outcomes it can trust (kills, and timeouts: a hit limit, vitest's
// time-out, the variant's own time limit), and the variants that passed
// every test of a clean batch. baseline holds each test file's baseline
// time: each variant may take the time-out an isolated run of it would
// have (Lab.Timeout, else DerivedTimeout of its test file's baseline); a
// batch is abandoned only when it stops progressing (its worker died or
// spins) or cannot load. A batch the joint run cannot attribute, or does
// not trust (it timed out, did not load, a baseline of it failed: maybe for
// another batch's leftovers), runs again alone, as every batch did before;
// so the outcomes are those of batches run one by one.
//
// A batch whose run reported no test at all, its harness beside the test
// file, runs again with the harness in the test file's place (inPlace): a
// config whose include lists the test files by path runs no other file.
func (l *Lab) batchWave(ctx context.Context, wave []batchPlan, timeout time.Duration, baseline map[string]time.Duration) error {
	retry, err := l.runWave(ctx, wave, timeout, baseline)
	if err != nil || len(retry) == 0 {
		return err
	}
	_, err = l.runWave(ctx, retry, timeout, baseline)
	return err
}

// runWave is batchWave's one wave: it returns the plans of the batches that
// reported no test with the harness beside the test file (now marked to run
// in its place).
func (l *Lab) runWave(ctx context.Context, wave []batchPlan, timeout time.Duration, baseline map[string]time.Duration) ([]batchPlan, error) {
	var runs []batchRun
	defer func() {
		for _, b := range runs {
			l.Files.Restore(b.harness)
			if b.snap != "" {
				l.Files.Restore(b.snap)
			}
			if b.moved != "" {
				l.Files.Restore(b.moved)
			}
		}
	}()
	for _, plan := range wave {
		b, ok, err := l.writeHarness(plan, timeout, baseline[plan.test])
		if err != nil {
			return nil, err
		}
		if ok {
			runs = append(runs, b)
		}
	}
	var joint map[string]runner.Result
	if jr, ok := l.Runner.(runner.JointRunner); ok && !l.NoJoint && len(runs) > 1 {
		// Past the longest time-out of a batch alone the run goes on while it
		// progresses; a stuck variant ends it as it would end its own batch,
		// which then runs alone (and the others with it).
		spec := runs[0].spec
		var hs []string
		for _, b := range runs[1:] {
			spec.Timeout = max(spec.Timeout, b.spec.Timeout)
			spec.Stall = max(spec.Stall, b.spec.Stall)
		}
		for _, b := range runs {
			hs = append(hs, b.harness)
		}
		var err error
		if joint, err = jr.RunJoint(ctx, spec, hs); err != nil {
			return nil, l.fail(ctx, err)
		}
	}
	var retry []batchPlan
	for _, b := range runs {
		if r, ok := joint[b.harness]; ok {
			if l.batchRead(r, b) {
				continue
			}
			l.refused = l.refused[:len(l.refused)-1] // its run of its own below has the last word
		}
		r, err := l.Runner.Run(ctx, b.spec)
		if err != nil {
			return nil, l.fail(ctx, err)
		}
		if !l.batchRead(r, b) && len(r.Tests) == 0 && !r.TimedOut && b.moved == "" && !l.inPlace[b.test] {
			if l.inPlace == nil {
				l.inPlace = map[string]bool{}
			}
			l.inPlace[b.test] = true
			retry = append(retry, b.plan)
			l.refused = l.refused[:len(l.refused)-1] // the run in its place has the last word
		}
	}
	return retry, nil
}

// writeHarness writes the harness of plan's batch next to its test file
// (base is the file's baseline time); false when the file's name cannot be
// imported by it (its tasks run alone).
func (l *Lab) writeHarness(plan batchPlan, timeout, base time.Duration) (batchRun, bool, error) {
	test := plan.test
	if _, err := jsonString(path.Base(test)); err != nil {
		for _, t := range plan.tasks {
			t.why = AloneHarnessPath
		}
		return batchRun{}, false, nil
	}
	blocks := selectBlocks(plan)
	h, imported, moved := path.Join(path.Dir(test), HarnessPrefix+path.Base(test)), path.Base(test), ""
	if l.inPlace[test] {
		// The harness in the test file's place, the file's content beside it.
		src, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(test)))
		if err != nil {
			return batchRun{}, false, fmt.Errorf("sandbox: %w", err)
		}
		h, imported, moved = test, MovedPrefix+path.Base(test), path.Join(path.Dir(test), MovedPrefix+path.Base(test))
		if err := l.Files.WriteFile(moved, src); err != nil {
			return batchRun{}, false, fmt.Errorf("sandbox: %w", err)
		}
	}
	limit := l.Timeout
	if limit == 0 {
		limit = DerivedTimeout(base)
	}
	hr := batchHits
	if plan.again {
		hr = confirmHits
	}
	if err := l.Files.WriteFile(h, harness(imported, blocks, limit, hr, l.Aside[test])); err != nil {
		if moved != "" {
			l.Files.Restore(moved)
		}
		return batchRun{}, false, fmt.Errorf("sandbox: %w", err)
	}
	snap, err := l.harnessSnapshots(test, h, blocks)
	if err != nil {
		l.Files.Restore(h)
		if moved != "" {
			l.Files.Restore(moved)
		}
		return batchRun{}, false, fmt.Errorf("sandbox: %w", err)
	}
	// The batch may take as long as every variant's run after start-up, and
	// longer while it progresses: a variant (a test and its hooks) ends
	// within its limit, or its worker is stuck.
	spec := l.spec(l.Root, h, timeout+time.Duration(len(blocks))*base, "")
	spec.Stall, spec.Once = 3*limit+5*time.Second, true
	return batchRun{plan: plan, test: test, harness: h, moved: moved, snap: snap, blocks: blocks, limit: limit, spec: spec}, true, nil
}

// batchRead records what the batch run r of b establishes, as batchWave
// says; false (and nothing recorded) when the batch cannot be trusted
// (batchTrusted). Each task left undecided gets why it runs alone.
func (l *Lab) batchRead(r runner.Result, b batchRun) bool {
	preloaded, overlapped := readBlocks(r, b.blocks)
	first, last := b.blocks[0], b.blocks[len(b.blocks)-1]
	if overlapped || !batchTrusted(r, first.heard.tests, last.heard.tests) {
		w := untrustedWhy(r, first.heard.tests, last.heard.tests)
		if overlapped {
			w = AloneOverlap
		}
		l.refused = append(l.refused, Refusal{Test: b.test, Why: w, Detail: refusalDetail(w, r, first.heard.tests, last.heard.tests)})
		for _, bl := range b.blocks {
			switch {
			case bl.task != nil && b.plan.again && bl.task.hit != "":
				bl.task.why = AloneHitLimit // no count confirmed it: alone, under the clock
			case bl.task != nil:
				bl.task.why = w
			}
		}
		return false // nothing is trusted: each mutant runs alone
	}
	for _, bl := range b.blocks {
		t := bl.task
		if t == nil {
			continue // a baseline
		}
		if bl.heard.selected && !selectionGreen(b.blocks, bl) || !bl.heard.selected && bl.key > 0 && !bl.heard.slow && !ranEvery(first.heard.tests, bl.heard.tests) {
			t.why = AloneSelection // its selection's kills and passes are not trusted
			continue
		}
		switch {
		case bl.heard.hit && b.plan.again:
			t.run = &Run{Test: b.test, Mutant: &t.job.Mutant, Batched: true, Outcome: Timeout, HitLimit: true, Detail: hitAgainDetail(t.hit, bl.heard), Duration: b.took(r, bl)}
			continue
		case bl.heard.hit:
			// A suspicion: it runs again with the limit raised (again.go),
			// or, where that batch decides nothing, alone without the counter.
			t.hit, t.suspect = bl.heard.limit, true
		case b.plan.again && t.hit != "":
			t.finished, t.hit = t.hit, "" // it finished under the raised limit: no loop
		}
		o, detail, by := variantOutcome(bl.heard.variant, b.limit)
		if o == Killed && bl.heard.concurrent && !bl.heard.ran[by] {
			t.why = AloneConcurrentKill // alone, the kill is repeated and checked on the original (loadkill.go)
			continue
		}
		if by != "" && bl.heard.selected && !keptBefore(first.heard.tests, bl.heard.tests, by) {
			t.whole, t.why = true, AloneSelectionKill // confirmed on the whole file (again.go)
			continue
		}
		if o == "" {
			t.why = undecidedWhy(bl.heard.variant, preloaded)
			if green(bl.heard.tests) && !preloaded && !bl.heard.hit {
				t.passed++ // (a variant that caught the hit limit's error may loop without the counter)
			}
			continue // not a clean kill: run alone (unless it passes everywhere under coverage)
		}
		t.run = &Run{Test: b.test, Mutant: &t.job.Mutant, Batched: true, Duration: b.took(r, bl), Outcome: o, Detail: detail, KilledBy: by}
	}
	return true
}

// took is the time of block bl in b's run r: as the harness timed it, else
// the run's share.
func (b batchRun) took(r runner.Result, bl *block) time.Duration {
	if bl.heard.timed {
		return bl.heard.took
	}
	return r.Duration / time.Duration(len(b.blocks))
}

// readBlocks sets in each of blocks (a batch's, in order) what the run r
// reported for it, afresh: the report's tests by the block's title (their
// names within the block), and the harness's notes by the block they name.
// preloaded: a schema was loaded before the harness (by a setup file), or
// a variant changed the realm's globals: a variant that passes may pass
// only because that instance's load-time code is the original's, or
// because an earlier variant left the global it would have set.
// overlapped: a block started while another ran (overlapNote).
func readBlocks(r runner.Result, blocks []*block) (preloaded, overlapped bool) {
	byTitle := map[string]*block{}
	for _, bl := range blocks {
		bl.heard = heard{variant: variant{ran: map[string]bool{}}}
		byTitle[bl.title()] = bl
	}
	for _, t := range r.Tests {
		title, name, found := strings.Cut(t.Name, " ")
		if bl, ok := byTitle[title]; found && ok {
			t.Name = name
			bl.heard.tests = append(bl.heard.tests, t)
		}
	}
	// at is the block a note names by its number (nil: none).
	at := func(s string) *block {
		var i int
		if _, err := fmt.Sscan(s, &i); err != nil || i < 0 || i >= len(blocks) {
			return nil
		}
		return blocks[i]
	}
	for _, m := range r.Markers {
		switch {
		case m == preloadNote, m == globalsNote:
			preloaded = true
		case m == overlapNote:
			overlapped = true
		case strings.HasPrefix(m, concNote):
			if bl := at(strings.TrimPrefix(m, concNote)); bl != nil {
				bl.heard.concurrent = true
			}
		case strings.HasPrefix(m, ranAllNote):
			if bl := at(strings.TrimPrefix(m, ranAllNote)); bl != nil {
				bl.heard.ranAll = true
			}
		case strings.HasPrefix(m, selNote):
			if idx, base, ok := strings.Cut(strings.TrimPrefix(m, selNote), "-"); ok {
				var j int
				if bl := at(idx); bl != nil {
					if _, err := fmt.Sscan(base, &j); err == nil {
						bl.heard.selected, bl.heard.sel = true, at(base)
					}
				}
			}
		case strings.HasPrefix(m, ranNote):
			idx, name, ok := strings.Cut(strings.TrimPrefix(m, ranNote), "\t")
			var full string
			if bl := at(idx); ok && bl != nil && json.Unmarshal([]byte(name), &full) == nil {
				bl.heard.ran[strings.TrimPrefix(full, bl.title()+" ")] = true
			}
		case strings.HasPrefix(m, limitNote):
			if idx, lim, ok := strings.Cut(strings.TrimPrefix(m, limitNote), "-"); ok {
				if bl := at(idx); bl != nil {
					bl.heard.hit = true
					bl.heard.limit, bl.heard.most, _ = strings.Cut(lim, "-")
				}
			}
		case strings.HasPrefix(m, noLoadNote):
			if bl := at(strings.TrimPrefix(m, noLoadNote)); bl != nil {
				bl.heard.tests = nil // what it registered before its load threw (read above)
			}
		case strings.HasPrefix(m, slowNote):
			if bl := at(strings.TrimPrefix(m, slowNote)); bl != nil {
				bl.heard.slow = true
			}
		case strings.HasPrefix(m, timeNote):
			if idx, ms, ok := strings.Cut(strings.TrimPrefix(m, timeNote), "-"); ok {
				var d int64
				if bl := at(idx); bl != nil {
					if _, err := fmt.Sscan(ms, &d); err == nil {
						bl.heard.took, bl.heard.timed = time.Duration(d)*time.Millisecond, true
					}
				}
			}
		}
	}
	return preloaded, overlapped
}

// snapshotPath is where vitest keeps the file snapshots of test file test
// (its default resolveSnapshotPath: __snapshots__/<name>.snap beside it).
func snapshotPath(test string) string {
	return path.Join(path.Dir(test), "__snapshots__", path.Base(test)+".snap")
}

// harnessSnapshots writes the file snapshots of test (toMatchSnapshot's)
// for its batch harness h: each of test's entries once per block of blocks,
// under the variant's name (its describe title before the test's full
// name, as vitest keys the snapshots of the harness). Without them every
// toMatchSnapshot of the batch is a new snapshot, written and passed, and
// a variant that only a snapshot kills passes its batch (vercel/ai's
// stream-text.test.ts: 21 snapshots; the mutants they kill alone passed
// every batch). It returns the file written, "" when test has none.
func (l *Lab) harnessSnapshots(test, h string, blocks []*block) (string, error) {
	orig, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(snapshotPath(test))))
	if err != nil {
		return "", nil // no snapshot file: new snapshots alone as in the batch
	}
	const entry = "\nexports[`"
	head, _, _ := strings.Cut(string(orig), entry)
	body := strings.TrimPrefix(string(orig), head)
	var b strings.Builder
	b.WriteString(head)
	for _, bl := range blocks {
		b.WriteString(strings.ReplaceAll(body, entry, entry+bl.title()+" > "))
	}
	snap := snapshotPath(h)
	return snap, l.Files.WriteFile(snap, []byte(b.String()))
}

// harnessSelect writes the per-test selection (select.go): the opening
// baseline (block 0) records which tests reached which statement keys
// (edit.Schema.Cover, in hits.cov); a selection's baseline (the first block
// of the original with a key) runs the original on the tests up to the
// first that reached its key and the later ones that reached it, and when
// they pass, each variant of that key runs only those tests (selNote);
// otherwise, or when the key was reached outside a test
// (at load, in a beforeAll hook, by a concurrent test), every test. The
// key's second block of the original (its closing one) runs the selection
// its variants ran again, or nothing.
func harnessSelect(b *strings.Builder) {
	fmt.Fprintf(b, `// The keys each test reached in the opening baseline (by its name within
// its block), and those reached outside a test.
const cov = new Map();
const covOut = new Set();
let covOk = false;
hits.cov = new Set();
// key → the selection its variants run and the block whose baseline of
// it passed; a selection (its names) → that block.
const chosen = new Map();
const greens = new Map();
let pending = null;
function keyOf(t) {
  const n = [];
  for (let x = t; x && typeof x === "object" && x !== x.file && !("filepath" in x); x = x.suite) n.unshift(String(x.name));
  return n.slice(1).join(" > ");
}
function covered(into) {
  if (!hits.cov) return;
  for (const x of hits.cov) into.add(x);
  hits.cov.clear();
}
function testCov(t) {
  const k = keyOf(t);
  let s = cov.get(k);
  if (!s) cov.set(k, (s = new Set()));
  return s;
}
function opened(ok) {
  covered(covOut);
  hits.cov = null;
  covOk = ok;
}
const keyed = new Set(); // the keys whose selection's baseline ran
const variants = new Map(); // key → how many variants have it
function selection(i, v, k) {
  if (v !== 0) {
    const c = chosen.get(k);
    if (!c) return null;
    note(%q, %q + i + "-" + c.base);
    return c.tests;
  }
  pending = null;
  if (keyed.has(k)) return chosen.get(k)?.tests ?? new Set();
  keyed.add(k);
  if (!covOk || covOut.has(k)) return new Set();
  // Every test up to the first that reached the key, then the others that
  // reached it: a test left out before the first changes no state the
  // variant's first reaching test sees (a kill there is the whole file's);
  // a kill by a later one, after tests left out, is confirmed on the whole
  // file (keptBefore).
  const all = [...cov.keys()];
  const first = all.findIndex((n) => cov.get(n).has(k));
  if (first < 0) return new Set();
  const names = all.filter((n, j) => j <= first || cov.get(n).has(k));
  // Only where it saves runs: the selection's two baselines and its m
  // variants against m variants of every test.
  const m = variants.get(k) ?? 0;
  if (names.length * (m + 2) >= m * cov.size) return new Set();
  const tests = new Set(names);
  const sig = names.join("\n");
  if (greens.has(sig)) {
    chosen.set(k, { tests, base: greens.get(sig) });
    return new Set();
  }
  pending = { sig, tests };
  return tests;
}
function selected(i, k, ok) {
  if (pending && ok) {
    greens.set(pending.sig, i);
    chosen.set(k, { tests: pending.tests, base: i });
  }
  pending = null;
}
`, runner.ReachedEnv, selNote)
}

// SchemaBytes bounds the source a file's schema holds in one batch: each
// variant is a copy of its function's body, so the mutants of a 1500-line
// function (12,000 of them) would make a schema of most of a gigabyte,
// quadratic in the change (issue 42). A file whose mutants would pass it
// has them in several schemas, one after the other, each its own batches.
var SchemaBytes int64 = 16 << 20

// schemaGroups splits tasks (in order) into groups whose schemas stay under
// SchemaBytes: a file of size s holds at most SchemaBytes/s variants (at
// least one) in a group; group k has each file's k-th such slice. One group
// (tasks itself) when every file's variants fit.
func schemaGroups(root string, tasks []*task) [][]*task {
	per, seen := map[string]int{}, map[string]int{}
	groups := [][]*task{nil}
	for _, t := range tasks {
		p := t.job.Mutant.Path
		if _, ok := per[p]; !ok {
			per[p] = 1 << 30
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err == nil && fi.Size() > 0 {
				per[p] = int(max(1, SchemaBytes/fi.Size()))
			}
		}
		k := seen[p] / per[p]
		seen[p]++
		for len(groups) <= k {
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], t)
	}
	return groups
}
