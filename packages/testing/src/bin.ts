/**
 * `s2-emulator --port 8787 --size 100000 --seed 1 [--bulk-size 10000000] [--open-world] [--lazy-index]
 * [--rate-limit 1/s]`: runs the HTTP emulator until interrupted and prints its URL.
 */
import * as Effect from "effect/Effect"
import { startEmulator } from "./Server.js"

const args = process.argv.slice(2)
const option = (name: string, fallback: number): number => {
  const k = args.indexOf(`--${name}`)
  const raw = k < 0 ? undefined : args[k + 1]
  const n = raw === undefined ? fallback : Number(raw)
  if (!Number.isFinite(n)) throw new Error(`--${name} expects a number, got ${raw}`)
  return n
}

/** `--rate-limit N/s` (or `N`): requests per second per API key; more get 429 with Retry-After. */
const rateLimit = (): number | undefined => {
  const k = args.indexOf("--rate-limit")
  if (k < 0) return undefined
  const raw = args[k + 1] ?? ""
  const match = /^(\d+)(?:\/s)?$/.exec(raw)
  if (match === null || Number(match[1]) < 1) {
    throw new Error(`--rate-limit expects requests per second such as 1/s or 5/s, got ${raw}`)
  }
  return Number(match[1])
}

if (args.includes("--help") || args.includes("-h")) {
  console.log(
    "usage: s2-emulator [--port 8787] [--size 100000] [--seed 1] [--bulk-size N] [--open-world] [--lazy-index]\n" +
      "                   [--rate-limit N/s]  (per API key; more requests get 429 with Retry-After)"
  )
  process.exit(0)
}
const limit = rateLimit()

const program = Effect.scoped(Effect.gen(function*() {
  const started = Date.now()
  const emulator = yield* startEmulator({
    port: option("port", 8787),
    seed: option("seed", 1),
    size: option("size", 100_000),
    bulkSize: option("bulk-size", option("size", 100_000)),
    openWorld: args.includes("--open-world"),
    ...(limit === undefined ? {} : { rateLimit: limit })
  })
  // Build the relevance index now rather than on the first search (unless told not to: benchmarks
  // of bulk search never use it and should not wait for it).
  if (!args.includes("--lazy-index")) void emulator.corpus.search
  console.log(
    `s2-emulator listening on ${emulator.url} (files on ${emulator.fileUrl}); ${emulator.corpus.size} papers, ready in ${
      Date.now() - started
    } ms${limit === undefined ? "" : `; at most ${limit} requests/s per key`}`
  )
  return yield* Effect.never
}))

Effect.runFork(program)
process.on("SIGINT", () => process.exit(0))
process.on("SIGTERM", () => process.exit(0))
