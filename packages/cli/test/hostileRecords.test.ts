/**
 * The real `s2` binary printing records a hostile server sent: fields named like a record's
 * members (`raw`, `keys`, `toString`, `toJSON`), `"__proto__"` keys, a field nested 5,000 deep.
 * What is printed is the server's record as it came, in every format; what cannot be printed is a
 * `DecodeError` (exit 9) with one line, never a crash.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Loopback, serve } from "@s2-effect/test-support"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { runS2 } from "./support/inProcess.js"

const s2 = (args: ReadonlyArray<string>) => runS2(args)
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-hostile-records-"))

/** The body texts, written out: `"__proto__"` must reach the client as a key of the JSON text. */
const spoofed =
  "{\"paperId\":\"p1\",\"title\":\"Real\",\"raw\":{\"paperId\":\"SPOOFED\"},\"keys\":1,\"toString\":2,\"toJSON\":3}"
const proto =
  "{\"paperId\":\"p2\",\"title\":\"Proto\",\"externalIds\":{\"__proto__\":{\"DOI\":\"evil\"},\"CorpusId\":2}}"
const deepField = `[${"[".repeat(5000)}${"]".repeat(5000)}]`
const deep = `{"paperId":"p3","title":"Deep","x":${deepField}}`

const bulkPage = (token: string | null, records: ReadonlyArray<string>) =>
  `{"total":4,"token":${token === null ? "null" : `"${token}"`},"data":[${records.join(",")}]}`

let server: Loopback

beforeAll(async () => {
  server = await serve((seen) => {
    const url = new URL(seen.url, "http://x")
    const text = (body: string) => ({ text: body, headers: { "content-type": "application/json" } })
    if (url.pathname === "/graph/v1/paper/search/bulk") {
      // Page 1 is sound; page 2 holds one record nested 5,000 deep.
      return url.searchParams.get("token") === null
        ? text(bulkPage("2", [spoofed, proto]))
        : text(bulkPage(null, ["{\"paperId\":\"p4\"}", deep]))
    }
    if (url.pathname.endsWith("/spoofed")) return text(spoofed)
    if (url.pathname.endsWith("/proto")) return text(proto)
    if (url.pathname.endsWith("/deep")) return text(deep)
    return { status: 404, json: { error: "not found" } }
  })
})

afterAll(() => server.close())

const T = 60_000
const api = () => ["--api-url", server.url]

describe.concurrent("records named like their members", () => {
  it("json and jsonl print the server's record, not its `raw` field", async () => {
    for (const format of ["json", "jsonl"]) {
      const ran = await s2(["paper", "spoofed", "--format", format, ...api()])
      expect(ran.code, ran.stderr).toBe(0)
      expect(JSON.parse(ran.stdout)).toEqual(JSON.parse(spoofed))
    }
    const line = await s2(["paper", "spoofed", "--format", "jsonl", ...api()])
    expect(line.stdout).toBe(`${spoofed}\n`)
  }, T)

  it("table and csv show the record's fields, the server's raw among them", async () => {
    const table = await s2(["paper", "spoofed", "--format", "table", ...api()])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/^paperId\s+p1$/m)
    expect(table.stdout).toMatch(/^title\s+Real$/m)
    expect(table.stdout).toMatch(/^raw\.paperId\s+SPOOFED$/m)
    expect(table.stdout).toMatch(/^toString\s+2$/m)
    const csv = await s2(["paper", "spoofed", "--format", "csv", ...api()])
    expect(csv.code, csv.stderr).toBe(0)
    expect(csv.stdout).toBe("paperId,title,raw.paperId,keys,toString,toJSON\r\np1,Real,SPOOFED,1,2,3\r\n")
  }, T)

  it("a \"__proto__\" inside externalIds is printed as the data it is, the other fields kept", async () => {
    const ran = await s2(["paper", "proto", "--format", "jsonl", ...api()])
    expect(ran.code, ran.stderr).toBe(0)
    expect(ran.stdout).toBe(`${proto}\n`)
  }, T)
})

describe.concurrent("a field nested 5,000 deep", () => {
  it("s2 paper: exit 9 with one line naming the depth, nothing printed", async () => {
    for (const format of ["json", "table"]) {
      const ran = await s2(["paper", "deep", "--format", format, ...api()])
      expect(ran.code).toBe(9)
      expect(ran.stdout).toBe("")
      expect(ran.stderr.trimEnd().split("\n")).toHaveLength(1)
      expect(ran.stderr).toContain("nests more than 100 levels deep")
      expect(ran.stderr).not.toContain("RangeError")
    }
  }, T)

  it("s2 harvest: the sound page is kept, the deep one is exit 9, and so is --resume", async () => {
    const out = path.join(tmp(), "papers.jsonl")
    const ran = await s2(["harvest", "", "--out", out, ...api()])
    expect(ran.code, ran.stderr).toBe(9)
    expect(ran.stderr).toContain("nests more than 100 levels deep")
    expect(ran.stderr).not.toContain("RangeError")
    expect(ran.stderr.split("\n").filter((line) => line.startsWith("s2:"))).toHaveLength(1)
    // Page 1 as the server sent it, the records with member names included.
    expect(fs.readFileSync(out, "utf8")).toBe(`${spoofed}\n${proto}\n`)
    const resumed = await s2(["harvest", "", "--out", out, "--resume", ...api()])
    expect(resumed.code, resumed.stderr).toBe(9)
    expect(resumed.stderr).toContain("nests more than 100 levels deep")
    expect(fs.readFileSync(out, "utf8")).toBe(`${spoofed}\n${proto}\n`)
  }, T)
})
