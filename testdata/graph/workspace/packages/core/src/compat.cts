// CommonJS consumer: `import x = require()` of another CommonJS module (with its `.cjs` name).
import sums = require("./checksum.cjs");

export function legacyChecksum(text: string): string {
  return sums.checksum(text).toString(16);
}
