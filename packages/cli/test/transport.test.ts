/**
 * The real `s2` against servers that answer, but badly, or too slowly: each ends within seconds, in
 * one line that says what the server did (not "could not reach the API" when it answered), with
 * the documented exit code; `--deadline` bounds one request with its retries; a key a header
 * cannot carry is refused before anything is sent, and never printed.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Loopback } from "@s2-effect/test-support"
import { serve, serveTcp } from "@s2-effect/test-support"
import { runS2 } from "./support/inProcess.js"

const s2 = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => runS2(args, { env })

const paper = { paperId: "a".repeat(40), title: "A paper" }
const T = 60_000

let tooMany: Loopback
let patience: Loopback
let hung: Loopback
let html: Loopback
let shape: Loopback
let reset: Loopback
let ok: Loopback
let badHeader: Awaited<ReturnType<typeof serveTcp>>

beforeAll(async () => {
  ;[tooMany, patience, hung, html, shape, reset, ok, badHeader] = await Promise.all([
    serve(() => ({ status: 429, headers: { "retry-after": "1" }, json: { message: "Too Many Requests" } })),
    serve(() => ({ status: 429, headers: { "retry-after": "601" }, json: { message: "Too Many Requests" } })),
    // Never answers: the request stays open until the test closes the server.
    serve(() => undefined),
    serve(() => ({ status: 200, headers: { "content-type": "text/html" }, text: "<html><body>Hello</body></html>" })),
    serve(() => ({ json: { message: "Service temporarily unavailable" } })),
    serve(() => "reset"),
    serve(() => ({ json: paper })),
    serveTcp(() => "HTTP/1.1 200 OK\r\nX-Bad: a\u0001b\r\nContent-Length: 2\r\n\r\n{}")
  ])
})

afterAll(async () => {
  await Promise.all([tooMany, patience, hung, html, shape, reset, ok, badHeader].map((server) => server.close()))
})

describe.concurrent("--deadline: one request with its retries, bounded", () => {
  it(
    "a server that always answers 429 Retry-After: 1: --deadline 2s ends at once with exit 5 (rate limited, as the assistant is told), saying why",
    async () => {
      const ran = await s2(["paper", "CorpusId:1", "--api-url", tooMany.url, "--deadline", "2s"])
      expect(ran.code, ran.stderr).toBe(5)
      expect(ran.stderr).toContain("no complete answer within the deadline of 2 s, retries and waits included")
      expect(ran.stderr).toContain("retries and waits included; the last attempt: rate limited (HTTP 429")
      expect(ran.stderr).toContain("raise --deadline")
      // The wait refused is logged at Warning.
      expect(ran.stderr).toContain("not retrying in 5 s: the deadline of 2 s would pass")
    },
    T
  )

  it("a server that never answers: --deadline 2s ends the attempt (not 3 × the 30 s time-out), exit 7", async () => {
    const ran = await s2(["paper", "CorpusId:1", "--api-url", hung.url, "--deadline", "2s"])
    expect(ran.code, ran.stderr).toBe(7)
    // The deadline, not the per-attempt time-out, ended it: one attempt, interrupted.
    expect(ran.stderr).toContain("the deadline of 2 s passed during an attempt")
    expect(ran.stderr).not.toContain("retrying in")
    expect(hung.requests).toHaveLength(1)
  }, T)

  it("--deadline that is no duration: exit 2 naming the flag", async () => {
    const ran = await s2(["paper", "CorpusId:1", "--api-url", ok.url, "--deadline", "soon"])
    expect(ran.code, ran.stderr).toBe(2)
    expect(ran.stderr).toContain("--deadline \"soon\" is invalid")
  }, T)

  it("a Retry-After of 601 s: 'asked to wait 10 min 1 s, over the 10 minute limit', no retry, exit 5", async () => {
    const ran = await s2(["paper", "CorpusId:1", "--api-url", patience.url])
    expect(ran.code, ran.stderr).toBe(5)
    expect(ran.stderr).toContain("asked to wait 10 min 1 s, over the 10 minute limit")
    expect(ran.stderr).toContain("so no retry was made")
  }, T)
})

describe.concurrent("a server that answered is not 'could not reach the API'", () => {
  const answered = (stderr: string) => {
    expect(stderr).not.toContain("could not reach")
    expect(stderr).not.toContain("check the network")
  }

  it("a 200 whose body is an HTML page: exit 9, 'not JSON', no retry", async () => {
    const before = html.requests.length
    const ran = await s2(["paper", "CorpusId:1", "--api-url", html.url])
    expect(ran.code, ran.stderr).toBe(9)
    expect(ran.stderr).toContain("(HTTP 200) with a body that is not JSON; it starts: <html>")
    expect(ran.stderr).toContain("<html><body>Hello")
    answered(ran.stderr)
    expect(html.requests.length - before).toBe(1)
  }, T)

  it("a 200 whose JSON is of the wrong shape: exit 9, saying the server's answer is not the API's shape", async () => {
    const ran = await s2(["paper", "CorpusId:1", "--api-url", shape.url])
    expect(ran.code, ran.stderr).toBe(9)
    expect(ran.stderr).toContain("the server answered, but not in the shape the API answers in")
    answered(ran.stderr)
  }, T)

  it("an answer with a header a header cannot carry: exit 8, 'not in valid HTTP'", async () => {
    const ran = await s2(["paper", "CorpusId:1", "--api-url", `http://127.0.0.1:${badHeader.port}`, "--no-retry"])
    expect(ran.code, ran.stderr).toBe(8)
    expect(ran.stderr).toContain("the server answered, but not in valid HTTP")
    expect(ran.stderr).toContain("Invalid header value char")
    answered(ran.stderr)
  }, T)

  it("a connection dropped by the server: exit 8, 'the server dropped the connection'", async () => {
    const ran = await s2(["paper", "CorpusId:1", "--api-url", reset.url, "--no-retry"])
    expect(ran.code, ran.stderr).toBe(8)
    expect(ran.stderr).toContain("the server dropped the connection")
    answered(ran.stderr)
  }, T)
})

describe.concurrent("an API key a header cannot carry", () => {
  const secret = "Sekrit-0123456789"
  for (
    const [name, key] of [
      ["a line break", `abc\n${secret}`],
      ["a non-ASCII character", `abcé${secret}`]
    ] as const
  ) {
    it(`with ${name}: exit 2 before anything is sent, naming S2_API_KEY's fault, never the key`, async () => {
      const before = ok.requests.length
      const ran = await s2(["paper", "CorpusId:1", "--api-url", ok.url], { S2_API_KEY: key })
      expect(ran.code, ran.stderr).toBe(2)
      expect(ran.stderr).toContain(
        `the API key (S2_API_KEY or --api-key-file) has ${name} at character 4, which an HTTP header cannot carry`
      )
      expect(ran.stderr + ran.stdout).not.toContain(secret)
      expect(ran.stderr).not.toContain("could not reach")
      expect(ok.requests.length).toBe(before)
    }, T)
  }
})
