import { describe, expect, it, vi } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as path from "node:path"
import { Writable } from "node:stream"
import * as Client from "../src/Client.js"
import { Printer } from "../src/Printer.js"
import type { Service as PrinterService } from "../src/Printer.js"
import { cell, columnSet, columnsOf, mergeColumns } from "../src/render/Cells.js"
import { currentYear, groupYears, yearChart } from "../src/render/Chart.js"
import { visible, visibleLines, visibleMessage } from "../src/render/Escape.js"
import { csvField, makeWriter } from "../src/render/Format.js"
import * as Progress from "../src/render/Progress.js"
import { isIdColumn, layout, renderRecord, renderTable } from "../src/render/Table.js"

const capture = (outIsTTY = false) => {
  const chunks: Array<string> = []
  const printer: PrinterService = {
    out: (text) => Effect.sync(() => void chunks.push(text)),
    err: (text) => Effect.sync(() => void chunks.push(text)),
    outIsTTY,
    errIsTTY: false,
    columns: 80,
    errStream: process.stderr
  }
  return { printer, text: () => chunks.join("") }
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
  it.effect("csv quotes per RFC 4180 and has the columns of every record, not only the first's", () =>
    Effect.gen(function*() {
      const { printer, text } = capture()
      const writer = makeWriter("csv", printer)
      yield* writer.write(paper)
      yield* writer.write({ ...paper, title: "plain", extra: 1, externalIds: { ArXiv: "1706.03762" } })
      yield* writer.end
      expect(text().split("\r\n")).toEqual([
        "paperId,title,year,authors,externalIds.DOI,externalIds.CorpusId,openAccessPdf,externalIds.ArXiv,extra",
        "abc,\"A, \"\"quoted\"\" title\",2020,Ada; Bo,10.1/x,7,,,",
        "abc,plain,2020,Ada; Bo,,,,1706.03762,1",
        ""
      ])
      expect(csvField("a\nb")).toBe("\"a\nb\"")
    }))

  it.effect("csv: the header is every column of the first 1,000 records; a later new column is left out, a Warning naming it once", () =>
    Effect.gen(function*() {
      const { printer, text } = capture()
      const lines: Array<string> = []
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel === "Warn") lines.push(Array.isArray(message) ? message.join(" ") : String(message))
      })
      const writer = makeWriter("csv", printer)
      const run = Effect.gen(function*() {
        for (let i = 0; i < 999; i++) yield* writer.write(i === 998 ? { id: i, last: "l" } : { id: i })
        // Buffered: the header is not known yet.
        expect(text()).toBe("")
        yield* writer.write({ id: 999 })
        expect(text().split("\r\n")[0]).toBe("id,last")
        yield* writer.write({ id: 1000, late: "x" })
        yield* writer.write({ id: 1001, late: "y", other: { a: 1, b: 2 } })
        yield* writer.end
      })
      yield* Effect.provide(run, Logger.layer([logger]))
      const rows = text().split("\r\n")
      expect(rows).toHaveLength(1 + 1002 + 1)
      expect(rows.slice(-4)).toEqual(["999,", "1000,", "1001,", ""])
      expect(lines).toEqual([
        expect.stringMatching(
          /^--format csv: record 1,001 has a column late that the header \(the columns of the first 1,000 records\) does not have: left out of the CSV/
        ),
        expect.stringMatching(/^--format csv: record 1,002 has columns other\.a, other\.b that/)
      ])
    }))

  it.effect("json prints an array incrementally (an object for one record), jsonl one line each", () =>
    Effect.gen(function*() {
      const list = capture()
      const writer = makeWriter("json", list.printer)
      yield* writer.write({ a: 1 })
      yield* writer.write({ a: 2 })
      yield* writer.end
      expect(JSON.parse(list.text())).toEqual([{ a: 1 }, { a: 2 }])
      const empty = capture()
      yield* makeWriter("json", empty.printer).end
      expect(JSON.parse(empty.text())).toEqual([])
      const one = capture()
      yield* makeWriter("json", one.printer, true).write({ a: 1 })
      expect(one.text()).toBe("{\n  \"a\": 1\n}\n")
      const lines = capture()
      const jsonl = makeWriter("jsonl", lines.printer)
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

  it("tables cut prose, never ids (paperId, corpusId, DOI, URL): an id is whole or its column left out", () => {
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
      const { dropped } = layout([record, record], width)
      const columnOf = {
        [id]: "paperId",
        [record.url]: "url",
        "10.5749/arxiv.1985.8951": "externalIds.DOI",
        "206895": "externalIds.CorpusId"
      }
      for (const [whole, column] of Object.entries(columnOf)) {
        if (!dropped.includes(column)) expect(table).toContain(whole)
      }
      expect(table).toContain(id)
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

  it("ids leave room for prose: a title is never cut below 30 characters to keep externalIds columns; the first id stays", () => {
    const record = {
      paperId: "e52b7e2fefd790cb9695971774b56b702fa325a2",
      title: "Learning Transferable Visual Models From Natural Language Supervision",
      year: 2021,
      externalIds: {
        DOI: "10.48550/arXiv.2103.00020",
        ArXiv: "2103.00020",
        MAG: "3135367836",
        DBLP: "conf/icml/RadfordKHRGASAMC21",
        CorpusId: 231591445
      }
    }
    for (const width of [80, 100, 120]) {
      const table = layout([record, record], width)
      expect(table.columns[0]).toBe("paperId")
      const titleLine = table.row(record)
      expect(titleLine).toContain(record.title.slice(0, 29))
      for (const line of (table.head + titleLine).trimEnd().split("\n")) {
        expect([...line].length).toBeLessThanOrEqual(width)
      }
      expect(table.dropped.length).toBeGreaterThan(0)
      expect(table.dropped.every((c) => c.startsWith("externalIds."))).toBe(true)
      // What is kept of the ids is whole.
      for (const c of table.columns.filter((c) => c.startsWith("externalIds."))) {
        expect(titleLine).toContain(String((record.externalIds as Record<string, unknown>)[c.slice(12)]))
      }
    }
    // Room enough: nothing is left out.
    expect(layout([record], 300).dropped).toEqual([])
  })

  it("the rows read as papers: s2 resolve's title keeps 30 characters beside a whole paperId, a nested year is headed 'year', a cut paper keeps its year", () => {
    const paperId = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"
    const title = "Computing Machinery and Intelligence"
    // s2 resolve's table: the user's input, how it was found, the paper (its id kept whole).
    const resolved = { input: "10.1093/mind/lix.236.433", via: "id", paper: { paperId, title, year: 1950 } }
    const resolve = layout([resolved, resolved], 100)
    expect(resolve.columns).toEqual(["input", "via", "paper.paperId", "paper.title", "paper.year"])
    expect(resolve.head.split("\n")[0]).toMatch(/ {2}year$/)
    const row = resolve.row(resolved)
    expect(row).toContain(paperId)
    expect(row).toContain(title.slice(0, 29))
    expect([...row.trimEnd()].length).toBeLessThanOrEqual(100)
    // In 80 columns the nested id goes (named), rather than the title shrinking to 17 characters.
    const narrow = layout([resolved, resolved], 80)
    expect(narrow.dropped).toEqual(["paper.paperId"])
    expect(narrow.row(resolved)).toContain(`${resolved.input}  id   ${title}  1950`)
    // s2 citations: citingPaper.year is a 4-character column, not a 16-character one.
    const citing = { citingPaper: { paperId, title: "Towards fault tolerant load balancing: ".repeat(3), year: 2025 } }
    const citations = layout([citing], 100)
    expect(citations.head.split("\n")[0]).toMatch(/^citingPaper\.paperId +citingPaper\.title +year$/)
    expect(citations.row(citing)).toContain(citing.citingPaper.title.slice(0, 50))
    // Two columns ending in the same name keep their full names.
    const both = layout([{ a: { year: 1 }, b: { year: 2 } }], 100)
    expect(both.head.split("\n")[0]).toMatch(/^a\.year +b\.year$/)
    // s2 verify's paper column, "Title (year)": cut, it keeps the year.
    const verified = {
      key: "b",
      status: "verified",
      paper: "On the representation learning of self supervised representation learning (2024)"
    }
    const verify = renderTable([verified], 60).split("\n")[2]!
    expect(verify).toMatch(/^b +verified +On the representation .*… \(2024\)$/)
    expect([...verify].length).toBeLessThanOrEqual(60)
  })

  it.effect("a table that leaves columns out says which on stderr", () =>
    Effect.gen(function*() {
      const { printer, text } = capture()
      const writer = makeWriter("table", printer)
      const record = {
        paperId: "a".repeat(40),
        title: "t".repeat(80),
        externalIds: { DBLP: "d".repeat(60), MAG: "1".repeat(12) }
      }
      yield* writer.write(record)
      yield* writer.write(record)
      yield* writer.end
      expect(text()).toContain("the table leaves out externalIds.DBLP, externalIds.MAG")
    }))

  it.effect("plain values get a named column: datasets releases is a list of releases", () =>
    Effect.gen(function*() {
      const { printer, text } = capture()
      const writer = makeWriter("table", printer, false, "release")
      yield* writer.write("2024-01-02")
      yield* writer.end
      expect(text().split("\n")[0]).toBe("release")
    }))
})

describe("chart", () => {
  it("has a row only for the years with papers: five papers over nineteen years are five rows", () => {
    const counts = { "2007": 1, "2008": 1, "2014": 1, "2020": 1, "2025": 1 }
    expect(yearChart(counts, 4).split("\n").filter((l) => l !== "")).toEqual([
      "2007 │████ 1",
      "2008 │████ 1",
      "2014 │████ 1",
      "2020 │████ 1",
      "2025 │████ 1"
    ])
    expect(yearChart({ "1950": 0 }, 4)).toBe("")
  })

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

  it.effect("ends the last range at the current year, read from the Clock (no 2025-2029 bucket in 2026)", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 26))
      const thisYear = yield* currentYear
      expect(thisYear).toBe(2026)
      const counts: Record<string, number> = {}
      for (let y = 1930; y <= 2026; y++) counts[String(y)] = 1
      const rows = groupYears(counts, 20, thisYear)
      expect(rows.at(-1)).toEqual(["2025-2026", 2])
      expect(yearChart(counts, 10, thisYear)).not.toContain("2029")
      // A paper dated ahead of the clock still counts, in a last row ending at its year.
      expect(groupYears({ ...counts, "2027": 3 }, 20, thisYear).at(-1)).toEqual(["2025-2027", 5])
    }))
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
    // No total, or no papers yet: no ETA at all rather than "ETA ?"; one of a thing is singular.
    expect(Progress.facts(state(0, 0))).not.toContain("ETA")
    expect(Progress.facts({ ...state(0), now: 0 })).not.toContain("ETA")
    expect(Progress.facts({ ...state(1, 0), now: 1000 })).toBe("1 paper · 1 page · 1 paper/s")
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

/** Characters a terminal acts on (line feeds aside, which separate lines): none may be printed raw. */
const raw =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const evil = "pwn\x1b]0;pwned\x07ed\x1b[2J\u009b31m \u202eevil\u202c\r\nnext\tcell\ud800"

/** Strings of any code points, and strings made mostly of the characters that matter here. */
const text = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({
    unit: fc.constantFrom(
      "\x1b",
      "\x07",
      "\x00",
      "\n",
      "\r",
      "\t",
      "\u202e",
      "\u2066",
      "\u009b",
      "\x7f",
      "\ud800",
      "\udc00",
      "\u2028",
      "a",
      "é",
      "😀",
      ",",
      "\"",
      " ",
      "\\",
      "="
    )
  })
)

/** RFC 4180, strictly: CRLF between records, quotes doubled inside quoted fields. */
const parseCsv = (csv: string): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i]
    if (quoted) {
      if (c !== "\"") field += c
      else if (csv[i + 1] === "\"") field += csv[i++]
      else quoted = false
    } else if (c === "\"" && field === "") quoted = true
    else if (c === ",") {
      row.push(field)
      field = ""
    } else if (c === "\r" && csv[i + 1] === "\n") {
      row.push(field)
      rows.push(row)
      row = []
      field = ""
      i++
    } else {
      expect(c, "a raw line break or quote outside a quoted field").not.toMatch(/[\r\n"]/)
      field += c
    }
  }
  expect(field === "" && row.length === 0, "the last record ends in CRLF").toBe(true)
  return rows
}

const written = (format: "table" | "csv" | "json" | "jsonl", records: ReadonlyArray<unknown>, single = false) =>
  Effect.gen(function*() {
    const { printer, text } = capture()
    const writer = makeWriter(format, printer, single)
    for (const record of records) yield* writer.write(record)
    yield* writer.end
    return text()
  })

describe("control characters from the server (defect 10)", () => {
  it("are spelled as JSON spells them: \\n \\r \\t, else \\u and four hex digits", () => {
    expect(visible(evil)).toBe(
      "pwn\\u001b]0;pwned\\u0007ed\\u001b[2J\\u009b31m \\u202eevil\\u202c\\r\\nnext\\tcell\\ud800"
    )
    expect(visibleLines("a\x1b[2J\nb\r")).toBe("a\\u001b[2J\nb\\r")
    expect(visibleMessage("bad id\r\ns2: forged\x1b[2J")).toBe("bad id\\r\n  s2: forged\\u001b[2J")
    // Joiners of Persian and Indic scripts, emoji and backslashes are text.
    for (const kept of ["می‌خواهم", "👩‍👩‍👧", "\\alpha", "Ünïcödé"]) expect(visible(kept)).toBe(kept)
  })

  it.effect("a table shows them escaped, in cells, field names and the field/value list", () =>
    Effect.gen(function*() {
      const record = { paperId: `p${evil}`, title: evil, [`x${evil}`]: 1, authors: [{ name: evil }] }
      for (const out of [yield* written("table", [record, record]), yield* written("table", [record], true)]) {
        expect(out).not.toMatch(raw)
        expect(out).toContain("pwn\\u001b]0;pwned\\u0007ed")
      }
    }))

  it("any string in a table cell or header is printed without a raw control character, one line per record (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text, text), { minLength: 1, maxLength: 5 }), (rows) => {
        const records = rows.map(([key, id, title]) => ({ paperId: id, title, [key]: title }))
        const table = renderTable(records, 80)
        expect(table).not.toMatch(raw)
        expect(table.split("\n")).toHaveLength(records.length + 3)
        expect(renderRecord(records[0], 80)).not.toMatch(raw)
      }),
      { numRuns: 300 }
    )
  })

  it.effect("CSV: any string is one escaped field and the file parses back to the same cells (property)", () =>
    Effect.gen(function*() {
      const records = fc.array(fc.record({ paperId: text, title: text, venue: text }), { minLength: 1, maxLength: 5 })
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(records, async (list) => {
            const csv = await Effect.runPromise(written("csv", list))
            expect(csv.replace(/\r\n/g, "\n")).not.toMatch(raw)
            expect(csv.split("\r\n")).toHaveLength(list.length + 2)
            expect(parseCsv(csv)).toEqual([
              ["paperId", "title", "venue"],
              ...list.map((r) => [r.paperId, r.title, r.venue].map(visible))
            ])
            // Text without control characters comes back exactly as it was.
            for (const [k, r] of list.entries()) {
              if (!raw.test(r.title) && !/[\n\r\t]/.test(r.title)) expect(parseCsv(csv)[k + 1]?.[1]).toBe(r.title)
            }
          }),
          { numRuns: 300 }
        )
      )
    }))

  it.effect("CSV: the header's names are escaped too", () =>
    Effect.gen(function*() {
      const csv = yield* written("csv", [{ [`a${evil}`]: 1 }])
      expect(csv.replace(/\r\n/g, "\n")).not.toMatch(raw)
      expect(parseCsv(csv)[0]).toEqual([`a${visible(evil)}`])
    }))

  it.effect("JSON and JSON lines: JSON.stringify's text, with what it leaves raw (C1, bidi) as \\u escapes too", () =>
    Effect.gen(function*() {
      const escaped = String.raw`"pwn\u001b]0;pwned\u0007ed\u001b[2J\u009b31m \u202eevil\u202c\r\nnext\tcell\ud800"`
      expect(yield* written("jsonl", [{ title: evil }])).toBe(`{"title":${escaped}}\n`)
      expect(yield* written("json", [{ title: evil }], true)).toBe(`{\n  "title": ${escaped}\n}\n`)
      expect(JSON.parse(yield* written("jsonl", [{ title: evil }]))).toEqual({ title: evil })
    }))

  it.effect("JSON and JSON lines: any string, as a key or a value, is printed escaped and read back exactly (property)", () =>
    Effect.gen(function*() {
      const records = fc.array(fc.tuple(text, text, text), { minLength: 1, maxLength: 5 }).map((rows) =>
        rows.map(([key, id, title]) => ({ paperId: id, title, [key]: [title, { title }] }))
      )
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(records, async (list) => {
            const outs = await Effect.runPromise(
              Effect.all([written("json", list), written("json", list.slice(0, 1), true), written("jsonl", list)])
            )
            for (const out of outs) expect(out.replace(/\n/g, "")).not.toMatch(raw)
            expect(JSON.parse(outs[0])).toEqual(list)
            expect(JSON.parse(outs[1])).toEqual(list[0])
            expect(outs[2].trimEnd().split("\n").map((line) => JSON.parse(line) as unknown)).toEqual(list)
          }),
          { numRuns: 300 }
        )
      )
    }))

  it("the progress line shows a retry's cause escaped", () => {
    expect(Progress.facts({ ...state(1000), retrying: `retrying (${evil})` })).not.toMatch(raw)
  })

  it.effect("standard error of the process escapes all but line feeds", () =>
    Effect.gen(function*() {
      const chunks: Array<string> = []
      const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
        chunks.push(String(chunk))
        return true
      })
      try {
        yield* Effect.gen(function*() {
          const printer = yield* Printer
          yield* printer.err(`s2: ${evil}\n`)
        }).pipe(Effect.provide(Printer.layer))
      } finally {
        spy.mockRestore()
      }
      expect(chunks.join("")).toBe(`s2: ${visibleLines(evil)}\n`)
    }))

  it.effect("log lines (the CLI's logger) escape what they quote", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const errStream = new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          lines.push(chunk.toString().replace(/\n$/, ""))
          done()
        }
      })
      const printer = Layer.succeed(Printer, {
        out: () => Effect.void,
        err: () => Effect.void,
        outIsTTY: false,
        errIsTTY: false,
        columns: 80,
        errStream
      })
      yield* Effect.logWarning(`retrying: ${evil}`).pipe(
        Effect.annotateLogs("s2.body", evil),
        Effect.provide(Client.logging(false).pipe(Layer.provide(printer)))
      )
      expect(lines.join("\n")).toContain("pwn\\u001b]0;pwned")
      expect(lines.join("\n")).not.toMatch(raw)
    }))
})

describe("tables of any length and records of any shape (defect 11)", () => {
  it.effect("150,000 rows print, each one line; columns and widths come from the first rows", () =>
    Effect.gen(function*() {
      const records = Array.from({ length: 150_000 }, (_, i) => ({ paperId: `p${i}`, title: `Paper ${i}` }))
      // A column that appears only after the sample is not in the table: said on stderr.
      records[149_999] = { ...records[149_999]!, late: 1 } as never
      const out = yield* written("table", records)
      const lines = out.split("\n")
      expect(lines[0]).toMatch(/^paperId\s+title$/)
      expect(lines[2]).toMatch(/^p0 {6,}Paper 0$/)
      expect(lines).toContain("p149999  Paper 149999")
      expect(out).toContain("some were left out")
      expect(lines.filter((line) => /^p\d/.test(line))).toHaveLength(150_000)
    }))

  it.effect("a record of 150,000 fields: a table of the first 100 columns, a field/value list of all", () =>
    Effect.gen(function*() {
      const wide = Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`f${i}`, i]))
      const table = yield* written("table", [wide, wide])
      expect(table.split("\n")[0]?.trim().split(/\s+/)).toHaveLength(100)
      expect(table).toContain("left out")
      // One wide record among 1,500: the sample's columns are gathered in one set, not copied per record.
      const mixed = yield* written("table", [wide, ...Array.from({ length: 1500 }, (_, i) => ({ f0: i }))])
      expect(mixed.split("\n").filter((line) => /^\d/.test(line))).toHaveLength(1501)
      const gathered = columnSet()
      const columns = gathered.columns
      for (const record of [wide, { f0: 1 }, { g: 2 }]) gathered.add(record)
      expect(gathered.columns).toBe(columns)
      expect(columns).toHaveLength(150_001)
      const list = yield* written("table", [wide], true)
      expect(list.split("\n")).toHaveLength(150_001)
      expect((yield* written("csv", [wide])).split("\r\n")[1]?.split(",")).toHaveLength(150_000)
    }))

  it.effect("a value nested 5,000 deep prints in every format (JSON compact where JSON.stringify gives up)", () =>
    Effect.gen(function*() {
      let deep: unknown = "leaf"
      for (let i = 0; i < 5000; i++) deep = i % 2 === 0 ? { a: deep } : [deep]
      const record = { paperId: "p1", deep }
      for (const out of [yield* written("json", [record]), yield* written("jsonl", [record])]) {
        let value: unknown = JSON.parse(out) as Array<unknown> | Record<string, unknown>
        value = Array.isArray(value) ? (value[0] as { deep: unknown }).deep : (value as { deep: unknown }).deep
        for (let i = 0; i < 5000; i++) value = Array.isArray(value) ? value[0] : (value as { a: unknown }).a
        expect(value).toBe("leaf")
      }
      expect(JSON.parse(yield* written("json", [record], true)).paperId).toBe("p1")
      const table = yield* written("table", [record, record])
      expect(table).toMatch(/^p1 .*…$/m)
      expect(yield* written("table", [record], true)).toMatch(/^paperId +p1\ndeep +\{"a":\[\{.*…$/m)
      const csv = yield* written("csv", [record])
      expect(parseCsv(csv)[0]).toEqual(["paperId", "deep"])
      expect(parseCsv(csv)[1]?.[1]).toMatch(/^\{"a":\[\{"a":.*\{"a":"leaf"\}(\]\}){2499}$/)
    }))

  it.effect("huge strings are cut to the width in a table; ids are printed whole", () =>
    Effect.gen(function*() {
      const huge = "word ".repeat(4_000_000)
      const out = yield* written("table", [{ paperId: "x".repeat(300), title: huge }, { paperId: "p", title: huge }])
      const lines = out.split("\n")
      expect(lines[2]).toContain("x".repeat(300))
      // The id column as wide as its longest id up to 100, the title at its floor of 8.
      expect([...(lines[3] ?? "")].length).toBeLessThanOrEqual(100 + 2 + 8)
      expect([...(yield* written("table", [{ title: huge }], true))].length).toBeLessThan(200)
    }))

  it("no unbounded spread into a call in the CLI's sources", () => {
    const dir = path.join(__dirname, "../src")
    // The .js too: the HTML maps' page code (render/map/page.js) is a source.
    const files = fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => /\.(ts|js)$/.test(f))
    for (const file of files) {
      const source = fs.readFileSync(path.join(dir, file), "utf8")
      expect(source, file).not.toMatch(/Math\.(max|min)\([^)]*\.\.\.|\.(push|unshift)\(\.\.\./)
    }
  })
})
