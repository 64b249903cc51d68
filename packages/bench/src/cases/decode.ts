/**
 * The cost of decoding one page of 1,000 papers (summary fields): JSON.parse alone, Schema's general
 * decoder, and the client's whole path for a page (request, parse, compiled decode) over an
 * in-memory HttpClient that answers with the same bytes.
 * argv: apiUrl iterations
 */
import { Page, Paper, SemanticScholar } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { report } from "./report.js"

const [apiUrl = "", iterations = "50"] = process.argv.slice(2)
const fields =
  "paperId,corpusId,externalIds,url,title,abstract,venue,publicationVenue,year,referenceCount,citationCount," +
  "influentialCitationCount,isOpenAccess,openAccessPdf,fieldsOfStudy,s2FieldsOfStudy,publicationTypes,publicationDate,journal,citationStyles,authors"

const median = (xs: Array<number>) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
const time = (n: number, f: () => void) => {
  for (let i = 0; i < 5; i++) f()
  const out: Array<number> = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    f()
    out.push(performance.now() - t)
  }
  return median(out)
}

const main = async () => {
  const text = await (await fetch(`${apiUrl}/graph/v1/paper/search/bulk?query=&fields=${fields}`)).text()
  const n = Number(iterations)
  const reference = Schema.decodeUnknownSync(Page.TokenPage(Paper))
  const parseMs = time(n, () => JSON.parse(text))
  const schemaMs = time(n, () => reference(JSON.parse(text)))

  const client = HttpClient.make((request) =>
    Effect.succeed(HttpClientResponse.fromWeb(request, new Response(text, { status: 200 })))
  )
  const layer = SemanticScholar.layer({ apiUrl, rateLimit: false }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, client))
  )
  // The layer is built once, as in a program; each iteration is one page through the client.
  const runtime = ManagedRuntime.make(layer)
  const onePage = SemanticScholar.use((s2) => Stream.runHead(s2.searchPaperPages("", { bulk: true })))
  const clientTimes: Array<number> = []
  for (let i = 0; i < n + 5; i++) {
    const t = performance.now()
    await runtime.runPromise(onePage)
    if (i >= 5) clientTimes.push(performance.now() - t)
  }
  await runtime.dispose()
  return { bytes: text.length, parseMs, schemaMs, clientMs: median(clientTimes) }
}

main().then(report)
