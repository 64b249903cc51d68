// The pack-and-install smoke test (after `pnpm build`): packs core, node, testing and cli as
// `pnpm publish` would, installs the tarballs into a blank temporary project together with
// `effect` and `@effect/platform(-node)` from the registry, starts the installed `s2-emulator` bin
// with plain Node, and runs one ESM script (`import`) and one CommonJS script (`require`) that query
// it, plus the installed `s2` bin. Exits non-zero on any mismatch. `--keep` leaves the project.
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pack, repoRoot } from "./pack.mjs"

const started = Date.now()
const keep = process.argv.includes("--keep")
const log = (message) => console.log(`[smoke ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`)
const range = (dep) => JSON.parse(fs.readFileSync(path.join(repoRoot, "packages/node/package.json"), "utf8")).peerDependencies[dep]

const work = fs.mkdtempSync(path.join(os.tmpdir(), "s2-effect-smoke-"))
const project = path.join(work, "project")
let emulator
try {
  const tarballs = pack(["core", "node", "testing", "cli"], path.join(work, "tarballs"))
  log(`packed ${Object.values(tarballs).map((t) => path.basename(t)).join(", ")}`)

  // A blank project: package.json only, no "type" (so .mjs is ESM and .cjs is CommonJS by name).
  fs.mkdirSync(project)
  fs.writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "s2-effect-smoke-project", version: "0.0.0", private: true }, null, 2)
  )
  const specs = [
    ...Object.values(tarballs),
    `effect@${range("effect")}`,
    `@effect/platform@${range("@effect/platform")}`,
    `@effect/platform-node@${range("@effect/platform-node")}`
  ]
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...specs], {
    cwd: project,
    stdio: "inherit"
  })
  log("npm install done")

  // The emulator from the installed package's bin, run by plain Node (no tsx in this project).
  const url = await new Promise((resolve, reject) => {
    emulator = spawn(
      process.execPath,
      [path.join(project, "node_modules/.bin/s2-emulator"), "--port", "0", "--size", "2000", "--seed", "7"],
      { cwd: project, stdio: ["ignore", "pipe", "inherit"] }
    )
    let out = ""
    const timer = setTimeout(() => reject(new Error(`s2-emulator did not start: ${out}`)), 60_000)
    emulator.stdout.on("data", (chunk) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    emulator.on("exit", (code) => reject(new Error(`s2-emulator exited with ${code}: ${out}`)))
  })
  log(`s2-emulator listening on ${url}`)

  const query = (imports, run) =>
    `${imports}
const program = Effect.gen(function*() {
  const s2 = yield* SemanticScholar
  const found = yield* s2.searchPaper("graph", { fields: ["title"] }).pipe(Stream.take(5), Stream.runCollect)
  const first = Chunk.unsafeHead(found)
  const paper = yield* s2.getPaper(first.paperId, { fields: ["title", "year", "citationCount"] })
  const citing = yield* s2.getPaperCitations(paper.paperId, { fields: ["title"] }).pipe(Stream.take(3), Stream.runCollect)
  return { found: found.length, paperId: paper.paperId, title: paper.title, sameTitle: paper.title === first.title, citing: citing.length, isPaper: paper instanceof Paper }
})
// The same seed and size in memory (Emulator.layer, no sockets) give the same corpus.
const inMemory = (paperId) => Effect.flatMap(SemanticScholar, (s2) => s2.getPaper(paperId, { fields: ["title"] })).pipe(
  Effect.provide(SemanticScholar.layer().pipe(Layer.provide(Testing.Emulator.layer({ seed: 7, size: 2000 }))))
)
${run}(program.pipe(
  Effect.provide(NodeSemanticScholar.layer({ apiUrl: process.env.S2_API_URL, retry: false })),
  Effect.flatMap((out) => Effect.map(inMemory(out.paperId), (p) => ({ ...out, inMemorySameTitle: p.title === out.title })))
)).then((out) => console.log(JSON.stringify(out)), (error) => { console.error(error); process.exit(1) })
`
  fs.writeFileSync(
    path.join(project, "esm.mjs"),
    query(
      `import { Chunk, Effect, Layer, Stream } from "effect"
import { Paper, SemanticScholar } from "@s2-effect/core"
import { NodeSemanticScholar } from "@s2-effect/node"
import * as Testing from "@s2-effect/testing"`,
      "Effect.runPromise"
    )
  )
  fs.writeFileSync(
    path.join(project, "cjs.cjs"),
    query(
      `const { Chunk, Effect, Layer, Stream } = require("effect")
const { Paper, SemanticScholar } = require("@s2-effect/core")
const { NodeSemanticScholar } = require("@s2-effect/node")
const Testing = require("@s2-effect/testing")
// The CommonJS build is really CommonJS, not ESM loaded through require(esm).
if (!require.resolve("@s2-effect/core").includes("/dist/cjs/")) throw new Error(require.resolve("@s2-effect/core"))`,
      "Effect.runPromise"
    )
  )
  const env = { ...process.env, S2_API_URL: url }
  const results = {}
  for (const script of ["esm.mjs", "cjs.cjs"]) {
    const out = execFileSync(process.execPath, [script], { cwd: project, env, encoding: "utf8" })
    const result = JSON.parse(out.trim().split("\n").at(-1))
    log(`${script}: ${JSON.stringify(result)}`)
    if (result.found !== 5 || !/^[0-9a-f]{40}$/.test(result.paperId) || !result.sameTitle || !result.isPaper || !result.inMemorySameTitle) {
      throw new Error(`${script} printed an unexpected result: ${out}`)
    }
    results[script] = result
  }
  if (JSON.stringify(results["esm.mjs"]) !== JSON.stringify(results["cjs.cjs"])) {
    throw new Error("the ESM and CommonJS builds answered differently")
  }

  // The installed `s2` bin, also under plain Node.
  const cli = execFileSync(
    process.execPath,
    [path.join(project, "node_modules/.bin/s2"), "paper", results["esm.mjs"].paperId, "--fields", "title", "--format", "json"],
    { cwd: project, env, encoding: "utf8" }
  )
  if (JSON.parse(cli).title !== results["esm.mjs"].title) throw new Error(`s2 paper printed ${cli}`)
  log("s2 paper: ok")
  log("smoke test passed")
} finally {
  emulator?.kill("SIGTERM")
  if (keep) log(`kept ${work}`)
  else fs.rmSync(work, { recursive: true, force: true })
}
