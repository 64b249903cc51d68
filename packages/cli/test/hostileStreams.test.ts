/**
 * `s2 harvest` against bulk servers that do not advance or miscount: one that sends the same
 * records with a new token forever, one whose `total` is negative. The first ends at the page that
 * repeats, with one clear line; the second is interrupted and resumed as any other.
 *
 * Runs in process (support/inProcess.ts; an endless harvest fails on the test's time-out), but for
 * the Ctrl-C: SIGINT reaches a real process and its exit code (130) is `main.ts`'s, so the
 * interrupted harvest starts the bundled bin.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@s2-effect/test-support"
import type { EmulatorServer } from "@s2-effect/testing"
import { Faults, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-streams-"))
const lines = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter((line) => line !== "")
const ids = (file: string) => lines(file).map((line) => (JSON.parse(line) as { paperId: string }).paperId)

const s2 = (args: ReadonlyArray<string>) => runS2(args)

let scope: Scope.Closeable
let stuck: EmulatorServer
let negative: EmulatorServer

/** Slow bulk pages after the second, so that a Ctrl-C lands mid-harvest; every page says `total: -5`. */
const slowNegative: Faults.Config = {
  script: [
    { route: "/paper/search/bulk", requests: { from: 3 }, fault: Faults.latency("2 seconds") },
    { route: "/paper/search/bulk", fault: Faults.total(-5) }
  ]
}

beforeAll(async () => {
  scope = Effect.runSync(Scope.make())
  ;[stuck, negative] = await Effect.runPromise(
    Effect.all([
      // Ten papers (`total: 10`), and every bulk page serves them again with a new token.
      startEmulator({
        seed: 4,
        size: 10,
        bulkSize: 10,
        faults: { script: [{ route: "/paper/search/bulk", fault: Faults.repeatPage }] }
      }),
      startEmulator({ seed: 4, size: 500, bulkSize: 6000, faults: slowNegative })
    ]).pipe(Scope.provide(scope))
  )
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const T = 120_000

describe("bulk servers that do not advance or miscount", () => {
  it("the same 10 records with a new token every page: harvest ends at page 2 with exit 9 and one line", async () => {
    const out = path.join(tmp(), "papers.jsonl")
    const ran = await s2(["harvest", "", "--out", out, "--fields", "title", "--api-url", stuck.url])
    expect(ran.signal).toBeNull()
    expect(ran.code).toBe(9)
    const messages = ran.stderr.split("\n").filter((line) => line.startsWith("s2:"))
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain("GET /graph/v1/paper/search/bulk")
    expect(messages[0]).toContain("is not advancing: page 2 has the same 10 records as page 1")
    expect(ran.stderr).not.toMatch(/\bat .+:\d+:\d+/) // no stack lines
    // Only the first page is written; the repeat is refused before it reaches the file.
    expect(ids(out)).toHaveLength(10)
    expect(new Set(ids(out)).size).toBe(10)
    expect(JSON.parse(fs.readFileSync(`${out}.checkpoint.json`, "utf8"))).toMatchObject({ pages: 1, records: 10 })
  }, T)

  it("a negative total: Ctrl-C says how many papers the file holds, and --resume completes it", async () => {
    const dir = tmp()
    const out = path.join(dir, "papers.jsonl")
    const args = ["harvest", "", "--out", out, "--fields", "title", "--api-url", negative.url]
    const child: ChildProcess = Bin.start(Bin.bundleBin(), args)
    const done = Bin.finish(child)
    const checkpoint = `${out}.checkpoint.json`
    await waitFor(() => JSON.parse(fs.readFileSync(checkpoint, "utf8")).pages >= 2, { what: "a checkpoint of 2 pages" })
    child.kill("SIGINT")
    const interrupted = await done
    expect(interrupted.code).toBe(130)
    const saved = /harvest interrupted with ([\d,]+) papers saved in (.+); run the same command with --resume/
      .exec(interrupted.stderr)
    expect(saved?.[2]).toBe(out)
    const count = Number(saved?.[1]?.replaceAll(",", ""))
    expect(count).toBeGreaterThanOrEqual(2000)
    expect(count).toBe(lines(out).length)

    await Effect.runPromise(negative.setFaults({ script: [{ route: "/paper/search/bulk", fault: Faults.total(-5) }] }))
    try {
      const resumed = await s2([...args, "--resume"])
      expect(resumed.stderr).not.toContain("Expected")
      expect(resumed.code).toBe(0)
      expect(resumed.stdout).toContain(`resumed at ${saved?.[1]}`)
      expect(ids(out)).toHaveLength(6000)
      expect(new Set(ids(out)).size).toBe(6000)
      // The count the server could not give is unknown (0), never negative.
      expect(JSON.parse(fs.readFileSync(checkpoint, "utf8"))).toMatchObject({ records: 6000, total: 0, done: true })
    } finally {
      await Effect.runPromise(negative.setFaults(slowNegative))
    }
  }, T)
})
