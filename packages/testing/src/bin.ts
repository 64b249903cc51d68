/**
 * `s2-emulator --port 8787 --size 100000 --seed 1 [--bulk-size 10000000] [--open-world] [--lazy-index]
 * [--rate-limit 1/s] [--log-requests]`: runs the HTTP emulator until interrupted and prints its URL and
 * corpus size once it is ready (`--log-requests`: a line per request on stderr).
 * Bad arguments print what is wrong and exit 2; a port that cannot be bound exits 1.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import { parseArgs } from "node:util"
import * as CorpusCache from "./CorpusCache.js"
import * as bulkQuery from "./internal/bulkQuery.js"
import { startEmulator } from "./Server.js"

const USAGE_LINE = "usage: s2-emulator [--port 8787] [--size 100000] [--seed 1] [--bulk-size N] [--open-world]\n" +
  "                   [--lazy-index] [--rate-limit N/s] [--log-requests] [--no-cache]"
const USAGE = `${USAGE_LINE}\n` +
  "  --port N        TCP port on 127.0.0.1 (0: any free port; default 8787)\n" +
  "  --size N        papers in the generated corpus (default 100000)\n" +
  "  --seed N        same seed, same corpus (default 1)\n" +
  "  --bulk-size N   papers bulk search pages over for an empty query (default: --size)\n" +
  "  --open-world    resolve any well-formed unknown id to some corpus paper instead of 404\n" +
  "  --lazy-index    build the relevance-search index on the first search, not at start\n" +
  "  --rate-limit N/s  requests per second per API key; more get 429 with Retry-After (default: none)\n" +
  "  --log-requests  one line per request on stderr: method, path?query (key redacted), status, ms\n" +
  "  --no-cache      neither read nor write the corpus file (in S2_EMULATOR_CACHE, else\n" +
  "                  ~/.cache/s2-effect/emulator)\n" +
  "request counts: GET /__emulator/requests (JSON; DELETE resets)"

const OPTIONS = {
  port: { type: "string" },
  size: { type: "string" },
  seed: { type: "string" },
  "bulk-size": { type: "string" },
  "open-world": { type: "boolean" },
  "lazy-index": { type: "boolean" },
  "rate-limit": { type: "string" },
  "log-requests": { type: "boolean" },
  "no-cache": { type: "boolean" },
  help: { type: "boolean", short: "h" }
} as const

/** A usage error: printed with the usage line, exit code 2. */
const usageError = (message: string): never => {
  process.stderr.write(`s2-emulator: ${message}\n${USAGE_LINE}\n`)
  process.exit(2)
}

/** `--size -5` as `--size=-5`, so that a negative number reaches the range check below. */
const joinNegative = (args: ReadonlyArray<string>): Array<string> =>
  args.flatMap((arg, k) =>
    /^-\d/.test(args[k + 1] ?? "") && /^--[\w-]+$/.test(arg)
      ? [`${arg}=${args[k + 1]}`]
      : /^-\d/.test(arg) && /^--[\w-]+$/.test(args[k - 1] ?? "")
      ? []
      : [arg]
  )

const parse = () => {
  try {
    const args = joinNegative(process.argv.slice(2))
    return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }).values
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // Node's message for an unknown flag ends with advice about `--` that does not apply here.
    const unknown = /Unknown option '([^']+)'/.exec(message)?.[1]
    return usageError(unknown === undefined ? message : `unknown option ${unknown}${suggest(unknown)}`)
  }
}

const suggest = (flag: string): string => {
  const name = flag.replace(/^-+/, "")
  const near = Object.keys(OPTIONS).find((known) => bulkQuery.editDistanceAtMost(known, name, 2))
  return near === undefined ? "" : ` (did you mean --${near}?)`
}

const integer = (name: string, raw: string | undefined, fallback: number, min: number, max: number): number => {
  if (raw === undefined) return fallback
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    return usageError(`--${name} expects a whole number from ${min} to ${max.toLocaleString("en-US")}, got "${raw}"`)
  }
  return n
}

const values = parse()
if (values.help === true) {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}
const port = integer("port", values.port, 8787, 0, 65535)
const size = integer("size", values.size, 100_000, 1, 100_000_000)
const seed = integer("seed", values.seed, 1, 0, 4294967295)
const bulkSize = integer("bulk-size", values["bulk-size"], size, size, Number.MAX_SAFE_INTEGER)

/** `--rate-limit N/s` (or `N`): requests per second per API key; more get 429 with Retry-After. */
const rateLimit = ((raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined
  const match = /^(\d+)(?:\/s)?$/.exec(raw)
  const n = match === null ? Number.NaN : Number(match[1])
  return n >= 1 ? n : usageError(`--rate-limit expects requests per second such as 1/s or 5/s, got "${raw}"`)
})(values["rate-limit"])

/** The message for a server that could not start, from the defect `startEmulator` dies with. */
const describeFailure = (cause: Cause.Cause<unknown>): string => {
  const defects = cause.reasons.filter(Cause.isDieReason).map((reason) => reason.defect)
  const error = [...defects, ...cause.reasons.filter(Cause.isFailReason).map((reason) => reason.error)][0]
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined
  if (code === "EADDRINUSE") return `port ${port} on 127.0.0.1 is in use; pick another --port (0: any free port)`
  if (code === "EACCES") return `no permission to listen on port ${port}; pick a port above 1023 (0: any free port)`
  return error instanceof Error ? error.message : Cause.pretty(cause)
}

const program = Effect.scoped(Effect.gen(function*() {
  const started = Date.now()
  // The corpus file of this seed and size (CorpusCache) holds its graph and search index; without
  // one, the corpus is built and its file written once the index is built below.
  const directory = values["no-cache"] === true ? undefined : CorpusCache.defaultDirectory()
  const openWorld = values["open-world"] === true
  const corpus = yield* CorpusCache.make({ seed, size, bulkSize, openWorld, directory, write: false })
  const emulator = yield* startEmulator({
    port,
    corpus,
    openWorld,
    logRequests: values["log-requests"] === true,
    ...(rateLimit === undefined ? {} : { rateLimit })
  })
  // Build the relevance index in the background from now rather than on the first search (unless
  // told not to: benchmarks of bulk search never use it). Ready is printed first: other routes need
  // no index, and a search meanwhile finishes the build.
  if (values["lazy-index"] !== true) {
    yield* Effect.forkDetach(
      Effect.andThen(Effect.promise(() => corpus.indexInBackground()), CorpusCache.save(corpus, directory))
    )
  }
  const papers = emulator.corpus.size.toLocaleString("en-US")
  const bulk = bulkSize > size ? `, bulk search over ${bulkSize.toLocaleString("en-US")}` : ""
  process.stdout.write(
    `s2-emulator listening on ${emulator.url} (files on ${emulator.fileUrl}); ${papers} papers${bulk}, seed ${seed}, ` +
      `ready in ${Date.now() - started} ms` +
      `${rateLimit === undefined ? "" : `; at most ${rateLimit} requests/s per key`}\n`
  )
  return yield* Effect.never
})).pipe(
  Effect.provide(NodeFileSystem.layer),
  Effect.tapCause((cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.void
      : Effect.sync(() => process.stderr.write(`s2-emulator: cannot start: ${describeFailure(cause)}\n`))
  )
)

/**
 * Stopping the emulator is how it is meant to end: SIGINT/SIGTERM exit 0 (Effect 4's default would be 130),
 * so a script that stops it after its tests does not see a failure. A failed start exits 1.
 */
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

// runMain interrupts the program on SIGINT/SIGTERM, which closes the server with its scope, and exits
// 1 when it fails (the message above says why).
NodeRuntime.runMain(program, { disableErrorReporting: true, teardown })
