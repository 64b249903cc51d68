/**
 * `--redis URL`: the client's pace is shared through Redis, and a Redis that is not there ends the
 * command with exit code 11 and a line that says so, having sent nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { serve, serveTcp } from "@s2-effect/test-support"
import { startEmulator } from "@s2-effect/testing"
import { Effect, Option } from "effect"
import * as net from "node:net"
import * as Client from "../src/Client.js"
import { run } from "../src/ClientCommand.js"
import { ExitCode } from "../src/ExitCode.js"
import type { SharedFlags } from "../src/SharedFlags.js"
import { runS2 } from "./support/inProcess.js"

/** A loopback port nothing listens on. */
const deadPort = Effect.callback<number>((resume) => {
  const probe = net.createServer()
  probe.listen(0, "127.0.0.1", () => {
    const address = probe.address()
    probe.close(() => resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 1)))
  })
})

const common = (apiUrl: string, redis: string): SharedFlags => ({
  apiUrl: Option.some(apiUrl),
  timeout: Option.none(),
  deadline: Option.none(),
  noRetry: false,
  verbose: false,
  quiet: false,
  apiKeyFile: Option.none(),
  emulator: false,
  redis: Option.some(redis),
  cache: Option.none(),
  cacheTtl: Option.none(),
  record: Option.none(),
  replay: Option.none()
})

describe("--redis", () => {
  it.live(
    "without a Redis there, the command fails with exit code 11 naming it, and sends nothing",
    () =>
      Effect.gen(function*() {
        const emulator = yield* startEmulator({ seed: 1, size: 50 })
        const url = `redis://:hunter2@127.0.0.1:${yield* deadPort}`
        const error = yield* Effect.flip(
          run("paper x", SemanticScholar.use((s2) => s2.getPaper("CorpusId:1"))).pipe(
            Effect.provide(Client.layer(common(emulator.url, url)))
          )
        )
        expect(error.code).toBe(ExitCode.rateLimiter)
        expect(error.message).toMatch(
          /^paper x failed: the shared rate limit's store \(Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\)/
        )
        expect(error.message).not.toContain("hunter2")
        expect(error.message).toContain("check that Redis runs at --redis / S2_REDIS_URL")
        expect(yield* emulator.requests).toHaveLength(0)
      }).pipe(Effect.scoped),
    60_000
  )
})

// In process (support/inProcess.ts): an unhandled "error" event there is vitest's unhandled error,
// which fails the run, as it was the process's stderr before.
describe("--redis at something that is not a sane Redis (s2 in process)", () => {
  const cases: ReadonlyArray<readonly [string, (chunk: Buffer) => string | "close" | undefined, RegExp]> = [
    ["garbage", () => "hello garbage\r\n", /store/],
    ["an HTTP answer", () => "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n", /store/],
    ["a day's wait", (chunk) => {
      const text = chunk.toString("latin1")
      return text.includes("SCRIPT") ? `$40\r\n${"a".repeat(40)}\r\n` : "*2\r\n:1\r\n:86400000\r\n"
    }, /asked to wait 1 day, over the 1 minute limit/],
    ["nonsense", (chunk) => {
      const text = chunk.toString("latin1")
      return text.includes("SCRIPT") ? `$40\r\n${"a".repeat(40)}\r\n` : "*2\r\n$3\r\nabc\r\n:5\r\n"
    }, /answered \[/]
  ]
  for (const [what, answer, says] of cases) {
    it(`${what}: exit 11, one line on stderr, nothing sent`, async () => {
      const redis = await serveTcp(answer)
      const api = await serve(() => ({ json: { paperId: "a".repeat(40), title: "ok" } }))
      try {
        const ran = await runS2([
          "paper",
          "CorpusId:1",
          "--redis",
          `redis://127.0.0.1:${redis.port}`,
          "--api-url",
          api.url
        ])
        expect(ran.code).toBe(ExitCode.rateLimiter)
        expect(ran.stderr).not.toContain("Unhandled error event")
        expect(ran.stderr).not.toMatch(/^\s+at /m)
        expect(ran.stderr).toMatch(says)
        expect(ran.stderr.trimEnd().split("\n").filter((line) => !line.includes("WARN"))).toHaveLength(1)
        expect(api.requests).toHaveLength(0)
      } finally {
        await Promise.all([redis.close(), api.close()])
      }
    }, 60_000)
  }
})
