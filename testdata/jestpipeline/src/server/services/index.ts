// Barrel of the stateless services. processItem imports through here; the functions are
// DEFINED in ../enrich.ts, ../settings.ts and ../metadata.ts, and that is where an oracle
// must observe them.
export { enrichItem } from "../enrich.js";
export type { Enrichment } from "../enrich.js";
export * from "../settings";
export { extractMetadata } from "../metadata";
