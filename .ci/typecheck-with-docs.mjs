// `pnpm typecheck`'s program for the packages (.ci/tsconfig.check.json) and the docs' code blocks
// (docs/examples/snippets/tsconfig.json) at once. The code blocks' options are the packages' except
// that unused names are allowed (an example may import for show); as a program of their own they
// checked again the sources of every package they import (45 s of CPU, a fifth of the typecheck).
// Here they are checked with the packages, and the diagnostics of unused names in their files,
// which their own options allow, are left out. Any other option that differs is refused: such a
// config is checked as its own program instead.
// argv: the packages' tsconfig, the lenient tsconfig.
import * as path from "node:path"
import ts from "typescript"

const [packagesConfig, lenientConfig] = process.argv.slice(2)
const host = {
  getCanonicalFileName: (file) => file,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => "\n"
}
const report = (diagnostics) => {
  if (diagnostics.length === 0) return
  process.stdout.write(ts.formatDiagnostics(diagnostics, host))
  process.exit(2)
}
const parse = (given) => {
  const file = path.resolve(given)
  const read = ts.readConfigFile(file, ts.sys.readFile)
  if (read.error !== undefined) report([read.error])
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(file), undefined, file)
  report(parsed.errors)
  return parsed
}

/** The options the lenient config may set otherwise (JSON imports are only allowed on the packages' side). */
const allowedToDiffer = new Set(["noUnusedLocals", "noUnusedParameters", "resolveJsonModule", "configFilePath"])
/** The diagnostics `noUnusedLocals` and `noUnusedParameters` give. */
const unusedCodes = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205])

const packages = parse(packagesConfig)
const lenient = parse(lenientConfig)
const differing = [...new Set([...Object.keys(packages.options), ...Object.keys(lenient.options)])].filter((key) =>
  !allowedToDiffer.has(key) && JSON.stringify(packages.options[key]) !== JSON.stringify(lenient.options[key])
)
if (differing.length > 0) {
  console.log(`${lenientConfig}: ${differing.join(", ")} differ from ${packagesConfig}'s; check it as a program of its own`)
  process.exit(2)
}
const lenientFiles = new Set(lenient.fileNames)
const program = ts.createProgram({ rootNames: [...packages.fileNames, ...lenient.fileNames], options: packages.options })
report(
  ts.getPreEmitDiagnostics(program).filter((diagnostic) =>
    !(diagnostic.file !== undefined && lenientFiles.has(diagnostic.file.fileName) && unusedCodes.has(diagnostic.code))
  )
)
