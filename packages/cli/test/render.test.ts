import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Writable } from "node:stream"
import { cell, columnsOf, mergeColumns } from "../src/render/Cells.js"
import { groupYears, yearChart } from "../src/render/Chart.js"
import { csvField, makeWriter } from "../src/render/Format.js"
import * as Progress from "../src/render/Progress.js"
import { isIdColumn, renderRecord, renderTable } from "../src/render/Table.js"
import type { Service as StdioService } from "../src/Stdio.js"

const capture = (outIsTTY = false) => {
  const chunks: Array<string> = []
  const stdio: StdioService = {
    out: (text) => Effect.sync(() => void chunks.push(text)),
    err: (text) => Effect.sync(() => void chunks.push(text)),
    outIsTTY,
    errIsTTY: false,
    columns: 80,
    errStream: process.stderr
  }
  return { stdio, text: () => chunks.join("") }
}

const paper = {
  paperId: "abc",
  title: "A, \"quoted\" title",
  year: 2020,
  authors: [{ authorId: "1", name: "Ada" }, { authorId: "2", name: "Bo" }],
  externalIds: { DOI: "10.1/x", CorpusId: 7 },
  openAccessPdf: null
}

describe("cells", () => {
  it("flattens nested objects into dotted columns and joins lists by name", () => {
    expect(columnsOf(paper)).toEqual([
      "paperId",
      "title",
      "year",
      "authors",
      "externalIds.DOI",
      "externalIds.CorpusId",
      "openAccessPdf"
    ])
    expect(cell(paper, "authors")).toBe("Ada; Bo")
    expect(cell(paper, "externalIds.CorpusId")).toBe("7")
    expect(cell(paper, "openAccessPdf")).toBe("")
    expect(cell({ openAccessPdf: { url: "u" } }, "openAccessPdf")).toBe("{\"url\":\"u\"}")
    expect(mergeColumns(["openAccessPdf"], { openAccessPdf: { url: "u" }, x: 1 })).toEqual(["openAccessPdf", "x"])
  })
})

describe("formats", () => {
  it.effect("csv quotes per RFC 4180 and keeps the first record's columns", () =>
    Effect.gen(function*() {
      const { stdio, text } = capture()
      const writer = makeWriter("csv", stdio)
      yield* writer.write(paper)
      yield* writer.write({ ...paper, title: "plain", extra: 1 })
      yield* writer.end
      expect(text().split("\r\n")).toEqual([
        "paperId,title,year,authors,externalIds.DOI,externalIds.CorpusId,openAccessPdf",
        "abc,\"A, \"\"quoted\"\" title\",2020,Ada; Bo,10.1/x,7,",
        "abc,plain,2020,Ada; Bo,10.1/x,7,",
        ""
      ])
      expect(csvField("a\nb")).toBe("\"a\nb\"")
    }))

  it.effect("json prints an array incrementally (an object for one record), jsonl one line each", () =>
    Effect.gen(function*() {
      const list = capture()
      const writer = makeWriter("json", list.stdio)
      yield* writer.write({ a: 1 })
      yield* writer.write({ a: 2 })
      yield* writer.end
      expect(JSON.parse(list.text())).toEqual([{ a: 1 }, { a: 2 }])
      const empty = capture()
      yield* makeWriter("json", empty.stdio).end
      expect(JSON.parse(empty.text())).toEqual([])
      const one = capture()
      yield* makeWriter("json", one.stdio, true).write({ a: 1 })
      expect(one.text()).toBe("{\n  \"a\": 1\n}\n")
      const lines = capture()
      const jsonl = makeWriter("jsonl", lines.stdio)
      yield* jsonl.write({ a: 1 })
      yield* jsonl.write({ a: 2 })
      expect(lines.text()).toBe("{\"a\":1}\n{\"a\":2}\n")
    }))

  it("tables fit the width, cutting long cells with an ellipsis", () => {
    const table = renderTable([paper, { ...paper, title: "x".repeat(200) }], 80)
    const lines = table.trimEnd().split("\n")
    expect(lines).toHaveLength(4)
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80)
    expect(lines[0]).toMatch(/^paperId\s+title/)
    expect(lines[3]).toContain("…")
  })

  it("tables cut prose, never ids (paperId, corpusId, DOI, URL)", () => {
    const id = "e52b7e2fefd790cb9695971774b56b702fa325a2"
    const record = {
      paperId: id,
      title: "A long title ".repeat(10),
      url: `https://www.semanticscholar.org/paper/${id}`,
      externalIds: { DOI: "10.5749/arxiv.1985.8951", CorpusId: 206895 },
      authors: [{ authorId: "1741101", name: "Someone With A Long Name" }]
    }
    for (const width of [60, 100, 200]) {
      const table = renderTable([record, record], width)
      for (const whole of [id, record.url, "10.5749/arxiv.1985.8951", "206895"]) expect(table).toContain(whole)
      expect(table).toMatch(/ {2}A long/)
      expect(table).toContain("…")
      const one = renderRecord(record, 40)
      expect(one).toContain(record.url)
      expect(one).toMatch(/^title +A long title.*…$/m)
    }
    expect(
      ["paperId", "authors.authorId", "externalIds.ArXiv", "url", "openAccessPdf.url", "corpusId"].every(isIdColumn)
    )
      .toBe(true)
    expect(["title", "abstract", "venue", "authors.name", "year"].some(isIdColumn)).toBe(false)
    // Only prose is cut: without ids, the table fits.
    for (const line of renderTable([{ title: record.title, venue: "x".repeat(80) }], 60).split("\n")) {
      expect([...line].length).toBeLessThanOrEqual(60)
    }
  })

  it.effect("plain values get a named column: datasets releases is a list of releases", () =>
    Effect.gen(function*() {
      const { stdio, text } = capture()
      const writer = makeWriter("table", stdio, false, "release")
      yield* writer.write("2024-01-02")
      yield* writer.end
      expect(text().split("\n")[0]).toBe("release")
    }))
})

describe("chart", () => {
  it("draws one bar per year, the longest for the largest count", () => {
    const chart = yearChart({ "2020": 10, "2021": 20, unknown: 5 }, 10)
    expect(chart).toBe(
      [
        "   2020 │█████ 10",
        "   2021 │██████████ 20",
        "no year │██▌ 5",
        ""
      ].join("\n")
    )
  })

  it("groups many years into ranges", () => {
    const counts: Record<string, number> = {}
    for (let y = 1930; y <= 2025; y++) counts[String(y)] = 1
    const rows = groupYears(counts, 20)
    expect(rows.length).toBeLessThanOrEqual(21)
    expect(rows.reduce((sum, [, n]) => sum + n, 0)).toBe(96)
    expect(rows[0]?.[0]).toBe("1930-1934")
  })
})

const state = (records: number, target = 50_000): Progress.State => ({
  records,
  pages: Math.ceil(records / 1000),
  target,
  startRecords: 0,
  startedAt: 0,
  now: 2000
})

describe("progress", () => {
  it("formats records, pages, rate and ETA from the total", () => {
    expect(Progress.facts(state(10_000))).toBe("10,000/50,000 papers · 10 pages · 5,000 papers/s · ETA 8s")
    expect(Progress.plainLine(state(25_000))).toBe(
      "harvest: 50% 25,000/50,000 papers · 25 pages · 12,500 papers/s · ETA 2s"
    )
    expect(Progress.facts(state(0, 0))).toContain("ETA ?")
    expect(Progress.facts(state(1000))).toContain(" · 1 page · ")
    expect([Progress.count(1, "page"), Progress.count(0, "page"), Progress.count(12_000, "paper")])
      .toEqual(["1 page", "0 pages", "12,000 papers"])
    expect(Progress.duration(3725)).toBe("1h02m")
    const bar = Progress.barLine(state(25_000), 100)
    expect(bar).toMatch(/^\[█+░+\]  50% 25,000\/50,000/)
    expect([...bar].length).toBeLessThanOrEqual(100)
  })

  it.effect("draws a live bar on a terminal stream", () =>
    Effect.gen(function*() {
      const chunks: Array<string> = []
      const stream = new Writable({
        write(chunk, _encoding, callback) {
          chunks.push(String(chunk))
          callback()
        }
      })
      Object.assign(stream, { isTTY: true, columns: 100 })
      const reporter = Progress.tty(stream, () => 100)
      yield* reporter.update(state(10_000))
      yield* reporter.update(state(50_000))
      yield* reporter.stop
      const text = chunks.join("")
      expect(text).toContain("\x1b[?25l") // cursor hidden while drawing
      expect(text).toContain("100% 50,000/50,000 papers")
      expect(text).toContain("\x1b[?25h") // and shown again
    }))

  it.effect("prints plain lines at most once per interval, and the final state", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const reporter = Progress.plain((line) => Effect.sync(() => void lines.push(line)), 1000)
      for (const [records, now] of [[1000, 1500], [2000, 1800], [3000, 2600], [4000, 2700]] as const) {
        yield* reporter.update({ ...state(records), now })
      }
      yield* reporter.stop
      expect(lines.map((l) => l.split(" · ")[0])).toEqual([
        "harvest: 2% 1,000/50,000 papers",
        "harvest: 6% 3,000/50,000 papers",
        "harvest: 8% 4,000/50,000 papers"
      ])
    }))

  it.effect("shows a retry's wait and cause on the progress line, at once even within the interval", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const reporter = Progress.plain((line) => Effect.sync(() => void lines.push(line)), 1000)
      yield* reporter.update({ ...state(1000), now: 1500 })
      yield* reporter.update({ ...state(1000), now: 1600, retrying: Progress.retryNote("429", 10_000) })
      yield* reporter.update({ ...state(2000), now: 1700 })
      expect(lines).toHaveLength(2)
      expect(lines[1]).toMatch(/ · ETA \S+ · retrying in 10 s \(429\)\n$/)
      expect(Progress.facts(state(2000))).not.toContain("retrying")
    }))
})
