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
  },
});
