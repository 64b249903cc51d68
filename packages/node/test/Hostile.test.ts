/**
 * The client on Node against small hostile servers on 127.0.0.1: bodies far larger than any page,
 * streamed with back-pressure so that the only memory that can grow is the client's.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"

const MB = 1024 * 1024

interface Endless {
  readonly url: string
  /** Bytes of body the server managed to write before the client went away. */
  readonly sent: () => number
}

/**
 * Answers every request with `status` and a JSON body of `size` bytes, written in 64 KB chunks as
 * fast as the client reads; with `declare`, the size is announced in `content-length`.
 */
const endless = (status: number, size: number, declare: boolean) =>
  Effect.acquireRelease(
    Effect.callback<Endless & { readonly server: Http.Server }>((resume) => {
      const chunk = Buffer.alloc(64 * 1024, "y".charCodeAt(0))
      let sent = 0
      const server = Http.createServer((_req, res) => {
        res.writeHead(status, { "content-type": "application/json", ...(declare ? { "content-length": size } : {}) })
        res.write("{\"paperId\": \"")
        let left = size - 15
        const pump = () => {
          while (left > 0) {
            const piece = left >= chunk.length ? chunk : chunk.subarray(0, left)
            left -= piece.length
            sent += piece.length
            if (!res.write(piece)) return void res.once("drain", pump)
          }
          res.end("\"}")
        }
        res.on("close", () => (left = 0))
        pump()
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          sent: () => sent,
          server
        })))
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

/**
 * One lookup in a child process (the server stays in this one), which reports its error and its
 * peak RSS growth: the measure is then the client's alone, not that of other tests in this process.
 */
const lookupInChild = (url: string) =>
  Effect.callback<{ readonly growth: number; readonly error: { readonly _tag: string; readonly message: string } }>(
    (resume) => {
      const probe = fileURLToPath(new URL("./support/lookupRss.ts", import.meta.url))
      const root = fileURLToPath(new URL("../../..", import.meta.url))
      execFile(
        process.execPath,
        ["--expose-gc", "--import", "tsx", probe, url],
        { cwd: root },
        (error, stdout, stderr) => {
          resume(
            error === null ? Effect.succeed(JSON.parse(stdout)) : Effect.die(new Error(`${error.message}\n${stderr}`))
          )
        }
      )
    }
  )

describe("bodies far larger than any page", () => {
  it.live(
    "a 200 MB answer without content-length fails at the 32 MB cap, before 100 MB of RSS growth",
    () =>
      Effect.gen(function*() {
        const server = yield* endless(200, 200 * MB, false)
        const { error, growth } = yield* lookupInChild(server.url)
        expect(error).toMatchObject({
          _tag: "ProtocolError",
          message: expect.stringContaining("larger than maxResponseBytes (32.0 MB): stopped after 32.")
        })
        expect(growth).toBeLessThan(100 * MB)
        // The connection was dropped near the cap: the rest of the 200 MB was never sent.
        expect(server.sent()).toBeLessThan(100 * MB)
      }),
    60_000
  )

  it.live("a declared 200 MB answer fails at once, from its content-length", () =>
    Effect.gen(function*() {
      const server = yield* endless(200, 200 * MB, true)
      const { error, growth } = yield* lookupInChild(server.url)
      expect(error).toMatchObject({
        _tag: "ProtocolError",
        message: expect.stringContaining("content-length 200.0 MB")
      })
      expect(growth).toBeLessThan(30 * MB)
      expect(server.sent()).toBeLessThan(30 * MB)
    }), 60_000)

  it.live("a 500 with a 200 MB body: only its start is read, the error is typed", () =>
    Effect.gen(function*() {
      const server = yield* endless(500, 200 * MB, false)
      const { error, growth } = yield* lookupInChild(server.url)
      expect(error).toMatchObject({
        _tag: "ServerError",
        status: 500
      })
      // The URL (with every default field) is in the message once; the body adds only its start.
      expect(error.message.slice(error.message.indexOf("): ")).length).toBeLessThan(1000)
      expect(growth).toBeLessThan(30 * MB)
      expect(server.sent()).toBeLessThan(30 * MB)
    }), 60_000)
})
