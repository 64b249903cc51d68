// The pack-and-install smoke test (after `pnpm build`). It checks the install lines of the docs as
// a reader copies them (docs.mjs finds them: README.md, docs/getting-started.md, packages/*/README.md):
// - every line by reading it (docs.mjs's lineProblems): it names published packages, at the
//   workspace's versions where it pins them, with peers in the packages' ranges;
// - the registry lines (`npm install @s2-effect/core …`) run as written, in one fresh project per
//   package manager (getting-started's lines first, then each page's that adds a package: a line
//   whose packages the lines before it installed is not run again), against a local registry that
//   serves the packed tarballs for the `@s2-effect` scope only (registry.mjs), everything else from
//   the real registry, as after the first release;
// - the tarball lines of getting-started (`pnpm pack --out /tmp/…`, then `cd ../my-project` and
//   the installs), npm's and pnpm's, each in a fresh project with no such registry, from a folder
//   `s2-effect` that is this clone, so a lookup of an unpublished package fails as it would for a reader.
// Then, by what the lines installed: an ESM (`import`) and a CommonJS (`require`: the packages
// are ESM only, so Node's require(esm)) script query an emulator (the installed `s2-emulator` bin
// when there is one) through @s2-effect/node or @s2-effect/browser; `tsc` type-checks a program
// (skipLibCheck off) when TypeScript was installed, once per package manager; an installed global `s2` looks a paper up.
// Exits non-zero on any failure. `--keep` keeps the folder.
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import {
  documentedExample,
  documentedTsconfig,
  installVariants,
  isCloneSetup,
  isGlobal,
  isInstall,
  lineProblems,
  packagesOf
} from "./docs.mjs"
import { pack, published, repoRoot } from "./pack.mjs"
import { startRegistry } from "./registry.mjs"

const started = Date.now()
const keep = process.argv.includes("--keep")
const log = (message) => console.log(`[smoke ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`)

const work = fs.mkdtempSync(path.join(os.tmpdir(), "s2-effect-smoke-"))
const clone = path.join(work, "s2-effect")
const project = path.join(work, "my-project")
const npmGlobal = path.join(work, "npm-global")
const pnpmHome = path.join(work, "pnpm-home")
const xdg = path.join(work, "xdg")
// pnpm caches registry metadata per host and port: a later run whose local registry gets a port an
// earlier run had would be answered the earlier tarballs' integrity, and refuse the new ones.
const pnpmCache = path.join(work, "pnpm-cache")
const pnpmStore = path.join(work, "pnpm-store")
/**
 * Where getting-started's lines write and read their tarballs (`/tmp/s2-effect-core.tgz`): a folder
 * of this run's, not the machine's /tmp, so that two runs at once (two clones' `pnpm test`) never
 * pack over or remove each other's tarballs. The lines are logged as written.
 */
const linesTmp = path.join(work, "tmp")
fs.mkdirSync(linesTmp)
const privateTmp = (line) => line.replaceAll("/tmp/", () => `${linesTmp}/`)

/**
 * Runs a command to its end without blocking this process: the local registry answers from here,
 * so a synchronous wait for an install would never see its answers.
 */
const run = (command, args, options) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "inherit", "inherit"] })
    child.on("error", reject)
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed: ${signal ?? `exit ${code}`}`))
    )
  })

/**
 * Starts an `s2-emulator` bin on a free port, as a shell would (npm links the script, pnpm writes a
 * shell shim), under plain Node: no tsx in a fresh project.
 */
const startEmulator = (bin, cwd, env = process.env) =>
  new Promise((resolve, reject) => {
    const [command, ...args] = Array.isArray(bin) ? bin : [bin]
    const child = spawn(command, [...args, "--port", "0", "--size", "2000", "--seed", "7"], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    const timer = setTimeout(() => reject(new Error(`s2-emulator did not start: ${out}`)), 60_000)
    child.stdout.on("data", (chunk) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve({ url: match[1], stop: () => child.kill("SIGTERM") })
      }
    })
    child.on("exit", (code) => reject(new Error(`s2-emulator exited with ${code}: ${out}`)))
  })

// ---- the programs run in an installed project ----

const nodeProgram = (imports, withTesting, built) =>
  `${imports}
const program = Effect.gen(function*() {
  const s2 = yield* SemanticScholar
  const found = yield* s2.searchPaper("graph", { fields: ["title"] }).pipe(Stream.take(5), Stream.runCollect)
  const first = found[0]
  const paper = yield* s2.getPaper(first.paperId, { fields: ["title", "year", "citationCount"] })
  const citing = yield* s2.getPaperCitations(paper.paperId, { fields: ["title"] }).pipe(Stream.take(3), Stream.runCollect)
  ${
    built.jobs
      ? `// @s2-effect/jobs on the installed client: the paper resolved by its title.
  const resolved = yield* Resolve.references([first.title]).pipe(Stream.runCollect)`
      : "const resolved = undefined"
  }
  return { found: found.length, paperId: paper.paperId, title: paper.title, sameTitle: paper.title === first.title, citing: citing.length, isPaper: paper instanceof Paper${
    built.jobs ? `, resolvedSame: resolved[0]._tag === "Found" && resolved[0].paper.paperId === first.paperId` : ""
  }${built.ai ? `, tools: Object.keys(AssistantTools.toolkit.tools).length` : ""} }
})
${
    withTesting
      ? `// The same seed and size in memory (Emulator.layer, no sockets) give the same corpus.
const inMemory = (paperId) => Effect.gen(function*() {
  const s2 = yield* SemanticScholar
  return yield* s2.getPaper(paperId, { fields: ["title"] })
}).pipe(
  Effect.provide(SemanticScholar.layer().pipe(Layer.provide(Testing.Emulator.layer({ seed: 7, size: 2000 }))))
)
const compare = (out) => Effect.map(inMemory(out.paperId), (p) => ({ ...out, inMemorySameTitle: p.title === out.title }))`
      : "const compare = (out) => Effect.succeed(out)"
  }
Effect.runPromise(program.pipe(
  Effect.provide(NodeSemanticScholar.layer({ apiUrl: process.env.S2_API_URL, retry: false })),
  Effect.flatMap(compare)
)).then((out) => console.log(JSON.stringify(out)), (error) => { console.error(error); process.exit(1) })
`

const browserProgram = (imports) =>
  `${imports}
// Node's fetch stands in for the browser's: the layer is Effect's Fetch HttpClient.
const program = Effect.gen(function*() {
  const s2 = yield* SemanticScholar
  const found = yield* s2.searchPaper("graph", { fields: ["title"] }).pipe(Stream.take(5), Stream.runCollect)
  const paper = yield* s2.getPaper(found[0].paperId, { fields: ["title"] })
  return { found: found.length, paperId: paper.paperId, title: paper.title, sameTitle: paper.title === found[0].title, isPaper: paper instanceof Paper }
})
Effect.runPromise(program.pipe(Effect.provide(BrowserSemanticScholar.layer({ apiUrl: process.env.S2_API_URL, retry: false }))))
  .then((out) => console.log(JSON.stringify(out)), (error) => { console.error(error); process.exit(1) })
`

const esmImports = (pkg, withTesting, built) =>
  [
    `import { Effect, Layer, Stream } from "effect"`,
    `import { Paper, SemanticScholar } from "@s2-effect/core"`,
    pkg === "node"
      ? `import { NodeSemanticScholar } from "@s2-effect/node"`
      : `import { BrowserSemanticScholar } from "@s2-effect/browser"`,
    ...(withTesting ? [`import * as Testing from "@s2-effect/testing"`] : []),
    ...(built.jobs ? [`import { Resolve } from "@s2-effect/jobs"`] : []),
    ...(built.ai ? [`import { AssistantTools } from "@s2-effect/ai"`] : [])
  ].join("\n")

const cjsImports = (pkg, withTesting, built) =>
  [
    `const { Effect, Layer, Stream } = require("effect")`,
    `const { Paper, SemanticScholar } = require("@s2-effect/core")`,
    pkg === "node"
      ? `const { NodeSemanticScholar } = require("@s2-effect/node")`
      : `const { BrowserSemanticScholar } = require("@s2-effect/browser")`,
    ...(withTesting ? [`const Testing = require("@s2-effect/testing")`] : []),
    ...(built.jobs ? [`const { Resolve } = require("@s2-effect/jobs")`] : []),
    ...(built.ai ? [`const { AssistantTools } = require("@s2-effect/ai")`] : []),
    `// There is no CommonJS build (ESM only, like effect 4): require() loads the ESM build through require(esm).`,
    `if (!require.resolve("@s2-effect/core").includes("/dist/esm/")) throw new Error(require.resolve("@s2-effect/core"))`
  ].join("\n")

/** A typed program for `tsc`: the same calls, with the types the declarations give. */
const typedProgram = (imports, withTesting) =>
  `${imports}
export const program = Effect.gen(function*() {
  const s2 = yield* SemanticScholar
  const found = yield* s2.searchPaper("graph", { fields: ["title"] }).pipe(Stream.take(5), Stream.runCollect)
  const paper = yield* s2.getPaper(found[0]?.paperId ?? "CorpusId:1", { fields: ["title", "year"] })
  return { title: paper.title, isPaper: paper instanceof Paper }
}).pipe(Effect.provide(NodeSemanticScholar.layer({ apiUrl: process.env["S2_API_URL"], retry: false })))
${
    withTesting
      ? `export const inMemory = SemanticScholar.layer().pipe(Layer.provide(Testing.Emulator.layer({ seed: 7, size: 2000 })))`
      : `export const layers = [Layer.empty]`
  }
export const run = () => Effect.runPromise(program)
`

// The tsconfig.json of getting-started, for the files of the check, with skipLibCheck off: the docs
// recommend it on (a user's check then takes seconds, not half a minute), and this check proves that
// the packages' own .d.ts files hold up without it.
const documented = documentedTsconfig()
if (documented.compilerOptions?.strict !== true) throw new Error("getting-started's tsconfig.json should be strict")
const tsconfig = {
  ...documented,
  compilerOptions: { ...documented.compilerOptions, skipLibCheck: false },
  include: ["check.mts", "check.cts"]
}

// ---- running a variant and checking what it installed ----

/** The removals of the projects before, running while the next installs (awaited at the end). */
const removals = []
const freshProject = () => {
  // Renamed away at once, removed in the background: tens of thousands of files, a minute on a busy machine.
  const trash = fs.mkdtempSync(path.join(work, "trash-"))
  for (const dir of [project, npmGlobal, pnpmHome]) {
    if (fs.existsSync(dir)) fs.renameSync(dir, path.join(trash, path.basename(dir)))
  }
  removals.push(fs.promises.rm(trash, { recursive: true, force: true }))
  fs.mkdirSync(project)
  // What `npm init -y` writes, less the noise: no "type", so .mjs is ESM and .cjs CommonJS by name.
  fs.writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "my-project", version: "1.0.0", private: true }, null, 2)
  )
}

/** Global installs go to folders of the run; the scope registry only for the registry lines. */
const envFor = (registryUrl) => ({
  ...process.env,
  npm_config_prefix: npmGlobal,
  PNPM_HOME: pnpmHome,
  pnpm_config_cache_dir: pnpmCache,
  // One store for the run's projects (each removes its global bins and node_modules, not the
  // downloads): pnpm would otherwise fetch every package again for each project.
  pnpm_config_store_dir: pnpmStore,
  PATH: [path.join(npmGlobal, "bin"), path.join(pnpmHome, "bin"), pnpmHome, process.env.PATH].join(path.delimiter),
  ...(registryUrl === undefined ? {} : { "npm_config_@s2-effect:registry": registryUrl, XDG_CONFIG_HOME: xdg })
})

const installed = (name) => fs.existsSync(path.join(project, "node_modules", ...name.split("/"), "package.json"))

const runScript = (label, file, contents, env) => {
  fs.writeFileSync(path.join(project, file), contents)
  const out = execFileSync(process.execPath, [file], { cwd: project, env, encoding: "utf8" })
  const result = JSON.parse(out.trim().split("\n").at(-1))
  log(`${label} ${file}: ${JSON.stringify(result)}`)
  const expected = result.found === 5 && /^[0-9a-f]{40}$/.test(result.paperId) && result.sameTitle && result.isPaper &&
    result.inMemorySameTitle !== false && result.resolvedSame !== false && (result.tools ?? 15) === 15
  if (!expected) throw new Error(`${label} ${file} printed an unexpected result: ${out}`)
  return result
}

const checkScripts = (label, pkg, env) => {
  const withTesting = installed("@s2-effect/testing")
  // The packages built on the client, when the lines installed them (the node program uses them).
  const built = pkg === "node" ? { jobs: installed("@s2-effect/jobs"), ai: installed("@s2-effect/ai") } : {}
  const program = pkg === "node" ? nodeProgram : browserProgram
  const prefix = pkg === "node" ? "" : "browser-"
  const esm = runScript(label, `${prefix}esm.mjs`, program(esmImports(pkg, withTesting, built), withTesting, built), env)
  const cjs = runScript(label, `${prefix}cjs.cjs`, program(cjsImports(pkg, withTesting, built), withTesting, built), env)
  if (JSON.stringify(esm) !== JSON.stringify(cjs)) {
    throw new Error(`${label}: @s2-effect/${pkg} answered differently to import and to require`)
  }
}

const checkTypes = (label, env) => {
  const withTesting = installed("@s2-effect/testing")
  const imports = (ext) =>
    [
      `import { Effect, Layer, Stream } from "effect"`,
      `import { Paper, SemanticScholar } from "@s2-effect/core"`,
      `import { NodeSemanticScholar } from "@s2-effect/node"`,
      ...(withTesting ? [`import * as Testing from "@s2-effect/testing"`] : []),
      `// ${ext}: resolved as ${ext === "mts" ? "ESM" : "CommonJS"}`
    ].join("\n")
  fs.writeFileSync(path.join(project, "check.mts"), typedProgram(imports("mts"), withTesting))
  fs.writeFileSync(path.join(project, "check.cts"), typedProgram(imports("cts"), withTesting))
  fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(tsconfig, null, 2))
  execFileSync(process.execPath, [path.join(project, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], {
    cwd: project,
    env,
    stdio: ["ignore", "inherit", "inherit"]
  })
  log(`${label} tsc (getting-started's tsconfig.json, strict, with skipLibCheck off; ESM and CommonJS): ok`)
}

/**
 * getting-started's examples as a reader runs them in the project: the program "On Node" with
 * `node main.ts` (Node strips the types; the project is `"type": "module"`), and the suite "In
 * tests" with vitest and @effect/vitest.
 */
const checkExamples = (label, env, apiUrl) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8"))
  if (manifest.type !== "module") throw new Error(`${label}: the install lines did not make the project "type": "module"`)
  fs.writeFileSync(path.join(project, "main.ts"), documentedExample("## On Node"))
  const out = execFileSync(process.execPath, ["main.ts"], {
    cwd: project,
    env: { ...env, S2_API_URL: apiUrl },
    encoding: "utf8"
  })
  if (!/Attention Is All You Need \(2017\): \d+ citations/.test(out)) throw new Error(`${label} node main.ts printed ${out}`)
  log(`${label} node main.ts: ok`)
  if (!installed("vitest") || !installed("@effect/vitest") || !installed("@s2-effect/testing")) return
  fs.writeFileSync(path.join(project, "s2.test.ts"), documentedExample("## In tests"))
  const ran = execFileSync(process.execPath, [path.join(project, "node_modules/vitest/vitest.mjs"), "run", "s2.test.ts"], {
    cwd: project,
    env: { ...env, CI: "true" },
    encoding: "utf8"
  })
  if (!/1 passed/.test(ran)) throw new Error(`${label} vitest printed ${ran}`)
  log(`${label} vitest run s2.test.ts: 1 passed`)
}

/** `s2 paper` of the first paper a search finds, by the global `s2` or the project's (`npx s2`). */
const checkCli = async (label, env, apiUrl, bin = "s2") => {
  const search = await fetch(`${apiUrl}/graph/v1/paper/search?query=graph&fields=title&limit=1`)
  const [first] = (await search.json()).data
  const out = execFileSync(bin, ["paper", first.paperId, "--fields", "title", "--format", "json"], {
    cwd: project,
    env: { ...env, S2_API_URL: apiUrl },
    encoding: "utf8"
  })
  if (JSON.parse(out).title !== first.title) throw new Error(`${label} s2 paper printed ${out}`)
  log(`${label} ${bin === "s2" ? "s2" : "the project's s2"} paper: ok`)
}

const globalS2 = () =>
  [path.join(npmGlobal, "bin", "s2"), path.join(pnpmHome, "bin", "s2"), path.join(pnpmHome, "s2")]
    .some((file) => fs.existsSync(file))

/**
 * The projects the lines run in: per package manager one project for every registry line (the
 * docs' pages each give a subset of the same packages; getting-started's lines first, since they
 * make the project ES modules), and each tarball variant in its own project (no registry there).
 */
const treesOf = (variants) => {
  const managerOf = (variant) => variant.lines.find(isInstall).split(" ")[0]
  const viaTarballs = (variant) => variant.lines.some((line) => /\.tgz\b/.test(line))
  const first = (variant) => (variant.from.includes("docs/getting-started.md") ? 0 : 1)
  return [
    ...["npm", "pnpm"].map((manager) => ({
      manager,
      registry: true,
      variants: variants.filter((v) => !viaTarballs(v) && managerOf(v) === manager).sort((a, b) => first(a) - first(b))
    })),
    ...variants.filter(viaTarballs).map((variant) => ({ manager: managerOf(variant), registry: false, variants: [variant] }))
  ]
}

/**
 * The lines a project runs: each variant's lines as written, less a repeat of a line, and less an
 * install line whose packages the lines before it installed already (in the project, or globally):
 * that line is checked by reading it (docs.mjs's lineProblems), and what it would install is
 * checked in this project. Logs which is which.
 */
const linesToRun = (label, tree) => {
  const run = []
  const installedBy = { local: new Set(), global: new Set() }
  for (const variant of tree.variants) {
    for (const line of variant.lines.filter((l) => !isCloneSetup(l))) {
      if (run.includes(line)) continue
      const names = packagesOf(line).map((p) => p.name)
      const into = isGlobal(line) ? installedBy.global : installedBy.local
      if (isInstall(line) && names.every((name) => into.has(name))) {
        log(`${label} (${variant.from.join(", ")}) \`${line}\`: installed by the lines above, checked by reading it`)
        continue
      }
      for (const name of names) into.add(name)
      run.push(line)
    }
  }
  return run
}

/** The clone's emulator (a promise of it), once a project needed it. */
let sharedEmulator
let registry
try {
  const variants = installVariants()
  const managers = new Set(variants.flatMap((v) => v.lines.map((line) => line.split(" ")[0])))
  if (!managers.has("npm") || !managers.has("pnpm")) {
    throw new Error(`the docs should give install lines for npm and for pnpm; found ${JSON.stringify(variants)}`)
  }
  const problems = lineProblems(variants, published)
  if (problems.length > 0) throw new Error(`the docs' install lines:\n${problems.join("\n")}`)
  log(`${variants.length} install variants; their lines name published packages at the versions the workspace tests`)
  const tarballs = pack(published, path.join(work, "tarballs"))
  log(`packed ${Object.values(tarballs).map((t) => path.basename(t)).join(", ")}`)
  registry = await startRegistry(Object.values(tarballs))
  fs.mkdirSync(path.join(xdg, "pnpm"), { recursive: true })
  // pnpm 11+ keeps registries in its global auth.ini; npm reads the same setting from the environment.
  fs.writeFileSync(path.join(xdg, "pnpm", "auth.ini"), `@s2-effect:registry=${registry.url}\n`)
  fs.symlinkSync(repoRoot, clone)
  // For the lines that install no emulator: the clone's own, from its sources (its built bin
  // imports the workspace's @s2-effect/core, whose workspace exports are the TypeScript sources),
  // started when a project first needs it (today's lines all install @s2-effect/testing).
  const shared = () =>
    (sharedEmulator ??= startEmulator(
      [process.execPath, path.join(repoRoot, "packages/testing/bin/s2-emulator.mjs")],
      repoRoot
    ))
  const trees = treesOf(variants)
  log(`${trees.length} projects; the @s2-effect registry at ${registry.url}`)

  for (const [i, tree] of trees.entries()) {
    const label = `[${i + 1}/${trees.length} ${tree.manager}${tree.registry ? "" : " tarballs"}]`
    const env = envFor(tree.registry ? registry.url : undefined)
    const from = [...new Set(tree.variants.flatMap((v) => v.from))]
    freshProject()
    const lines = linesToRun(label, tree)
    log(`${label} from ${from.join(", ")}:\n${lines.map((l) => `  $ ${l}`).join("\n")}`)
    // Lines that `cd` start in the clone, as written; the others in the project.
    const cwd = lines.some((line) => /^cd\s/.test(line)) ? clone : project
    await run("bash", ["-e", "-o", "pipefail", "-c", lines.map(privateTmp).join("\n")], { cwd, env: { ...env, PWD: cwd } })
    const own = installed("@s2-effect/testing") ? path.join(project, "node_modules/.bin/s2-emulator") : undefined
    const emulator = await (own === undefined ? shared() : startEmulator(own, project, env))
    try {
      if (own !== undefined) log(`${label} the installed s2-emulator listens on ${emulator.url}`)
      const withApi = { ...env, S2_API_URL: emulator.url }
      if (installed("@s2-effect/node")) checkScripts(label, "node", withApi)
      if (installed("@s2-effect/browser")) checkScripts(label, "browser", withApi)
      // Once per package manager: the tarball projects install the same declaration files.
      if (tree.registry && installed("typescript") && installed("@s2-effect/node")) checkTypes(label, env)
      if (from.includes("docs/getting-started.md") && installed("@s2-effect/node")) {
        checkExamples(label, env, emulator.url)
      }
      if (globalS2()) await checkCli(label, env, emulator.url)
      if (installed("@s2-effect/cli")) await checkCli(label, env, emulator.url, path.join(project, "node_modules/.bin/s2"))
    } finally {
      if (own !== undefined) emulator.stop()
    }
  }
  const served = new Set(registry.requested.filter((p) => p.endsWith(".tgz")).map((p) => path.basename(p)))
  log(`the local registry served ${[...served].join(", ")}`)
  log("smoke test passed")
} finally {
  if (sharedEmulator !== undefined) (await sharedEmulator.catch(() => undefined))?.stop()
  await registry?.close()
  await Promise.all(removals)
  if (keep) log(`kept ${work}`)
  else fs.rmSync(work, { recursive: true, force: true })
}
