/**
 * A dataset file host is not the API: when it fails, the line names that host and never sends the
 * user to `--api-url`, which has no say over where the download links point. `s2` runs in process
 * (support/inProcess.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { HttpStatus, ServerError, Timeout, TransportError } from "@s2-effect/core"
import type { EmulatorServer } from "@s2-effect/testing"
import { startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { ExitCode, fromS2Error } from "../src/ExitCode.js"
import { runS2 } from "./support/inProcess.js"

/** A port nothing listens on: bound by the system, then let go. */
const closedPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })

let scope: Scope.Closeable
let server: EmulatorServer
let port: number

beforeAll(async () => {
  port = await closedPort()
  scope = Effect.runSync(Scope.make())
  server = await Effect.runPromise(
    startEmulator({ seed: 2, size: 200, fileBase: `http://127.0.0.1:${port}` }).pipe(Scope.provide(scope))
  )
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

describe("a dataset file host that fails", () => {
  it("s2 datasets download, links pointing at a closed port: the line names that host, not --api-url", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-file-host-"))
    const ran = await runS2(
      ["datasets", "download", "abstracts", "latest", "--dir", dir, "--no-retry", "--api-url", server.url],
      { env: { S2_API_KEY: "file-host-key-0123456789" } }
    )
    expect(ran.code).toBe(ExitCode.transport)
    const lines = ran.stderr.trimEnd().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      new RegExp(
        `^s2: download of abstracts in release latest failed: could not reach the file host 127\\.0\\.0\\.1:${port} `
      )
    )
    expect(lines[0]).toContain("the dataset's download links point at that host")
    expect(ran.stderr).not.toMatch(/api-url|API_URL|the API/)
  }, 60_000)

  it("s2 datasets download, the file host answering 403: its link is blamed, not the API key", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-file-host-403-"))
    const ran = await runS2(["datasets", "download", "abstracts", "--emulator", "--dir", dir, "--concurrency", "1"], {
      env: {
        S2_API_KEY: "file-host-key-0123456789",
        S2_EMULATOR_FAULTS: JSON.stringify({ script: [{ route: "/files/*", fault: { _tag: "Status", status: 403 } }] })
      }
    })
    expect(ran.code).toBe(ExitCode.forbidden)
    expect(ran.stderr).toContain("HTTP 403 from the file host")
    expect(ran.stderr).toContain("the pre-signed link may have expired")
    expect(ran.stderr).not.toMatch(/refused the key|S2_API_KEY|--api-key-file/)
  }, 60_000)

  it("every failure of a file host is said as the file host's, with advice that fits it", () => {
    const at = { method: "GET", url: "https://files.example.org/staging/abstracts/part-0.jsonl.gz" }
    const context = { what: "download of abstracts", retries: 10, hasKey: true }
    const fileHost = [
      new TransportError({ message: "GET … failed: Transport (connect ECONNREFUSED)", responder: "fileHost", ...at }),
      new TransportError({ message: "not HTTP", reason: "malformed", responder: "fileHost", ...at }),
      new ServerError({
        message: "server error (HTTP 503 from the file host, GET …)",
        status: 503,
        responder: "fileHost",
        ...at
      }),
      new Timeout({ message: "the file host sent nothing for 1m", timeoutMillis: 60_000, responder: "fileHost", ...at })
    ]
    for (const error of fileHost) {
      const { message } = fromS2Error(error, context)
      expect(message).not.toMatch(/api-url|API_URL|the API|--timeout/)
    }
    expect(fromS2Error(fileHost[0]!, context).message).toContain("could not reach the file host files.example.org ")
    expect(fromS2Error(fileHost[2]!, context).message).toContain("the file host files.example.org failed")
    // A 403 of the file host is about its link (the key is never sent there), not the API key.
    const refused = fromS2Error(
      HttpStatus.toError({ status: 403, ...at, responder: "fileHost" }),
      context
    )
    expect(refused.code).toBe(ExitCode.forbidden)
    expect(refused.message).toContain("pre-signed link may have expired")
    expect(refused.message).toContain("run the command again, which fetches fresh links")
    expect(refused.message).not.toMatch(/refused the key|S2_API_KEY|--api-key-file/)
    // The API's own failures keep their advice.
    const api = fromS2Error(new TransportError({ message: "refused", ...at }), context).message
    expect(api).toContain("could not reach the API")
    expect(api).toContain("--api-url")
    expect(fromS2Error(new ServerError({ message: "server error", status: 503, ...at }), context).message).toContain(
      "the API failed"
    )
  })
})
