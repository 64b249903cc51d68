/**
 * `--cache DIR`, `S2_CACHE` and `--cache-ttl`, run in process against the emulator over HTTP.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { describe, expect, it } from "@effect/vitest"
import { startEmulator } from "@s2-effect/testing"
import { ConfigProvider, Effect, Layer, Ref } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Cli from "../src/Cli.js"
import { ExitCode } from "../src/ExitCode.js"
import { Stdio } from "../src/Stdio.js"

/** Runs `s2 …` with its output captured. */
const s2 = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const out = yield* Ref.make("")
    const err = yield* Ref.make("")
    const stdio = Layer.succeed(Stdio, {
      out: (text) => Ref.update(out, (all) => all + text),
      err: (text) => Ref.update(err, (all) => all + text),
      outIsTTY: false,
      errIsTTY: false,
      columns: 80,
      errStream: process.stderr
    })
    const code = yield* Cli.run(["node", "s2", ...args]).pipe(
      Effect.provide(Layer.merge(NodeServices.layer, stdio)),
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
