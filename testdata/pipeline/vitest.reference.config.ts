import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

// The hand-written reference oracles and the vitest facts, which the default suite leaves
// out (the *.broken.test.ts files fail ON PURPOSE). Run one file at a time, e.g.
//   npx vitest run -c vitest.reference.config.ts reference/processItem.hoisted.oracle.test.ts
// (not mergeConfig: it would CONCATENATE the include arrays).
export default defineConfig({
  ...base,
  test: { ...base.test, include: ["reference/**/*.test.ts", "facts/**/*.test.ts"] },
});
