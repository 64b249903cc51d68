// A compiler host whose source files are shared by every program of the process that uses it
// (.ci/build.mjs, .ci/typecheck.mjs): the workspace's programs read the same declaration files
// (effect's and Node's, about 260,000 lines), and a file parsed and bound once serves them all, as
// an editor's language service shares them between projects (keyed, as its document registry
// keys them, by the compiler options that change how a file is parsed or bound, and the file's
// parse settings). Only files read from disk are kept:
// a file one program writes (a build's dist/dts) is read by the later ones after it is written.
import ts from "typescript"

/** Parsed files by name and what their parse and binding depend on. */
const parsed = new Map()

/** @param {ts.CompilerOptions} options @returns {ts.CompilerHost} */
export const sharingHost = (options) => {
  const affecting = ts.sourceFileAffectingCompilerOptions.map((option) => JSON.stringify(options[option.name]))
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    const settings = typeof languageVersionOrOptions === "object"
      ? languageVersionOrOptions
      : { languageVersion: languageVersionOrOptions }
    const key = [fileName, ...affecting, settings.languageVersion, settings.impliedNodeFormat, settings.jsDocParsingMode].join("\0")
    const known = shouldCreateNewSourceFile ? undefined : parsed.get(key)
    if (known !== undefined) return known
    const file = getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile)
    if (file !== undefined) parsed.set(key, file)
    return file
  }
  return host
}

/**
 * The program of a tsconfig (`tsc -p <config>`, with `overrides` of its options) on the shared host;
 * `undefined` when the config cannot be read (`onUnreadable` is given why).
 * @param {string} config @param {ts.CompilerOptions | undefined} overrides
 * @param {(diagnostic: ts.Diagnostic) => void} onUnreadable
 * @returns {ts.Program | undefined}
 */
export const programOf = (config, overrides, onUnreadable) => {
  const commandLine = ts.getParsedCommandLineOfConfigFile(config, overrides, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: onUnreadable
  })
  if (commandLine === undefined) return undefined
  return ts.createProgram({
    rootNames: commandLine.fileNames,
    options: commandLine.options,
    projectReferences: commandLine.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(commandLine),
    host: sharingHost(commandLine.options)
  })
}
