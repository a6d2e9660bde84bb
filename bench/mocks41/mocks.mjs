// Lists every mock of a function of the repository in the test files, with
// what the TypeScript checker says of both sides: the mock's value (a
// promise, a plain value, unknown) and the real export's declared or
// inferred return (promise, plain, void, unknown), and, for a whole-module
// factory, the exports the factory sets that the module lacks. An
// independent reading (the checker, not oracle's parser) for the ground
// truth of bench/mocks41.md; every row it flags is then read by hand.
//
// Usage: node mocks.mjs REPO [TEST_GLOB_DIR] > rows.tsv  (typescript from REPO/node_modules)
import { createRequire } from "node:module"
import path from "node:path"
import fs from "node:fs"

const repo = path.resolve(process.argv[2])
const require = createRequire(path.join(repo, "package.json"))
const ts = require("typescript")

const cfgPath = ts.findConfigFile(repo, ts.sys.fileExists, "tsconfig.json")
const cfg = ts.getParsedCommandLineOfConfigFile(cfgPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} })
const walk = (d, out = []) => {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "fixtures" || e.name.startsWith(".")) continue
    const p = path.join(d, e.name)
    if (e.isDirectory()) walk(p, out)
    else if (/\.(test|spec)\.tsx?$/.test(e.name)) out.push(p)
  }
  return out
}
const tests = walk(path.join(repo, process.argv[3] || "."))
const program = ts.createProgram([...cfg.fileNames, ...tests], { ...cfg.options, noEmit: true })
const checker = program.getTypeChecker()
const rel = (f) => path.relative(repo, f)
const inRepo = (f) => f.startsWith(repo + path.sep) && !f.includes(`${path.sep}node_modules${path.sep}`)

const setters = new Set(["mockReturnValue", "mockReturnValueOnce", "mockResolvedValue", "mockResolvedValueOnce",
  "mockRejectedValue", "mockRejectedValueOnce", "mockImplementation", "mockImplementationOnce"])

function strip(e) {
  while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isTypeAssertionExpression(e) ||
    ts.isNonNullExpression(e) || ts.isSatisfiesExpression?.(e))) e = e.expression
  return e
}
function isPromiseType(t) {
  if (!t) return "unknown"
  if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return "unknown"
  if (t.flags & ts.TypeFlags.Void) return "void"
  if (t.isUnion()) {
    const parts = t.types.filter((x) => !(x.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)))
    if (parts.length === 0) return "plain"
    const kinds = new Set(parts.map(isPromiseType))
    return kinds.size === 1 ? [...kinds][0] : "unknown"
  }
  if (t.flags & ts.TypeFlags.TypeParameter) return "unknown"
  return t.getProperty("then") ? "promise" : "plain"
}
function fnReturn(node) {
  // a function expression the mock runs: its return's promise-ness
  if (!node || !(ts.isArrowFunction(node) || ts.isFunctionExpression(node))) return "unknown"
  if (node.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) return "promise"
  const sig = checker.getSignatureFromDeclaration(node)
  return sig ? isPromiseType(checker.getReturnTypeOfSignature(sig)) : "unknown"
}
function valueKind(arg) {
  if (!arg) return "unknown"
  const e = strip(arg)
  if (e.kind === ts.SyntaxKind.NullKeyword) return "plain"
  if (ts.isIdentifier(e) && e.text === "undefined") return "unknown"
  if (ts.isObjectLiteralExpression(e) || ts.isArrayLiteralExpression(e) || ts.isStringLiteralLike(e) || ts.isNumericLiteral(e) ||
    e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword || ts.isTemplateExpression(e)) return "plain"
  return isPromiseType(checker.getTypeAtLocation(e))
}
function mockKind(method, args) {
  if (/Resolved|Rejected/.test(method)) return "promise"
  if (/ReturnValue/.test(method)) return valueKind(args[0])
  return fnReturn(strip(args[0]))
}
// the real export a symbol stands for: the declaration in the repository
function realOf(sym) {
  if (!sym) return null
  if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym)
  const d = sym.valueDeclaration || sym.declarations?.[0]
  if (!d || !inRepo(d.getSourceFile().fileName) || tests.includes(d.getSourceFile().fileName)) return null
  return { sym, decl: d }
}
function realKind(real) {
  const t = checker.getTypeOfSymbolAtLocation(real.sym, real.decl)
  const sigs = t.getCallSignatures()
  if (sigs.length === 0) return "notfn"
  const kinds = new Set(sigs.map((s) => isPromiseType(checker.getReturnTypeOfSignature(s))))
  return kinds.size === 1 ? [...kinds][0] : "unknown"
}
const where = (real) => `${rel(real.decl.getSourceFile().fileName)}:${real.decl.getSourceFile().getLineAndCharacterOfPosition(real.decl.getStart()).line + 1}`
const name = (real) => real.sym.name

const rows = []
function row(sf, node, kind, real, mk, extra = "") {
  const line = sf.getLineAndCharacterOfPosition(node.getStart()).line + 1
  const rk = real ? realKind(real) : "?"
  let drift = ""
  if (real && mk === "promise" && rk === "plain") drift = "async:promise-for-sync"
  if (real && mk === "plain" && rk === "promise") drift = "async:plain-for-async"
  const text = node.getText().replace(/\s+/g, " ").slice(0, 90)
  rows.push([rel(sf.fileName), line, kind, real ? `${name(real)}@${where(real)}` : "?", mk, rk, drift || extra, text].join("\t"))
}

for (const file of tests) {
  const sf = program.getSourceFile(file)
  if (!sf) continue
  const bound = new Map() // symbol of a local (vi.fn() placed by a factory, const m = vi.mocked(f)) -> real
  const targetOf = (x) => {
    x = strip(x)
    if (ts.isCallExpression(x)) {
      const c = x.expression.getText()
      if (c === "vi.mocked" && x.arguments[0]) return targetOf(x.arguments[0])
      if (c === "vi.spyOn" && x.arguments.length >= 2 && ts.isStringLiteralLike(x.arguments[1])) {
        const t = checker.getTypeAtLocation(x.arguments[0])
        return realOf(t.getProperty(x.arguments[1].text))
      }
      if (ts.isPropertyAccessExpression(x.expression) && x.expression.name.text.startsWith("mock")) return targetOf(x.expression.expression)
      return null
    }
    if (ts.isIdentifier(x) || ts.isPropertyAccessExpression(x)) {
      const s = checker.getSymbolAtLocation(x)
      if (s && bound.has(s)) return bound.get(s)
      const d = s?.valueDeclaration
      if (d && ts.isVariableDeclaration(d) && d.initializer && d.getSourceFile() === sf) {
        const init = strip(d.initializer)
        if (ts.isCallExpression(init) && init.expression.getText() === "vi.mocked") return targetOf(init.arguments[0])
      }
      return realOf(s)
    }
    return null
  }
  // factories first (they bind the vi.fn()s they place)
  const visitFactories = (n) => {
    if (ts.isCallExpression(n) && /^vi\.(mock|doMock)$/.test(n.expression.getText()) && n.arguments.length >= 2 && ts.isStringLiteralLike(n.arguments[0])) {
      const modSym = (() => {
        const r = ts.resolveModuleName(n.arguments[0].text, file, cfg.options, ts.sys)
        const target = r.resolvedModule?.resolvedFileName
        if (!target || !inRepo(target)) return null
        const msf = program.getSourceFile(target)
        return msf && checker.getSymbolAtLocation(msf)
      })()
      let f = strip(n.arguments[1])
      let obj = null, partial = false
      if (ts.isArrowFunction(f) || ts.isFunctionExpression(f)) {
        partial = f.parameters.length > 0
        if (ts.isBlock(f.body)) {
          for (const st of f.body.statements) if (ts.isReturnStatement(st) && st.expression) obj = strip(st.expression)
        } else obj = strip(f.body)
      }
      if (modSym && obj && ts.isObjectLiteralExpression(obj)) {
        const exports = new Map(checker.getExportsOfModule(modSym).map((s) => [s.name, s]))
        for (const p of obj.properties) {
          if (!(ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) || ts.isMethodDeclaration(p))) continue
          const key = p.name?.getText().replace(/^["'`]|["'`]$/g, "")
          if (!key || key.startsWith("__")) continue
          const ex = exports.get(key)
          if (!ex) { rows.push([rel(file), sf.getLineAndCharacterOfPosition(p.getStart()).line + 1, "factory", `${key}@?`, "-", "-", "unknown-export", p.getText().replace(/\s+/g, " ").slice(0, 90)].join("\t")); continue }
          if (key === "default") continue
          const real = realOf(ex)
          if (!real) continue
          let v = ts.isPropertyAssignment(p) ? strip(p.initializer) : ts.isMethodDeclaration(p) ? p : p.name
          if (ts.isIdentifier(v) || ts.isPropertyAccessExpression(v)) {
            const s = checker.getSymbolAtLocation(v)
            if (s) bound.set(s, real)
            row(sf, p, "factory-ref", real, "unknown")
            continue
          }
          let mk = "unknown"
          if (ts.isMethodDeclaration(v)) mk = fnReturn(ts.factory ? v : v)
          else if (ts.isArrowFunction(v) || ts.isFunctionExpression(v)) mk = fnReturn(v)
          else if (ts.isCallExpression(v)) {
            // vi.fn(impl) or vi.fn().mockX(...)
            let c = v
            while (ts.isCallExpression(c)) {
              const callee = c.expression.getText()
              if (callee === "vi.fn") { mk = c.arguments[0] ? fnReturn(strip(c.arguments[0])) : "unknown"; break }
              if (ts.isPropertyAccessExpression(c.expression) && setters.has(c.expression.name.text)) { mk = mockKind(c.expression.name.text, c.arguments); break }
              if (ts.isPropertyAccessExpression(c.expression)) c = c.expression.expression
              else break
            }
          } else mk = valueKind(v)
          row(sf, p, partial ? "factory(partial)" : "factory", real, mk)
        }
      }
    }
    ts.forEachChild(n, visitFactories)
  }
  visitFactories(sf)
  const visit = (n) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && setters.has(n.expression.name.text)) {
      const real = targetOf(n.expression.expression)
      if (real) row(sf, n, n.expression.name.text, real, mockKind(n.expression.name.text, n.arguments))
    }
    ts.forEachChild(n, visit)
  }
  visit(sf)
}
console.log(["test", "line", "kind", "real", "mock", "realKind", "drift", "text"].join("\t"))
for (const r of rows) console.log(r)
