/**
 * The in-memory emulator with its defaults, `Emulator.layer({})`: how long building it takes in a
 * process that has loaded the code (what a test file waits for), and one lookup through it.
 * argv: none. Prints { buildMs, lookupMs, rssMB }.
 */
import { Emulator } from "@s2-effect/testing"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { HttpClient } from "effect/http"
import * as Layer from "effect/Layer"
import { report } from "./report.js"

const started = performance.now()
const program = Effect.scoped(Effect.gen(function*() {
  const context = yield* Layer.build(Emulator.layer({}))
  const buildMs = performance.now() - started
  const t = performance.now()
  const client = Context.get(context, HttpClient.HttpClient)
  const response = yield* client.get("https://api.semanticscholar.org/graph/v1/paper/CorpusId:1015")
  yield* response.text
  return { buildMs, lookupMs: performance.now() - t, status: response.status }
}))

Effect.runPromise(program).then((r) => report({ ...r, rssMB: process.memoryUsage().rss / 2 ** 20 }))
