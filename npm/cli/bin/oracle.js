#!/usr/bin/env node
"use strict";
// The `oracle` command of the npm package @oracle-ts/cli: it runs the prebuilt
// binary of this platform, which npm installed as one of the package's
// optionalDependencies (one package per platform, selected by its `os` and
// `cpu` fields, the way esbuild ships). Arguments, standard streams and the
// exit code pass through unchanged; a signal sent to this process is passed
// on to oracle, which stops its runs and removes its sandbox.
const { spawn } = require("node:child_process");
const pkg = require("../package.json");

// Linux has two packages per architecture: linux-x64 (glibc) and
// linux-x64-musl (Alpine and other musl systems), told apart at run time as
// esbuild's and detect-libc's installers do: Node built against glibc
// reports the glibc version it runs with; on musl there is none.
function isMusl() {
  if (process.platform !== "linux") return false;
  try {
    const report = process.report && process.report.getReport();
    const header = report && (typeof report === "string" ? JSON.parse(report) : report).header;
    if (header) return !header.glibcVersionRuntime;
  } catch {}
  try {
    return require("node:fs").readFileSync("/usr/bin/ldd", "utf8").includes("musl");
  } catch {
    return false;
  }
}

const platform = `${process.platform}-${process.arch}${isMusl() ? "-musl" : ""}`;
const exe = process.platform === "win32" ? "oracle.exe" : "oracle";
const wanted = `${pkg.name}-${platform}`;

function fail(msg) {
  process.stderr.write(`oracle (${pkg.name} ${pkg.version}): ${msg}\n`);
  process.exit(3); // oracle's exit code for "the tool or the environment failed"
}

function binary() {
  if (process.env.ORACLE_BINARY) return process.env.ORACLE_BINARY;
  const built = Object.keys(pkg.optionalDependencies || {}).map((n) => n.slice(pkg.name.length + 1));
  if (!built.includes(platform)) {
    fail(
      `no prebuilt binary for ${platform}: this release has ${built.join(", ") || "none"}.\n` +
        `Build oracle from source (Go 1.26 and a C compiler: go install github.com/oracle-ts/oracle/cmd/oracle@latest)\n` +
        `and set ORACLE_BINARY to the binary's path.`,
    );
  }
  try {
    return require.resolve(`${wanted}/bin/${exe}`);
  } catch {
    fail(
      `the package ${wanted}, which holds oracle's binary for ${platform}, is not installed.\n` +
        `npm installs it with ${pkg.name} as an optional dependency: install again with the\n` +
        `optional dependencies, \`npm install --include=optional\` (not --omit=optional nor\n` +
        `--no-optional); a lock file written on another platform lacks it: delete node_modules\n` +
        `and run npm install.`,
    );
  }
}

const child = spawn(binary(), process.argv.slice(2), { stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => child.kill(sig));
}
child.on("error", (err) => fail(`cannot run ${child.spawnfile}: ${err.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 3);
});
