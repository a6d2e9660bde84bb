import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Mirrors tsconfig.json "paths": { "@app/*": ["./src/*"] }.
    alias: [{ find: /^@app\//, replacement: fileURLToPath(new URL("./src/", import.meta.url)) }],
  },
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
  },
});
