// Validates a mutation report against the published JSON Schema of
// mutation-testing-report-schema (the format of Stryker's report viewer).
//   node testdata/node/validate-report.mjs REPORT.json
// Exit 0 when valid; 1 with the schema errors on stderr.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv";

const require = createRequire(import.meta.url);
const schema = require("mutation-testing-report-schema/mutation-testing-report-schema.json");
const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const validate = ajv.compile(schema);
if (!validate(report)) {
  console.error(JSON.stringify(validate.errors, null, 2));
  process.exit(1);
}
console.log("valid");
