// `pnpm typecheck`'s program for the packages (.ci/tsconfig.check.json) and the docs' code blocks
// (docs/examples/snippets/tsconfig.json) at once. The code blocks' options are the packages' except
// that unused names are allowed (an example may import for show); as a program of their own they
// checked again the sources of every package they import (45 s of CPU, a fifth of the typecheck).
// Here they are checked with the packages, and the diagnostics of unused names in their files,
// which their own options allow, are left out. Any other option that differs is refused: such a
// config is checked as its own program instead.
// Run as a script: argv is the packages' tsconfig, then the lenient tsconfig. .ci/typecheck.mjs
// imports `checkWithDocs` to run it in its own process.
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import ts from "typescript"

const format = {
  getCanonicalFileName: (file) => file,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => "\n"
}

/** The options the lenient config may set otherwise (JSON imports are only allowed on the packages' side). */
const allowedToDiffer = new Set(["noUnusedLocals", "noUnusedParameters", "resolveJsonModule", "configFilePath"])
/** The diagnostics `noUnusedLocals` and `noUnusedParameters` give. */
const unusedCodes = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205])

/**
 * Checks both configs' files as one program; returns what to print, empty when all passed.
 * @param {string} packagesConfig @param {string} lenientConfig
 * @param {(options: ts.CompilerOptions) => ts.CompilerHost} [makeHost]
 * @returns {{ readonly passed: boolean, readonly output: string }}
 */
export const checkWithDocs = (packagesConfig, lenientConfig, makeHost) => {
  const failed = (diagnostics) => ({ passed: false, output: ts.formatDiagnostics(diagnostics, format) })
  const parse = (given) => {
    const file = path.resolve(given)
    const read = ts.readConfigFile(file, ts.sys.readFile)
    if (read.error !== undefined) return { errors: [read.error] }
    return ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(file), undefined, file)
  }
  const packages = parse(packagesConfig)
  const lenient = parse(lenientConfig)
  if (packages.errors.length > 0 || lenient.errors.length > 0) return failed([...packages.errors, ...lenient.errors])
  const differing = [...new Set([...Object.keys(packages.options), ...Object.keys(lenient.options)])].filter((key) =>
    !allowedToDiffer.has(key) && JSON.stringify(packages.options[key]) !== JSON.stringify(lenient.options[key])
  )
  if (differing.length > 0) {
    return {
      passed: false,
      output: `${lenientConfig}: ${differing.join(", ")} differ from ${packagesConfig}'s; check it as a program of its own\n`
    }
  }
  const lenientFiles = new Set(lenient.fileNames)
  const program = ts.createProgram({
    rootNames: [...packages.fileNames, ...lenient.fileNames],
    options: packages.options,
    ...(makeHost === undefined ? {} : { host: makeHost(packages.options) })
  })
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((diagnostic) =>
    !(diagnostic.file !== undefined && lenientFiles.has(diagnostic.file.fileName) && unusedCodes.has(diagnostic.code))
  )
  return diagnostics.length === 0 ? { passed: true, output: "" } : failed(diagnostics)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [packagesConfig, lenientConfig] = process.argv.slice(2)
  const { output, passed } = checkWithDocs(packagesConfig, lenientConfig)
  process.stdout.write(output)
  if (!passed) process.exit(2)
}
