/**
 * `--redis URL`: the client's pace is shared through Redis, and a Redis that is not there ends the
 * command with exit code 11 and a line that says so, within seconds.
 */
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { startEmulator } from "@s2-effect/testing"
import { Clock, Effect, Option } from "effect"
import * as net from "node:net"
import type { Common } from "../src/Common.js"
import { client, run } from "../src/Common.js"
import { ExitCode } from "../src/ExitCode.js"

/** A loopback port nothing listens on. */
const deadPort = Effect.callback<number>((resume) => {
  const probe = net.createServer()
  probe.listen(0, "127.0.0.1", () => {
    const address = probe.address()
    probe.close(() => resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 1)))
  })
})

const common = (apiUrl: string, redis: string): Common => ({
  apiUrl: Option.some(apiUrl),
  timeout: Option.none(),
  noRetry: false,
  verbose: false,
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
        const started = yield* Clock.currentTimeMillis
        const error = yield* Effect.flip(
          run("paper x", SemanticScholar.use((s2) => s2.getPaper("CorpusId:1"))).pipe(
            Effect.provide(client(common(emulator.url, url)))
          )
        )
        expect(error.code).toBe(ExitCode.rateLimiter)
        expect(error.message).toMatch(
          /^paper x failed: the shared rate limit's store \(Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\)/
        )
        expect(error.message).not.toContain("hunter2")
        expect(error.message).toContain("check that Redis runs at --redis / S2_REDIS_URL")
        expect((yield* Clock.currentTimeMillis) - started).toBeLessThan(5_000)
        expect(yield* emulator.requests).toHaveLength(0)
      }).pipe(Effect.scoped),
    15_000
  )
})
