/**
 * `--record DIR` / `--replay DIR`: a script of commands recorded against the emulator over HTTP
 * replays with the emulator gone, with the same output and exit codes; the key is never written.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { describe, expect, it } from "@effect/vitest"
import { Corpus, startEmulator } from "@s2-effect/testing"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Cli from "../src/Cli.js"
import { ExitCode } from "../src/ExitCode.js"
import { Stdio } from "../src/Stdio.js"

const corpus = Corpus.make({ seed: 5, size: 1000 })
const key = "cli-cassette-key-7f3a"

/** Runs `s2 args` in process, capturing its output. */
const s2 = (args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    let out = ""
    let err = ""
    const stdio = Stdio.of({
      out: (text) => Effect.sync(() => void (out += text)),
      err: (text) => Effect.sync(() => void (err += text)),
      outIsTTY: false,
      errIsTTY: false,
      columns: 80,
      errStream: process.stderr
    })
    const code = yield* Cli.run(["node", "s2", ...args]).pipe(
      Effect.provide(Layer.merge(NodeServices.layer, Layer.succeed(Stdio, stdio)))
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
      expect(changed.code).toBe(ExitCode.transport)
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
