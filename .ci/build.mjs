// `pnpm build`: what each published package's `build` script does (`tsc -p tsconfig.build.json`
// after removing its dist/, then the CLI's bundle), in one process, each package after those it
// depends on. The programs parse the same declaration files (effect's and Node's, and the dist/dts
// of the packages built before), so here each file is parsed and bound once and the later programs
// reuse it (./shared-parse.mjs): 40 s of CPU where seven `tsc` processes under `pnpm -r` took 69 s.
// The files written are the same, byte for byte.
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { programOf } from "./shared-parse.mjs"

const root = path.resolve(import.meta.dirname, "..")
const manifest = (name) => JSON.parse(fs.readFileSync(path.join(root, "packages", name, "package.json"), "utf8"))

/** The build script this file does the work of, and what follows it in the CLI's (its bundle). */
const tscBuild = "rm -rf dist && tsc -p tsconfig.build.json"
const bundle = " && node scripts/bundle.mjs"

/**
 * The packages with a `build` script, each after those it depends on (a build reads their
 * dist/dts). A build script other than this file's is refused, so that `pnpm build` never does
 * less than the packages' own scripts.
 */
const packages = (() => {
  const byName = new Map()
  for (const dir of fs.readdirSync(path.join(root, "packages")).sort()) {
    if (!fs.existsSync(path.join(root, "packages", dir, "package.json"))) continue
    const { name, scripts = {}, dependencies = {}, peerDependencies = {}, devDependencies = {} } = manifest(dir)
    if (scripts.build === undefined) continue
    if (scripts.build !== tscBuild && scripts.build !== tscBuild + bundle) {
      throw new Error(`build: ${name}'s build script is \`${scripts.build}\`; .ci/build.mjs runs \`${tscBuild}\` (and the CLI's bundle)`)
    }
    const uses = Object.keys({ ...dependencies, ...peerDependencies, ...devDependencies })
    byName.set(name, { dir, bundles: scripts.build.endsWith(bundle), uses })
  }
  const ordered = []
  const visit = (name) => {
    const entry = byName.get(name)
    if (entry === undefined || ordered.includes(entry)) return
    for (const used of entry.uses) visit(used)
    ordered.push(entry)
  }
  for (const name of byName.keys()) visit(name)
  return ordered
})()

const format = {
  getCanonicalFileName: (file) => file,
  getCurrentDirectory: () => root,
  getNewLine: () => "\n"
}

/** `tsc -p <config>`: the program's diagnostics and its emit; resolves to whether it passed. */
const compile = (config) => {
  const program = programOf(config, undefined, (diagnostic) => report([diagnostic]))
  if (program === undefined) return false
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics]
  return report(diagnostics)
}

const report = (diagnostics) => {
  if (diagnostics.length > 0) process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, format))
  return diagnostics.length === 0
}

for (const { bundles, dir: name } of packages) {
  const dir = path.join(root, "packages", name)
  const started = Date.now()
  fs.rmSync(path.join(dir, "dist"), { recursive: true, force: true })
  if (!compile(path.join(dir, "tsconfig.build.json"))) {
    console.error(`build: @s2-effect/${name} failed`)
    process.exit(2)
  }
  if (bundles) {
    const { bundleCli } = await import(path.join(dir, "scripts/bundle.mjs"))
    await bundleCli()
  }
  console.log(`build: @s2-effect/${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
