import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Mirrors tsconfig.json "paths": { "@server/*": ["./src/server/*"] }.
    alias: [{ find: /^@server\//, replacement: fileURLToPath(new URL("./src/server/", import.meta.url)) }],
  },
  test: {
    // The normal suite, plus generated oracles (they are committed next to the code, by
    // default in src/**/__oracles__/). reference/ and facts/ are NOT in it: run them with
    // vitest.reference.config.ts (see README.md).
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // Opening the database (sql.js's WebAssembly, in a beforeEach) takes
    // milliseconds on an idle machine and more than vitest's default 10 s
    // on a loaded one (2 cores at load 30): the suite's verdict must not
    // depend on the machine's load (an audit run twice differed when one
    // run's hook timed out). oracle caps these at its own limit.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
