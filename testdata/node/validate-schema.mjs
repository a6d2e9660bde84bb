// Validates JSON documents against one of oracle's published JSON Schemas
// (schema/*.schema.json, draft 2020-12).
//   node testdata/node/validate-schema.mjs SCHEMA.json DOC.json...
// Prints one line per document, "valid" or "invalid <first error>"; exit 0.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaPath, ...docs] = process.argv.slice(2);
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
for (const d of docs) {
  const ok = validate(JSON.parse(readFileSync(d, "utf8")));
  const e = validate.errors?.[0];
  console.log(ok ? "valid" : `invalid ${e.instancePath} ${e.message}`);
}
