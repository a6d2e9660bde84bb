// oracle's jest test environment: the repository's own (the one jest resolved for the
// project, named by its project id in $ORACLE_JEST_ENVS), extended through jest-circus's
// official hook, handleTestEvent, with the two things the runner needs that jest's JSON
// report does not say:
//
//   - where each failed test failed (written to $ORACLE_PHASES when the file's tests end,
//     as phases.mjs writes it for vitest): "setup" when its body never started (a
//     beforeEach hook, or a beforeAll hook of its describe, threw), "teardown" when its body
//     passed and only an afterEach hook threw, "body" otherwise; and whether it failed by
//     jest's own time-out;
//   - progress, in $ORACLE_PROGRESS: the tests collected, and each test that passed;
//   - which test is running, for the markers of the mutated code (runner's marker.go): a
//     worker state in globalThis.__oracleJestWorker__ of the shape vitest's
//     __vitest_worker__ has where the markers read it: filepath (the test file, absolute)
//     and current (the test while its beforeEach hooks, body and afterEach hooks run; a
//     describe block while its beforeAll or afterAll hooks run; the file otherwise), each
//     task with type, name and suite (its describe block; the file at the top).
//
// Plain CommonJS, node:fs only; jest requires it untransformed (.cjs matches no transform).
"use strict";
const { appendFileSync, readFileSync, writeFileSync } = require("node:fs");

// writePhases adds a file's tests, and its own time (from its environment's construction
// to its teardown), to $ORACLE_PHASES: a run of several files in band (a joint run,
// JestLongLived.RunJoint) leaves every file's there, one after the other; the file is new
// at every run.
function writePhases(oracle) {
  const out = process.env.ORACLE_PHASES;
  if (!out) return;
  let all = { tests: [], unhandled: [], files: [] };
  try {
    all = JSON.parse(readFileSync(out, "utf8"));
  } catch {}
  all.tests.push(...oracle.tests);
  (all.files || (all.files = [])).push({ file: oracle.file.filepath, ms: performance.now() - oracle.t0 });
  writeFileSync(out, JSON.stringify(all));
}

// progress appends to $ORACLE_PROGRESS, as phases.mjs does under vitest: the file's tests
// collected ("c"), each test that passed ("t"; a failed test is no progress), so that a run
// past its time-out goes on while its tests keep passing (Spec.Stall).
function progress(what) {
  try {
    const p = process.env.ORACLE_PROGRESS;
    if (p) appendFileSync(p, what + "\n");
  } catch {}
}

function baseOf(config) {
  let envs = {};
  try {
    envs = JSON.parse(process.env.ORACLE_JEST_ENVS || "{}");
  } catch {}
  const id = config?.projectConfig?.id;
  let path = envs[id];
  if (!path) {
    const all = [...new Set(Object.values(envs))];
    path = all.length === 1 ? all[0] : require.resolve("jest-environment-node", { paths: [config?.projectConfig?.rootDir ?? process.cwd()] });
  }
  const mod = require(path);
  return mod.TestEnvironment ?? mod.default ?? mod;
}

const timedOutRE = /^Exceeded timeout of \d+ ?ms for a (test|hook)/;

function firstLine(e) {
  let m = e && typeof e === "object" ? String(e.message ?? "") : String(e ?? "");
  if (e && typeof e === "object" && e.name && !m.startsWith(e.name)) m = `${e.name}: ${m}`;
  return m.split("\n").find((l) => l.trim() !== "") ?? "";
}

// circusError: a test's error as jest-circus keeps it ([error, asyncError] or an error).
function circusError(e) {
  return Array.isArray(e) ? e[0] ?? e[1] : e;
}

function describeNames(block) {
  const names = [];
  for (let b = block; b && b.parent; b = b.parent) names.unshift(b.name);
  return names;
}

function wrap(Base) {
  return class OracleJestEnvironment extends Base {
    constructor(config, context) {
      super(config, context);
      this.oracle = { file: { filepath: context?.testPath ?? "?" }, tests: [], tasks: new Map(), t0: performance.now() };
      this.oracle.worker = { filepath: this.oracle.file.filepath, current: this.oracle.file };
      if (this.global) this.global.__oracleJestWorker__ = this.oracle.worker;
    }
    suiteTask(block) {
      if (!block || !block.parent) return this.oracle.file;
      let t = this.oracle.tasks.get(block);
      if (!t) {
        t = { type: "suite", name: block.name, suite: this.suiteTask(block.parent), file: this.oracle.file };
        this.oracle.tasks.set(block, t);
      }
      return t;
    }
    async handleTestEvent(event, state) {
      if (super.handleTestEvent) await super.handleTestEvent(event, state);
      try {
        this.oracleEvent(event);
      } catch {}
    }
    oracleEvent(event) {
      const w = this.oracle.worker;
      switch (event.name) {
        case "run_start":
          progress("c");
          break;
        case "test_start":
          w.current = { type: "test", name: event.test.name, suite: this.suiteTask(event.test.parent), file: this.oracle.file, concurrent: !!event.test.concurrent };
          this.oracle.started = false;
          this.oracle.passed = false;
          break;
        case "test_fn_start":
          // jest-circus announces the body even when a hook before it failed, and then
          // does not call it: the errors it holds already are the hooks'.
          this.oracle.started = (event.test.errors || []).length === 0;
          break;
        case "test_fn_success":
          this.oracle.passed = true;
          break;
        case "hook_start":
          if (event.hook.type === "beforeAll" || event.hook.type === "afterAll") w.current = this.suiteTask(event.hook.parent);
          break;
        case "hook_success":
        case "hook_failure":
          if (event.hook.type === "beforeAll" || event.hook.type === "afterAll") w.current = this.oracle.file;
          break;
        case "test_done":
          this.testDone(event.test);
          w.current = this.oracle.file;
          break;
      }
    }
    testDone(test) {
      const errors = test.errors || [];
      const name = [...describeNames(test.parent), test.name].join(" ");
      const t = { name, state: errors.length ? "fail" : "pass", phase: "", file: this.oracle.file.filepath };
      if (errors.length) {
        t.phase = !this.oracle.started ? "setup" : this.oracle.passed ? "teardown" : "body";
        const first = firstLine(circusError(errors[0]));
        if (timedOutRE.test(first)) {
          t.timeout = true;
          t.message = first;
        }
      }
      this.oracle.tests.push(t);
      if (!errors.length) progress("t");
    }
    async teardown() {
      try {
        writePhases(this.oracle);
      } catch {}
      if (super.teardown) await super.teardown();
    }
  };
}

// jest constructs the environment with `new`: the class is the project's own base, wrapped.
module.exports = function OracleJestEnvironment(config, context) {
  const Env = wrap(baseOf(config));
  return new Env(config, context);
};

// instrument gives an environment that is not oracle's (a test file's docblock,
// `@jest-environment jsdom`, names one, and jest takes it in place of --testEnvironment)
// what oracle's has: the same methods, called around its own. jest_runner.cjs calls it
// before the file's tests start, so jest-circus registers the extended handleTestEvent.
module.exports.instrument = function instrument(env, testPath) {
  if (!env || env.oracle) return;
  const Oracle = wrap(class {});
  const own = { handleTestEvent: env.handleTestEvent, teardown: env.teardown };
  env.oracle = { file: { filepath: testPath ?? "?" }, tests: [], tasks: new Map(), t0: performance.now() };
  env.oracle.worker = { filepath: env.oracle.file.filepath, current: env.oracle.file };
  if (env.global) env.global.__oracleJestWorker__ = env.oracle.worker;
  for (const m of ["suiteTask", "oracleEvent", "testDone"]) env[m] = Oracle.prototype[m];
  env.handleTestEvent = async function (event, state) {
    if (own.handleTestEvent) await own.handleTestEvent.call(this, event, state);
    try {
      this.oracleEvent(event);
    } catch {}
  };
  env.teardown = async function () {
    try {
      writePhases(this.oracle);
    } catch {}
    if (own.teardown) await own.teardown.call(this);
  };
};
