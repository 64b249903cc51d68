/**
 * Why a long harvest's pages can reach V8's old generation, with no HTTP and no client code: 300
 * pages of 1,000 parsed records, 15 ms apart, consumed in several ways. Run with `--trace-gc-nvp`;
 * the bench sums what the scavenges promote.
 * argv: mode —
 * - "loop": an Effect loop;
 * - "stream": the same pages as a `Stream` into `runForEachArray`;
 * - "effectfulStage": the stream with a `mapArrayEffect` before the sink;
 * - "genPerPage": the stream into a consumer that builds a new `Effect.gen` for every page;
 * - "assignedClosure" / "localClosure": plain JavaScript, no Effect — each page is captured by a
 *   function literal assigned straight to a property (`holder.get = () => page`), or first bound
 *   to a local and then assigned. V8 allocates the first kind in old space, where it keeps its
 *   young context, and the page, alive until the next full collection.
 */
import type { NonEmptyReadonlyArray } from "effect/Array"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { setTimeout as sleep } from "node:timers/promises"
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
interface Page {
  readonly data: ReadonlyArray<unknown>
}
const text = JSON.stringify({ data: Array.from({ length: 1000 }, (_, i) => record(i)) })
const parse = (): Page => JSON.parse(text)
const fetchPage = Effect.as(Effect.sleep("15 millis"), undefined).pipe(Effect.map(parse))

let seen = 0
const count = (page: Page) => {
  seen += page.data.length
}
const stream = Stream.fromEffectRepeat(fetchPage).pipe(Stream.take(pages))
const sink = (chunk: NonEmptyReadonlyArray<Page>) => Effect.sync(() => chunk.forEach(count))

const holder: { get: () => Page } = { get: parse }
const plain = async (assign: (page: Page) => void) => {
  for (let i = 0; i < pages; i++) {
    await sleep(15)
    assign(parse())
    count(holder.get())
  }
}

const run: Effect.Effect<void> = mode === "loop"
  ? Effect.repeat(Effect.map(fetchPage, count), { times: pages - 1 })
  : mode === "effectfulStage"
  ? stream.pipe(Stream.mapArrayEffect((chunk) => Effect.succeed(chunk)), Stream.runForEachArray(sink))
  : mode === "genPerPage"
  ? Stream.runForEachArray(stream, (chunk) =>
    Effect.gen(function*() {
      yield* sink(chunk)
    }))
  : mode === "assignedClosure"
  ? Effect.promise(() =>
    plain((page) => {
      holder.get = () => page
    })
  )
  : mode === "localClosure"
  ? Effect.promise(() =>
    plain((page) => {
      const get = () => page
      holder.get = get
    })
  )
  : Stream.runForEachArray(stream, sink)

Effect.runPromise(run).then(() => report({ mode, records: seen }))
