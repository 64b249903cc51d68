// The API reference checked as `pnpm run docs --emit none` checks it (.ci/typedoc.json: converted,
// validated, warnings are errors), without writing its pages, in the process of .ci/typecheck.mjs
// --jobs 1 --api-reference (.ci/verify). Two things differ from the `typedoc` command, so that the
// work is not done twice: the program's files are parsed through the host the type-check programs
// share (./shared-parse.mjs), and its compile errors are not asked for again, since the type-check
// just checked the same files with the same options (.ci/tsconfig.check.json, which also allows
// JSON imports). The conversion and the validation are TypeDoc's own.
import * as path from "node:path"
import * as td from "typedoc"
import ts from "typescript"

const root = path.resolve(import.meta.dirname, "..")

/** TypeDoc's module name of an entry point (its path from `base`, less `/index.ts`). */
const moduleName = (file, base) =>
  path.relative(base, file).split(path.sep).join("/").replace(/(\/index)?(\.d)?\.([cm][tj]s|[tj]sx?)$/, "")

/**
 * Converts and validates the API reference; resolves to whether TypeDoc reported no warning and no
 * error (it prints them itself).
 * @param {(options: ts.CompilerOptions) => ts.CompilerHost} makeHost
 * @returns {Promise<boolean>}
 */
export const checkApiReference = async (makeHost) => {
  const app = await td.Application.bootstrapWithPlugins(
    { options: path.join(root, ".ci/typedoc.json"), emit: "none" },
    [new td.TypeDocReader(), new td.PackageJsonReader(), new td.TSConfigReader()]
  )
  const { logger, options } = app
  const failed = () => logger.hasErrors() || logger.hasWarnings()
  if (failed()) return false
  if (options.getValue("entryPointStrategy") !== td.EntryPointStrategy.Resolve) {
    logger.error(".ci/api-reference.mjs converts the entry points of the `resolve` strategy only")
    return false
  }
  const compilerOptions = options.getCompilerOptions(logger)
  const program = ts.createProgram({
    rootNames: options.getFileNames(),
    options: compilerOptions,
    projectReferences: options.getProjectReferences(),
    host: makeHost(compilerOptions)
  })
  const files = options.getValue("entryPoints").map((file) => path.resolve(file))
  const base = options.getValue("displayBasePath") || options.getValue("basePath") || commonDirectory(files)
  const entryPoints = files.map((file) => {
    const sourceFile = program.getSourceFile(file)
    if (sourceFile === undefined) logger.error(`the entry point ${file} is not in the program of ${options.getValue("tsconfig")}`)
    return { displayName: moduleName(file, base), sourceFile, program }
  })
  if (failed()) return false
  const project = app.converter.convert(entryPoints)
  if (failed()) return false
  app.validate(project)
  return !failed() && logger.validationWarningCount === 0
}

/** The longest folder every file is in. */
const commonDirectory = (files) => {
  const [first, ...rest] = files.map((file) => path.dirname(file).split(path.sep))
  let shared = 0
  while (shared < first.length && rest.every((other) => other[shared] === first[shared])) shared++
  return first.slice(0, shared).join(path.sep) || path.sep
}
