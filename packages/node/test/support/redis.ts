/**
 * A real `redis-server` for tests: on a free 127.0.0.1 port, without persistence, stopped with the
 * scope. Debian's `redis-server` package (installed by .ci/run); `REDIS_SERVER` names another binary.
 */
import type { Scope } from "effect"
import { Data, Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as net from "node:net"

export class RedisMissing extends Data.TaggedError("RedisMissing")<{ readonly message: string }> {}

export interface RedisServer {
  readonly url: string
  readonly process: ChildProcess
  /** Kills the server at once (SIGKILL), as a crash would. */
  readonly kill: Effect.Effect<void>
}

const freePort = Effect.callback<number>((resume) => {
  const probe = net.createServer()
  probe.listen(0, "127.0.0.1", () => {
    const address = probe.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    probe.close(() => resume(Effect.succeed(port)))
  })
})

const binary = process.env["REDIS_SERVER"] ?? "redis-server"

const exited = (child: ChildProcess) =>
  Effect.callback<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
  })

const start = (port: number) =>
  Effect.callback<ChildProcess, RedisMissing>((resume) => {
    const child = spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const missing = (why: string) =>
      new RedisMissing({
        message: `the shared rate-limit tests need a real redis-server (${why}). Install Debian's package ` +
          "(sudo apt-get install redis-server; .ci/run does it) or set REDIS_SERVER to a redis-server binary."
      })
    child.once("error", (error) => resume(Effect.fail(missing(`${binary}: ${error.message}`))))
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes("Ready to accept connections")) resume(Effect.succeed(child))
    })
    child.once("exit", (code) => resume(Effect.fail(missing(`it exited with ${code}: ${output.slice(-300)}`))))
  })

/** Starts a server for the scope; fails with a message saying what is missing when there is none. */
export const redisServer: Effect.Effect<RedisServer, RedisMissing, Scope.Scope> = Effect.gen(
  function*() {
    const port = yield* freePort
    const child = yield* Effect.acquireRelease(start(port), (child) => {
      child.kill("SIGKILL")
      return exited(child)
    })
    return {
      url: `redis://127.0.0.1:${port}`,
      process: child,
      kill: Effect.suspend(() => {
        child.kill("SIGKILL")
        return exited(child)
      })
    }
  }
)
