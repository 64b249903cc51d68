/**
 * The real `s2` binary printing what a hostile server sent: terminal control sequences in a title
 * or an error body reach the terminal only escaped, and a table of any length prints.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Loopback, serve } from "@s2-effect/test-support"
import * as Bin from "./support/bin.js"

const bin = Bin.bundleBin()
const s2 = (args: ReadonlyArray<string>) => Bin.finish(Bin.start(bin, args))

/** An OSC window title, a clear screen, a colour, a C1 CSI, a bell and a right-to-left override. */
const evil = "pwn\x1b]0;pwned\x07ed\x1b[2J\x1b[31m red\u009b2J \u202Eevil\u202C\r\nnext\tcell"
/** Bytes a terminal acts on: C0 and C1 controls but the final newline, and bidi overrides. */
const raw = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/
/**
 * What `JSON.stringify` leaves raw in a string: DEL, a C1 CSI, a right-to-left override and an
 * isolate, and the line and paragraph separators.
 */
const hidden = "Hidden\u009b2J \u202Eevil\u202C \u2066iso\u2069 line\u2028para\u2029end\u007f"
/** `raw`, and the line and paragraph separators. */
const rawOrSeparator = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

const bulkTotal = 150_000
const bulkPage = 1000

let server: Loopback

beforeAll(async () => {
  server = await serve((seen) => {
    const url = new URL(seen.url, "http://x")
    if (url.pathname === "/graph/v1/paper/search/bulk") {
      const page = Number(url.searchParams.get("token") ?? "0")
      const data = Array.from({ length: bulkPage }, (_, i) => {
        const n = page * bulkPage + i
        return { paperId: `p${n}`, title: n === 7 ? evil : `Paper number ${n}` }
      })
      return {
        json: { total: bulkTotal, ...(page + 1 < bulkTotal / bulkPage ? { token: String(page + 1) } : {}), data }
      }
    }
    if (url.pathname === "/graph/v1/paper/evil") {
      return {
        json: {
          paperId: "evil",
          title: evil,
          authors: [{ authorId: "1", name: `Ada${evil}` }],
          [`field${evil}`]: 1,
          externalIds: { DOI: `10.1/${evil}` }
        }
      }
    }
    if (url.pathname === "/graph/v1/paper/hidden") return { json: { paperId: "hidden", title: hidden } }
    if (url.pathname === "/graph/v1/paper/bad") return { status: 400, json: { error: `bad id ${evil}` } }
    if (url.pathname === "/graph/v1/paper/teapot") return { status: 418, text: `I'm a teapot ${evil}` }
    if (url.pathname === "/graph/v1/paper/garbage") {
      return { status: 200, headers: { "content-type": "application/json" }, text: `{"paperId": ${evil}` }
    }
    return { status: 404, json: { error: "Paper not found" } }
  })
})

afterAll(() => server.close())

const T = 120_000

describe.concurrent("control sequences from the server are printed escaped", () => {
  for (const format of ["table", "csv"]) {
    it(`s2 paper --format ${format}: the title's sequences are visible, not acted on`, async () => {
      const ran = await s2(["paper", "evil", "--format", format, "--api-url", server.url])
      expect(ran.code, ran.stderr).toBe(0)
      // CSV lines end in CRLF (RFC 4180); nothing else is a control character.
      expect(ran.stdout.replace(/\r\n/g, "\n")).not.toMatch(raw)
      expect(ran.stdout).toContain("pwn\\u001b]0;pwned\\u0007ed\\u001b[2J")
      expect(ran.stdout).toContain("\\u202eevil\\u202c")
      expect(ran.stdout).toContain("\\u009b2J")
    }, T)
  }

  it("s2 search --bulk --format csv: one CSV row per record, newlines inside a title escaped", async () => {
    const ran = await s2(["search", "x", "--bulk", "--max", "10", "--format", "csv", "--api-url", server.url])
    expect(ran.code, ran.stderr).toBe(0)
    expect(ran.stdout.replace(/\r\n/g, "")).not.toMatch(raw)
    const lines = ran.stdout.split("\r\n")
    expect(lines).toHaveLength(12)
    expect(lines[8]).toBe(
      "p7,pwn\\u001b]0;pwned\\u0007ed\\u001b[2J\\u001b[31m red\\u009b2J \\u202eevil\\u202c\\r\\nnext\\tcell"
    )
  }, T)

  it("s2 paper --format json keeps the exact text, escaped by JSON", async () => {
    const ran = await s2(["paper", "evil", "--format", "json", "--api-url", server.url])
    expect(ran.code, ran.stderr).toBe(0)
    expect(ran.stdout).not.toContain("\x1b")
    expect(JSON.parse(ran.stdout).title).toBe(evil)
  }, T)

  for (const format of ["json", "jsonl"]) {
    it(
      `s2 paper --format ${format}: what JSON.stringify leaves raw is a \\u escape, the same title read back`,
      async () => {
        const ran = await s2(["paper", "hidden", "--format", format, "--api-url", server.url])
        expect(ran.code, ran.stderr).toBe(0)
        expect(ran.stdout.replace(/\n/g, "")).not.toMatch(rawOrSeparator)
        expect(ran.stdout).toContain(
          "Hidden\\u009b2J \\u202eevil\\u202c \\u2066iso\\u2069 line\\u2028para\\u2029end\\u007f"
        )
        expect(JSON.parse(ran.stdout).title).toBe(hidden)
      },
      T
    )
  }

  it(
    "s2 paper on a terminal (JSON by default): the title's C1, bidi and separator characters are escaped",
    async () => {
      const shown = await Bin.onTerminal(bin, ["paper", "hidden", "--api-url", server.url])
      expect(shown.code, shown.stdout).toBe(0)
      // The terminal turns each line feed into CR LF.
      const text = shown.stdout.replace(/\r\n/g, "\n")
      expect(text.replace(/\n/g, "")).not.toMatch(rawOrSeparator)
      expect(JSON.parse(text).title).toBe(hidden)
    },
    T
  )

  for (
    const [id, codes, flags] of [
      ["bad", [2], []],
      ["teapot", [9], ["--no-retry"]],
      // A 2xx with a bad body: a DecodeError (9), or a TransportError (8) while that is how it is classified.
      ["garbage", [8, 9], ["--no-retry"]],
      ["bad", [2], ["--verbose"]],
      ["garbage", [8, 9], ["--verbose", "--no-retry"]]
    ] as const
  ) {
    it(
      `an error body with control sequences (${id}${flags.length > 0 ? " " + flags.join(" ") : ""}): stderr has none`,
      async () => {
        const ran = await s2(["paper", id, "--api-url", server.url, ...flags])
        expect(codes, ran.stderr).toContain(ran.code)
        expect(ran.stderr).toMatch(/^s2: /m)
        expect(ran.stderr.replace(/\n/g, "")).not.toMatch(raw)
        if (!flags.some((flag) => flag === "--verbose")) {
          // A message's own lines are indented: a line break in a body cannot start a line that
          // passes for another message.
          const [first, ...rest] = ran.stderr.trimEnd().split("\n")
          expect(first).toMatch(/^s2: paper \w+ failed: /)
          for (const line of rest) expect(line).toMatch(/^ {2}\S/)
        }
      },
      T
    )
  }
})

describe("long tables", () => {
  it("s2 search --bulk --format table over 150,000 records prints every row, exit 0", async () => {
    const ran = await s2(["search", "x", "--bulk", "--format", "table", "--api-url", server.url])
    expect(ran.code, ran.stderr).toBe(0)
    const lines = ran.stdout.trimEnd().split("\n")
    expect(lines).toHaveLength(bulkTotal + 2)
    expect(lines[0]).toMatch(/^paperId\s+title$/)
    expect(lines[bulkTotal + 1]).toMatch(/^p149999\s+Paper number 149999$/)
    expect(ran.stdout).not.toMatch(raw)
  }, T)
})
