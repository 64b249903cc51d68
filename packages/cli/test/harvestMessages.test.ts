/**
 * `s2`'s harvest messages and progress (issue 28, points 1, 2 and 6): a resume against another
 * harvest names the settings that differ, Ctrl-C reports the lines in the file, a missing folder
 * for --out is named, progress appears only after its delay (a second; S2_PROGRESS_DELAY_MS here,
 * so that no test depends on the machine's speed; search --bulk only on a terminal), and
 * -q/--quiet turns it off. Run in process (runS2), but Ctrl-C and the terminal, which need the real
 * binary's signals and a pseudo-terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Loopback, serve, waitFor } from "@s2-effect/test-support"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"

const bin = Bin.bundleBin()
/** `s2 ARGS` against the test's server, in this process (runs one at a time). */
const s2 = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  runS2([...args, "--api-url", server.url], { env })
/** `s2 ARGS` as a process of the bundled binary. */
const s2Bin = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Bin.finish(Bin.start(bin, [...args, "--api-url", server.url], env))
/** The progress delay: never within a test's run, or at once. */
const never = { S2_PROGRESS_DELAY_MS: String(3_600_000) }
const atOnce = { S2_PROGRESS_DELAY_MS: "0" }
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-harvest-messages-"))
const lines = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter((line) => line !== "").length

const total = 2_000_000
const pageSize = 1000
/**
 * The query whose pages from this one on are held until {@link release}: a harvest still under way,
 * whatever the machine's speed, when the test interrupts it.
 */
const heldFrom = 10
let release = () => {}
const released = new Promise<void>((resolve) => (release = resolve))

let server: Loopback

beforeAll(async () => {
  server = await serve(async (seen) => {
    const url = new URL(seen.url, "http://x")
    if (url.pathname !== "/graph/v1/paper/search/bulk") return { status: 404, json: { error: "Paper not found" } }
    const page = Number(url.searchParams.get("token") ?? "0")
    if (url.searchParams.get("query") === "held" && page >= heldFrom) await released
    const data = Array.from({ length: pageSize }, (_, i) => {
      const n = page * pageSize + i
      return { paperId: `p${n}`, title: `Paper number ${n}`, year: 2000 + (n % 20) }
    })
    return { json: { total, token: String(page + 1), data } }
  })
})

afterAll(() => server.close())

/** What a terminal shows of a command's stderr (run under `script`, a pseudo-terminal); stdout is dropped. */
const onTerminal = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Bin.Ran> => {
  const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`
  const command = [process.execPath, bin, ...args, "--api-url", server.url].map(quote).join(" ") + " >/dev/null"
  return Bin.finish(spawn("script", ["-qfec", command, "/dev/null"], {
    env: Bin.cleanEnv({ S2_COMPILE_CACHE: path.join(path.dirname(bin), "compile-cache"), COLUMNS: "120", ...env }),
    stdio: ["pipe", "pipe", "pipe"]
  }))
}

const T = 120_000
/** The progress bar's facts, as on a terminal or in a log. */
const progressLine = /\d+% [\d,]+\/[\d,]+ papers · [\d,]+ pages? · /

describe("harvest messages", () => {
  it("--resume against a checkpoint of another harvest names the settings that differ, not the query", async () => {
    const out = path.join(tmp(), "papers.jsonl")
    const first = await s2(["harvest", "graphs", "--out", out, "--max", "3000"])
    expect(first.code, first.stderr).toBe(0)
    const other = await s2(["harvest", "graphs", "--out", out, "--max", "5000", "--year", "2020", "--resume"])
    expect(other.code).toBe(2)
    expect(other.stderr).toContain("the checkpoint is for no --year and --max 3000")
    expect(other.stderr).toContain("this run has --year 2020 and --max 5000")
    expect(other.stderr).not.toContain("query")
    expect(lines(out)).toBe(3000)
  }, T)

  it("--out in a directory that does not exist says so, exit 2", async () => {
    const dir = path.join(tmp(), "missing")
    const ran = await s2(["harvest", "graphs", "--out", path.join(dir, "papers.jsonl"), "--max", "10"])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain(`the directory ${dir} does not exist`)
    expect(ran.stderr).not.toContain("ENOENT")
    expect(fs.existsSync(dir)).toBe(false)
  }, T)

  it("after SIGINT, the papers said to be saved are the lines in the file, and --resume completes it", async () => {
    const out = path.join(tmp(), "papers.jsonl")
    const child = Bin.start(bin, ["harvest", "held", "--out", out, "--max", "200000", "--api-url", server.url])
    const ran = Bin.finish(child)
    // Every page before the held one on disk, then Ctrl-C while the harvest waits for it.
    await waitFor(() => JSON.parse(fs.readFileSync(`${out}.checkpoint.json`, "utf8")).pages >= heldFrom, {
      what: `${heldFrom} pages on disk`
    })
    child.kill("SIGINT")
    const stopped = await ran
    expect(stopped.code, stopped.stderr).toBe(130)
    const said = /interrupted with ([\d,]+) papers saved/.exec(stopped.stderr)
    expect(said, stopped.stderr).not.toBeNull()
    const saved = Number(said![1]!.replace(/,/g, ""))
    expect(saved).toBeGreaterThan(0)
    expect(saved).toBe(lines(out))
    release()
    const resumed = await s2(["harvest", "held", "--out", out, "--max", "200000", "--resume", "-q"])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(lines(out)).toBe(200_000)
  }, T)
})

describe("progress after its delay, never when quiet", () => {
  it("a harvest that ends before the progress delay prints no progress line; with no delay, it does", async () => {
    const dir = tmp()
    const args = (name: string) => ["harvest", "fast", "--out", path.join(dir, name), "--max", "2000"]
    const quick = await s2(args("quick.jsonl"), never)
    const shown = await s2(args("shown.jsonl"), atOnce)
    for (const ran of [quick, shown]) {
      expect(ran.code, ran.stderr).toBe(0)
      expect(ran.stdout).toContain("harvested 2,000 papers")
    }
    expect(quick.stderr).not.toMatch(progressLine)
    expect(shown.stderr).toMatch(progressLine)
  }, T)

  it("S2_PROGRESS_DELAY_MS that is not a whole number: exit 2 naming it", async () => {
    const ran = await s2(["harvest", "fast", "--out", path.join(tmp(), "papers.jsonl"), "--max", "10"], {
      S2_PROGRESS_DELAY_MS: "soon"
    })
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain("S2_PROGRESS_DELAY_MS is not a whole number of milliseconds")
  }, T)

  it("a longer harvest prints progress lines to a pipe; -q and --quiet print none", async () => {
    const dir = tmp()
    const runs: Array<Bin.Ran> = []
    for (const [i, flags] of [[], ["-q"], ["--quiet"]].entries()) {
      runs.push(
        await s2(["harvest", "long", "--out", path.join(dir, `${i}.jsonl`), "--max", "80000", ...flags], atOnce)
      )
    }
    const [shown, q, quiet] = runs
    for (const ran of [shown, q, quiet]) {
      expect(ran!.code, ran!.stderr).toBe(0)
      expect(ran!.stdout).toContain("harvested 80,000 papers")
    }
    expect(shown!.stderr).toMatch(progressLine)
    expect(q!.stderr).not.toMatch(progressLine)
    expect(quiet!.stderr).not.toMatch(progressLine)
  }, T)

  it("search --bulk shows the progress bar on a terminal after its delay; not with -q", async () => {
    const [shown, quiet] = await Promise.all([
      onTerminal(["search", "long", "--bulk", "--max", "80000", "--format", "jsonl"], atOnce),
      onTerminal(["search", "long", "--bulk", "--max", "80000", "--format", "jsonl", "-q"], atOnce)
    ])
    expect(shown.code, shown.stdout).toBe(0)
    expect(shown.stdout).toMatch(progressLine)
    expect(shown.stdout).toContain("100% 80,000/80,000 papers")
    expect(quiet.code, quiet.stdout).toBe(0)
    expect(quiet.stdout).not.toMatch(progressLine)
  }, T)

  it("datasets download -q prints no per-file lines, and still lists the files on stdout", async () => {
    const dir = tmp()
    const args = ["datasets", "download", "abstracts", "latest", "--dir", dir, "--emulator"]
    const shown = await runS2(args, { env: { S2_API_KEY: "test-key" } })
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stderr).toMatch(/^fetching /m)
    const quiet = await runS2([...args, "-q"], { env: { S2_API_KEY: "test-key" } })
    expect(quiet.code, quiet.stderr).toBe(0)
    expect(quiet.stderr).toBe("")
    expect(quiet.stdout.trim().split("\n").length).toBeGreaterThan(0)
    expect(quiet.stdout).toContain(".jsonl.gz")
  }, T)

  it("search --bulk never shows progress when stderr is piped, nor on a terminal before its delay", async () => {
    const piped = await s2Bin(["search", "long", "--bulk", "--max", "80000", "--format", "jsonl"], atOnce)
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout.split("\n").filter((line) => line !== "")).toHaveLength(80000)
    expect(piped.stderr).not.toMatch(progressLine)
    const short = await onTerminal(["search", "fast", "--bulk", "--max", "2000", "--format", "jsonl"], never)
    expect(short.code, short.stdout).toBe(0)
    expect(short.stdout).not.toMatch(progressLine)
  }, T)
})
