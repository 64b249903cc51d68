/**
 * Bulk pages (1,000 papers each) per second through the HTTP server and the in-memory layer.
 * Run: npx tsx packages/testing/bench/serve.ts
 */
import { Effect } from "effect"
import { Emulator, startEmulator } from "../src/index.js"
import { encodeToken } from "../src/internal/bulk.js"

const PAGES = 100
const options = { seed: 1, size: 100_000, bulkSize: 10_000_000 }

interface Page {
  readonly token: string | null
  readonly data: ReadonlyArray<unknown>
}

const report = (label: string, pages: number, ms: number) =>
  console.log(
    `${label.padEnd(58)} ${pages} pages in ${ms.toFixed(0)} ms → ${(pages / (ms / 1000)).toFixed(1)} pages/s (${
      ((pages * 1000) / (ms / 1000)).toFixed(0)
    } papers/s)`
  )

const run = (label: string, fetchPage: (token: string | null) => Effect.Effect<Page>, start: string | null = null) =>
  Effect.gen(function*() {
    let token: string | null = start
    const t0 = performance.now()
    for (let k = 0; k < PAGES; k++) {
      const page: Page = yield* fetchPage(token)
      if (page.data.length !== 1000) throw new Error(`short page: ${page.data.length}`)
      token = page.token
    }
    report(label, PAGES, performance.now() - t0)
  })

const query = (fields: string, token: string | null) =>
  `/graph/v1/paper/search/bulk?fields=${fields}${token === null ? "" : `&token=${token}`}`

const main = Effect.gen(function*() {
  const t0 = performance.now()
  const emulator = yield* startEmulator(options)
  console.log(
    `corpus ${options.size} papers (bulk universe ${options.bulkSize}) built in ${
      (performance.now() - t0).toFixed(0)
    } ms`
  )
  const key =
    "\u0000year=&publicationDateOrYear=&publicationTypes=&fieldsOfStudy=&venue=&minCitationCount=\u0000paperId:asc"
  const deep = encodeToken(options.seed, key, { a: options.size, b: 5_000_000 })
  const { client } = yield* Emulator.make({ corpus: emulator.corpus })
  const viaHttp = (fields: string) => (token: string | null) =>
    Effect.promise(async () => {
      const r = await fetch(`${emulator.url}${query(fields, token)}`)
      return (await r.json()) as Page
    })
  const inMemory = (fields: string) => (token: string | null) =>
    client.get(`https://api.semanticscholar.org${query(fields, token)}`).pipe(
      Effect.flatMap((r) => r.json),
      Effect.map((json) => json as unknown as Page),
      Effect.orDie
    )
  for (const fields of ["title", "title,year,citationCount,authors"]) {
    for (const [transport, fetchPage] of [["HTTP", viaHttp(fields)], ["in-memory", inMemory(fields)]] as const) {
      yield* run(`${transport} materialized cold [${fields}]`, fetchPage)
      yield* run(`${transport} materialized warm [${fields}]`, fetchPage)
      yield* run(`${transport} virtual @5M [${fields}]`, fetchPage, deep)
    }
  }
})

Effect.runPromise(Effect.scoped(main)).then(() => process.exit(0))
