/**
 * A fresh clone on a Node older than 22.19 (issue 39, point 1): the README's quick start stops at
 * its first command with one line saying what to run (`pnpm install` runs .ci/check-node.cjs
 * before it installs anything: no native module is built for a Node the tests do not run on), that
 * advice works, and `@s2-effect/node` says which Node it needs when its layer is built instead of
 * failing deep inside undici.
 *
 * The old Node is the machine's when it has one older than 22.19 (Debian's Node 20 here), else this
 * Node made to report 20.11.1 by a preload, so that the checks run on every machine.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "../../..")
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "s2-old-node-"))
const T = 60_000

const versionOf = (node: string): string =>
  spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8", env: { PATH: "/usr/bin:/bin" } }).stdout
    ?.trim() ??
    ""

const isOld = (version: string): boolean => {
  const [major = 0, minor = 0] = version.split(".").map(Number)
  return version !== "" && (major < 22 || (major === 22 && minor < 19))
}

/** The old Node: its binary, what it reports, and the environment that makes it old. */
const old = ((): { readonly node: string; readonly version: string; readonly env: Record<string, string> } => {
  const onPath = (process.env["PATH"] ?? "").split(path.delimiter).map((dir) => path.join(dir, "node"))
  for (const node of ["/usr/local/bin/node", "/usr/bin/node", ...onPath]) {
    if (fs.existsSync(node) && isOld(versionOf(node))) return { node, version: versionOf(node), env: {} }
  }
  const preload = path.join(scratch, "node-20.cjs")
  fs.writeFileSync(preload, `Object.defineProperty(process.versions, "node", { value: "20.11.1" })\n`)
  return { node: process.execPath, version: "20.11.1", env: { NODE_OPTIONS: `--require ${preload}` } }
})()

/**
 * The clone's Node set-up (.ci/node.sh, .ci/check-node.cjs, package.json) in a folder whose .node/
 * is laid out as the npm `node` package lays it out, around the Node running this test (≥ 22.19):
 * neither what the machine had installed before (a clone that found Node 24 on its PATH has no
 * .node/, and would download it here within the time-out; an interrupted download leaves an empty
 * one) nor how fast it downloads changes the outcome. `.ci/run` downloads it for real on a fresh clone.
 */
const withNode24 = ((): string => {
  const dir = path.join(scratch, "with-node-24")
  fs.mkdirSync(path.join(dir, ".ci"), { recursive: true })
  for (const file of [".ci/node.sh", ".ci/check-node.cjs", "package.json"]) {
    fs.copyFileSync(path.join(root, file), path.join(dir, file))
  }
  const bin = path.join(dir, ".node/node_modules/node/node_modules", `node-${process.platform}-${process.arch}`, "bin")
  fs.mkdirSync(bin, { recursive: true })
  fs.symlinkSync(process.execPath, path.join(bin, "node"))
  return dir
})()

/** The environment of a process on the old Node: it first on PATH, then `more` folders, then the system's. */
const oldEnv = (...more: ReadonlyArray<string>): NodeJS.ProcessEnv => ({
  HOME: process.env["HOME"] ?? os.homedir(),
  PATH: [path.dirname(old.node), ...more, "/usr/bin", "/bin"].join(path.delimiter),
  ...old.env
})

const line = (version: string) =>
  `s2-effect needs Node ≥ 22.19, this is ${version}: run \`source .ci/node.sh\`` +
  " (it brings Node 24 from the npm registry into .node/), then the same command again\n"

describe("a fresh clone on a Node older than 22.19", () => {
  it("the install's check stops with one line saying what to run; on this Node it says nothing", () => {
    expect(isOld(old.version)).toBe(true)
    const ran = spawnSync(old.node, [".ci/check-node.cjs"], { cwd: root, env: oldEnv(), encoding: "utf8" })
    expect(ran.status).toBe(1)
    expect(ran.stdout).toBe("")
    expect(ran.stderr).toBe(line(old.version))
    const here = spawnSync(process.execPath, [".ci/check-node.cjs"], { cwd: root, encoding: "utf8" })
    expect([here.status, here.stdout, here.stderr]).toEqual([0, "", ""])
  }, T)

  it("the README's first command, pnpm install, stops at once with that line and installs nothing", () => {
    const pnpm = spawnSync("sh", ["-c", "command -v pnpm"], { encoding: "utf8" }).stdout.trim()
    expect(pnpm).not.toBe("")
    const clone = path.join(scratch, "clone")
    expect(spawnSync("git", ["clone", "-q", root, clone]).status).toBe(0)
    // A full install would take minutes: the time-out ends it, and the test fails on its status.
    const ran = spawnSync(fs.realpathSync(pnpm), ["install"], {
      cwd: clone,
      env: oldEnv(path.dirname(fs.realpathSync(pnpm))),
      encoding: "utf8",
      timeout: 45_000
    })
    expect(ran.status).not.toBe(0)
    expect(ran.status).not.toBe(null)
    expect(`${ran.stdout}\n${ran.stderr}`).toContain(line(old.version).trim())
    expect(fs.existsSync(path.join(clone, "node_modules", ".pnpm"))).toBe(false)
  }, T)

  it("the advice works: after source .ci/node.sh the check passes on Node 24", () => {
    // Without the preload: .ci/node.sh must see the Node a shell has (on this machine, the old one).
    const env = { ...oldEnv(), NODE_OPTIONS: "" }
    const ran = spawnSync("bash", [
      "-c",
      "source .ci/node.sh && node .ci/check-node.cjs && node -p process.versions.node"
    ], {
      cwd: withNode24,
      env,
      encoding: "utf8",
      timeout: 45_000
    })
    expect(ran.stderr).toBe("")
    expect(ran.status).toBe(0)
    expect(isOld(ran.stdout.trim())).toBe(false)
  }, T)

  it("@s2-effect/node refuses the old Node in one sentence when its layer is built, not deep in undici", () => {
    const program = [
      `import { Effect } from "effect"`,
      `import { SemanticScholar } from "@s2-effect/core"`,
      `import { NodeSemanticScholar } from "@s2-effect/node"`,
      `Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1")).pipe(`,
      `  Effect.provide(NodeSemanticScholar.layer({ apiUrl: "http://127.0.0.1:9", retry: false })),`,
      `  Effect.runPromise`,
      `).then(() => console.log("ran"), (error) => console.log(String(error)))`
    ].join("\n")
    // The workspace's sources, through tsx, from the package's folder (where @s2-effect/node resolves).
    const ran = spawnSync(old.node, ["--import", "tsx", "--input-type=module", "-e", program], {
      cwd: path.join(root, "packages/node"),
      env: oldEnv(),
      encoding: "utf8",
      timeout: 45_000
    })
    expect(ran.stdout).toBe(
      `Error: @s2-effect/node needs Node ≥ 22.19, this is ${old.version}: run the program on Node 22.19 or newer` +
        " (Node 24 LTS)\n"
    )
    expect(ran.stderr).not.toContain("bind")
  }, T)
})
