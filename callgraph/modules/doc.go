// Package modules resolves import specifiers to files of the repository the
// way TypeScript 5.x resolves them for a project (moduleResolution "bundler" /
// "node16", importing from ESM TypeScript), without ever following a package
// outside the repository.
//
// We write our own resolver, rather than reuse esbuild's or Node's, because:
//
//   - packages outside the repository are never followed: a bare specifier
//     that is neither a workspace package nor a tsconfig paths/baseUrl match is
//     simply external, reported with its package name ("zod", "@scope/pkg",
//     "node:fs"); no node_modules walk is needed (or wanted: node_modules may
//     not be installed, and its code is not ours to analyze);
//   - tsconfig customConditions, paths and baseUrl apply per owning tsconfig
//     (nearest tsconfig.json, through solution-style project references), not
//     once for the whole build;
//   - workspace packages (npm/yarn "workspaces", pnpm-workspace.yaml) must
//     resolve through their package.json "exports" even when the
//     node_modules links are not installed, as is common with pnpm.
//
// Resolution order for one specifier mirrors tsc: relative and absolute paths
// probe files (./x.js names x.ts; no extension tries .ts, .tsx, .d.ts, then a
// directory's package.json types/typings/main and index files; the same is
// then tried with JavaScript extensions); bare specifiers try tsconfig paths
// (exact pattern, else the longest-prefix wildcard, each substitution a
// fallback), then baseUrl, then the nearest package.json "imports" for "#"
// names, then workspace packages through "exports" (conditions matched in the
// object's own key order against customConditions, types, import, default),
// and otherwise are external.
//
// Where tsc would fail or go outside the repository we decide: a file found in
// a node_modules directory (through paths, baseUrl or a relative path) is
// reported as that external package; a paths pattern with a non-empty prefix
// ("@/*") that matches but whose substitutions all miss is unresolved with the
// candidates tried, unless the name is a workspace package (a catch-all "*"
// pattern falls through to packages, as tsc does); exports targets must exist
// (a .js target names its .ts/.d.ts source, as in tsc), no outDir→rootDir
// mapping is attempted.
//
// A Resolver is safe for concurrent use. Results depend only on the importer's
// directory and owning tsconfig and are cached, as are file-system probes and
// parsed configuration files. Problems in configuration files (bad JSONC,
// extends cycles, missing extends targets, oversized or binary files) are
// collected as Diagnostics; they never stop resolution.
package modules
