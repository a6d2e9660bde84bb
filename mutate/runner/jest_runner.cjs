// oracle's jest test runner: the project's own (the one jest resolved, jest-circus by
// default, named by its project id in $ORACLE_JEST_RUNNERS), called with the test file's
// environment extended as oracle's test environment (jest_env.cjs, beside this file) is,
// when it is not that one: a test file whose docblock names its environment
// (`@jest-environment jsdom`) runs in that one, not in the --testEnvironment jest was
// given, and still says where its tests failed and which test is running.
//
// Plain CommonJS; jest requires it untransformed.
"use strict";
const { instrument } = require("./oracle-jest-environment.cjs");

function baseOf(config) {
  let runners = {};
  try {
    runners = JSON.parse(process.env.ORACLE_JEST_RUNNERS || "{}");
  } catch {}
  let path = runners[config?.id];
  if (!path) {
    const all = [...new Set(Object.values(runners))];
    path = all.length === 1 ? all[0] : require.resolve("jest-circus/runner", { paths: [config?.rootDir ?? process.cwd()] });
  }
  const mod = require(path);
  return mod.default ?? mod;
}

module.exports = async function oracleJestRunner(globalConfig, config, environment, runtime, testPath, sendMessageToJest) {
  try {
    instrument(environment, testPath);
  } catch {}
  return baseOf(config)(globalConfig, config, environment, runtime, testPath, sendMessageToJest);
};
