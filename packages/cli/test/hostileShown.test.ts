/**
 * What `s2` shows of hostile values, on stderr and in `s2 mcp`'s tool errors: a key the server
 * echoes written with escapes, a password in the API root, a huge id. Run in process
 * (support/inProcess.ts; `s2 mcp` under the SDK's client through support/mcpTransport.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { EmulatorServer } from "@s2-effect/testing"
import { Faults, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import { runS2 } from "./support/inProcess.js"
import { inProcessTransport } from "./support/mcpTransport.js"

const key = "Hostile-key-0123456789abcdef"
/** The key as a server may write it in JSON: the first letter escaped, a dash percent-encoded. */
const written = `\\u0048${key.slice(1, 7)}%2D${key.slice(8)}`

const s2 = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => runS2(args, { env })

let scope: Scope.Closeable
let echoing: EmulatorServer
let quiet: EmulatorServer

beforeAll(async () => {
  scope = Effect.runSync(Scope.make())
  ;[echoing, quiet] = await Effect.runPromise(
    Effect.all([
      startEmulator({
        seed: 2,
        size: 50,
        faults: {
          script: [{
            route: "/graph/v1/author/*",
            fault: Faults.status(400, { body: `{"error":"invalid key ${written}"}` })
          }]
        }
      }),
      startEmulator({ seed: 2, size: 50 })
    ]).pipe(Scope.provide(scope))
  )
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const T = 60_000

/** Nothing of the key, in any letter case, nor the form the server wrote it in. */
const expectNoKey = (text: string) => {
  expect(text.toLowerCase()).not.toContain(key.toLowerCase())
  expect(text).not.toContain(written)
  expect(text).not.toContain(key.slice(8))
}

describe.concurrent("the key, echoed by a server with escapes", () => {
  it("stderr shows <redacted>, with and without --verbose", async () => {
    for (const verbose of [[], ["--verbose"]]) {
      const ran = await s2(["author", "1", "--api-url", echoing.url, "--no-retry", ...verbose], { S2_API_KEY: key })
      expect(ran.code).toBe(2)
      expect(ran.stderr).toContain("invalid key <redacted>")
      expectNoKey(ran.stdout + ran.stderr)
    }
  }, T)

  it("s2 mcp: the tool error shows <redacted>", async () => {
    const { transport, stderr } = inProcessTransport(["mcp", "--api-url", echoing.url, "--no-retry"], {
      S2_API_KEY: key
    })
    const client = new Client({ name: "s2-hostile-test", version: "1.0.0" })
    await client.connect(transport)
    try {
      const result = await client.callTool({ name: "get_author", arguments: { id: "1" } })
      const text = JSON.stringify(result)
      expect(result.isError).toBe(true)
      expect(text).toContain("invalid key <redacted>")
      expectNoKey(text + stderr())
    } finally {
      await client.close()
    }
  }, T)
})

describe.concurrent("a user name or password in the API root", () => {
  const withPassword = () => quiet.url.replace("http://", "http://someone:hunter2secret@")

  it("--api-url, S2_API_URL and s2 mcp: refused (exit 2) before any request, the password not shown", async () => {
    const before = (await Effect.runPromise(quiet.requests)).length
    const runs = [
      await s2(["paper", "CorpusId:1", "--api-url", withPassword()]),
      await s2(["paper", "CorpusId:1", "--verbose"], { S2_API_URL: withPassword() }),
      await s2(["mcp"], { S2_API_URL: withPassword() })
    ]
    for (const ran of runs) {
      expect(ran.code).toBe(2)
      expect(ran.stderr).toMatch(/apiUrl "http:\/\/\*\*\*@127\.0\.0\.1:\d+" has a user name or password/)
      expect(ran.stdout + ran.stderr).not.toMatch(/someone|hunter2/)
    }
    expect((await Effect.runPromise(quiet.requests)).length).toBe(before)
  }, T)
})

describe.concurrent("a huge value in a message", () => {
  it("an id of 120,000 characters: one line of a few KB, not a copy of the id per mention", async () => {
    const id = `CorpusId:${"9".repeat(120_000)}`
    const before = (await Effect.runPromise(quiet.requests)).length
    const ran = await s2(["paper", id, "--api-url", quiet.url, "--no-retry"])
    // No URL of the API carries it (the API answers 414 past 8,192 bytes): refused before sending.
    expect(ran.code).toBe(2)
    expect(ran.stderr).toMatch(
      /^s2: paper CorpusId:9{150,}… failed: paperId "CorpusId:9{150,}…" \(120009 characters\) is longer than a URL of the API can carry \(8192 bytes\)/
    )
    expect(ran.stderr.length).toBeLessThan(3000)
    expect((await Effect.runPromise(quiet.requests)).length).toBe(before)
  }, T)
})
