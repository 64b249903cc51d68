/**
 * The exports of the documented packages (those `pnpm docs` renders) that lack a TSDoc
 * `@category`, members of namespace exports (`Fields.render`) included.
 */
import * as Path from "node:path"
import ts from "typescript"

const packages = Path.resolve(import.meta.dirname, "../../../packages")
const documented = ["core", "node", "browser", "testing"]

/** `package:Name` of every exported declaration without `@category`. */
export const uncategorized = (): Array<string> => {
  const entries = documented.map((name) => Path.join(packages, name, "src", "index.ts"))
  const program = ts.createProgram(entries, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true
  })
  const checker = program.getTypeChecker()
  const missing: Array<string> = []
  const isCategory = (tag: ts.JSDocTag) => tag.tagName.text === "category"
  const visit = (symbol: ts.Symbol, name: string, seen: Set<ts.Symbol>): void => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    if (seen.has(target)) return
    seen.add(target)
    const declarations = target.declarations ?? []
    const module = declarations.find(ts.isSourceFile)
    if (module !== undefined) {
      // `export * as Fields from "./Fields.js"`: the namespace takes the comment of that export;
      // the module's own exports are the API.
      const exported = (symbol.declarations ?? []).filter(ts.isNamespaceExport).map((declaration) => declaration.parent)
      if (!exported.some((declaration) => ts.getJSDocTags(declaration).some(isCategory))) missing.push(name)
      for (const member of checker.getExportsOfModule(target)) visit(member, `${name}.${member.name}`, seen)
      return
    }
    // A value and a type of one name (`Tldr`) are two entries of the reference: both need it.
    const tagged = declarations.every((declaration) => ts.getJSDocTags(declaration).some(isCategory))
    if (!tagged) missing.push(name)
  }
  for (const [k, entry] of entries.entries()) {
    const source = program.getSourceFile(entry)
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    if (module === undefined) throw new Error(`cannot read ${entry}`)
    const seen = new Set<ts.Symbol>()
    for (const symbol of checker.getExportsOfModule(module)) visit(symbol, `${documented[k]}:${symbol.name}`, seen)
  }
  return missing
}
