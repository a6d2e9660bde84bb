// The batch harness (mutate/lab/batch.go): the body of the test file oracle
// writes next to a test file for a batched run. It runs, in one vitest run,
// a describe block per block of the batch (a baseline of the original code,
// or a variant: a mutant behind its schema switch), each importing the test
// file afresh under its switch, so the test file's own tests and hooks run
// once per block.
//
// The file oracle writes is a header of data followed by this body (embedded
// in the oracle binary, never edited per batch):
//
//   - CONFIG: the batch (its blocks [{n, v, key, title}], each variant's time
//     limit in ms, the hit rule, the tests set aside), the names it shares
//     with oracle (the globals of the schema's switch and hit counter, the
//     environment variables of the reached and progress files) and the
//     kinds of the notes the batch reads;
//   - importTest: the test file's import, a literal specifier (the same each
//     time, no ?query): vite resolves and transforms it once, and each block
//     evaluates it afresh after vi.resetModules.
//
// The notes (what oracle reads of the run, readBlocks in batch.go) are one
// JSON object a line, {"kind": ..., "block": ..., ...}, appended to the file
// named by $ORACLE_REACHED after the harness file's path and a tab (the file
// vitest's worker runs: a joint run of several harnesses tells whose note it
// is). $ORACLE_PROGRESS only grows as the blocks go (the runner's stall
// watch).

/* global CONFIG, importTest */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, vi } from "vitest";

const G = CONFIG.globals;
const N = CONFIG.notes;

// The realm's globals as the harness starts (setup files have run): a
// variant's load or tests that add a global or replace one's value leave it
// to the variants after it (a module that builds a table once per realm,
// kept in globalThis, builds it once per batch), so a variant passing in
// that batch may pass only because an earlier one set the global (the
// globals note), and the batch's survivors are not trusted (a global added
// with the value undefined is no state). Accessors are compared by their
// functions (Node replaces some lazy globals by data properties on first
// use: not a change).
const OWN = new Set([G.hits, G.schemaSwitch, G.schemaLoads]);
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
      note(N.globals);
      return;
    }
  }
}

// The harness's state and helpers: the variant's time limit, the hit
// counter, how it notes what the batch reads, and how a test's full name is
// read.
const LIMIT = CONFIG.limit;
// A variant's hit limit: FACTOR times the most hits a test (or the load) of
// the original counted, at least FLOOR.
const FLOOR = CONFIG.hitFloor;
const FACTOR = CONFIG.hitFactor;
const hits = { n: 0, limit: Infinity, hit: false, most: 0 };
Reflect.set(globalThis, G.hits, hits);
const proc = Reflect.get(globalThis, "process");
const fs = proc?.getBuiltinModule?.("node:fs");
const worker = Reflect.get(globalThis, "__vitest_worker__");
const self = worker?.filepath ?? "?";
// note appends a note of kind to the reached file: one JSON object, its
// kind then fields, after the harness file's path and a tab.
function note(kind, fields) {
  try {
    const f = proc?.env?.[CONFIG.env.reached];
    if (f) fs?.appendFileSync(f, self + "\t" + JSON.stringify({ kind, ...fields }) + "\n");
  } catch {}
}
// A progress line (the runner's stall watch reads only that the file
// grows) is written at most every 100 ms: one per test cost a file append
// per test of every variant.
let progressed = 0;
function progress(step, i) {
  try {
    const now = performance.now();
    if (now - progressed < 100) return;
    progressed = now;
    const f = proc?.env?.[CONFIG.env.progress];
    if (f) fs?.appendFileSync(f, JSON.stringify({ step, block: i }) + "\n");
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
// The variants whose code ran while the file loaded (the ranall note).
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
if (Reflect.get(globalThis, G.schemaLoads)) note(N.preloaded);
Reflect.deleteProperty(globalThis, G.schemaLoads);

// The tests set aside (aside.go): every block leaves them out.
const ASIDE = new Set(CONFIG.aside);
// A test's name within its block: its full name after the block's title.
const aside = (t) => ASIDE.size > 0 && ASIDE.has(nameOf(t).slice(nameOf(t).indexOf(" ") + 1));

// The per-test selection (select.go): the opening baseline (block 0)
// records which tests reached which statement keys (the schema's Cover, in
// hits.cov); a selection's baseline (the first block of the original with a
// key) runs the original on the tests up to the first that reached its key
// and the later ones that reached it, and when they pass, each variant of
// that key runs only those tests (the sel note); otherwise, or when the key
// was reached outside a test (at load, in a beforeAll hook, by a concurrent
// test), every test. The key's second block of the original (its closing
// one) runs the selection its variants ran again, or nothing.
//
// The keys each test reached in the opening baseline (by its name within
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
    note(N.sel, { block: i, base: c.base });
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

// collected and registryOf: each block runs its tests on the module
// registry its own load left. vitest collects every block (each load a
// fresh import of the test file after vi.resetModules) before any test
// runs, so a test that imports a module at run time (`await
// import("../repo")` in a beforeEach, a generated oracle's way) would get
// the instance the last block loaded, not the one its own test file and
// fixture hold: a fixture that imports the database statically migrated
// one instance, the code under test wrote to another ("no such table"),
// and the batch's baseline failed where the file alone passes. The
// registry's entries (vitest 4 and 5: evaluatedModules; vitest 2 and 3:
// moduleCache) are noted as each block's collection ends, and set back as
// its tests start; an entry loaded since is reset, as vi.resetModules
// resets it. vitest's own modules are left alone, as vi.resetModules leaves
// them. A registry of another shape: nothing is done.
const OWN_MODULES = [/\/vitest\/dist\//, /\/vite-node\/dist\//, /vitest-virtual-\w+\/dist/, /@vitest\/dist/];
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

// load imports the test file, and so every module it loads afresh, under
// variant v, as a run of the mutant alone would: code that runs while a
// module loads (a table built at the top level), or while vitest collects
// the file's describe bodies after it, is the variant's too, under
// the hit limit derived from the original's load. A variant that fails to
// load has no test: it runs alone, where that failure is judged.
async function load(i, v, importIt, block) {
  Reflect.set(globalThis, G.schemaSwitch, v);
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
    note(N.noLoad, { block: i }); // the suites it registered before the throw are not the file's
  } finally {
    if (hits.ran && v !== 0) loadRan.add(i);
    hits.ran = false;
    lastLoad = v !== 0 ? i : -1;
    globalsMoved();
    if (v === 0) loadMost = Math.max(loadMost, hits.n);
    if (hits.hit) note(N.limit, { block: i, limit: hits.limit, most: loadMost });
    // The switch stays set: vitest runs the test file's describe bodies
    // after the import returns, and code there (an app built with its
    // middleware) is the variant's too; the next variant's load sets its
    // own, and the last one loaded is the original's (0).
    Reflect.deleteProperty(globalThis, G.schemaLoads);
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
// not read (the noload note): it runs alone, as one that throws at import.
// (A suite collector's tasks and collect are vitest's own, from vitest 1 to
// 5; without them, nothing.)
function guard(block, i) {
  for (const c of Array.isArray(block?.tasks) ? block.tasks : []) {
    if (c?.type !== "collector" || typeof c.collect !== "function") continue;
    const collect = c.collect;
    c.collect = async (file) => {
      try {
        return await collect.call(c, file);
      } catch (e) {
        // vitest 3 and later keep the collector's suite on it; vitest 2 does
        // not (its collect returns it): a skipped suite of the same shape,
        // which runs no hook (rou3 on vitest 2.1: the batch did not load).
        const s = c.suite ?? (typeof c.name === "string" ? { id: "", type: "suite", name: c.name, mode: "skip", file, tasks: [], meta: Object.create(null) } : null);
        if (!s || typeof s !== "object") throw e;
        note(N.noLoad, { block: i });
        s.tasks = [];
        s.mode = "skip";
        return s;
      }
    };
  }
}

// The tests a variant does not run are taken out of its block before they
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

// variant: the hooks that set a variant's switch, count its hits, cap its
// time and note what it ran.
// forgetInlineSnapshots: each block starts with no inline snapshot taken,
// as a run of the test file alone starts. vitest's snapshot state notes
// where each toMatchInlineSnapshot ran, per file, and vitest 2 refuses a
// second call at a place ("cannot be called multiple times at the same
// location"; later vitests one with another value): every block after the
// first, the closing baseline with them, failed there, and the batch was
// not used (unjs/rou3, vitest 2.1: every mutant ran alone).
function forgetInlineSnapshots() {
  const stacks = expect.getState?.()?.snapshotState?._inlineSnapshotStacks;
  if (Array.isArray(stacks)) stacks.length = 0;
}

function variant(i, v, k) {
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
    if (!ranAll && v !== 0) note(N.ranAll, { block: i });
    ranAll = true;
  };
  progress("collect", i);
  collected(i);
  if (v !== 0 && k > 0) variants.set(k, (variants.get(k) ?? 0) + 1);
  beforeAll(function () {
    if (running !== -1) note(N.overlap);
    running = i;
    own = [...arguments].find(isSuite) ?? null;
    restoreProcess();
    registryOf(i);
    forgetInlineSnapshots();
    Reflect.set(globalThis, G.schemaSwitch, v);
    hits.limit = v === 0 ? Infinity : Math.max(FLOOR, FACTOR * hits.most);
    hits.hit = false;
    hits.n = 0;
    start = performance.now();
    if (loadRan.has(i)) ranOutside();
    hits.ran = false;
    if (i === 0) covered(covOut);
    sel = k > 0 ? selection(i, v, k) : null;
    if ((sel !== null || ASIDE.size > 0) && own) select(own, (t) => !aside(t) && (sel === null || sel.has(keyOf(t))));
    progress("start", i);
  });
  afterAll(() => {
    running = -1;
    Reflect.deleteProperty(globalThis, G.schemaSwitch);
    Reflect.deleteProperty(globalThis, G.schemaLoads); // a module its tests loaded
    globalsMoved();
    if (hits.hit) note(N.limit, { block: i, limit: hits.limit, most: hits.most });
    note(N.time, { block: i, ms: Math.round(performance.now() - start) });
    if (i === 0) opened(!failed);
    if (v === 0 && k > 0) selected(i, k, !failed);
    hits.limit = Infinity;
    progress("done", i);
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
      note(N.slow, { block: i });
      bail(own);
    }
    if (i === 0) covered(covOut);
    if (failed && typeof ctx.skip === "function") ctx.skip();
    if (sel !== null && !sel.has(keyOf(ctx.task)) && typeof ctx.skip === "function") ctx.skip();
    if (aside(ctx.task) && typeof ctx.skip === "function") ctx.skip();
    progress("test", i);
  });
  afterEach((ctx) => {
    // A concurrent test shares the flag with the tests running beside it:
    // what it saw counts for every test.
    if (hits.ran && ctx?.task?.concurrent) {
      ranOutside();
      if (v !== 0) note(N.conc, { block: i });
    }
    if (v !== 0 && hits.ran && !ranAll) note(N.ran, { block: i, test: nameOf(ctx?.task) });
    if (i === 0) covered(ctx?.task?.concurrent ? covOut : testCov(ctx?.task));
    hits.ran = false;
    if (v === 0) hits.most = Math.max(hits.most, hits.n);
    progress("tested", i);
  });
  vi.setConfig({ testTimeout: cap(config?.testTimeout), hookTimeout: cap(config?.hookTimeout) });
  vi.resetModules();
}

// A describe block per block of the batch, in order. Once a test of a
// variant failed, its later tests are skipped (the variant is killed or
// sent alone either way), as StrykerJS bails. The block's suite collector
// (what suite returns) is load's: it guards the describe bodies the test
// file registers in it.
for (const { n, v, key, title } of CONFIG.blocks) {
  const block = suite(title, async () => {
    variant(n, v, key);
    await load(n, v, importTest, block);
    vi.resetConfig();
  });
}
