// Package root of @acme/core (exports ".", condition import -> source -> ./src/index.ts).
export type { Item } from "./types.js";
export { updateRecord, createRecord } from "./records.js"; // `.js` specifiers naming `.ts` files
export { legacyChecksum as checksumHex } from "./compat.cjs"; // ESM re-exporting a .cts module
export * as events from "./sub/index.js";
