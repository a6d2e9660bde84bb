import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Mirrors tsconfig.json "paths": { "@shared/*": ["./src/shared/*"] }.
    alias: [{ find: /^@shared\//, replacement: fileURLToPath(new URL("./src/shared/", import.meta.url)) }],
  },
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
  },
});
