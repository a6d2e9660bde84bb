// Package manifest parses and validates ticket manifests and oracle.yaml,
// the inputs of every oracle verb. It is the first stage: it checks
// structure only and imports no other package of this module. Checks
// against the code (the flag names a parameter, the wrapped call is in the
// body) happen later, with the positions kept here: every value a later
// stage may complain about carries its file, line and column.
//
// # Errors
//
// Parse and Load functions return every problem of a file at once, as
// [Errors] sorted by position, each naming the file, line, column, field
// and what was expected:
//
//	tickets/PROJ-142.yaml:7:11: operations[0].flag: expected <parameter>[.<property>...], e.g. opts.skip, got "opts..skip"
//
// Field paths index lists from 0. Columns count characters, not bytes. A
// YAML syntax error has the line the YAML library reports and no column.
// Nothing panics on any input.
//
// # Decisions
//
//   - JSON input is YAML and accepted as such (tabs between JSON tokens
//     included). Exactly one document per file; an empty manifest is an
//     error, an empty oracle.yaml an empty config.
//   - The file must be UTF-8 without control characters; duplicate keys,
//     aliases, merge keys (<<) and tags outside the YAML core schema are
//     errors everywhere.
//   - String fields take a scalar as written ("ticket: 142" is "142"); null
//     and lists or mappings are errors. A list field given null (an empty
//     "args:") is an error, not an empty list.
//   - Unknown fields are errors, with the closest known name when it is a
//     likely typo.
//   - Only kind conditional-skip exists; an operation with a missing or
//     unknown kind is still checked as one, so that all problems show up.
//   - ticket and id match [A-Za-z0-9][A-Za-z0-9._-]*, fixture names
//     [A-Za-z0-9_][A-Za-z0-9._-]*: they become parts of file names. Ids are
//     unique in a ticket ignoring case (some file systems ignore case); the
//     default id "<function name>-<flag leaf>" takes part in the check.
//   - function is "<file>#<name>": file relative to the repository root,
//     with '/', not leaving it once cleaned, a .ts, .tsx, .mts or .cts file
//     that is not a declaration file (.d.ts); name a JavaScript identifier.
//     Paths are stored cleaned ("./src/x.ts" is "src/x.ts").
//   - flag is <identifier>[.<identifier>...]; wrap and preserve entries are
//     identifier chains as written at the call site, or {call, occurrence}
//     with occurrence ≥ 1 (omitted: the call has a single site). A call
//     site is the same when callee and occurrence are, an omitted
//     occurrence counting as 1: preserving the wrapped call, or the same
//     call twice, is an error. preserve may be empty.
//   - args and default are converted to compact JSON (see jsonValue):
//     mapping keys keep their written order, integers must be safe
//     JavaScript integers, floats print as JavaScript prints them, and
//     timestamps, .inf and .nan are rejected. default: null is present
//     (Default is "null"); no default is a nil Default.
//   - The out template of oracle.yaml knows {dir}, {file}, {function},
//     {id} and {ticket}; {id} is required and {dir} must be a whole path
//     segment; ".." segments and absolute paths are rejected, so that every
//     expansion stays inside the repository.
//   - LoadTicket and LoadConfig with a repository root also check that the
//     files named exist there and do not resolve outside it through
//     symbolic links; ParseTicket and ParseConfig never touch the disk.
package manifest
