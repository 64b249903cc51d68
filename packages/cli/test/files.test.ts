/**
 * `s2` and the files it writes beside `--out`: symbolic links planted at the output, its
 * checkpoint, its lock or the checkpoint's temporary names are never written (or read) through,
 * and a harvest stopped by SIGTERM ends like one stopped by Ctrl-C, with its own exit code.
 *
 * Runs in process (support/inProcess.ts), but for the SIGTERM test: a signal reaches the real
 * process only, and its exit code (143) is `main.ts`'s, so that one starts the bundled bin.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@s2-effect/test-support"
import type { EmulatorServer } from "@s2-effect/testing"
import { Faults, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import type { ChildProcess } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"

// Bundled on first use: only the SIGTERM test starts a process.
let bin: string | undefined
const start = (args: ReadonlyArray<string>): ChildProcess => Bin.start(bin ??= Bin.bundleBin(), args)
const s2 = (args: ReadonlyArray<string>) => runS2(args)

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-files-"))
const lines = (file: string) => fs.readFileSync(file, "utf8").trimEnd().split("\n")
const isLink = (file: string) => fs.lstatSync(file).isSymbolicLink()
const precious = "precious: must never be overwritten\n"

/** A directory with a file no harvest may touch. */
const withVictim = () => {
  const dir = tmp()
  const victim = path.join(dir, "precious.txt")
  fs.writeFileSync(victim, precious)
  return { dir, victim, out: path.join(dir, "papers.jsonl") }
}

let scope: Scope.Closeable
let server: EmulatorServer
let slow: EmulatorServer

beforeAll(async () => {
  scope = Effect.runSync(Scope.make())
  ;[server, slow] = await Effect.runPromise(
    Effect.all([
      startEmulator({ seed: 3, size: 300, bulkSize: 3000 }),
      // Bulk pages after the first take a minute: a harvest still running when it is stopped.
      startEmulator({
        seed: 3,
        size: 300,
        bulkSize: 3000,
        faults: {
          script: [{ route: "/paper/search/bulk", requests: { from: 2 }, fault: Faults.latency("60 seconds") }]
        }
      })
    ]).pipe(Scope.provide(scope))
  )
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const T = 120_000
const harvest = (out: string, ...extra: ReadonlyArray<string>) => [
  "harvest",
  "",
  "--out",
  out,
  "--fields",
  "title",
  "--max",
  "1500",
  "--api-url",
  server.url,
  ...extra
]

describe.concurrent("temporary files", () => {
  it(
    "a link planted at the checkpoint's old per-process temporary name or at random-looking ones is never written through",
    async () => {
      const { dir, out, victim } = withVictim()
      // Planted before the run: at the name a checkpoint was written to until now
      // (`<checkpoint>.<pid>.tmp`; in process, the test's pid), at random-looking names, and dangling ones.
      const planted = [
        `${out}.checkpoint.json.${process.pid}.tmp`,
        ...Array.from({ length: 20 }, () => `${out}.checkpoint.json.${crypto.randomBytes(8).toString("hex")}.tmp`)
      ]
      for (const name of planted) fs.symlinkSync(victim, name)
      fs.symlinkSync(path.join(dir, "created-elsewhere"), `${out}.checkpoint.json.${process.pid + 1}.tmp`)
      const ran = await s2(harvest(out))
      expect(ran.code, ran.stderr).toBe(0)
      expect(fs.readFileSync(victim, "utf8")).toBe(precious)
      expect(fs.existsSync(path.join(dir, "created-elsewhere"))).toBe(false)
      // The checkpoint is a file of its own, describing the output.
      expect(isLink(`${out}.checkpoint.json`)).toBe(false)
      const checkpoint = JSON.parse(fs.readFileSync(`${out}.checkpoint.json`, "utf8"))
      expect(checkpoint).toMatchObject({ records: 1500, done: true, bytes: fs.statSync(out).size })
      expect(lines(out)).toHaveLength(1500)
      // The planted links are left as they were, and no temporary file of the run is left behind.
      for (const name of planted) expect(isLink(name)).toBe(true)
      const tmps = fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"))
      expect(tmps).toHaveLength(planted.length + 1)
    },
    T
  )
})

describe.concurrent("a symbolic link as --out", () => {
  it("dangling: refused with exit 2, naming the link, its target and --overwrite; nothing is created", async () => {
    const dir = tmp()
    const out = path.join(dir, "papers.jsonl")
    const target = path.join(dir, "elsewhere.jsonl")
    fs.symlinkSync(target, out)
    const ran = await s2(harvest(out))
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain(`--out ${out} is a symbolic link to ${target}; s2 never writes through one`)
    expect(ran.stderr).toContain(`give the file itself as --out (${target})`)
    expect(ran.stderr).toContain("--overwrite to replace the link")
    expect(ran.stderr.trim().split("\n")).toHaveLength(1)
    expect(fs.readdirSync(dir)).toEqual(["papers.jsonl"])
  }, T)

  it("to an existing file: refused, and with --resume too; the file is untouched", async () => {
    const { dir, out, victim } = withVictim()
    fs.symlinkSync("precious.txt", out)
    for (const extra of [[], ["--resume"]]) {
      const ran = await s2(harvest(out, ...extra))
      expect(ran.code).toBe(2)
      expect(ran.stderr).toContain(`--out ${out} is a symbolic link to precious.txt; s2 never writes through one`)
    }
    expect(fs.readFileSync(victim, "utf8")).toBe(precious)
    expect(fs.readdirSync(dir).sort()).toEqual(["papers.jsonl", "precious.txt"])
  }, T)

  it("--overwrite replaces the link itself with a new file, never its target", async () => {
    const { out, victim } = withVictim()
    fs.symlinkSync(victim, out)
    const ran = await s2(harvest(out, "--overwrite"))
    expect(ran.code, ran.stderr).toBe(0)
    expect(fs.readFileSync(victim, "utf8")).toBe(precious)
    expect(isLink(out)).toBe(false)
    expect(lines(out)).toHaveLength(1500)
  }, T)
})

describe.concurrent("symbolic links beside --out", () => {
  it("a lock that is a link (dangling or not) is refused with exit 2, never followed nor removed", async () => {
    const { dir, out, victim } = withVictim()
    const dangling = path.join(dir, "nowhere.lock")
    fs.symlinkSync(dangling, `${out}.lock`)
    const ran = await s2(harvest(out))
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain(`the lock ${out}.lock is a symbolic link to ${dangling}`)
    expect(ran.stderr).toContain(`remove ${out}.lock and run again`)
    expect(fs.existsSync(dangling)).toBe(false)
    expect(fs.existsSync(out)).toBe(false)

    // A link to a file holding a stale lock of this host was read through, taken over and replaced.
    const other = path.join(dir, "other.jsonl")
    const stale = { pid: 2 ** 22 + 1, host: os.hostname(), startedAt: "2020-01-01T00:00:00.000Z" }
    fs.writeFileSync(victim, JSON.stringify(stale))
    fs.symlinkSync(victim, `${other}.lock`)
    const again = await s2(harvest(other, "--overwrite"))
    expect(again.code).toBe(2)
    expect(again.stderr).toContain(`the lock ${other}.lock is a symbolic link to ${victim}`)
    expect(isLink(`${other}.lock`)).toBe(true)
    expect(fs.readFileSync(victim, "utf8")).toBe(JSON.stringify(stale))
  }, T)

  it("a checkpoint that is a link is neither read nor written through; --overwrite replaces the link", async () => {
    const { dir, out, victim } = withVictim()
    const checkpoint = `${out}.checkpoint.json`
    // Another harvest's checkpoint, which a resume must not read through the link.
    const done = await s2(harvest(path.join(dir, "done.jsonl")))
    expect(done.code, done.stderr).toBe(0)
    fs.writeFileSync(out, "")
    fs.symlinkSync(path.join(dir, "done.jsonl.checkpoint.json"), checkpoint)
    const original = fs.readFileSync(path.join(dir, "done.jsonl.checkpoint.json"), "utf8")
    const resumed = await s2(harvest(out, "--resume"))
    expect(resumed.code).toBe(2)
    expect(resumed.stderr).toContain(
      `the checkpoint ${checkpoint} is a symbolic link to ${dir}/done.jsonl.checkpoint.json`
    )

    fs.rmSync(checkpoint)
    fs.symlinkSync(victim, checkpoint)
    const fresh = await s2(harvest(out))
    expect(fresh.code).toBe(2)
    expect(fresh.stderr).toContain(`the checkpoint ${checkpoint} is a symbolic link to ${victim}`)
    expect(fresh.stderr).toContain("--overwrite")

    const overwritten = await s2(harvest(out, "--overwrite"))
    expect(overwritten.code, overwritten.stderr).toBe(0)
    expect(isLink(checkpoint)).toBe(false)
    expect(JSON.parse(fs.readFileSync(checkpoint, "utf8"))).toMatchObject({ records: 1500, done: true })
    expect(fs.readFileSync(victim, "utf8")).toBe(precious)
    expect(fs.readFileSync(path.join(dir, "done.jsonl.checkpoint.json"), "utf8")).toBe(original)
  }, T)
})

describe.concurrent("signals", () => {
  it("SIGTERM during a harvest exits 143 after the same clean-up as Ctrl-C", async () => {
    const dir = tmp()
    const out = path.join(dir, "papers.jsonl")
    const child = start(["harvest", "", "--out", out, "--fields", "title", "--api-url", slow.url])
    const finished = Bin.finish(child)
    await waitFor(() => fs.existsSync(`${out}.checkpoint.json`) && fs.statSync(out).size > 0, {
      what: "the first page"
    })
    child.kill("SIGTERM")
    const ran = await finished
    expect(ran.code, ran.stderr).toBe(143)
    const checkpoint = JSON.parse(fs.readFileSync(`${out}.checkpoint.json`, "utf8"))
    expect(checkpoint.records).toBeGreaterThan(0)
    expect(lines(out)).toHaveLength(checkpoint.records)
    expect(fs.statSync(out).size).toBe(checkpoint.bytes)
    expect(ran.stderr).toMatch(new RegExp(`${checkpoint.records.toLocaleString("en-US")} papers saved in ${out}`))
    // The lock released, and no temporary file left behind.
    expect(fs.readdirSync(dir).sort()).toEqual(["papers.jsonl", "papers.jsonl.checkpoint.json"])
    const resumed = await s2(["harvest", "", "--out", out, "--fields", "title", "--api-url", server.url, "--resume"])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(lines(out)).toHaveLength(3000)
  }, T)
})
