// Barrel level 2.
export * from "./format"; // `export *` (and index probing: ./format/index.ts)
export * as escape from "./escape"; // `export * as ns`
