// Auxiliary vitest reporter used by oracle's runner next to the built-in JSON reporter.
// The JSON reporter says which tests failed but not WHERE: an error thrown by a beforeEach
// hook and one thrown by the test body look the same. This reporter writes, for every test
// in tree order, the phase its failure happened in, plus the run's unhandled errors, to the
// file named by ORACLE_PHASES. Plain JS, no imports beyond node:fs, works with the
// reporter API of vitest 1-3 (onFinished) and 3+ (onTestRunEnd).
//
// For a run of several test files (the long-lived runner's joint runs) every test names its
// file, and "files" gives each file's own time (vitest's diagnostic: environment, prepare,
// collect, setup and tests); every test that passes (or is skipped) and every collected file
// append a line to $ORACLE_PROGRESS, so a long run shows it is progressing. A failed test is
// no progress: a run of a mutant has its answer at the first failure, and a mutant that makes
// every test hang until vitest's time-out would otherwise keep its run going one time-out per
// test (vercel/ai's stream-text.test.ts: 420 tests of 5 s each, 35 minutes).
import { appendFileSync, writeFileSync } from "node:fs";

function firstLine(e) {
  let m = e && typeof e === "object" ? String(e.message ?? "") : String(e ?? "");
  if (e && typeof e === "object" && e.name && !m.startsWith(e.name)) m = `${e.name}: ${m}`;
  return m.split("\n").find((l) => l.trim() !== "") ?? "";
}

function phaseOf(r) {
  if (!r || r.state !== "fail") return "";
  const hooks = r.hooks || {};
  const errors = (r.errors || []).length;
  // @vitest/runner marks a hook kind "run" before calling the hooks and "pass" after all of
  // them returned: a kind still "run" at the end threw.
  if (hooks.beforeEach === "run") return "setup";
  if (hooks.afterEach === "run" && errors <= 1) return "teardown";
  return "body";
}

// A test that failed by vitest's own time-out (testTimeout, hookTimeout): its error's stack
// is the "STACK_TRACE_ERROR" captured at definition, so the message is kept here.
const timedOutRE = /^(Test|Hook) timed out in \d+ms/;

function walk(task, names, out, file) {
  if (task.type === "test" || task.type === "custom") {
    const r = task.result || {};
    const t = { name: [...names, task.name].join(" "), state: r.state ?? "", phase: phaseOf(r), file };
    const timedOut = r.state === "fail" ? (r.errors || []).find((e) => timedOutRE.test(String(e?.message ?? ""))) : undefined;
    if (timedOut) {
      t.timeout = true;
      t.message = String(timedOut.message).split("\n")[0];
    }
    out.push(t);
    return;
  }
  const next = task.type === "suite" ? [...names, task.name] : names;
  for (const c of task.tasks || []) walk(c, next, out, file);
}

export default class OraclePhases {
  // Test locations (the JSON reporter's assertionResults[].location, a test's line): what
  // `includeTaskLocation` turns on, set before any test file is collected. An older vitest
  // without the option ignores it; the report then names tests without their line.
  onInit(ctx) {
    if (ctx?.config) ctx.config.includeTaskLocation = true;
    for (const p of ctx?.projects || []) if (p?.config) p.config.includeTaskLocation = true;
  }
  write(files, errors, times) {
    const tests = [];
    for (const f of files || []) {
      if (!f) continue;
      // The file task is the root (no title in the full name).
      for (const c of f.tasks || []) walk(c, [], tests, f.filepath);
    }
    const unhandled = (errors || []).map(firstLine);
    const out = process.env.ORACLE_PHASES;
    if (out) writeFileSync(out, JSON.stringify({ tests, unhandled, files: times || [] }));
  }
  progress(what) {
    try {
      const p = process.env.ORACLE_PROGRESS;
      if (p) appendFileSync(p, what + "\n");
    } catch {}
  }
  onTestCaseResult(testCase) {
    let state = "";
    try {
      state = testCase?.result?.()?.state ?? "";
    } catch {}
    if (state !== "failed") this.progress("t");
  }
  // A test file collected (its imports transformed and run) is progress
  // too: a joint run of jsdom files spends minutes in vite's transform
  // before a test ends. onCollected: vitest before 3.
  onTestModuleCollected() {
    this.progress("c");
  }
  onCollected() {
    this.progress("c");
  }
  onTestRunEnd(modules, unhandledErrors) {
    this.done = true;
    const times = [];
    for (const m of modules || []) {
      try {
        const d = m.diagnostic?.();
        const ms = d ? (d.environmentSetupDuration || 0) + (d.prepareDuration || 0) + (d.collectDuration || 0) + (d.setupDuration || 0) + (d.duration || 0) : undefined;
        if (m.task?.filepath && Number.isFinite(ms)) times.push({ file: m.task.filepath, ms });
      } catch {}
    }
    this.write((modules || []).map((m) => m.task), unhandledErrors, times);
  }
  onFinished(files, errors) {
    if (!this.done) this.write(files, errors);
  }
}
