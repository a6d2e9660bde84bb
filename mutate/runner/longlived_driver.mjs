// Long-lived vitest driver used by oracle's LongLivedRunner (longlived.go). One process keeps
// one Vitest instance (createVitest + standalone) for a package dir and config, and runs one
// test file per request, so repeated runs (a baseline and its mutants) skip vitest's start-up.
//
//   node longlived_driver.mjs <vitest package dir> <config path or ""> <report path> <phases reporter>
//
// Requests: one JSON object per line on stdin: {"id": n, "file": "/abs/test.ts", "sentinel": "..."},
// or {"id": n, "files": ["/abs/a.test.ts", ...], "sentinel": "..."} for a joint run (runJoint).
// Responses: one JSON object per line on fd 3 (stdout and stderr stay vitest's own output):
//   {"type":"ready","version":..}            after start-up
//   {"type":"fatal","unsupported":bool,"error":..}  start-up failed (then the process exits)
//   {"id":n,"type":"done","exit":code,"invalidated":k,"ms":t,"refused":[files left out of a joint run]}
//   {"id":n,"type":"nomatch"}                no test file matched the filter (vitest run would exit 1)
//   {"id":n,"type":"stale","error":..}       the config or a file it imports changed: restart me
//   {"id":n,"type":"error","error":..}       the run threw: the caller falls back to a fresh process
//   {"id":n,"type":"unsupported","error":..} this file cannot run here (nothing ran): a fresh process runs it
// Before every "done"/"nomatch" the sentinel is written to stdout, after everything the run
// printed (pipes are synchronous on Linux), so the caller knows the run's output is complete.
//
// Freshness: before each run every file in the vite module graphs is hashed and the changed
// ones are invalidated (vitest.invalidateFile), so a mutant written between runs is
// re-transformed, and so is the restored original. Workers are fresh per run (vitest 4+ stops
// a pool runner when its queue is empty; vitest 3 recycles its workers after each run, under
// isolate: false too, but for its vm pools, which a run that used one closes: closeVMPool),
// so the module registry, vi.mock hoisting and globalThis start from scratch as in a fresh
// `vitest run`. vitest 3 calls standalone() init().
//
// vitest 2 (2.1 and later; 2.0's specifications were bare tuples) is served through the API it
// has, what its own `vitest run <file>` and watch mode do: init() once, then per run
// globTestSpecs(filters) + filterTestsBySource (start()'s selection), runFiles(specs, true); a
// changed file is invalidated in each vite server's one module graph (vite 5 has no
// environments: vitest.server's and every project's, what vitest 2's watch mode does in
// updateLastChanged), after which vite-node re-transforms it (its fetch cache compares the
// module's lastInvalidationTimestamp). Its forks and threads pools give every file a fresh
// worker (isolate), or recycle the workers after each group (isolate: false) or before it
// (singleFork/singleThread); its vmForks pool keeps its workers across runs, so a run that
// used it closes the pool (the next run makes a new one, as a fresh process would). Its
// vmThreads pool is refused: its worker threads, in the driver's own process, crash it
// (node segfaults within a few runs on Node 20, with or without the pool closed after each).
import { createHash } from "node:crypto";
import { readFileSync, realpathSync, writeSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [vitestDir, config, reportPath, phasesReporter] = process.argv.slice(2);

function reply(obj) {
  writeSync(3, JSON.stringify(obj) + "\n");
}

function msg(e) {
  return String((e && (e.stack || e.message)) || e);
}

function fatal(unsupported, error) {
  reply({ type: "fatal", unsupported, error });
  process.exit(0);
}

function pickExport(e) {
  if (typeof e === "string") return e;
  if (!e || typeof e !== "object") return "";
  for (const k of ["import", "node", "default"]) if (e[k]) return pickExport(e[k]);
  return "";
}

// What `vitest run` does before createVitest (prepareVitest).
process.env.TEST = "true";
process.env.VITEST = "true";
process.env.NODE_ENV ??= "test";

let api;
let vitestMajor = 0;
try {
  const pkg = JSON.parse(readFileSync(join(vitestDir, "package.json"), "utf8"));
  const [major, minor] = String(pkg.version).split(".").map(Number);
  // vitest 2.0's specifications are tuples ([project, file, {pool}]), not TestSpecification.
  if (!(major >= 3 || (major === 2 && minor >= 1))) fatal(true, `vitest ${pkg.version}: the long-lived runner needs vitest >= 2.1`);
  vitestMajor = major;
  const rel = pickExport(pkg.exports?.["./node"]) || "./dist/node.js";
  api = await import(pathToFileURL(join(vitestDir, rel)).href);
} catch (e) {
  fatal(true, "cannot load vitest/node: " + msg(e));
}
if (typeof api.createVitest !== "function") fatal(true, "vitest/node has no createVitest");

let vitest;
try {
  const options = {
    run: true,
    watch: false,
    reporters: ["json", phasesReporter],
    outputFile: reportPath,
    cache: false, // as --no-cache: the results cache lives in node_modules/.vite
  };
  if (config) options.config = config;
  vitest = await api.createVitest("test", options, {});
} catch (e) {
  fatal(false, "createVitest: " + msg(e));
}

// vitest 2 has one module graph per vite server (vite 5), no vite environments, and the
// older names of the same steps (v2).
const v2 = vitestMajor === 2;
// vitest 2 and 3 call standalone() init().
if (typeof vitest.standalone !== "function" && typeof vitest.init === "function") vitest.standalone = vitest.init.bind(vitest);
const needs = v2 ? ["standalone", "globTestSpecs", "filterTestsBySource", "runFiles"] : ["standalone", "getRelevantTestSpecifications", "runTestSpecifications", "invalidateFile"];
for (const m of needs) {
  if (typeof vitest[m] !== "function") fatal(true, `this vitest has no Vitest.${m}()`);
}
if (v2) {
  if (!vitest.server?.moduleGraph || !Array.isArray(vitest.projects) || vitest.projects.some((p) => !p?.server?.moduleGraph)) {
    fatal(true, "this vitest exposes no vite module graph per project");
  }
} else if (!Array.isArray(vitest.projects) || vitest.projects.some((p) => !p?.vite?.environments)) {
  fatal(true, "this vitest exposes no vite environments per project");
}

// The vite servers: the root one and each project's (vitest 2 calls them server, later vite).
function servers() {
  return v2 ? [vitest.server, ...vitest.projects.map((p) => p.server)] : [vitest.vite, ...vitest.projects.map((p) => p.vite)];
}

// projectOf: the project (an entry of vitest.projects) spec s belongs to. vitest 2's
// specification holds the TestProject that wraps its WorkspaceProject.
function projectOf(s) {
  return v2 ? s.project?.workspaceProject : s.project;
}

// The pools a run may use: a project's is checked at start-up, and under vitest 2 a file's
// too (poolMatchGlobs picks one per file). Not vmThreads under vitest 2 (see above).
const pools = v2 ? ["forks", "threads", "vmForks"] : ["forks", "threads", "vmForks", "vmThreads"];
// Whatever lives across runs in the main process would make a run differ from a fresh
// `vitest run`: refuse it (the caller then uses one process per run). Type tests (a project
// in typecheck mode: its *.test-d.ts files, which vitest hands to tsc, pool "typescript")
// refuse only the runs that select one of them: the caller runs those in a fresh process,
// and the others here. A project with typecheck enabled beside its runtime tests (vercel/ai's:
// typecheck: { enabled: true } in the one config) keeps its runtime files here: their
// specifications run in the project's own pool, as in a fresh `vitest run` of the file.
const typecheck = new Map(); // project -> why its type tests cannot run here
const typecheckOnly = new Set(); // projects whose every file is a type test (typecheck.only)
// A project in browser mode (a real browser, through playwright or webdriverio) runs in no
// worker of this process, and standalone() would open its browser: it is left out here, and
// every file it would run is refused (a fresh `vitest run` of the file runs it, in each of its
// projects, as the user's run does). The other projects stay: a workspace whose root config
// has one browser project beside its node and jsdom ones (vuejs/core, vueuse) keeps its joint
// runs and long-lived runs for them.
const browser = [];
for (const p of vitest.projects) {
  const c = p.config || {};
  const pname = typeof p.getName === "function" ? p.getName() : p.name;
  const name = pname ? `project ${pname}: ` : "";
  const gs = c.globalSetup;
  if (gs && (!Array.isArray(gs) || gs.length)) fatal(true, name + "globalSetup runs once per vitest process");
  if (c.browser?.enabled) {
    if (typeof p.matchesTestGlob !== "function") fatal(true, name + "browser mode");
    browser.push(p);
    continue;
  }
  if (c.typecheck?.enabled) {
    typecheck.set(p, name + "typecheck mode");
    if (c.typecheck.only) {
      typecheckOnly.add(p);
      continue;
    }
  }
  if (!pools.includes(c.pool)) fatal(true, `${name}pool ${c.pool}${v2 && c.pool === "vmThreads" ? " under vitest 2 (its worker threads crash a long-lived node)" : ""}`);
}

if (browser.length) {
  const names = browser.map((p) => p.name || "(unnamed)").join(", ");
  if (browser.length === vitest.projects.length) fatal(true, `browser mode (${names})`);
  try {
    vitest.projects = vitest.projects.filter((p) => !browser.includes(p));
  } catch (e) {
    fatal(true, `browser mode (${names}): ${msg(e)}`);
  }
  if (vitest.projects.some((p) => browser.includes(p))) fatal(true, `browser mode (${names})`);
}

// inBrowser: test file f (absolute) is one a browser-mode project runs.
function inBrowser(f) {
  return browser.some((p) => {
    try {
      return p.matchesTestGlob(f) || p.matchesTestGlob(realpathSync(f));
    } catch {
      return true;
    }
  });
}

// typeTest: spec s runs in tsc (a type test), or may (a vitest that does not say its pool).
function typeTest(s) {
  const p = projectOf(s);
  if (!typecheck.has(p)) return false;
  return typecheckOnly.has(p) || typeof s.pool !== "string" || s.pool === "typescript" || s.pool === "typecheck";
}


try {
  await vitest.standalone();
} catch (e) {
  fatal(false, "standalone: " + msg(e));
}

function hash(file) {
  try {
    return createHash("sha1").update(readFileSync(file)).digest("hex");
  } catch {
    return "-"; // missing or unreadable: a change when it was there before
  }
}

// environments: whatever holds a module graph (env.moduleGraph): vite's environments, or
// under vitest 2 the servers themselves.
function environments() {
  const out = new Set();
  for (const server of servers()) {
    if (v2) {
      if (server?.moduleGraph) out.add(server);
      continue;
    }
    for (const env of Object.values(server?.environments || {})) if (env?.moduleGraph) out.add(env);
  }
  return out;
}

// invalidateFile: vitest.invalidateFile, or under vitest 2 what its watch mode does
// (updateLastChanged) in every server's graph, the root server's too.
function invalidateFile(f) {
  if (!v2) return vitest.invalidateFile(f);
  for (const server of environments()) {
    const g = server.moduleGraph;
    for (const m of g.getModulesByFile(f) || []) g.invalidateModule(m);
  }
}

function graphFiles() {
  const files = new Set();
  for (const env of environments()) {
    const g = env.moduleGraph;
    if (g.fileToModulesMap) for (const f of g.fileToModulesMap.keys()) files.add(f);
    else for (const m of g.idToModuleMap?.values() || []) if (m.file) files.add(m.file);
  }
  return files;
}

// The config file and everything it imports: a change needs a new process.
// (vitest 2 and 3 read a workspace file too, vitest.workspace.ts, through their own runner.)
const configDeps = new Map();
for (const server of servers()) {
  const c = server?.config;
  for (const f of [c?.configFile, ...(c?.configFileDependencies || [])]) {
    if (f && !configDeps.has(f)) configDeps.set(f, hash(f));
  }
}
if (typeof vitest._workspaceConfigPath === "string" && !configDeps.has(vitest._workspaceConfigPath)) {
  configDeps.set(vitest._workspaceConfigPath, hash(vitest._workspaceConfigPath));
}

const hashes = new Map(); // file -> content hash of the version the module graph holds

function invalidateChanged() {
  let n = 0;
  for (const f of graphFiles()) {
    const h = hash(f);
    const old = hashes.get(f);
    if (old === h) continue;
    // A file the graph holds but this map does not (loaded outside a run): invalidate it too.
    invalidateFile(f);
    n++;
    hashes.set(f, h);
  }
  return n;
}

// After a run: record the files the run added to the graph (read as they are now, which is
// what the run transformed: nothing writes sources during a run).
function recordNew() {
  for (const f of graphFiles()) if (!hashes.has(f)) hashes.set(f, hash(f));
}

// A joint run ({"files": [...]}) runs several test files as separate fresh runs would, but
// in one worker: the pool shares its workers between the files (project.config.isolate =
// false for the pool), while each worker resets its module registry and mocks before every
// file (the serialized config's isolate = true, vitest's own per-file reset in the worker).
// A fork per file (vitest's isolation) costs as much as a run per file; sharing modules
// between files (a config's own isolate: false) would run a module's top level once for
// all of them. Globals are shared: the caller re-runs alone every file that does not pass.
function jointRefusal(specs) {
  // Checked under vitest 4 and 5 only (vitest 3.1 has no configOverride; 3.2's pools were
  // not): under vitest 2 and 3 each file runs alone, in this process.
  if (vitestMajor < 4) return `vitest ${vitestMajor}: joint runs need vitest >= 4`;
  if (!vitest.configOverride || typeof vitest.configOverride !== "object") return "this vitest has no configOverride";
  for (const s of specs) {
    const pool = s.project?.config?.pool;
    if (pool !== "forks" && pool !== "threads") return `pool ${pool}: no joint run`;
  }
  return "";
}

async function runJoint(specs) {
  const projects = new Set(specs.map(projectOf));
  const saved = [...projects].map((p) => [p, p.config.isolate]);
  const o = vitest.configOverride;
  const had = Object.prototype.hasOwnProperty.call(o, "isolate"),
    old = o.isolate;
  try {
    for (const p of projects) p.config.isolate = false;
    o.isolate = true;
    await vitest.runTestSpecifications(specs, true);
  } finally {
    for (const [p, v] of saved) p.config.isolate = v;
    if (had) o.isolate = old;
    else delete o.isolate;
  }
}

// runV2 runs specs as vitest 2's start() does after its selection; a run that used the
// vmForks pool closes the pool, whose workers would otherwise serve the next run.
async function runV2(specs) {
  try {
    await vitest.cache?.stats?.populateStats?.(vitest.config.root, specs);
    await vitest.runFiles(specs, true);
  } finally {
    await closeVMPool(specs, ["vmForks"]);
  }
}

// closeVMPool closes vitest's pool (runFiles makes a new one) after a run whose specs used one
// of the vm pools named: vitest 2 and 3 keep a vm pool's workers from run to run (recycled
// for memory only), where a test's writes to process.env, say, would meet the next run.
// (vitest 4 stops a pool runner when its queue is empty.)
async function closeVMPool(specs, vm) {
  if (!specs.some((s) => vm.includes(s.pool))) return;
  const pool = vitest.pool;
  vitest.pool = undefined;
  await pool?.close?.();
}

function flushStdout(sentinel) {
  return new Promise((resolve) => process.stdout.write("\n" + sentinel + "\n", () => resolve()));
}

recordNew();
reply({ type: "ready", version: vitest.version, pid: process.pid });

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    reply({ type: "error", error: "bad request: " + msg(e) });
    continue;
  }
  const { id, file, files, sentinel } = req;
  const joint = Array.isArray(files);
  try {
    for (const [f, h] of configDeps) {
      if (hash(f) !== h) {
        reply({ id, type: "stale", error: "the vitest config changed: " + f });
        process.exit(0);
      }
    }
    if (vitestMajor < 4) {
      // vitest 2 and 3 keep every file of their earlier runs in their state, and a run exits 1
      // when any of them failed (and bail counts their failures): each run starts with none,
      // as a fresh process does. (vitest 4 judges a run by its own files.)
      const st = vitest.state;
      for (const k of ["filesMap", "pathsSet", "idMap", "errorsSet", "processTimeoutCauses"]) st?.[k]?.clear?.();
    }
    const invalidated = invalidateChanged();
    // vitest caches the glob of the include patterns (and of the typecheck ones): a test file
    // written since must be found.
    if (typeof vitest.clearSpecificationsCache === "function") vitest.clearSpecificationsCache();
    else vitest._cachedSpecs?.clear?.(); // vitest 2
    for (const p of vitest.projects) {
      p.testFilesList = null;
      if ("typecheckFilesList" in p) p.typecheckFilesList = null;
    }
    process.exitCode = undefined;
    if (!joint && inBrowser(file)) {
      reply({ id, type: "unsupported", error: "a browser-mode project runs it" });
      continue;
    }
    const t0 = performance.now();
    const inBrowsers = joint ? files.filter(inBrowser) : [];
    const asked = joint ? files.filter((f) => !inBrowsers.includes(f)) : [file];
    if (!asked.length) {
      // (no filter at all would select every test file)
      await flushStdout(sentinel);
      reply({ id, type: "nomatch", refused: inBrowsers });
      continue;
    }
    // (vitest 2: what start() selects, getRelevantTestSpecifications' body in vitest 3.)
    let specs = v2 ? await vitest.filterTestsBySource(await vitest.globTestSpecs(asked)) : await vitest.getRelevantTestSpecifications(asked);
    let refusedFiles = [...inBrowsers];
    if (joint) {
      // Only the files asked for; a file of a project in typecheck mode or in browser mode is
      // left out (the caller runs it alone, in a fresh process).
      const wanted = new Set();
      for (const f of files) {
        if (inBrowsers.includes(f)) continue;
        wanted.add(f);
        try {
          wanted.add(realpathSync(f));
        } catch {}
      }
      specs = specs.filter((s) => wanted.has(s.moduleId));
      refusedFiles.push(...specs.filter(typeTest).map((s) => s.moduleId));
      specs = specs.filter((s) => !typeTest(s));
      const why = jointRefusal(specs);
      if (why) {
        reply({ id, type: "unsupported", error: why });
        continue;
      }
    }
    if (!specs.length) {
      await flushStdout(sentinel);
      reply({ id, type: "nomatch", refused: refusedFiles });
      continue;
    }
    const refused = specs.filter(typeTest).map((s) => typecheck.get(projectOf(s))).find(Boolean);
    if (refused) {
      reply({ id, type: "unsupported", error: refused });
      continue;
    }
    const otherPool = v2 && specs.find((s) => !pools.includes(s.pool));
    if (otherPool) {
      // (poolMatchGlobs: vmThreads, a custom pool or a browser.)
      reply({ id, type: "unsupported", error: `pool ${otherPool.pool} (poolMatchGlobs)` });
      continue;
    }
    if (joint) await runJoint(specs);
    else if (v2) await runV2(specs);
    else {
      try {
        await vitest.runTestSpecifications(specs, true);
      } finally {
        if (vitestMajor === 3) await closeVMPool(specs, ["vmForks", "vmThreads"]);
      }
    }
    const ms = performance.now() - t0;
    const exit = Number(process.exitCode ?? 0) || 0;
    process.exitCode = undefined;
    recordNew();
    await flushStdout(sentinel);
    reply({ id, type: "done", exit, invalidated, ms, refused: refusedFiles });
  } catch (e) {
    reply({ id, type: "error", error: msg(e) });
  }
}
try {
  await vitest.close();
} catch {}
process.exit(0);
