/**
 * `--record DIR` / `--replay DIR`: a script of commands recorded against the emulator over HTTP
 * replays with the emulator gone, with the same output and exit codes; the key is never written.
 * In process (support/inProcess.ts, one run at a time), but for four runs recording into one
 * directory at once: those are four processes of the bundled bin, as users start them.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Loop from "@s2-effect/test-support"
import type { Cassette } from "@s2-effect/testing"
import { Corpus, startEmulator } from "@s2-effect/testing"
import { Effect, Layer } from "effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Cli from "../src/Cli.js"
import { ExitCode } from "../src/ExitCode.js"
import { Printer } from "../src/Printer.js"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"

const corpus = Corpus.make({ seed: 5, size: 1000 })
const key = "cli-cassette-key-7f3a"

/** Runs `s2 args` in process, capturing its output. */
const s2 = (args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    let out = ""
    let err = ""
    const printer = Printer.of({
      out: (text) => Effect.sync(() => void (out += text)),
      err: (text) => Effect.sync(() => void (err += text)),
      outIsTTY: false,
      errIsTTY: false,
      columns: 80,
      errStream: process.stderr
    })
    const code = yield* Cli.run(["node", "s2", ...args]).pipe(
      Effect.provide(Layer.merge(NodeServices.layer, Layer.succeed(Printer, printer)))
    )
    return { code, out, err }
  })

describe("--record / --replay", () => {
  it.live("a recorded script replays offline with the same output and exit codes", () =>
    Effect.gen(function*() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-cli-cassette-"))
      const keyFile = path.join(dir, "key")
      fs.writeFileSync(keyFile, key)
      const paperId = corpus.paper(3).paperId
      const script = (api: ReadonlyArray<string>) => [
        ["paper", paperId, "--fields", "title,year", ...api],
        ["citations", paperId, "--max", "4", "--fields", "title", ...api],
        ["paper", "CorpusId:987654321", ...api]
      ]
      const cassettes = path.join(dir, "cassettes")
      const { recorded, url } = yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* startEmulator({ corpus })
        const api = ["--api-url", server.url, "--api-key-file", keyFile, "--record", cassettes]
        return { recorded: yield* Effect.forEach(script(api), s2), url: server.url }
      }))
      expect(recorded.map((r) => r.code)).toEqual([ExitCode.ok, ExitCode.ok, ExitCode.notFound])
      expect(JSON.parse(recorded[0]!.out)).toMatchObject({ paperId, title: corpus.paper(3).title })

      const text = fs.readFileSync(path.join(cassettes, "s2.cassette.json"), "utf8")
      expect(text).not.toContain(key)
      expect((JSON.parse(text) as { entries: Array<unknown> }).entries.length).toBe(3)

      const replayApi = ["--api-url", url, "--api-key-file", keyFile, "--replay", cassettes]
      const replayed = yield* Effect.forEach(script(replayApi), s2)
      expect(replayed).toEqual(recorded)

      const changed = yield* s2(["paper", paperId, "--fields", "title", ...replayApi])
      expect(changed.code).toBe(ExitCode.file)
      expect(changed.err).toContain("the request is not in the cassette (--replay)")
      expect(changed.err).toContain("no recorded exchange")
      expect(changed.err).toContain(`query.fields: requested "title", recorded "title,year"`)

      const both = yield* s2(["paper", paperId, "--record", cassettes, "--replay", cassettes])
      expect(both.code).toBe(ExitCode.badInput)
      expect(both.err).toContain("--record and --replay exclude each other")

      const missing = path.join(dir, "never-recorded")
      const none = yield* s2(["paper", paperId, "--replay", missing])
      expect(none.code).toBe(ExitCode.file)
      expect(none.err).toContain(`record it first with --record ${missing}`)
      fs.rmSync(dir, { recursive: true, force: true })
    }))
})

/** The bundled `s2` as a process: what a user runs. */
const run = (args: ReadonlyArray<string>) => runS2(args)
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-cli-cassette-"))
const cassetteOf = (dir: string) => path.join(dir, "s2.cassette.json")

const servers: Array<Loop.Loopback> = []
const serve = async (handler: Loop.Handler) => {
  const server = await Loop.serve(handler)
  servers.push(server)
  return server
}
afterAll(() => Promise.all(servers.map((server) => server.close())))

/** A key file, and the flags of a loopback API with it. */
const api = (url: string) => {
  const keyFile = path.join(tmp(), "key")
  fs.writeFileSync(keyFile, key)
  return ["--api-url", url, "--api-key-file", keyFile]
}

const paperAnswer = (seen: Loop.Seen): Loop.Answer => ({
  json: { paperId: decodeURIComponent(seen.url.split("?")[0]!.split("/").pop()!), title: "A title" }
})

/** A directory this process cannot create files in, even as root (then made immutable). */
const readOnlyDir = (): { readonly dir: string; readonly release: () => void } => {
  const dir = tmp()
  fs.chmodSync(dir, 0o555)
  const writable = () => {
    try {
      fs.writeFileSync(path.join(dir, "probe"), "")
      fs.rmSync(path.join(dir, "probe"))
      return true
    } catch {
      return false
    }
  }
  const immutable = writable() && spawnSync("chattr", ["+i", dir]).status === 0
  if (writable()) throw new Error(`cannot make a read-only directory for the test at ${dir}`)
  return {
    dir,
    release: () => {
      if (immutable) spawnSync("chattr", ["-i", dir])
      fs.chmodSync(dir, 0o755)
    }
  }
}

const T = 120_000

describe.concurrent("--record / --replay against hostile servers and files (the s2 process)", () => {
  it("--record reads a body through the 32 MB bound: exit 9 with the size error, and so does the replay", async () => {
    let sent = 0
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const server = await serve((_seen, _index, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      const pump = () => {
        while (sent < 160 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once("drain", pump)
        }
        res.end()
      }
      res.on("error", () => {})
      pump()
      return undefined
    })
    const dir = tmp()
    const recorded = await run(["paper", "CorpusId:1", ...api(server.url), "--record", dir])
    expect(recorded.stderr).toContain("larger than maxResponseBytes (32.0 MB)")
    expect(recorded.code).toBe(ExitCode.decode)
    // Read up to the bound and no further: the rest of the 160 MB was never sent.
    expect(sent).toBeLessThan(96 * 1024 * 1024)
    expect(fs.statSync(cassetteOf(dir)).size).toBeLessThan(256 * 1024)
    const replayed = await run(["paper", "CorpusId:1", ...api(server.url), "--replay", dir])
    expect(replayed.stderr).toContain("larger than maxResponseBytes (32.0 MB)")
    expect(replayed.code).toBe(ExitCode.decode)
  }, T)

  it("a recorded 429 then 200 replays: exit 0 and the same record, nothing said of --no-retry", async () => {
    const server = await serve((seen, index) =>
      index === 0
        ? { status: 429, headers: { "retry-after": "1" }, json: { message: "Too Many Requests" } }
        : paperAnswer(seen)
    )
    const dir = tmp()
    const recorded = await run(["paper", "CorpusId:7", ...api(server.url), "--record", dir])
    expect(recorded.code).toBe(ExitCode.ok)
    expect(server.requests).toHaveLength(2)
    const entries = (JSON.parse(fs.readFileSync(cassetteOf(dir), "utf8")) as Cassette.File).entries
    expect(entries.map((e) => e.response.status)).toEqual([429, 200])
    const replayed = await run(["paper", "CorpusId:7", ...api(server.url), "--replay", dir])
    expect(replayed.stderr).not.toContain("--no-retry")
    expect(replayed).toMatchObject({ code: ExitCode.ok, stdout: recorded.stdout })
    // The recorded retry is answered at once: a replay has no server to wait for.
    expect(recorded.stderr).toMatch(/retrying in [1-9]/)
    expect(replayed.stderr).toContain("retrying in 0 ms")
    expect(server.requests).toHaveLength(2)
  }, T)

  it(
    "a status of 600 or 999 is exit 9 (UnexpectedStatus) live, recorded and replayed; the key never written",
    async () => {
      for (const status of [600, 999]) {
        const server = await serve((seen) => ({ status, text: `odd, your key ${String(seen.headers["x-api-key"])}` }))
        const dir = tmp()
        const plain = await run(["paper", "CorpusId:1", ...api(server.url)])
        const recorded = await run(["paper", "CorpusId:1", ...api(server.url), "--record", dir])
        const replayed = await run(["paper", "CorpusId:1", ...api(server.url), "--replay", dir])
        for (const ran of [plain, recorded, replayed]) {
          expect(ran.stderr).toContain(`HTTP ${status}`)
          expect(ran.code).toBe(ExitCode.decode)
        }
        const text = fs.readFileSync(cassetteOf(dir), "utf8")
        expect(text).toContain(`"status": ${status}`)
        expect(text).not.toContain(key)
      }
    },
    T
  )

  it(
    "a cassette edited to status 0, 101 or a header name HTTP cannot carry is exit 10 naming the file and the entry",
    async () => {
      const server = await serve(paperAnswer)
      const dir = tmp()
      expect((await run(["paper", "CorpusId:1", ...api(server.url), "--record", dir])).code).toBe(ExitCode.ok)
      const file = JSON.parse(fs.readFileSync(cassetteOf(dir), "utf8")) as Cassette.File
      const edits: ReadonlyArray<readonly [Partial<Cassette.RecordedResponse>, string]> = [
        [{ status: 0 }, "status 0"],
        [{ status: 101 }, "status 101"],
        [{ headers: { "content type": "application/json" } }, `header name "content type"`]
      ]
      for (const [edit, named] of edits) {
        const entry = { ...file.entries[0]!, response: { ...file.entries[0]!.response, ...edit } }
        fs.writeFileSync(cassetteOf(dir), JSON.stringify({ version: 1, entries: [entry] }))
        const replayed = await run(["paper", "CorpusId:1", ...api(server.url), "--replay", dir])
        expect(replayed.stderr).toContain(`cassette ${cassetteOf(dir)} entries[0]`)
        expect(replayed.stderr).toContain(named)
        expect(replayed.code).toBe(ExitCode.file)
      }
      // Edited to 600, it replays as a server answering 600 would.
      const odd = { ...file.entries[0]!, response: { ...file.entries[0]!.response, status: 600 } }
      fs.writeFileSync(cassetteOf(dir), JSON.stringify({ version: 1, entries: [odd] }))
      const replayed = await run(["paper", "CorpusId:1", ...api(server.url), "--replay", dir])
      expect(replayed.stderr).toContain("HTTP 600")
      expect(replayed.code).toBe(ExitCode.decode)
    },
    T
  )

  it("a cassette that cannot be written (a read-only directory) is exit 10, at once", async () => {
    const server = await serve(paperAnswer)
    const { dir, release } = readOnlyDir()
    try {
      const recorded = await run(["paper", "CorpusId:1", ...api(server.url), "--record", dir])
      expect(recorded.stderr).toContain(`cassette ${cassetteOf(dir)} cannot be written`)
      expect(recorded.code).toBe(ExitCode.file)
      // Not retried: writing again would fail again.
      expect(server.requests).toHaveLength(1)
    } finally {
      release()
    }
  }, T)

  it("a symlink planted at the old temporary name is not followed", async () => {
    const server = await serve(paperAnswer)
    const dir = tmp()
    const victim = path.join(tmp(), "victim")
    fs.writeFileSync(victim, "precious\n")
    fs.symlinkSync(victim, `${cassetteOf(dir)}.tmp`)
    const recorded = await run(["paper", "CorpusId:1", ...api(server.url), "--record", dir])
    expect(recorded.code).toBe(ExitCode.ok)
    expect(fs.readFileSync(victim, "utf8")).toBe("precious\n")
    expect(fs.lstatSync(cassetteOf(dir)).isFile()).toBe(true)
  }, T)

  it("four --record runs at once into one directory keep every entry", async () => {
    // No answer until all four requests are in, so the four runs are all under way before any writes.
    let arrived = 0
    let allIn = () => {}
    const four = new Promise<void>((resolve) => (allIn = resolve))
    const server = await serve(async (seen) => {
      if (++arrived === 4) allIn()
      await four
      return paperAnswer(seen)
    })
    const dir = tmp()
    const ids = [11, 12, 13, 14]
    // Processes: in-process runs go one at a time, and the first would wait for the others forever.
    const bin = Bin.bundleBin()
    const runs = await Promise.all(
      ids.map((id) => Bin.finish(Bin.start(bin, ["paper", `CorpusId:${id}`, ...api(server.url), "--record", dir])))
    )
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0])
    const entries = (JSON.parse(fs.readFileSync(cassetteOf(dir), "utf8")) as Cassette.File).entries
    expect(entries.map((e) => e.request.path).sort()).toEqual(ids.map((id) => `/graph/v1/paper/CorpusId:${id}`))
    expect(fs.readdirSync(dir)).toEqual(["s2.cassette.json"])
    const replayed = await Promise.all(ids.map((id) => run(["paper", `CorpusId:${id}`, "--replay", dir])))
    expect(replayed.map((r) => r.stdout)).toEqual(runs.map((r) => r.stdout))
  }, T)
})
