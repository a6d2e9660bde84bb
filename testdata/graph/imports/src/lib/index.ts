// Barrel level 1.
export * from "./text";
export { default } from "./money"; // `export { default } from`
