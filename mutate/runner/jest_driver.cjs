// Long-lived jest driver used by oracle's JestLongLived runner (jestlong.go). One process
// keeps the repository's jest loaded (its runCLI, and the transformer's compiler that
// ts-jest keeps between runs) for a package dir and config, and runs one jest command line
// per request, in band, as `jest <args>` in a fresh process does, so that a gate (a
// baseline and its mutants, each a file rewritten in the sandbox between runs) pays jest's
// start-up once.
//
//   node jest_driver.cjs <jest/bin/jest.js>
//
// Requests: one JSON object per line on stdin: {"id": n, "args": [...], "sentinel": "..."},
// args being jest's command line after jest.js (JestRunner's jestArgs: --runInBand, the
// report file, the test environment, the test file).
// Responses: one JSON object per line on fd 3 (stdout and stderr stay jest's own output):
//   {"type":"ready"}                                   after start-up
//   {"type":"fatal","unsupported":true,"error":..}     start-up failed (then the process exits)
//   {"id":n,"type":"done","exit":code}                 the run ended; code is the one jest's CLI exits with
//   {"id":n,"type":"error","error":..}                 the run threw: the caller runs it in a fresh process
// Before every "done" the sentinel is written to stdout, after everything the run printed
// (pipes are synchronous on Linux), so the caller knows the run's output is complete.
//
// Freshness: jest builds its haste map, reads its config and picks the files a run needs on
// every runCLI. Two caches outlive a run in one process, and each is brought back to what a
// fresh process starts with:
//   - @jest/transform keeps each file's transform in memory by path and mtime, which a
//     fresh process does not have: a test file whose import changed would not be
//     transformed (and type-checked) again. It is emptied at the first transformer a run
//     makes (createScriptTransformer, wrapped); the transforms on disk, keyed by content and
//     by the transformer's own key (ts-jest's names the imports' mtimes), serve as for a
//     fresh process. A jest whose module is not the one known here cannot be served: fatal.
//   - ts-jest's language service keeps the files it read in memory, and its compiler a
//     memoized readFile and a file cache: before each run every file it holds is compared
//     with the disk and updated where it changed, and the readFile starts empty (the type
//     check and the emit then see what a fresh process reads: refreshReads). A ts-jest whose
//     internals are not those known here has its compilers dropped instead (a fresh one per
//     run: slower, the same outcome).
"use strict";
const path = require("node:path");
const { readFileSync, writeSync } = require("node:fs");
const { createInterface } = require("node:readline");

const [jestBin] = process.argv.slice(2);

function reply(obj) {
  writeSync(3, JSON.stringify(obj) + "\n");
}

function msg(e) {
  return String((e && (e.stack || e.message)) || e);
}

// What jest's bin does before its CLI runs.
if (process.env.NODE_ENV == null) process.env.NODE_ENV = "test";

let runCLI, buildArgv;
try {
  const jestDir = path.dirname(path.dirname(jestBin));
  ({ runCLI } = require(jestDir));
  const cliDir = path.dirname(require.resolve("jest-cli/package.json", { paths: [jestDir] }));
  buildArgv = require(cliDir).buildArgv;
  if (typeof buildArgv !== "function") buildArgv = require(path.join(cliDir, "build", "run.js")).buildArgv;
  if (typeof runCLI !== "function" || typeof buildArgv !== "function") throw new Error("this jest has no runCLI and buildArgv");
  forgetTransforms(jestDir);
} catch (e) {
  reply({ type: "fatal", unsupported: true, error: msg(e) });
  process.exit(0);
}

// fresh holds the transform caches emptied in this run.
let fresh = new Set();

// forgetTransforms wraps @jest/transform's createScriptTransformer so that the first
// transformer of a run of each project starts with its in-memory cache empty.
function forgetTransforms(jestDir) {
  const core = path.dirname(require.resolve("@jest/core/package.json", { paths: [jestDir] }));
  const st = require(path.join(path.dirname(require.resolve("@jest/transform", { paths: [core] })), "ScriptTransformer.js"));
  const create = st.createScriptTransformer;
  if (typeof create !== "function") throw new Error("@jest/transform has no createScriptTransformer");
  st.createScriptTransformer = async function (...args) {
    const t = await create.apply(this, args);
    const cache = t && t._cache;
    if (!cache || !(cache.transformedFiles instanceof Map)) throw new Error("@jest/transform keeps its transforms elsewhere: this jest cannot be served long-lived");
    if (!fresh.has(cache)) {
      cache.transformedFiles.clear();
      fresh.add(cache);
    }
    return t;
  };
}

// refreshTsJest brings the files ts-jest's compilers hold in memory up to date with the disk.
function refreshTsJest() {
  for (const [file, mod] of Object.entries(require.cache)) {
    if (!file.endsWith(path.join("ts-jest", "dist", "legacy", "ts-jest-transformer.js"))) continue;
    const T = mod.exports && mod.exports.TsJestTransformer;
    if (!T || !Array.isArray(T._cachedConfigSets)) continue;
    for (const cs of T._cachedConfigSets) {
      const c = cs && cs.compiler && cs.compiler._compilerInstance;
      if (!c || !(c._fileContentCache instanceof Map) || !(c._fileVersionCache instanceof Map) || typeof c._updateMemoryCache !== "function") {
        T._cachedConfigSets = []; // unknown internals: a fresh compiler for this run
        break;
      }
      for (const [f, held] of [...c._fileContentCache]) {
        let now;
        try {
          now = readFileSync(f, "utf8");
        } catch {
          c._fileContentCache.delete(f);
          c._fileVersionCache.delete(f);
          c._projectVersion = (c._projectVersion || 0) + 1;
          continue;
        }
        if (now !== held) c._updateMemoryCache(now, f);
      }
      refreshReads(c);
    }
  }
}

// refreshReads brings back to the disk two more copies of files a ts-jest compiler keeps
// for its life: its memoized readFile (the type checker reads through it every file it does
// not hold: the first run of a test file that imports a module an earlier run's program had
// read compiled that module's earlier text, and a mutant written since never ran,
// TestJestLongLivedRunsTheFileAsItIsNow) and the jest file cache it was made with
// (_runtimeCacheFS: the first run's map, which ts-jest fills with the files it reads to
// resolve imports, and reads a file's text from before the disk).
function refreshReads(c) {
  const fsCache = c._runtimeCacheFS;
  if (fsCache instanceof Map) {
    for (const [f, held] of [...fsCache]) {
      let now;
      try {
        now = readFileSync(f, "utf8");
      } catch {
        fsCache.delete(f);
        continue;
      }
      if (now !== held) fsCache.set(f, now);
    }
  }
  const sys = c._ts && c._ts.sys;
  if (typeof c._cachedReadFile === "function" && sys && typeof sys.readFile === "function") {
    const memo = new Map();
    const read = (f, enc) => {
      if (!memo.has(f)) memo.set(f, sys.readFile(f, enc));
      return memo.get(f);
    };
    c._cachedReadFile = read;
    if (c._moduleResolutionHost && typeof c._moduleResolutionHost === "object") c._moduleResolutionHost.readFile = read;
  }
}

async function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    reply({ type: "garbage" });
    return;
  }
  try {
    fresh = new Set();
    refreshTsJest();
    const argv = await buildArgv(req.args);
    const { results, globalConfig } = await runCLI(argv, [process.cwd()]);
    if (fresh.size === 0 && results && results.numTotalTestSuites > 0) {
      // The transformers of this run are not the wrapped module's (another copy of
      // @jest/transform): their caches were not emptied, and the next runs cannot be trusted.
      reply({ id: req.id, type: "error", unsupported: true, error: "jest's transformer is not the @jest/transform oracle's driver wrapped: this jest cannot be served long-lived" });
      return;
    }
    // jest-cli's readResultsAndExit.
    const exit = !results || results.success ? 0 : globalConfig.testFailureExitCode;
    writeSync(1, req.sentinel + "\n");
    reply({ id: req.id, type: "done", exit });
  } catch (e) {
    reply({ id: req.id, type: "error", error: msg(e) });
  }
}

reply({ type: "ready" });
let queue = Promise.resolve();
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  queue = queue.then(() => handle(line));
});
rl.on("close", () => {
  queue.then(() => process.exit(0));
});
