/**
 * `s2` against servers that answer badly and users that collide: two harvests on one file, a full
 * disk, a server asking to wait ten years, a file host that fails, a key echoed.
 *
 * Runs in process (support/inProcess.ts), but for a harvest stopped by Ctrl-C (SIGINT reaches a
 * real process, whose pid the lock holds) and one under `ulimit -f` (a limit of the process):
 * those start the bundled bin.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@s2-effect/test-support"
import type { EmulatorServer } from "@s2-effect/testing"
import { Faults, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"

// Bundled on first use: only Ctrl-C and ulimit start a process.
let bundled: string | undefined
const bin = () => bundled ??= Bin.bundleBin()
const key = "hostile-key-0123456789"

const env = Bin.cleanEnv
const start = (args: ReadonlyArray<string>, extra: Record<string, string> = {}): ChildProcess =>
  Bin.start(bin(), args, extra)
const finish = Bin.finish

const s2 = (args: ReadonlyArray<string>, extra: Record<string, string> = {}) => runS2(args, { env: extra })

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-hostile-"))
const ids = (file: string) =>
  fs.readFileSync(file, "utf8").trimEnd().split("\n").map((line) => (JSON.parse(line) as { paperId: string }).paperId)

let scope: Scope.Closeable
let server: EmulatorServer
let slow: EmulatorServer
let faulty: EmulatorServer

beforeAll(async () => {
  scope = Effect.runSync(Scope.make())
  ;[server, slow, faulty] = await Effect.runPromise(
    Effect.all([
      startEmulator({ seed: 2, size: 500, bulkSize: 6000 }),
      // Bulk pages after the first take a minute: a harvest that still runs when a second starts.
      startEmulator({
        seed: 2,
        size: 500,
        bulkSize: 6000,
        faults: {
          script: [{ route: "/paper/search/bulk", requests: { from: 2 }, fault: Faults.latency("60 seconds") }]
        }
      }),
      startEmulator({
        seed: 2,
        size: 200,
        bulkSize: 5000,
        faults: {
          script: [
            { route: "/graph/v1/paper/search", fault: Faults.tooManyRequests({ retryAfter: 315_360_000 }) },
            { route: "/graph/v1/author/*", fault: Faults.status(400, { body: `{"error":"bad key ${key}"}\n` }) },
            { route: "/files/*", fault: Faults.status(503) },
            { route: "/paper/search/bulk", requests: { from: 3 }, fault: Faults.cursorLoop }
          ]
        }
      })
    ]).pipe(Scope.provide(scope))
  )
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const T = 120_000

describe.concurrent("one harvest per file", () => {
  it(
    "a second harvest on the same --out exits at once with code 11; Ctrl-C of the first releases the lock",
    async () => {
      const out = path.join(tmp(), "papers.jsonl")
      const args = ["harvest", "", "--out", out, "--fields", "title", "--api-url", slow.url]
      const first = start(args)
      const firstDone = finish(first)
      await waitFor(() => fs.existsSync(`${out}.checkpoint.json`) && fs.statSync(out).size > 0, {
        what: "the first page"
      })
      const lock = JSON.parse(fs.readFileSync(`${out}.lock`, "utf8"))
      expect(lock).toMatchObject({ pid: first.pid, host: os.hostname() })
      // The first runs until after the second has ended: a second that waited for the lock would never end.
      const second = await s2([...args, "--resume"])
      expect(second.code).toBe(12)
      expect(second.stderr).toContain(`another s2 run is writing ${out} (pid ${first.pid}`)
      first.kill("SIGINT")
      const done = await firstDone
      expect(done.code, done.stderr).toBe(130)
      const checkpoint = JSON.parse(fs.readFileSync(`${out}.checkpoint.json`, "utf8"))
      const written = ids(out)
      expect(written).toHaveLength(checkpoint.records)
      expect(new Set(written).size).toBe(written.length)
      // Released on the way out, and no temporary checkpoint left behind.
      expect(fs.readdirSync(path.dirname(out)).sort()).toEqual(["papers.jsonl", "papers.jsonl.checkpoint.json"])
    },
    T
  )

  it("a stale lock (its pid no longer runs) is taken over; a lock from another host is not", async () => {
    const dir = tmp()
    const out = path.join(dir, "papers.jsonl")
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid
    const stale = { pid: dead, host: os.hostname(), startedAt: "2020-01-01T00:00:00.000Z" }
    fs.writeFileSync(`${out}.lock`, JSON.stringify(stale))
    const args = ["harvest", "", "--out", out, "--fields", "title", "--max", "1500", "--api-url", server.url]
    const taken = await s2(args)
    expect(taken.code, taken.stderr).toBe(0)
    expect(ids(out)).toHaveLength(1500)
    expect(fs.existsSync(`${out}.lock`)).toBe(false)

    const other = path.join(dir, "other.jsonl")
    fs.writeFileSync(`${other}.lock`, JSON.stringify({ ...stale, pid: process.pid, host: "elsewhere.example" }))
    const refused = await s2(["harvest", "", "--out", other, "--api-url", server.url])
    expect(refused.code).toBe(12)
    expect(refused.stderr).toContain("host elsewhere.example")
    expect(refused.stderr).toContain(`remove ${other}.lock`)
    expect(fs.existsSync(other)).toBe(false)
  }, T)

  it("a directory as --out says so", async () => {
    const dir = tmp()
    const ran = await s2(["harvest", "", "--out", dir, "--api-url", server.url])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain(`--out ${dir} is a directory`)
  }, T)

  it("a write error (file size limit) cuts the torn line back to the checkpoint; --resume completes it", async () => {
    const dir = tmp()
    const out = path.join(dir, "papers.jsonl")
    const options = ["--fields", "title,year", "--max", "4000", "--api-url", server.url]
    const clean = path.join(dir, "clean.jsonl")
    expect((await s2(["harvest", "", "--out", clean, ...options])).code).toBe(0)
    // Half the file (in 1 KB blocks): the write of a middle page crosses it and is cut mid-line (EFBIG).
    const limit = Math.floor(fs.statSync(clean).size / 2 / 1024)
    const args = ["harvest", "", "--out", out, ...options]
    const limited = spawn("bash", ["-c", `ulimit -f ${limit}; exec "$0" "$@"`, process.execPath, bin(), ...args], {
      env: env({}),
      stdio: ["ignore", "pipe", "pipe"]
    })
    const failed = await finish(limited)
    expect(failed.code).toBe(10)
    expect(failed.stderr).toContain("cut back to its last checkpoint")
    const checkpoint = JSON.parse(fs.readFileSync(`${out}.checkpoint.json`, "utf8"))
    expect(checkpoint.records).toBeGreaterThan(0)
    expect(checkpoint.records).toBeLessThan(4000)
    expect(fs.statSync(out).size).toBe(checkpoint.bytes)
    expect(ids(out)).toHaveLength(checkpoint.records)
    const resumed = await s2([...args, "--resume"])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(fs.readFileSync(out, "utf8")).toBe(fs.readFileSync(clean, "utf8"))
  }, T)
})

describe.concurrent("messages of hostile answers", () => {
  it("a Retry-After of ten years: says what the server asked, and that no retry was made", async () => {
    const ran = await s2(["search", "graph", "--api-url", faulty.url])
    expect(ran.code).toBe(5)
    expect(ran.stderr).toContain("the server asked to wait 3650 days, over the 10 minute limit")
    expect(ran.stderr).toContain("so no retry was made")
    expect(ran.stderr).not.toContain("wait a minute")
  }, T)

  it("a bulk search whose token loops: harvest stops after that page with exit 9, its file whole", async () => {
    const out = path.join(tmp(), "papers.jsonl")
    const ran = await s2(["harvest", "", "--out", out, "--fields", "title", "--api-url", faulty.url])
    expect(ran.code).toBe(9)
    expect(ran.stderr).toContain("GET /graph/v1/paper/search/bulk")
    expect(ran.stderr).toContain("repeats one already followed")
    // Pages 1 and 2 are sound; page 3 is delivered with the looping token, then the stream stops.
    const checkpoint = JSON.parse(fs.readFileSync(`${out}.checkpoint.json`, "utf8"))
    expect(ids(out)).toHaveLength(checkpoint.records)
    expect(new Set(ids(out)).size).toBe(checkpoint.records)
    expect(checkpoint.pages).toBe(3)
  }, T)

  it("a server echoing the key in an error body: the printed message has it redacted", async () => {
    const ran = await s2(["author", "1", "--api-url", faulty.url, "--no-retry"], { S2_API_KEY: key })
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain("bad key <redacted>")
    expect(ran.stdout + ran.stderr).not.toContain(key)
  }, T)

  it("datasets download --no-retry: one attempt at a failing file host", async () => {
    const dir = tmp()
    const before = (await Effect.runPromise(faulty.requests)).filter((r) => r.path.startsWith("/files/")).length
    const ran = await s2([
      "datasets",
      "download",
      "abstracts",
      "latest",
      "--dir",
      dir,
      "--concurrency",
      "1",
      "--no-retry",
      "--api-url",
      faulty.url
    ], {
      S2_API_KEY: key
    })
    expect(ran.code).toBe(6)
    const files = (await Effect.runPromise(faulty.requests)).filter((r) => r.path.startsWith("/files/"))
    expect(files.length - before).toBe(1)
  }, T)
})
