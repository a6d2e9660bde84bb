import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

// The hand-written reference oracles, which the default suite leaves out. Run one file at a
// time, e.g. npx vitest run -c vitest.reference.config.ts reference/OrderService.finalize.skip-quote.oracle.test.ts
export default defineConfig({
  ...base,
  test: { ...base.test, include: ["reference/**/*.test.ts"] },
});
