/**
 * The rules of the house (docs/architecture.md), read from the sources' imports: no module of a
 * package's `src` imports, for a value, a module that imports it back (type-only imports aside); no
 * package reaches into another's `internal/`; `@s2-effect/core` imports nothing but `effect`, and
 * never `effect/ai`. No source file is over 600 lines (but generated tables) and no function over
 * 80. A public module declares the types and classes it exports (with their docs) and never passes
 * on another's from `internal/`. The imports and functions are read with TypeScript's own parser.
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
  /** `export … from`: the module passes on what it names. */
  readonly reexport: boolean
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
      return [{ from: file, specifier, to: resolve(file, specifier), typeOnly, reexport: false }]
    }
    if (
      ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const clause = statement.exportClause
      const typeOnly = statement.isTypeOnly ||
        (clause !== undefined && ts.isNamedExports(clause) && allTypes(clause.elements))
      const specifier = statement.moduleSpecifier.text
      return [{ from: file, specifier, to: resolve(file, specifier), typeOnly, reexport: true }]
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

const cliSrc = path.join(packages, "cli", "src")
const cliUnder = (dir: string) => (file: string) => path.dirname(file) === path.join(cliSrc, dir)

/**
 * The modules a file loads: its `import`s and `export … from`s, type-only ones too (a type is a
 * dependency of the layout), and its `import("…")`s of a literal path (loaded when a command runs).
 */
const loaded = new Map<string, Array<{ readonly specifier: string; readonly to: string | undefined }>>()
const loadsOf = (file: string): Array<{ readonly specifier: string; readonly to: string | undefined }> => {
  const known = loaded.get(file)
  if (known !== undefined) return known
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false)
  const found = importsOf(file).map(({ specifier, to }) => ({ specifier, to }))
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined && ts.isStringLiteralLike(node.arguments[0])
    ) found.push({ specifier: node.arguments[0].text, to: resolve(file, node.arguments[0].text) })
    ts.forEachChild(node, visit)
  }
  visit(source)
  loaded.set(file, found)
  return found
}

/** Every workspace module `file` loads, directly or through others. */
const reachedFrom = (file: string): Set<string> => {
  const seen = new Set<string>()
  const pending = [file]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const { to } of loadsOf(next)) {
      if (to !== undefined && !seen.has(to)) {
        seen.add(to)
        pending.push(to)
      }
    }
  }
  return seen
}

const maxFileLines = 600
const maxFunctionLines = 80

/**
 * Files the size rules leave alone for now, each with who and until when. An allowance is a debt:
 * it goes when its date passes (the test then fails) or when the file is back within the rules.
 */
const allowances: ReadonlyArray<{ readonly file: string; readonly why: string; readonly until: string }> = []

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0)

/** A file that says, in its first lines, that a script wrote it (a table of data, not code). */
const generated = (text: string) => /generated by/i.test(text.split("\n").slice(0, 10).join("\n"))

const today = new Date().toISOString().slice(0, 10)
const allowed = new Set(allowances.filter((a) => today <= a.until).map((a) => a.file))

/** The sources the size rules read: not generated, and not allowed for now. */
const sizedSources = sources
  .filter((file) => !allowed.has(shown(file).split(path.sep).join("/")))
  .map((file) => ({ file, text: fs.readFileSync(file, "utf8") }))
  .filter(({ text }) => !generated(text))

/** Each function of a file (declarations, expressions, arrows, methods, accessors) with a body, and its lines. */
const functionsOf = (file: string, text: string): Array<{ readonly at: string; readonly lines: number }> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const line = (position: number) => source.getLineAndCharacterOfPosition(position).line
  const found: Array<{ at: string; lines: number }> = []
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = line(node.getStart(source))
      found.push({ at: `${shown(file)}:${first + 1}`, lines: line(node.end) - first + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
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

  it("no source file is over 600 lines, but generated tables", () => {
    const long = sizedSources
      .map(({ file, text }) => ({ file: shown(file), lines: lineCount(text) }))
      .filter(({ lines }) => lines > maxFileLines)
    expect(long).toEqual([])
  })

  it("no function is over 80 lines", () => {
    const long = sizedSources
      .flatMap(({ file, text }) => functionsOf(file, text))
      .filter(({ lines }) => lines > maxFunctionLines)
    expect(long).toEqual([])
  })

  it("counts a function's lines from its first to its last, nested ones included", () => {
    const text = ["const f = () => {", ...Array.from({ length: 80 }, () => "  g()"), "}", ""].join("\n")
    expect(functionsOf("f.ts", text).map((f) => f.lines)).toEqual([82])
    expect(lineCount(text)).toBe(82)
    expect(generated("/**\n * Generated by scripts/x.mjs; do not edit.\n */")).toBe(true)
  })

  it("no public module re-exports from internal/: what it exports is declared in a public module", () => {
    // A public module is a package's `src/*.ts`. A record the implementation makes lives in a leaf
    // public module (`Verification.ts`, `ToolFailure.ts`) that the implementation imports without a
    // cycle; a function may be `export const f = internal.f`, its signature and docs here.
    const isPublic = (file: string) => path.basename(path.dirname(file)) === "src"
    const passed = imports.filter((i) =>
      i.reexport && isPublic(i.from) && i.to !== undefined && i.to.includes(`${path.sep}internal${path.sep}`)
    )
    expect(passed.map((i) => `${shown(i.from)} → ${i.specifier}`)).toEqual([])
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

  it("the CLI reads one way: a command imports no other command", () => {
    // commands/ holds only commands (Cli.ts lists them): what two commands share is a flag
    // (flags/), an output (render/, Output.ts) or a module of its own concept (References.ts, Batch.ts).
    const commands = sources.filter(cliUnder("commands"))
    expect(commands.length).toBeGreaterThan(10)
    const crossing = commands.flatMap((file) =>
      loadsOf(file).filter(({ to }) => to !== undefined && cliUnder("commands")(to) && path.basename(to) !== "index.ts")
        .map(({ specifier }) => `${shown(file)} → ${specifier}`)
    )
    expect(crossing).toEqual([])
  })

  it("pnpm typecheck checks every package's files, with the package's own compiler options", () => {
    // .ci/typecheck.mjs checks the packages whose options are alike as one program (.ci/tsconfig.check.json),
    // and runs the others' own: a package added, or an option changed, must not fall out of both.
    const root = path.resolve(packages, "..")
    const runner = fs.readFileSync(path.join(root, ".ci/typecheck.mjs"), "utf8")
    const parsed = (file: string) => {
      const config = ts.readConfigFile(file, ts.sys.readFile)
      return ts.parseJsonConfigFileContent(config.config, ts.sys, path.dirname(file), undefined, file)
    }
    const check = parsed(path.join(root, ".ci/tsconfig.check.json"))
    const checked = new Set(check.fileNames)
    const projects = ["packages", "docs/examples"].flatMap((dir) =>
      fs.readdirSync(path.join(root, dir)).map((name) => path.join(root, dir, name, "tsconfig.json"))
    ).filter((file) => fs.existsSync(file))
    expect(projects.length).toBeGreaterThan(12)
    const missed = projects.flatMap((file) => {
      const shownFile = path.relative(root, file)
      if (runner.includes(`"${shownFile}"`)) return []
      const own = parsed(file)
      const options = Object.entries(own.options).filter(([key]) => key !== "configFilePath")
        .filter(([key, value]) => JSON.stringify(check.options[key]) !== JSON.stringify(value))
        .map(([key]) => `${shownFile}: option ${key} differs from .ci/tsconfig.check.json's`)
      const files = own.fileNames.filter((name) => !checked.has(name)).map((name) =>
        `${path.relative(root, name)}: not checked`
      )
      return [...options, ...files]
    })
    expect(missed).toEqual([])
  })

  it("the CLI's render/ sits below Printer and OutputFlags", () => {
    // render/ takes where it prints and what was asked as parameters: it never reaches the Printer
    // service or the output flags, not even through another module.
    const above = new Set(["Printer.ts", "OutputFlags.ts"].map((name) => path.join(cliSrc, name)))
    const render = sources.filter(cliUnder("render"))
    expect(render.length).toBeGreaterThan(5)
    const reaching = render.flatMap((file) =>
      [...reachedFrom(file)].filter((to) => above.has(to)).map((to) => `${shown(file)} → ${shown(to)}`)
    )
    expect(reaching).toEqual([])
  })
})
