// @acme/util has neither `exports` nor `types`: package.json `main` is "./src/index.js",
// and TypeScript finds this file by swapping `.js` for `.ts`.
export function retry<T>(fn: () => T, times = 2): T {
  let lastError: unknown;
  for (let i = 0; i <= times; i++) {
    try {
      return fn();
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
