// Validates SARIF logs against the SARIF 2.1.0 JSON Schema (the one
// @microsoft/jest-sarif ships, draft-04).
//   node testdata/node/validate-sarif.mjs LOG.sarif...
// Exit 0 when every log is valid; 1 with the schema errors on stderr.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv-draft-04";

const require = createRequire(import.meta.url);
const schema = require("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }); // the schema has a pattern only non-unicode mode reads
// The formats the schema names, as RFC 3986 and 3339 write them (ajv ships
// none): a uri with a space, say, is invalid SARIF.
const uriChars = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@\/?#\[\]]|%[0-9A-Fa-f]{2})*$/;
ajv.addFormat("uri-reference", (s) => uriChars.test(s));
ajv.addFormat("uri", (s) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s) && uriChars.test(s));
ajv.addFormat("date-time", (s) => !Number.isNaN(Date.parse(s)));
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
