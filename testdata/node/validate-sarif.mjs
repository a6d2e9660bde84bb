// Validates SARIF logs against the SARIF 2.1.0 JSON Schema (the one
// @microsoft/jest-sarif ships, draft-04).
//   node testdata/node/validate-sarif.mjs LOG.sarif...
// Exit 0 when every log is valid; 1 with the schema errors on stderr.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv-draft-04";

const require = createRequire(import.meta.url);
const schema = require("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false }) // the schema has a pattern only non-unicode mode reads;
const validate = ajv.compile(schema);
let bad = 0;
for (const f of process.argv.slice(2)) {
  if (!validate(JSON.parse(readFileSync(f, "utf8")))) {
    console.error(f + ": " + JSON.stringify(validate.errors, null, 2));
    bad++;
  } else {
    console.log(f + ": valid");
  }
}
process.exit(bad ? 1 : 0);
