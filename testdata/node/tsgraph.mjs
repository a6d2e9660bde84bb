#!/usr/bin/env node
// tsgraph.mjs: the TypeScript type checker's call graph of a repository, printed in the
// `oracle graph --json` shape (schema oracle.graph/v1). It is the ground truth that oracle's
// own resolver is tested against (see testdata/graph/README.md).
//
//   node testdata/node/tsgraph.mjs <repoRoot> [tsconfig ...] [--allow-errors]
//
// Programs: the given tsconfig files (default: <repoRoot>/tsconfig.json), every project they
// reference (recursively), and then, for any .ts/.tsx/.mts/.cts file under the root (outside
// node_modules) that no program contains yet, the nearest tsconfig.json above it. Each program
// is created from its parsed config (its own module resolution, paths, customConditions, ...).
// Sources of referenced projects are used instead of their (unbuilt) declaration outputs, as an
// editor does (useSourceOfProjectReferenceRedirect). Each file is analysed in the program of the
// first config whose file list contains it.
//
// The script never writes to the repository. It exits 1 when a program has errors (type errors
// would make the checker's answers meaningless) unless --allow-errors is given, and 1 when some
// source file is in no program.
import { writeSync } from "node:fs";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const ts = require("typescript");

function usage(msg) {
  if (msg) process.stderr.write(`tsgraph: ${msg}\n`);
  process.stderr.write("usage: node tsgraph.mjs <repoRoot> [tsconfig ...] [--allow-errors]\n");
  process.exit(2);
}

const argv = process.argv.slice(2);
const allowErrors = argv.includes("--allow-errors");
const positional = argv.filter((a) => !a.startsWith("--"));
if (positional.length < 1) usage();
const root = fs.realpathSync(path.resolve(positional[0]));
const SOURCE_RE = /\.(ts|tsx|mts|cts)$/;

const realCache = new Map();
function real(p) {
  let r = realCache.get(p);
  if (r === undefined) {
    try {
      r = fs.realpathSync(p);
    } catch {
      r = path.resolve(p);
    }
    realCache.set(p, r);
  }
  return r;
}
function rel(p) {
  return path.relative(root, real(p)).split(path.sep).join("/");
}
function insideRepo(p) {
  const r = rel(p);
  return r !== "" && !r.startsWith("../") && r !== ".." && !path.isAbsolute(r) && !r.split("/").includes("node_modules");
}
function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------- programs

// Explicit tsconfigs must exist; the default root tsconfig.json is optional (files are then
// covered by their nearest tsconfig.json).
const explicitConfigs = positional.length > 1;
const configQueue = (explicitConfigs ? positional.slice(1) : ["tsconfig.json"])
  .map((c) => real(path.resolve(root, c)))
  .filter((c) => explicitConfigs || fs.existsSync(c));
const projects = []; // {configPath, parsed, program, checker, own: Set<realpath>}
const seenConfigs = new Set();
let failed = false;

function formatDiags(diags) {
  return ts.formatDiagnostics(diags, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  });
}

function loadConfig(configPath) {
  if (seenConfigs.has(configPath)) return;
  seenConfigs.add(configPath);
  if (!fs.existsSync(configPath)) {
    process.stderr.write(`tsgraph: no such tsconfig: ${configPath}\n`);
    failed = true;
    return;
  }
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => process.stderr.write(formatDiags([d])),
  });
  if (!parsed) {
    failed = true;
    return;
  }
  let program = null;
  if (parsed.fileNames.length > 0) {
    const host = ts.createCompilerHost(parsed.options, true);
    host.useSourceOfProjectReferenceRedirect = () => true; // editor semantics: sources, not dist/*.d.ts
    program = ts.createProgram({
      rootNames: parsed.fileNames,
      options: parsed.options,
      projectReferences: parsed.projectReferences,
      host,
      configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
    });
    const diags = ts.getPreEmitDiagnostics(program);
    if (diags.length > 0) {
      process.stderr.write(`tsgraph: ${rel(configPath)}: ${diags.length} diagnostic(s)\n${formatDiags(diags)}`);
      if (!allowErrors) failed = true;
    }
  } else if (parsed.errors.length > 0) {
    // A solution-style config ("files": []) reports "no inputs"; anything else is real.
    const errs = parsed.errors.filter((d) => d.code !== 18003);
    if (errs.length > 0) {
      process.stderr.write(formatDiags(errs));
      if (!allowErrors) failed = true;
    }
  }
  projects.push({
    configPath,
    parsed,
    program,
    checker: program ? program.getTypeChecker() : null,
    own: new Set(parsed.fileNames.map(real)),
  });
  for (const ref of parsed.projectReferences ?? []) {
    loadConfig(real(ts.resolveProjectReferencePath(ref)));
  }
}

function walkSources(dir, out) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => cmp(a.name, b.name))) {
    if (ent.name === "node_modules" || ent.name === ".git") continue;
    const p = path.join(dir, ent.name);
    if (ent.isDirectory()) walkSources(p, out);
    else if (ent.isFile() && SOURCE_RE.test(ent.name)) out.push(real(p));
  }
  return out;
}

function inSomeProgram(file) {
  return projects.some((p) => p.program && p.program.getSourceFile(file));
}

for (const c of configQueue) loadConfig(c);
const allSources = walkSources(root, []);
for (const file of allSources) {
  if (inSomeProgram(file)) continue;
  // nearest tsconfig.json above the file, up to the root
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "tsconfig.json");
    if (fs.existsSync(candidate) && !seenConfigs.has(real(candidate))) {
      loadConfig(real(candidate));
      if (inSomeProgram(file)) break;
    }
    if (dir === root || path.dirname(dir) === dir) break;
  }
}
const uncovered = allSources.filter((f) => !inSomeProgram(f));
for (const f of uncovered) process.stderr.write(`tsgraph: ${rel(f)} is in no program\n`);
if (uncovered.length > 0) failed = true;

// file -> project that analyses it: the first whose config lists it, else the first containing it
function ownerOf(file) {
  return (
    projects.find((p) => p.program && p.own.has(file) && p.program.getSourceFile(file)) ??
    projects.find((p) => p.program && p.program.getSourceFile(file))
  );
}

// ---------------------------------------------------------------- classification

function isExternalFile(program, sf) {
  return program.isSourceFileDefaultLibrary(sf) || !insideRepo(sf.fileName);
}

function hasModifier(node, kind) {
  return !!ts.getModifiers?.(node)?.some((m) => m.kind === kind);
}

function skipOuter(e) {
  while (e && (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e))) e = e.expression;
  return e;
}

function isImportCall(e) {
  e = skipOuter(e);
  if (e && ts.isAwaitExpression(e)) e = skipOuter(e.expression);
  return !!e && ts.isCallExpression(e) && e.expression.kind === ts.SyntaxKind.ImportKeyword;
}

// The variable statement at the top of a source file that holds this declaration, if any.
function topLevelVariableDeclaration(decl) {
  let n = decl;
  while (n && (ts.isBindingElement(n) || ts.isObjectBindingPattern(n) || ts.isArrayBindingPattern(n))) n = n.parent;
  if (!n || !ts.isVariableDeclaration(n)) return null;
  const stmt = n.parent?.parent;
  return stmt && ts.isVariableStatement(stmt) && ts.isSourceFile(stmt.parent) ? n : null;
}

// Name of a top-level declaration as it appears in a target `<file>#<name>`, or null.
function topLevelName(decl) {
  if (ts.isFunctionDeclaration(decl) || ts.isClassDeclaration(decl)) {
    if (!ts.isSourceFile(decl.parent)) return null;
    if (hasModifier(decl, ts.SyntaxKind.DefaultKeyword)) return "default";
    return decl.name ? decl.name.text : null;
  }
  if (ts.isExportAssignment(decl)) {
    return ts.isSourceFile(decl.parent) ? (decl.isExportEquals ? "export=" : "default") : null;
  }
  if (ts.isVariableDeclaration(decl) || ts.isBindingElement(decl)) {
    if (!topLevelVariableDeclaration(decl)) return null;
    return ts.isIdentifier(decl.name) ? decl.name.text : null;
  }
  if (ts.isEnumDeclaration(decl) || ts.isModuleDeclaration(decl)) {
    return ts.isSourceFile(decl.parent) && ts.isIdentifier(decl.name) ? decl.name.text : null;
  }
  return null;
}

function isMemberDeclaration(decl) {
  return (
    ts.isPropertySignature(decl) ||
    ts.isPropertyDeclaration(decl) ||
    ts.isMethodDeclaration(decl) ||
    ts.isMethodSignature(decl) ||
    ts.isPropertyAssignment(decl) ||
    ts.isShorthandPropertyAssignment(decl) ||
    ts.isGetAccessorDeclaration(decl) ||
    ts.isSetAccessorDeclaration(decl) ||
    ts.isEnumMember(decl) ||
    ts.isModuleBlock(decl.parent) // a member of a namespace
  );
}

function resolveAlias(checker, sym) {
  let aliased = false;
  while (sym && sym.flags & ts.SymbolFlags.Alias) {
    const next = checker.getAliasedSymbol(sym);
    if (!next || next === sym) break;
    sym = next;
    aliased = true;
  }
  return { sym, aliased };
}

function declarationOf(sym) {
  return sym ? (sym.valueDeclaration ?? sym.declarations?.[0]) : undefined;
}

// `const { a } = await import("x")` / `const { a: b } = await import("x")`: the checker's symbol
// for `a` is the local binding; follow it to the property of the imported module it destructures.
function throughDynamicImportBinding(checker, decl) {
  if (!decl || !ts.isBindingElement(decl) || !ts.isObjectBindingPattern(decl.parent)) return null;
  const varDecl = decl.parent.parent;
  if (!ts.isVariableDeclaration(varDecl) || !varDecl.initializer || !isImportCall(varDecl.initializer)) return null;
  const key = decl.propertyName ?? decl.name;
  if (!ts.isIdentifier(key) && !ts.isStringLiteral(key)) return null;
  const prop = checker.getPropertyOfType(checker.getTypeAtLocation(varDecl.initializer), key.text);
  return prop ? resolveAlias(checker, prop).sym : null;
}

function leftmost(e) {
  e = skipOuter(e);
  while (e && (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e))) e = skipOuter(e.expression);
  return e;
}

// Graph-function names by declaration node (filled by functionsOf before any call is analysed).
let graphNames = new Map();

function graphNameOf(sym) {
  for (const d of sym?.declarations ?? []) {
    const q = graphNames.get(d);
    if (q !== undefined) return { decl: d, name: q };
  }
  return null;
}

// `Iface.m` for a member signature of a top-level interface.
function interfaceMemberName(decl) {
  if ((ts.isMethodSignature(decl) || ts.isPropertySignature(decl)) && ts.isInterfaceDeclaration(decl.parent) &&
      ts.isSourceFile(decl.parent.parent)) {
    const n = memberName(decl.name);
    return n === null ? null : decl.parent.name.text + "." + n;
  }
  return null;
}

// `Class.m` for a member of a graph class that has no body: an abstract or
// bodiless method, a field (not one holding a function: that one is a graph
// function), a parameter property.
const classQual = new Map(); // class node -> its graph name
function classMemberName(decl) {
  let cls = null;
  let n = null;
  if ((ts.isPropertyDeclaration(decl) || ts.isMethodDeclaration(decl)) && classQual.has(decl.parent)) {
    cls = decl.parent;
    n = memberName(decl.name);
  } else if (ts.isParameter(decl) && ts.isConstructorDeclaration(decl.parent) && ts.isParameterPropertyDeclaration(decl, decl.parent) &&
      classQual.has(decl.parent.parent) && ts.isIdentifier(decl.name)) {
    cls = decl.parent.parent;
    n = decl.name.text;
  }
  return cls && n !== null ? classQual.get(cls) + "." + n : null;
}

function isClassOrInterfaceMember(decl) {
  return ts.isClassElement(decl) || ts.isTypeElement(decl) || (decl.parent && ts.isPropertyDeclaration(decl.parent));
}

// scope says whether oracle's resolver promises to resolve the call: "declared" when names
// and declared types decide the target (a name, a module member, this.m(), this.dep.m() with
// a declared field type, Class.m(), new X(), a member of an object literal), "inferred" when
// only the checker's inference does (a call through a parameter, a local value, a call's
// result, a field without a declared type).
// thisOfArgument: `this` in a method of an object literal passed to a call
// (`$constructor("T", init, { check() { this.clone() } })`) has the type of the parameter
// it is matched to, which the checker infers (a generic call's type arguments, overloads):
// no declaration of the literal says it.
function thisOfArgument(callee) {
  let base = callee;
  while (ts.isPropertyAccessExpression(base) || ts.isElementAccessExpression(base)) base = skipOuter(base.expression);
  if (base.kind !== ts.SyntaxKind.ThisKeyword) return false;
  const fn = ts.getThisContainer(base, false, false);
  if (!fn || !fn.parent) return false;
  let obj = ts.isPropertyAssignment(fn.parent) ? fn.parent.parent : fn.parent;
  if (!ts.isObjectLiteralExpression(obj)) return false;
  while (obj.parent && (ts.isParenthesizedExpression(obj.parent) || ts.isAsExpression(obj.parent) || ts.isNonNullExpression(obj.parent))) obj = obj.parent;
  const call = obj.parent;
  return !!call && (ts.isCallExpression(call) || ts.isNewExpression(call)) && (call.arguments ?? []).includes(obj);
}

function scopeOf(checker, callee) {
  if (ts.isIdentifier(callee)) return "declared";
  if (!ts.isPropertyAccessExpression(callee) && !ts.isElementAccessExpression(callee)) return "inferred";
  if (ts.isElementAccessExpression(callee) && !ts.isStringLiteralLike(callee.argumentExpression)) return "inferred";
  const base = skipOuter(callee.expression);
  if (thisOfArgument(callee)) return "inferred";
  if (base.kind === ts.SyntaxKind.ThisKeyword) return "declared";
  if (ts.isPropertyAccessExpression(base) && skipOuter(base.expression).kind === ts.SyntaxKind.ThisKeyword) {
    // Declared: the field's (or parameter property's) type is written as the name of a class
    // or interface (not a type parameter, an alias, a union...).
    const d = declarationOf(checker.getSymbolAtLocation(base.name));
    if (!d || !(ts.isPropertyDeclaration(d) || ts.isParameter(d)) || !d.type || !ts.isTypeReferenceNode(d.type)) return "inferred";
    const ts0 = checker.getSymbolAtLocation(d.type.typeName);
    const tsym = ts0 ? resolveAlias(checker, ts0).sym : undefined;
    return tsym && tsym.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface) ? "declared" : "inferred";
  }
  const left = leftmost(callee);
  if (!left || !ts.isIdentifier(left)) return "inferred";
  // Every step between the leftmost name and the called member must be declared: a module,
  // a namespace, a class (static member), an object literal bound to a name. A step through
  // any other value (`ns.registry.get()`, where registry = new Registry()) needs inference.
  for (let e = skipOuter(callee.expression); e !== left; e = skipOuter(e.expression)) {
    if (!ts.isPropertyAccessExpression(e)) return "inferred";
    const ms = checker.getSymbolAtLocation(e.name);
    const { sym } = ms ? resolveAlias(checker, ms) : { sym: undefined };
    const d = declarationOf(sym);
    if (!sym) return "inferred";
    if (sym.flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.Class)) continue;
    if (d && (ts.isSourceFile(d) || ts.isModuleDeclaration(d))) continue;
    if (d && ts.isVariableDeclaration(d) && d.initializer && ts.isObjectLiteralExpression(skipOuter(d.initializer))) continue;
    return "inferred";
  }
  const first = checker.getSymbolAtLocation(left);
  if (!first) return "inferred";
  if (first.flags & ts.SymbolFlags.Alias) {
    const { sym } = resolveAlias(checker, first);
    const d = declarationOf(sym);
    if (!d || ts.isSourceFile(d) || ts.isModuleDeclaration(d) || ts.isClassDeclaration(d) || ts.isFunctionDeclaration(d)) return "declared";
    if (ts.isVariableDeclaration(d) && d.initializer && ts.isObjectLiteralExpression(skipOuter(d.initializer))) return "declared";
    return "inferred";
  }
  if (first.flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.Class)) return "declared";
  const d = declarationOf(first);
  if (d && ts.isVariableDeclaration(d) && d.initializer && ts.isObjectLiteralExpression(skipOuter(d.initializer)) &&
      topLevelVariableDeclaration(d)) return "declared";
  if (d && isImportCall(d.initializer ?? d)) return "declared";
  return "inferred";
}

function analyseCall(project, sf, call) {
  const { checker, program } = project;
  const isNew = ts.isNewExpression(call);
  const calleeExpr = call.expression;
  const start = call.getStart(sf);
  const lc = sf.getLineAndCharacterOfPosition(start);
  const out = {
    text: calleeExpr.getText(sf).replace(/\s+/g, " "),
    line: lc.line + 1,
    column: lc.character + 1,
    target: null,
    kind: "none",
  };
  const callee = skipOuter(calleeExpr);
  out.scope = scopeOf(checker, callee);
  if (isNew) out.new = true;
  let at = null;
  if (ts.isIdentifier(callee)) at = callee;
  else if (ts.isPropertyAccessExpression(callee)) at = callee.name;
  else if (ts.isElementAccessExpression(callee)) at = callee.argumentExpression;
  if (!at) return out;
  const first = checker.getSymbolAtLocation(at);
  if (!first) return out;
  let { sym, aliased } = resolveAlias(checker, first);
  let decl = declarationOf(sym);
  let viaDynamic = false;
  const fromImport = throughDynamicImportBinding(checker, decl);
  if (fromImport) {
    sym = fromImport;
    decl = declarationOf(sym);
    viaDynamic = true;
  }
  if (!decl) return out;
  const declFile = decl.getSourceFile();
  if (isExternalFile(program, declFile)) {
    out.kind = "external";
    return out;
  }
  if (isNew && (ts.isClassDeclaration(decl) || ts.isClassExpression(decl))) {
    // new C(): the constructor the checker picks (C's own, or a base class's).
    out.kind = "member";
    const ctor = checker.getResolvedSignature(call)?.declaration;
    if (ctor && ts.isConstructorDeclaration(ctor) && !isExternalFile(program, ctor.getSourceFile())) {
      const q = graphNames.get(ctor);
      if (q !== undefined) out.target = `${rel(ctor.getSourceFile().fileName)}#${q}`;
    }
    return out;
  }
  const g = graphNameOf(sym);
  let name = g ? g.name : topLevelName(decl);
  if (g) decl = g.decl;
  if (name === null) name = interfaceMemberName(decl);
  if (name === null) name = classMemberName(decl);
  if (name === null) {
    out.kind = isMemberDeclaration(decl) ? "member" : "nested";
    return out;
  }
  out.target = `${rel(decl.getSourceFile().fileName)}#${name}`;
  // how the call reaches it (the SPEC's `via`)
  if (isClassOrInterfaceMember(decl)) out.kind = "member";
  else if (viaDynamic) out.kind = "dynamic-import";
  else if (ts.isIdentifier(callee)) out.kind = aliased ? "import" : declFile === sf ? "local" : "global";
  else {
    const base = leftmost(callee);
    let baseDecl = null;
    if (base && ts.isIdentifier(base)) {
      const bs = checker.getSymbolAtLocation(base);
      baseDecl = declarationOf(bs);
      if (baseDecl && ts.isVariableDeclaration(baseDecl) && baseDecl.initializer && isImportCall(baseDecl.initializer)) {
        out.kind = "dynamic-import";
      } else if (bs && (bs.flags & ts.SymbolFlags.Alias || bs.flags & ts.SymbolFlags.ValueModule)) {
        out.kind = "namespace";
      } else out.kind = "member";
    } else if (base && isImportCall(base)) out.kind = "dynamic-import";
    else out.kind = "member";
  }
  return out;
}

// ---------------------------------------------------------------- functions
//
// The graph's functions (SPEC "oracle graph"): top-level functions, named functions nested in
// function bodies, functions of namespaces, and class members with a body. A function's name
// is the path of its enclosing named declarations (functions, classes, namespaces) joined by
// dots: `outer.inner`, `Class.method`, `Store.value` (getter), `Store.value=` (setter),
// `Class.constructor`, `util.joinValues`; a second function with the same path gets `~2`.
// Anonymous functions (callbacks) add nothing to the path and are no graph functions.

function unwrapInit(e) {
  while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression?.(e) ||
    ts.isNonNullExpression(e) || ts.isTypeAssertionExpression?.(e))) e = e.expression;
  return e;
}

function memberName(name) {
  if (!name) return null;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  return name.getText();
}

// functionsOf returns {name, stmt (positions the line), fn (has the body), nameNode, kind, cls}
// and fills qualOf: declaration node -> name, for the declarations a call can resolve to.
function functionsOf(sf, qualOf) {
  const found = [];
  const seen = new Map();
  const add = (name, stmt, fn, nameNode, kind, cls, decls) => {
    const k = (seen.get(name) ?? 0) + 1;
    seen.set(name, k);
    if (k > 1) name += "~" + k;
    found.push({ name, stmt, fn, nameNode, kind, cls });
    for (const d of decls) qualOf.set(d, name);
    return name;
  };
  const join = (prefix, name) => (prefix ? prefix + "." + name : name);
  const isFn = (e) => e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e));

  function visitClass(node, qual, exported) {
    // The instance fields whose initializer is not a function: one graph function,
    // Class.<fields>, run at construction; their calls are its calls.
    const inits = node.members.filter((m) => ts.isPropertyDeclaration(m) && m.initializer &&
      !hasModifier(m, ts.SyntaxKind.StaticKeyword) && !isFn(unwrapInit(m.initializer)));
    if (inits.length > 0) {
      const f = { body: null, inits: inits.map((m) => m.initializer) };
      add(qual + ".<fields>", inits[0], f, null, "fields", { qual, exported }, []);
    }
    for (const m of node.members) {
      const name = memberName(m.name);
      if (ts.isConstructorDeclaration(m)) {
        if (m.body) add(qual + ".constructor", m, m, null, "constructor", { qual, exported }, [m]);
      } else if (ts.isMethodDeclaration(m)) {
        if (m.body && name !== null) add(qual + "." + name, m, m, m.name, "method", { qual, exported }, [m]);
      } else if (ts.isGetAccessorDeclaration(m)) {
        if (m.body && name !== null) add(qual + "." + name, m, m, m.name, "getter", { qual, exported }, [m]);
      } else if (ts.isSetAccessorDeclaration(m)) {
        if (m.body && name !== null) add(qual + "." + name + "=", m, m, m.name, "setter", { qual, exported }, [m]);
      } else if (ts.isPropertyDeclaration(m)) {
        const init = unwrapInit(m.initializer);
        if (isFn(init) && name !== null) add(qual + "." + name, m, init, m.name, "field", { qual, exported }, [m, init]);
      } else if (ts.isClassStaticBlockDeclaration(m)) {
        ownQual.set(m, add(qual + ".<static>", m, m, null, "static", { qual, exported }, []));
      }
    }
  }

  function className(node, prefix) {
    if (node.name) return join(prefix, node.name.text);
    const p = node.parent;
    if (ts.isClassExpression(node)) {
      let up = p;
      while (up && (ts.isParenthesizedExpression(up) || ts.isAsExpression(up) || ts.isSatisfiesExpression?.(up) || ts.isNonNullExpression(up))) up = up.parent;
      if (up && ts.isVariableDeclaration(up) && ts.isIdentifier(up.name)) return join(prefix, up.name.text);
      return null;
    }
    if (ts.isClassDeclaration(node) && hasModifier(node, ts.SyntaxKind.DefaultKeyword) && !prefix) return "default";
    return null;
  }

  // Module-level code (the module's or a namespace's statements, outside any function and
  // class body): every function expression, arrow and object-literal method is a graph
  // function of its own, named from bind, the name path that binds the expression (a
  // variable, `export default`, an assignment's target, an object literal's property, the
  // callee of a call nothing else names): `fee.<arrow>`, `default.run`, `handlers.del`,
  // `app.get.<arrow>`; `exports.handler` for a function assigned directly.
  const chainName = (e) => {
    e = unwrapInit(e);
    if (!e) return "";
    if (ts.isIdentifier(e) || ts.isPrivateIdentifier(e)) return e.text;
    if (e.kind === ts.SyntaxKind.ThisKeyword) return "this";
    if (e.kind === ts.SyntaxKind.SuperKeyword) return "super";
    if (ts.isPropertyAccessExpression(e)) {
      const obj = chainName(e.expression);
      return obj ? obj + "." + e.name.text : "";
    }
    if (ts.isCallExpression(e)) return chainName(e.expression);
    return "";
  };
  const propName = (name) => {
    if (name && ts.isComputedPropertyName(name)) return name.getText(sf).replace(/\s+/g, "");
    return memberName(name);
  };
  // A test framework's function (a global, or imported from the framework; not the module's
  // own): its callbacks are test code.
  const testFrameworks = new Set(["vitest", "@jest/globals", "bun:test", "node:test", "mocha"]);
  const testAPI = (name) => {
    if (!["describe", "it", "test", "suite", "bench", "beforeAll", "beforeEach", "afterAll", "afterEach"].includes(name)) return false;
    for (const st of sf.statements) {
      if (ts.isImportDeclaration(st) && st.importClause) {
        const c = st.importClause;
        const names = [];
        if (c.name) names.push(c.name.text);
        if (c.namedBindings) {
          if (ts.isNamespaceImport(c.namedBindings)) names.push(c.namedBindings.name.text);
          else for (const e of c.namedBindings.elements) names.push(e.name.text);
        }
        if (names.includes(name)) return testFrameworks.has(st.moduleSpecifier.text);
      }
    }
    for (const st of sf.statements) {
      const decl = ts.isExportAssignment(st) ? null : st;
      if (!decl) continue;
      if ((ts.isFunctionDeclaration(decl) || ts.isClassDeclaration(decl) || ts.isEnumDeclaration(decl) || ts.isModuleDeclaration(decl)) && decl.name?.text === name) return false;
      if (ts.isVariableStatement(decl) && decl.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name)) return false;
    }
    return true;
  };
  const ownQual = new Map(); // module-level function node -> its name (for what is nested in it)
  const modFn = (qual, stmt, fn, kind) => {
    const name = add(qual, stmt, fn, null, kind, null, []);
    ownQual.set(fn, name);
    return name;
  };

  // named: inside a named declaration (function, class, namespace); ns: directly in a namespace;
  // mod: in module-level code; bind: see above.
  function visit(node, prefix, ns, mod, bind) {
    if (ts.isFunctionDeclaration(node) && node.body) {
      let name = null;
      if (ts.isSourceFile(node.parent)) {
        const isDefault = hasModifier(node, ts.SyntaxKind.DefaultKeyword);
        if (isDefault || node.name) name = add(isDefault ? "default" : node.name.text, node, node, node.name ?? null, "function", null, [node]);
      } else if (prefix && node.name) {
        name = add(prefix + "." + node.name.text, node, node, node.name, ns ? "namespace" : "nested", null, [node]);
      }
      ts.forEachChild(node, (c) => visit(c, name ?? prefix, false, false, ""));
      return;
    }
    if (ts.isVariableStatement(node) && !hasModifier(node, ts.SyntaxKind.DeclareKeyword)) {
      const top = ts.isSourceFile(node.parent);
      for (const d of node.declarationList.declarations) {
        const init = unwrapInit(d.initializer);
        if (ts.isIdentifier(d.name) && isFn(init) && (top || prefix)) {
          const name = add(top ? d.name.text : prefix + "." + d.name.text, node, init, d.name,
            top ? "function" : ns ? "namespace" : "nested", null, [d, init]);
          ts.forEachChild(d, (c) => visit(c, name, false, false, ""));
        } else {
          const b = mod && ts.isIdentifier(d.name) && !isFn(init) && !(init && ts.isClassExpression(init)) ? join(prefix, d.name.text) : bind;
          ts.forEachChild(d, (c) => visit(c, prefix, ns, mod, b));
        }
      }
      return;
    }
    if (ts.isExportAssignment(node) && !node.isExportEquals && ts.isSourceFile(node.parent)) {
      const init = unwrapInit(node.expression);
      if (isFn(init)) {
        const name = add("default", node, init, null, "function", null, [node, init]);
        ts.forEachChild(node, (c) => visit(c, name, false, false, ""));
        return;
      }
      if (mod) {
        ts.forEachChild(node, (c) => visit(c, prefix, ns, mod, "default"));
        return;
      }
    }
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const qual = className(node, prefix);
      if (qual !== null) {
        const exported = ts.isSourceFile(node.parent) && (qual === "default" || hasModifier(node, ts.SyntaxKind.ExportKeyword) || isExportedName(sf, node.name));
        classQual.set(node, qual);
        visitClass(node, qual, exported);
        ts.forEachChild(node, (c) => visit(c, qual, false, false, ""));
        return;
      }
      ts.forEachChild(node, (c) => visit(c, prefix, ns, false, ""));
      return;
    }
    if (ts.isModuleDeclaration(node) && ts.isIdentifier(node.name)) {
      const qual = join(prefix, node.name.text);
      if (node.body) visit(node.body, qual, true, mod, qual);
      return;
    }
    if (ts.isModuleBlock(node)) {
      ts.forEachChild(node, (c) => visit(c, prefix, ns, mod, bind));
      return;
    }
    if (mod) {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
        // (outside a variable statement: `for (const x = ...;;)`)
        const init = unwrapInit(node.initializer);
        if (!isFn(init) && !(init && ts.isClassExpression(init))) {
          ts.forEachChild(node, (c) => visit(c, prefix, ns, mod, join(prefix, node.name.text)));
          return;
        }
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
        const name = chainName(node.left);
        if (name) {
          ts.forEachChild(node, (c) => visit(c, prefix, ns, mod, join(prefix, name)));
          return;
        }
      }
      if (ts.isCallExpression(node) && testAPI(chainName(node.expression).split(".")[0])) {
        // describe/it/test/hooks: the test's code, no functions.
        ts.forEachChild(node, (c) => visit(c, prefix, ns, false, ""));
        return;
      }
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && !bind) {
        const name = chainName(node.expression);
        ts.forEachChild(node, (c) => visit(c, prefix, ns, mod, name ? join(prefix, name) : bind));
        return;
      }
      if (ts.isPropertyAssignment(node)) {
        const key = propName(node.name);
        if (key) {
          const b = join(bind, key);
          const init = unwrapInit(node.initializer);
          if (isFn(init) && !ownQual.has(init)) modFn(b, node, init, "property");
          ts.forEachChild(node, (c) => visit(c, prefix, ns, mod, b));
          return;
        }
      }
      if ((ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) &&
          ts.isObjectLiteralExpression(node.parent) && node.body) {
        const key = propName(node.name);
        if (key) {
          const name = modFn(join(bind, key) + (ts.isSetAccessorDeclaration(node) ? "=" : ""), node, node, "property");
          ts.forEachChild(node, (c) => visit(c, name, false, false, ""));
          return;
        }
      }
      if (isFn(node) && !ownQual.has(node)) {
        const own = node.name ? node.name.text : ts.isArrowFunction(node) ? "<arrow>" : "<function>";
        const direct = node.parent && ts.isBinaryExpression(node.parent) && node.parent.right === node &&
          node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && bind;
        const name = modFn(direct ? bind : join(bind, own), node, node, "expression");
        ts.forEachChild(node, (c) => visit(c, name, false, false, ""));
        return;
      }
    }
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) {
      // A member or an anonymous function: its own graph function (if any) was recorded by
      // visitClass or above; a nested declaration inside is named after the member.
      const own = qualOf.get(node) ?? ownQual.get(node) ?? (node.parent && ts.isPropertyDeclaration(node.parent) ? qualOf.get(node.parent) : undefined);
      ts.forEachChild(node, (c) => visit(c, own ?? prefix, false, false, ""));
      return;
    }
    ts.forEachChild(node, (c) => visit(c, prefix, ns, mod, bind));
  }
  ts.forEachChild(sf, (c) => visit(c, "", false, true, ""));
  return found;
}

// topStatement is the statement of the source file (or namespace body) that holds d.
function topStatement(d) {
  while (d.parent && !ts.isSourceFile(d.parent) && !ts.isModuleBlock(d.parent)) d = d.parent;
  return d;
}

// localName is the name a declaration binds in its module.
function localName(d) {
  return d.name && (ts.isIdentifier(d.name) || ts.isPrivateIdentifier(d.name)) ? d.name.text : null;
}

let checkerForExport = null;
function isExportedName(sf, nameNode) {
  if (!nameNode || !checkerForExport) return false;
  const moduleSym = checkerForExport.getSymbolAtLocation(sf);
  if (!moduleSym) return false;
  const own = checkerForExport.getSymbolAtLocation(nameNode);
  return checkerForExport.getExportsOfModule(moduleSym).some((e) => resolveAlias(checkerForExport, e).sym === own);
}

function isExported(checker, sf, f) {
  if (f.cls) return f.cls.exported;
  if (f.kind === "property" || f.kind === "expression") {
    // Module-level code: exported when the variable (or namespace) that binds it is.
    const root = f.name.split(".")[0];
    if (root === "default") return true;
    const moduleSym = checker.getSymbolAtLocation(sf);
    if (!moduleSym) return false;
    return checker.getExportsOfModule(moduleSym).some((e) => {
      const d = declarationOf(resolveAlias(checker, e).sym);
      return !!d && d.getSourceFile() === sf && ts.isSourceFile(topStatement(d).parent) && localName(d) === root;
    });
  }
  if (f.kind !== "function") return false;
  if (f.name === "default" || hasModifier(f.stmt, ts.SyntaxKind.ExportKeyword)) return true;
  const moduleSym = checker.getSymbolAtLocation(sf);
  if (!moduleSym || !f.nameNode) return false;
  const own = checker.getSymbolAtLocation(f.nameNode);
  return checker.getExportsOfModule(moduleSym).some((e) => resolveAlias(checker, e).sym === own);
}

// Graph-function names of every analysed file, computed first: a call can resolve to a
// function of another file.
const qualOf = new Map();
const perFile = [];
for (const file of allSources) {
  const project = ownerOf(file);
  if (!project) continue;
  const sf = project.program.getSourceFile(file);
  if (!sf || sf.isDeclarationFile) continue;
  checkerForExport = project.checker;
  perFile.push({ file, project, sf, fns: functionsOf(sf, qualOf) });
}
graphNames = qualOf;

const functions = [];
for (const { file, project, sf, fns } of perFile) {
  const relFile = rel(file);
  for (const f of fns) {
    const calls = [];
    const visit = (node) => {
      if ((ts.isCallExpression(node) && node.expression.kind !== ts.SyntaxKind.ImportKeyword &&
          node.expression.kind !== ts.SyntaxKind.SuperKeyword) || ts.isNewExpression(node)) {
        calls.push(analyseCall(project, sf, node));
      }
      ts.forEachChild(node, visit);
    };
    if (f.fn.inits) f.fn.inits.forEach(visit);
    else if (f.fn.body) visit(f.fn.body);
    const fnode = {
      id: `${relFile}#${f.name}`,
      file: relFile,
      name: f.name,
      exported: isExported(project.checker, sf, f),
      line: sf.getLineAndCharacterOfPosition(f.stmt.getStart(sf)).line + 1,
      calls,
    };
    if (f.kind !== "function") fnode.kind = f.kind;
    if (f.cls) fnode.class = f.cls.qual;
    functions.push(fnode);
  }
}
functions.sort((a, b) => cmp(a.file, b.file) || a.line - b.line || cmp(a.name, b.name));

// Written synchronously and ended with exitCode, not process.exit(): on a pipe,
// process.stdout.write is asynchronous and exit() would cut the output short.
writeSync(1, JSON.stringify({ schema: "oracle.graph/v1", functions }, null, 2) + "\n");
process.exitCode = failed ? 1 : 0;
