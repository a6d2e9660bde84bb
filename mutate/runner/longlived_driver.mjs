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
// isolate: false too), so the module registry, vi.mock hoisting and globalThis start from
// scratch as in a fresh `vitest run`. vitest 3 calls standalone() init().
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
  const major = Number(String(pkg.version).split(".")[0]);
  if (!(major >= 3)) fatal(true, `vitest ${pkg.version}: the long-lived runner needs vitest >= 3`);
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

// vitest 3 calls standalone() init().
if (typeof vitest.standalone !== "function" && typeof vitest.init === "function") vitest.standalone = vitest.init.bind(vitest);
for (const m of ["standalone", "getRelevantTestSpecifications", "runTestSpecifications", "invalidateFile"]) {
  if (typeof vitest[m] !== "function") fatal(true, `this vitest has no Vitest.${m}()`);
}
if (!Array.isArray(vitest.projects) || vitest.projects.some((p) => !p?.vite?.environments)) {
  fatal(true, "this vitest exposes no vite environments per project");
}
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
  const name = p.name ? `project ${p.name}: ` : "";
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
  if (!["forks", "threads", "vmForks", "vmThreads"].includes(c.pool)) fatal(true, `${name}pool ${c.pool}`);
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
  if (!typecheck.has(s.project)) return false;
  return typecheckOnly.has(s.project) || typeof s.pool !== "string" || s.pool === "typescript" || s.pool === "typecheck";
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

function environments() {
  const out = new Set();
  for (const server of [vitest.vite, ...vitest.projects.map((p) => p.vite)]) {
    for (const env of Object.values(server?.environments || {})) if (env?.moduleGraph) out.add(env);
  }
  return out;
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
const configDeps = new Map();
for (const server of [vitest.vite, ...vitest.projects.map((p) => p.vite)]) {
  const c = server?.config;
  for (const f of [c?.configFile, ...(c?.configFileDependencies || [])]) {
    if (f && !configDeps.has(f)) configDeps.set(f, hash(f));
  }
}

const hashes = new Map(); // file -> content hash of the version the module graph holds

function invalidateChanged() {
  let n = 0;
  for (const f of graphFiles()) {
    const h = hash(f);
    const old = hashes.get(f);
    if (old === h) continue;
    // A file the graph holds but this map does not (loaded outside a run): invalidate it too.
    vitest.invalidateFile(f);
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
  // not): under vitest 3 each file runs alone, in this process.
  if (vitestMajor < 4) return `vitest ${vitestMajor}: joint runs need vitest >= 4`;
  if (!vitest.configOverride || typeof vitest.configOverride !== "object") return "this vitest has no configOverride";
  for (const s of specs) {
    const pool = s.project?.config?.pool;
    if (pool !== "forks" && pool !== "threads") return `pool ${pool}: no joint run`;
  }
  return "";
}

async function runJoint(specs) {
  const projects = new Set(specs.map((s) => s.project));
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
      // vitest 3 keeps every file of its earlier runs in its state, and a run exits 1 when
      // any of them failed (and bail counts their failures): each run starts with none,
      // as a fresh process does. (vitest 4 judges a run by its own files.)
      const st = vitest.state;
      for (const k of ["filesMap", "pathsSet", "idMap", "errorsSet", "processTimeoutCauses"]) st?.[k]?.clear?.();
    }
    const invalidated = invalidateChanged();
    // vitest caches the glob of the include patterns: a test file written since must be found.
    if (typeof vitest.clearSpecificationsCache === "function") vitest.clearSpecificationsCache();
    for (const p of vitest.projects) p.testFilesList = null;
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
    let specs = await vitest.getRelevantTestSpecifications(asked);
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
    const refused = specs.filter(typeTest).map((s) => typecheck.get(s.project)).find(Boolean);
    if (refused) {
      reply({ id, type: "unsupported", error: refused });
      continue;
    }
    if (joint) await runJoint(specs);
    else await vitest.runTestSpecifications(specs, true);
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
