/**
 * `--cache DIR`, `S2_CACHE` and `--cache-ttl`, run in process against the emulator over HTTP, a
 * loopback server that answers badly, and a cache directory tampered with.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { afterAll, describe, expect, it } from "@effect/vitest"
import type { Loopback } from "@s2-effect/test-support"
import { serve } from "@s2-effect/test-support"
import { startEmulator } from "@s2-effect/testing"
import { ConfigProvider, Effect, Layer, Ref } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Cli from "../src/Cli.js"
import { ExitCode } from "../src/ExitCode.js"
import { Printer } from "../src/Printer.js"
import { runS2 } from "./support/inProcess.js"

/** Runs `s2 …` with its output captured. */
const s2 = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const out = yield* Ref.make("")
    const err = yield* Ref.make("")
    const printer = Layer.succeed(Printer, {
      out: (text) => Ref.update(out, (all) => all + text),
      err: (text) => Ref.update(err, (all) => all + text),
      outIsTTY: false,
      errIsTTY: false,
      columns: 80,
      errStream: process.stderr
    })
    const code = yield* Cli.run(["node", "s2", ...args]).pipe(
      Effect.provide(Layer.merge(NodeServices.layer, printer)),
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
    )
    return { code, stdout: yield* Ref.get(out), stderr: yield* Ref.get(err) }
  })

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-cli-cache-"))

describe("s2 --cache", () => {
  it.effect(
    "a second run with the same --cache sends nothing and prints the same records",
    () =>
      Effect.gen(function*() {
        const server = yield* startEmulator({ seed: 2, size: 300 })
        const id = `CorpusId:${server.corpus.paper(7).corpusId}`
        const dir = tmp()
        const args = ["paper", id, "--fields", "title,year", "--api-url", server.url, "--cache", dir]
        const first = yield* s2(args)
        const sent = (yield* server.requests).length
        const second = yield* s2(args)
        expect(first.code).toBe(ExitCode.ok)
        expect(second.stdout).toBe(first.stdout)
        expect(JSON.parse(first.stdout).title).toBe(server.corpus.paper(7).title)
        expect(sent).toBe(1)
        expect((yield* server.requests).length).toBe(1)
        // S2_CACHE names the same directory.
        yield* s2(["paper", id, "--fields", "title,year", "--api-url", server.url], { S2_CACHE: dir })
        expect((yield* server.requests).length).toBe(1)
        // Without a cache the API is asked.
        yield* s2(["paper", id, "--fields", "title,year", "--api-url", server.url])
        expect((yield* server.requests).length).toBe(2)
      }),
    60_000
  )

  it.effect("refuses a bad --cache-ttl, and --cache-ttl without a cache", () =>
    Effect.gen(function*() {
      const bad = yield* s2(["paper", "CorpusId:1", "--emulator", "--cache", tmp(), "--cache-ttl", "soon"])
      expect(bad.code).toBe(ExitCode.badInput)
      expect(bad.stderr).toContain("--cache-ttl \"soon\" is invalid")
      const alone = yield* s2(["paper", "CorpusId:1", "--emulator", "--cache-ttl", "1 day"])
      expect(alone.code).toBe(ExitCode.badInput)
      expect(alone.stderr).toContain("--cache-ttl needs a cache")
    }), 60_000)
})

describe("s2 --cache against a server that answers badly", () => {
  const run = (args: ReadonlyArray<string>) => runS2(args)
  const servers: Array<Loopback> = []
  afterAll(() => Promise.all(servers.map((server) => server.close())))
  const paper = (n: number) => ({ paperId: String(n).repeat(40).slice(0, 40), title: `paper number ${n}` })

  it("a 200 that is not a paper (exit 9) is not kept: the next run asks again and succeeds", async () => {
    const server = await serve((_, index) => ({
      json: index === 0 ? { message: "Service temporarily unavailable" } : paper(1)
    }))
    servers.push(server)
    const args = ["paper", "CorpusId:1", "--api-url", server.url, "--cache", tmp()]
    const first = await run(args)
    expect(first.code).toBe(ExitCode.decode)
    const second = await run(args)
    expect(second.code).toBe(ExitCode.ok)
    expect(JSON.parse(second.stdout).title).toBe("paper number 1")
    expect(server.requests).toHaveLength(2)
    // Kept now: a third run sends nothing.
    expect((await run(args)).code).toBe(ExitCode.ok)
    expect(server.requests).toHaveLength(2)
  }, 120_000)

  it("swapped entry files give the right paper or a request, never the other paper", async () => {
    const server = await serve((seen) => ({ json: paper(seen.url.includes("CorpusId:2") ? 2 : 1) }))
    servers.push(server)
    const dir = tmp()
    const look = (n: number) => run(["paper", `CorpusId:${n}`, "--api-url", server.url, "--cache", dir])
    await look(1)
    await look(2)
    const files = fs.readdirSync(dir).map((name) => path.join(dir, name))
    expect(files).toHaveLength(2)
    const [a, b] = files.map((file) => fs.readFileSync(file))
    fs.writeFileSync(files[0]!, b!)
    fs.writeFileSync(files[1]!, a!)
    for (const n of [1, 2]) {
      const again = await look(n)
      expect(again.code).toBe(ExitCode.ok)
      expect(JSON.parse(again.stdout).title).toBe(`paper number ${n}`)
      expect(again.stderr).toContain(`the entry for GET /graph/v1/paper/CorpusId:${n}`)
      expect(again.stderr).toContain("holds the answer to another request")
    }
    expect(server.requests).toHaveLength(4)
  }, 120_000)
})
