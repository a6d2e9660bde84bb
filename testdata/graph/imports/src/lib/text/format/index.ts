// Barrel level 3.
export { slugify, truncate as clip } from "./slug"; // `export { a as b } from`
export { default as titleCase } from "./case"; // `export { default as X } from`
