/**
 * The rules of the house (docs/architecture.md), read from the sources' imports: no module of a
 * package's `src` imports, for a value, a module that imports it back (type-only imports aside); no
 * package reaches into another's `internal/`; `@s2-effect/core` imports nothing but `effect`, and
 * never `effect/ai`. The imports are read with TypeScript's own parser.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const packages = path.resolve(import.meta.dirname, "../..")

interface Import {
  readonly from: string
  readonly specifier: string
  /** The module it names, when it is one of the workspace's own files. */
  readonly to: string | undefined
  readonly typeOnly: boolean
}

const sourcesUnder = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourcesUnder(file)
    return /\.m?ts$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [file] : []
  })

const sources = fs.readdirSync(packages)
  .map((name) => path.join(packages, name, "src"))
  .filter((dir) => fs.existsSync(dir))
  .flatMap(sourcesUnder)

/** The file a relative specifier names (`./x.js` is `./x.ts`), if it is one. */
const resolve = (from: string, specifier: string): string | undefined => {
  if (!specifier.startsWith(".")) return undefined
  const base = path.resolve(path.dirname(from), specifier).replace(/\.m?js$/, "")
  return [`${base}.ts`, `${base}.mts`, path.join(base, "index.ts")].find((file) => fs.existsSync(file))
}

const allTypes = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) =>
  elements.length > 0 && elements.every((element) => element.isTypeOnly)

const importsOf = (file: string): Array<Import> => {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false)
  return source.statements.flatMap((statement): Array<Import> => {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause
      const bindings = clause?.namedBindings
      const typeOnly = clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) &&
            allTypes(bindings.elements)))
      const specifier = statement.moduleSpecifier.text
      return [{ from: file, specifier, to: resolve(file, specifier), typeOnly }]
    }
    if (
      ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const clause = statement.exportClause
      const typeOnly = statement.isTypeOnly ||
        (clause !== undefined && ts.isNamedExports(clause) && allTypes(clause.elements))
      const specifier = statement.moduleSpecifier.text
      return [{ from: file, specifier, to: resolve(file, specifier), typeOnly }]
    }
    return []
  })
}

const imports = sources.flatMap(importsOf)
const packageOf = (file: string) => path.relative(packages, file).split(path.sep)[0]!
const shown = (file: string) => path.relative(packages, file)

/** The strongly connected groups of more than one module in the value-import graph (Tarjan). */
const cycles = (): Array<Array<string>> => {
  const next = new Map<string, Array<string>>(sources.map((file) => [file, []]))
  for (const i of imports) if (!i.typeOnly && i.to !== undefined) next.get(i.from)?.push(i.to)
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<Array<string>> = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const group: Array<string> = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        group.push(shown(w))
      } while (w !== v)
      if (group.length > 1) found.push(group.sort())
    }
  }
  for (const file of sources) if (!index.has(file)) visit(file)
  return found
}

describe("the rules of the house", () => {
  it("reads the sources of every package", () => {
    expect(new Set(sources.map(packageOf))).toEqual(
      new Set(["ai", "bench", "browser", "cli", "core", "jobs", "node", "test-support", "testing"])
    )
    expect(imports.length).toBeGreaterThan(500)
  })

  it("no module imports, for a value, a module that imports it back", () => {
    expect(cycles()).toEqual([])
  })

  it("no package reaches into another's internal/", () => {
    const reaching = imports.filter((i) =>
      (i.to !== undefined && packageOf(i.to) !== packageOf(i.from) &&
        i.to.includes(`${path.sep}internal${path.sep}`)) ||
      /^@s2-effect\/[^/]+\/.*internal/.test(i.specifier)
    )
    expect(reaching.map((i) => `${shown(i.from)} → ${i.specifier}`)).toEqual([])
  })

  it("core imports nothing but effect, and never effect/ai", () => {
    const outside = imports.filter((i) =>
      packageOf(i.from) === "core" && i.to === undefined &&
      (!/^effect(\/|$)/.test(i.specifier) || /^effect\/ai(\/|$)/.test(i.specifier))
    )
    expect(outside.map((i) => `${shown(i.from)} → ${i.specifier}`)).toEqual([])
  })

  it("no code parses an error's message: it reads the error's fields (subject, problem, advice, …)", () => {
    // `x.message.replace(…)`, `.message.slice(…)`, `/…/.test(x.message)`: a sentence edited or
    // searched is a field that is missing. A message is only ever shown as it is.
    const parsing = [
      /\.message\??\.(?:replace|replaceAll|match|matchAll|slice|substring|substr|split|startsWith|endsWith|includes|indexOf|lastIndexOf|search|at|trim)\s*\(/,
      /\.(?:test|exec)\(\s*[\w.?]*\.message\s*\)/
    ]
    // Not ours: node-redis's decoder throws a bare `Error` with no code or class of its own, and
    // its words are the only mark of an answer that is not Redis.
    const foreign = new Set([`node${path.sep}src${path.sep}internal${path.sep}redis.ts`])
    const found = sources.filter((file) => !foreign.has(shown(file))).flatMap((file) =>
      fs.readFileSync(file, "utf8").split("\n").flatMap((line, i) =>
        parsing.some((pattern) => pattern.test(line)) ? [`${shown(file)}:${i + 1}: ${line.trim()}`] : []
      )
    )
    expect(found).toEqual([])
  })
})
