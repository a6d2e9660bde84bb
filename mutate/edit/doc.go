// Package edit makes the source edits of `oracle apply` (the guard) and the
// edit core of the mutants (Change, Apply, NewMutant, the one acceptance
// rule, schemata, reached markers). The operators that choose the changes,
// prove's and the gate's, are mutate/operators'; conditional-skip's are
// described here because they share the guard's edits (Scope). Every edit is found from the
// structure of the code, the tree-sitter tree the analyzer parses
// (analyzer.ParseSyntax), and the operation: never by searching the text.
//
// # The guard (Guard)
//
// The statement that contains the wrapped call is put under
// `if (!<flag>) { ... }`, re-indented one level with the file's own
// indentation unit (two or four spaces, or a tab: the most frequent step
// between consecutive lines) and line ending (CRLF when most lines end so).
// Every byte outside the statement is kept. A comment that follows the
// statement on its last line moves into the guard with it.
//
// The flag expression is `param.prop...`. The parameter is read with `?.`
// (`opts?.skip`) when it is declared optional (`opts?: T`) and has no default
// value; a parameter with a default value is never undefined. Intermediate
// properties are read with `.`: whether `opts.a` may be undefined is a
// question of types, which the analyzer does not read (a flag `opts.a.b`
// with an optional `a` needs the guard touched up by hand).
//
// Where the call may be:
//
//   - the expression of an expression statement, possibly under `await`,
//     `void`, parentheses, `as`/`satisfies`/`!`, as the object of a property
//     access (`(await enrichItem(x)).score`) or as the right side of an
//     assignment (`patch.score = (await enrichItem(x)).score;`): the
//     statement is wrapped;
//   - the initializer of a declaration with a single declarator, through the
//     same wrappers (`const enriched = await enrichItem(x);`). When the
//     bound names are referenced anywhere in the function, the operation must
//     give `default:` and the declaration becomes
//     `let enriched<: T> = <default>;` followed by the guarded assignment
//     (`const` becomes `let`, `var` stays `var`; a destructuring pattern is
//     assigned as `({ a } = ...)`). Without a default the edit is refused,
//     naming the binding and the line of its first use. When no bound name
//     is referenced, the whole declaration is wrapped as it is (nothing is
//     dropped; the block scope it gets hides nothing anyone reads) and any
//     default is not needed;
//   - anywhere else (an argument of another call, `return ...`, a
//     condition, a declaration with several declarators, a statement that is
//     not in a `{ }` block): refused with the reason.
//
// The statement must be a direct child of a `{ }` block or of a `case`.
//
// A default given where none is needed (the call is a statement, or its
// binding is never read) is ignored.
//
// Idempotence: when the call already lies in the consequence of an
// `if (!<flag>)` (or the `else` of `if (<flag>)`) within the function, at
// any depth, spelled with any spacing, parentheses, `?.`, `!` or
// `["prop"]`, Guard changes nothing.
//
// # Flag references (red-first, flag-inverted, flag-always-set)
//
// A reference to flag `opts.a.b` in the function body (nested closures
// included) is:
//
//   - a property access matching the path: `opts.a.b`, `opts?.a?.b`,
//     `opts["a"].b`, `(opts).a!.b`;
//   - for a flag that is the whole parameter (`skip`), an identifier `skip`
//     that is read (not a declared name, not the target of an assignment or
//     of `++`/`--`), including the shorthand `{ skip }`;
//   - after `const { b } = opts.a` (or `{ b: local }`, `{ b = false }`,
//     also with `let`/`var`), every read of the local name in the function.
//
// Shadowing by a nested declaration of the same name is not tracked. A
// reference used as an object (`opts.skip.valueOf()`) becomes
// `(undefined).valueOf()` in red-first, which throws. A
// reference written to (`opts.skip = true`) is not a read and is left alone.
//
// red-first replaces every reference with `(undefined)` (the flag is never
// seen set: the implementation as it was before the guard); flag-inverted
// with `(!<reference>)`; flag-always-set with `true`. A shorthand `{ skip }`
// becomes `{ skip: <replacement> }`. When the function never reads the flag,
// red-first is the unmodified source with a Note (the guard is missing), and
// the two flag mutants act on the wrapped call instead: flag-always-set
// removes it, flag-inverted puts it under `if (<flag>)`.
//
// # Preserved calls
//
// preserve-removed:<call> replaces the call expression with `(undefined)`
// (its arguments are not evaluated either); line breaks inside the call are
// kept inside the parentheses so that later lines do not move.
// preserve-moved-under-guard:<call> puts the call's statement under the
// guard exactly as Guard would, a used binding being hoisted without a value
// (`let t;` / `let t: T;`); where Guard would refuse, the call alone becomes
// `(!<flag> ? <call> : undefined)`. The name uses the callee as written;
// when several preserved calls have the same text, each is named
// `<call> (occurrence N)`, N counted as the manifest counts.
//
// A replacement that starts with `(` at the start of a statement gets a `;`
// in front when the statement before does not end with one (code written
// without semicolons would otherwise call the previous line).
//
// # Reached markers
//
// MarkReached inserts a one-line statement before each statement (of a
// block or a case) that holds a mutated site, on the same line: no line
// moves, and it runs iff control reaches that statement.
//
// # Acceptance
//
// Every mutant, and every schema, is accepted by one rule (Acceptance): no
// more tree-sitter parse errors than the source it came from, and esbuild's
// parser (what vitest transforms with) accepts it. prove fails naming a
// refused mutant; the gate drops it.
package edit
