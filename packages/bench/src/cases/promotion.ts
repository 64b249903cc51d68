/**
 * A reproduction, with no HTTP and no client code, of why a long harvest's pages reach V8's old
 * generation: 300 pages of 1,000 parsed records, 15 ms apart, consumed three ways. Run with
 * `--trace-gc-nvp`; the bench sums what the scavenges promote.
 * argv: mode — "loop" (an Effect loop), "stream" (the same pages as a `Stream` into
 * `runForEachChunk`), "effectfulStage" (the stream with a `mapChunksEffect` before the sink)
 */
import { Chunk, Effect, Stream } from "effect"
import { report } from "./report.js"

const [mode = "loop"] = process.argv.slice(2)
const pages = 300

const record = (i: number) => ({
  paperId: i.toString(16).padStart(40, "0"),
  title: `A study of subject number ${i} and of its many consequences`,
  year: 1990 + (i % 35),
  citationCount: i % 97,
  authors: [{ authorId: String(1000 + i), name: `Author ${i}` }, {
    authorId: String(2000 + i),
    name: `Author ${i + 1}`
  }]
})
const text = JSON.stringify({ data: Array.from({ length: 1000 }, (_, i) => record(i)) })
const fetchPage = Effect.as(Effect.sleep("15 millis"), undefined).pipe(
  Effect.map((): { readonly data: ReadonlyArray<unknown> } => JSON.parse(text))
)

let seen = 0
const count = (page: { readonly data: ReadonlyArray<unknown> }) => {
  seen += page.data.length
}
const stream = Stream.repeatEffect(fetchPage).pipe(Stream.take(pages))

const run: Effect.Effect<void> = mode === "loop"
  ? Effect.repeatN(Effect.map(fetchPage, count), pages - 1)
  : mode === "effectfulStage"
  ? stream.pipe(
    Stream.mapChunksEffect((chunk) => Effect.succeed(chunk)),
    Stream.runForEachChunk((chunk) => Effect.sync(() => Chunk.forEach(chunk, count)))
  )
  : Stream.runForEachChunk(stream, (chunk) => Effect.sync(() => Chunk.forEach(chunk, count)))

Effect.runPromise(run).then(() => report({ mode, records: seen }))
