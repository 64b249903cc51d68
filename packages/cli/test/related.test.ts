/**
 * `s2 related` and the `--format html` maps against the in-process emulator
 * (`--emulator`) and an HTTP emulator whose request log checks the request budget; the maps opened
 * in Debian's Chromium from file://, as a new user opens them. `s2` runs in process
 * (support/inProcess.ts) but where a map is refused on a real terminal: `script` gives the bundled
 * bin a pseudo-terminal.
 */
import { describe, expect, it } from "@effect/vitest"
import { launchChromium } from "@s2-effect/test-support/chromium"
import { type EmulatorServer, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"

const bin = Bin.bundleBin()
const s2 = (args: ReadonlyArray<string>) => runS2(args)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-related-"))

/** Three landmark papers by DOI, as a user pastes them: bare, prefixed, a doi.org link. */
const threeDois = ["10.1093/mind/lix.236.433", "DOI:10.18653/v1/N18-3011", "https://doi.org/10.2139/ssrn.2250500"]
const jsonl = (text: string) => text.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>)

/** Opens a map in Chromium: no page error, no console error, no request but the file; `check` reads it. */
const inChromium = async (
  file: string,
  check: (page: Awaited<ReturnType<typeof launchChromium>>["page"]) => Promise<void>
) => {
  const browser = await launchChromium()
  try {
    await browser.page.goto(pathToFileURL(file).href)
    await browser.page.waitForSelector("body[data-settled-millis]", { timeout: 30_000 })
    await check(browser.page)
    expect(browser.pageErrors).toEqual([])
    expect(browser.console.filter((m) => m.startsWith("error"))).toEqual([])
    expect(browser.requests).toEqual([pathToFileURL(file).href])
  } finally {
    await browser.close()
  }
}

describe("s2 related", () => {
  it("jsonl: one object per paper, best first, with the counts and flags; a cut list is said on stderr", async () => {
    const ran = await s2(["related", ...threeDois, "--emulator", "--format", "jsonl", "--top", "25"])
    expect(ran.code).toBe(0)
    const rows = jsonl(ran.stdout)
    expect(rows).toHaveLength(25)
    for (const row of rows) {
      expect(Object.keys(row)).toEqual([
        "paperId",
        "title",
        "year",
        "venue",
        "authors",
        "citationCount",
        "score",
        "coCitation",
        "coupling",
        "citesSeed",
        "citedBySeed"
      ])
      expect(typeof row.title).toBe("string")
    }
    const scores = rows.map((r) => r.score as number)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    expect(ran.stderr).toMatch(/^s2: 1 list cut at the API's 1,000 entries \(0 of a seed; 148 entries not read\)/)
  }, 60_000)

  it("table, csv and json: the same papers", async () => {
    const args = ["related", ...threeDois, "--emulator", "--top", "5"]
    const [table, csv, json] = await Promise.all([
      s2([...args, "--format", "table"]),
      s2([...args, "--format", "csv"]),
      s2([...args, "--format", "json"])
    ])
    expect(table.stdout.split("\n")[0]).toMatch(/^score\s+coCited\s+coupled\s+cites\s+citedBy\s+year\s+title/)
    expect(table.stdout.trim().split("\n")).toHaveLength(7)
    const lines = csv.stdout.trim().split("\r\n")
    expect(lines[0]).toBe(
      "paperId,title,year,venue,authors,citationCount,score,coCitation,coupling,citesSeed,citedBySeed"
    )
    expect(lines).toHaveLength(6)
    const parsed = JSON.parse(json.stdout) as Array<{ paperId: string }>
    expect(parsed.map((p) => p.paperId)).toEqual(lines.slice(1).map((l) => l.split(",")[0]))
  }, 60_000)

  it("bibtex, csl-json and ris: the related papers to cite, written from their fields", async () => {
    const args = ["related", ...threeDois, "--emulator", "--top", "4"]
    const [bibtex, csl, ris] = await Promise.all([
      s2([...args, "--format", "bibtex"]),
      s2([...args, "--format", "csl-json"]),
      s2([...args, "--format", "ris"])
    ])
    const titles = (JSON.parse(csl.stdout) as Array<{ title: string }>).map((item) => item.title)
    expect(titles).toHaveLength(4)
    expect(bibtex.stdout.match(/^@\w+\{/gm)).toHaveLength(4)
    expect(ris.stdout.match(/^TY {2}- /gm)).toHaveLength(4)
    const jsonl = await s2([...args, "--format", "jsonl"])
    expect(titles).toEqual(jsonl.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { title: string }).title))
  }, 60_000)

  it("a seed not found is named on stderr and the others rank; none found is exit 3; bad input is exit 2", async () => {
    const some = await s2(["related", threeDois[0]!, "DOI:10.0000/not-there", "--emulator", "--format", "jsonl"])
    expect(some.code).toBe(0)
    expect(some.stderr).toContain("s2: seed \"DOI:10.0000/not-there\" not found; ranking from the others")
    expect(jsonl(some.stdout)).toHaveLength(20)
    const none = await s2(["related", "DOI:10.0000/not-there", "--emulator"])
    expect(none.code).toBe(3)
    expect(none.stderr).toContain("none of the seeds was found")
    const many = await s2(["related", ...Array.from({ length: 21 }, (_, i) => `CorpusId:${i + 1}`), "--emulator"])
    expect(many.code).toBe(2)
    expect(many.stderr).toContain("give 1 to 20 seeds, not 21")
    const top = await s2(["related", threeDois[0]!, "--top", "0", "--emulator"])
    expect(top.code).toBe(2)
    expect(top.stderr).toContain("top must be a whole number from 1 to 500")
  }, 60_000)

  it(
    "a seed the server names with a control character is the server's fault, never exit 2 (issue 44 point 10)",
    async () => {
      const hex = (n: number) => n.toString(16).padStart(40, "0")
      // A server that names the seed DOI:10.1/bad "abc\u0001def"; every other id is a paper cited by hex(3).
      const server = http.createServer((request, response) => {
        let body = ""
        request.on("data", (chunk: Buffer) => body += chunk.toString())
        request.on("end", () => {
          const ids = request.url?.startsWith("/graph/v1/paper/batch")
            ? (JSON.parse(body) as { ids: Array<string> }).ids
            : []
          response.setHeader("content-type", "application/json")
          response.end(JSON.stringify(ids.map((id) =>
            id === hex(3)
              ? { paperId: id, title: "Citer", citations: [], references: [{ paperId: hex(2) }, { paperId: hex(4) }] }
              : {
                paperId: id === "DOI:10.1/bad" ? "abc\u0001def" : id,
                title: `Paper ${id}`,
                citationCount: 1,
                referenceCount: 0,
                citations: [{ paperId: hex(3), referenceCount: 2 }],
                references: []
              }
          )))
        })
      })
      await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        const some = await s2(["related", "DOI:10.1/bad", hex(2), "--api-url", url, "--format", "jsonl"])
        expect(some.code).toBe(0)
        expect(some.stderr).toContain(
          `related papers: seed "DOI:10.1/bad" left out: the server named it "abc\\u0001def", which no request can carry`
        )
        expect(jsonl(some.stdout).map((p) => p["paperId"]).sort()).toEqual([hex(3), hex(4)])
        const every = await s2(["related", "DOI:10.1/bad", "--api-url", url])
        expect(every.code).toBe(9)
        expect(every.stderr).toContain("the server named every seed found with an id no request can carry")
      } finally {
        await new Promise((closed) => server.close(closed))
      }
    },
    60_000
  )

  it(
    "the request budget, from the HTTP emulator's log: batches and a seed's list pages, never one request per paper",
    async () => {
      const scope = Effect.runSync(Scope.make())
      try {
        const server: EmulatorServer = await Effect.runPromise(
          startEmulator({ seed: 1, size: 10_000 }).pipe(Scope.provide(scope))
        )
        const ran = await s2(["related", ...threeDois, "--api-url", server.url, "--format", "jsonl"])
        expect(ran.code).toBe(0)
        const seen = await Effect.runPromise(server.requests)
        const batches = seen.filter((r) => r.path === "/graph/v1/paper/batch")
        const lists = seen.filter((r) => /\/citations$|\/references$/.test(r.path))
        // The seeds, the references of their ~1,750 citing papers, the citations of their ~30
        // references, the details: 1 + 4 + 1 + 1; Turing's 1,150 citing papers need a second page.
        expect(batches).toHaveLength(7)
        expect(lists).toHaveLength(2)
        expect(seen).toHaveLength(9)
      } finally {
        await Effect.runPromise(Scope.close(scope, Exit.void))
      }
    },
    60_000
  )

  it(
    "--out with a format it does not take, or a map onto a terminal, is exit 2 before any request",
    async () => {
      const scope = Effect.runSync(Scope.make())
      try {
        const server: EmulatorServer = await Effect.runPromise(
          startEmulator({ seed: 1, size: 1_000 }).pipe(Scope.provide(scope))
        )
        const args = ["related", ...threeDois, "--api-url", server.url]
        const refused = await Promise.all(
          ["bibtex", "csl-json", "ris", "table", "csv"].map((format) =>
            s2([...args, "--format", format, "--out", path.join(dir, `refused.${format}`)])
          )
        )
        for (const [i, ran] of refused.entries()) {
          expect(ran.code, ran.stderr).toBe(2)
          expect(ran.stderr).toContain(`--out takes --format html, json or jsonl; ${i < 3 ? "redirect" : "print"} a `)
        }
        const map = await Bin.onTerminal(bin, [...args, "--format", "html"])
        expect(map.code).toBe(2)
        expect(map.stdout).toContain("--format html writes a web page: give --out FILE.html")
        expect(await Effect.runPromise(server.requests)).toEqual([])
        expect(fs.readdirSync(dir).filter((f) => f.startsWith("refused."))).toEqual([])
      } finally {
        await Effect.runPromise(Scope.close(scope, Exit.void))
      }
    },
    60_000
  )

  it("--out never writes through a symbolic link", async () => {
    const target = path.join(dir, "target.html")
    const link = path.join(dir, "link.html")
    fs.writeFileSync(target, "mine")
    fs.symlinkSync(target, link)
    const ran = await s2(["related", threeDois[0]!, "--emulator", "--format", "html", "--out", link])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain(`--out ${link} is a symbolic link to ${target}; s2 never writes through one`)
    expect(fs.readFileSync(target, "utf8")).toBe("mine")
  }, 60_000)
})

describe("--format html", () => {
  it("three DOIs to a map in one command: it opens offline, draws every paper, a click shows its title", async () => {
    const out = path.join(dir, "map.html")
    const ran = await s2(["related", ...threeDois, "--emulator", "--format", "html", "--out", out, "--top", "40"])
    expect(ran.code).toBe(0)
    expect(ran.stderr).toMatch(
      new RegExp(
        `wrote ${out.replace(/[.]/g, "[.]")} \\(3 seeds, 40 related papers, \\d+ citations\\): open it in a browser\n$`
      )
    )
    expect(fs.statSync(out).size).toBeLessThan(1_000_000)
    await inChromium(out, async (page) => {
      expect(await page.locator("[data-paper-id]").count()).toBe(43)
      expect(await page.locator("circle.node.seed").count()).toBe(3)
      expect(await page.locator("#heading").textContent()).toBe(
        "Papers related to Computing Machinery and Intelligence; Construction of the Literature Graph in Semantic " +
          "Scholar; The Miracle of Microfinance? Evidence from a Randomized Evaluation"
      )
      const first = page.locator("#list li:not(.seed)").first()
      const id = await first.getAttribute("data-list-id")
      const title = await first.locator("div").first().textContent()
      await page.locator(`[data-paper-id="${id}"]`).click({ force: true })
      expect(await page.locator("#card-title").textContent()).toBe(title)
    })
  }, 120_000)

  it("with no --out, a map is refused on a terminal (related and graph) and written into a pipe", async () => {
    for (const args of [["related", threeDois[0]!], ["graph", threeDois[0]!, "--per-node", "3"]]) {
      const shown = await Bin.onTerminal(bin, [...args, "--emulator", "--format", "html"])
      expect(shown.code).toBe(2)
      expect(shown.stdout).toContain("--format html writes a web page: give --out FILE.html")
      expect(shown.stdout).not.toContain("<html")
      const piped = await s2([...args, "--emulator", "--format", "html"])
      expect(piped.code, piped.stderr).toBe(0)
      expect(piped.stdout.startsWith("<!doctype html>")).toBe(true)
      expect(piped.stdout.trimEnd().endsWith("</html>")).toBe(true)
    }
  }, 120_000)

  it("s2 graph --format html: the walk as a map, every paper drawn, seeds ringed", async () => {
    const out = path.join(dir, "graph.html")
    const ran = await s2([
      "graph",
      threeDois[0]!,
      "--emulator",
      "--direction",
      "both",
      "--per-node",
      "30",
      "--format",
      "html",
      "--out",
      out
    ])
    expect(ran.code).toBe(0)
    const papers = Number(/wrote (\d+) papers/.exec(ran.stdout)?.[1])
    expect(papers).toBeGreaterThan(30)
    await inChromium(out, async (page) => {
      expect(await page.locator("[data-paper-id]").count()).toBe(papers)
      expect(await page.locator("circle.node.seed").count()).toBe(1)
      await page.locator("circle.node.seed").click({ force: true })
      expect(await page.locator("#card-title").textContent()).toBe("Computing Machinery and Intelligence")
    })
  }, 120_000)
})
