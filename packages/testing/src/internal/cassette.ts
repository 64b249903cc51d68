import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Semaphore from "effect/Semaphore"
import type { Entry, File, Mode, Options, RecordedRequest, RecordedResponse } from "../Cassette.js"
import { CassetteFileError, CassetteMiss, File as FileSchema } from "../Cassette.js"

/** Response headers worth keeping: what a client reads. Everything else (dates, ids, cookies) is noise. */
const keptHeaders = ["content-type", "retry-after", "content-range", "accept-ranges", "location"]

/** Request headers whose values are secrets: never written, and scrubbed from anything echoed. */
const secretHeaders = ["x-api-key", "authorization"]

const redacted = "<redacted>"

const decoder = new TextDecoder()

const requestBodyText = (request: HttpClientRequest.HttpClientRequest): string | undefined => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return undefined
    case "Uint8Array":
      return decoder.decode(body.body)
    case "Raw":
      return typeof body.body === "string" ? body.body : String(body.body)
    default:
      // Form data and streams are not sent by the client; recorded as a marker so they still match.
      return `<${body._tag} body>`
  }
}

/** JSON when it parses (readable in the file), else the text itself. */
const bodyFields = (text: string | undefined): { body?: unknown; bodyText?: string } => {
  if (text === undefined || text === "") return {}
  try {
    return { body: JSON.parse(text) }
  } catch {
    return { bodyText: text }
  }
}

const bodyOf = (recorded: { readonly body?: unknown; readonly bodyText?: string | undefined }): string =>
  recorded.bodyText ?? (recorded.body === undefined ? "" : JSON.stringify(recorded.body))

const describeRequest = (request: HttpClientRequest.HttpClientRequest, url: URL): RecordedRequest => {
  const query: Record<string, string | ReadonlyArray<string>> = {}
  for (const [name, value] of url.searchParams) {
    const known = query[name]
    query[name] = known === undefined ? value : [...(typeof known === "string" ? [known] : known), value]
  }
  return { method: request.method, path: url.pathname, query, ...bodyFields(requestBodyText(request)) }
}

const queryText = (query: RecordedRequest["query"]) =>
  Object.entries(query).flatMap(([name, value]) =>
    (typeof value === "string" ? [value] : value).map((v) => `${name}=${v}`)
  ).join("&")

const show = (request: RecordedRequest) => {
  const query = queryText(request.query)
  const body = bodyOf(request)
  return `${request.method} ${request.path}${query === "" ? "" : `?${query}`}${body === "" ? "" : ` ${body}`}`
}

/** The field-by-field comparison: one line per field, `same` or both values. */
const compare = (
  request: RecordedRequest,
  recorded: RecordedRequest,
  ignored: ReadonlySet<string>
): ReadonlyArray<{ readonly field: string; readonly same: boolean; readonly line: string }> => {
  const field = (name: string, asked: unknown, had: unknown) => {
    const same = JSON.stringify(asked) === JSON.stringify(had)
    return {
      field: name,
      same,
      line: same
        ? `  ${name}: same (${JSON.stringify(asked) ?? "none"})`
        : `  ${name}: requested ${JSON.stringify(asked) ?? "none"}, recorded ${JSON.stringify(had) ?? "none"}`
    }
  }
  const names = [...new Set([...Object.keys(request.query), ...Object.keys(recorded.query)])]
    .filter((name) => !ignored.has(name))
    .sort()
  return [
    field("method", request.method, recorded.method),
    field("path", request.path, recorded.path),
    ...names.map((name) => field(`query.${name}`, request.query[name], recorded.query[name])),
    field("body", bodyOf(request) || undefined, bodyOf(recorded) || undefined)
  ]
}

/** How far a recorded request is from a request: method and path weigh most. */
const distance = (comparison: ReturnType<typeof compare>) =>
  comparison.reduce(
    (sum, { field, same }) =>
      same ? sum : sum + (field === "method" || field === "path" ? 10 : field === "body" ? 3 : 1),
    0
  )

/** Sort key of an entry: by path, method, query and body, numbers in natural order. */
const sortKey = (request: RecordedRequest) =>
  `${request.path} ${request.method} ${queryText(request.query)} ${bodyOf(request)}`

const matches = (ignored: ReadonlySet<string>) => (a: RecordedRequest, b: RecordedRequest) =>
  compare(a, b, ignored).every(({ same }) => same)

export const serialize = (entries: ReadonlyArray<Entry>, secrets: ReadonlyArray<string>): string => {
  const sorted = [...entries].sort((a, b) =>
    sortKey(a.request).localeCompare(sortKey(b.request), "en", { numeric: true })
  )
  let text = JSON.stringify({ version: 1, entries: sorted } satisfies File, null, 2) + "\n"
  for (const secret of secrets) {
    const escaped = JSON.stringify(secret).slice(1, -1)
    if (escaped.length > 0) text = text.split(escaped).join(redacted)
  }
  return text
}

const readCassette = Effect.fn(function*(fs: FileSystem.FileSystem, path: string, mode: Mode) {
  const fail = (why: string) => new CassetteFileError({ message: `cassette ${path} ${why}`, path })
  const exists = yield* Effect.mapError(fs.exists(path), (e) => fail(`cannot be read: ${e.message}`))
  if (!exists) {
    return mode === "replay"
      ? yield* Effect.fail(fail("does not exist: record it first with mode \"record\" or \"auto\""))
      : []
  }
  const text = yield* Effect.mapError(fs.readFileString(path), (e) => fail(`cannot be read: ${e.message}`))
  const json = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => fail("is not JSON") })
  const file = yield* Schema.decodeUnknownEffect(FileSchema)(json).pipe(
    Effect.mapError((e) => fail(`is not a cassette (version 1): ${e.message}`))
  )
  return file.entries
})

const toResponse = (request: HttpClientRequest.HttpClientRequest, recorded: RecordedResponse) =>
  HttpClientResponse.fromWeb(
    request,
    new Response(recorded.status === 204 || recorded.status === 304 ? null : bodyOf(recorded), {
      status: recorded.status,
      headers: recorded.headers
    })
  )

/** A cassette in use: what was read, what this run recorded, and the secrets its requests carried. */
interface Tape {
  readonly path: string
  readonly mode: Mode
  readonly ignored: ReadonlySet<string>
  readonly same: (a: RecordedRequest, b: RecordedRequest) => boolean
  readonly old: ReadonlyArray<Entry>
  /** Entries recorded in this run. */
  readonly fresh: Array<Entry>
  readonly secrets: Set<string>
  /** How many answers each recorded request has served. */
  readonly served: Map<Entry, number>
}

/** The whole file again (old entries not recorded anew, then this run's), written to a temporary file then moved. */
const writeTape = (fs: FileSystem.FileSystem, tape: Tape) =>
  Effect.suspend(() => {
    const kept = tape.old.filter((entry) => !tape.fresh.some((f) => tape.same(f.request, entry.request)))
    const text = serialize([...kept, ...tape.fresh], [...tape.secrets])
    const dir = tape.path.replace(/[/\\][^/\\]*$/, "")
    const temp = `${tape.path}.tmp`
    return Effect.all([
      dir === tape.path ? Effect.void : fs.makeDirectory(dir, { recursive: true }),
      fs.writeFileString(temp, text),
      fs.rename(temp, tape.path)
    ], { discard: true })
  })

/** The recorded answer: successive identical requests get successive answers, then the last again. */
const replay = (tape: Tape, asked: RecordedRequest): RecordedResponse | undefined => {
  const candidates = (tape.mode === "record" ? tape.fresh : [...tape.old, ...tape.fresh])
    .filter((e) => tape.same(asked, e.request))
  const first = candidates[0]
  if (first === undefined) return undefined
  const count = tape.served.get(first) ?? 0
  tape.served.set(first, count + 1)
  return (candidates[Math.min(count, candidates.length - 1)] ?? first).response
}

const miss = (tape: Tape, request: HttpClientRequest.HttpClientRequest, asked: RecordedRequest) => {
  const ranked = [...tape.old, ...tape.fresh]
    .map((entry) => ({ entry, comparison: compare(asked, entry.request, tape.ignored) }))
    .sort((a, b) => distance(a.comparison) - distance(b.comparison))
  const nearest = ranked[0]
  const differences = nearest === undefined ? [] : nearest.comparison.map((c) => c.line)
  const message = [
    `no recorded exchange in ${tape.path} matches ${show(asked)}`,
    ...(nearest === undefined
      ? ["the cassette is empty"]
      : [`nearest recorded: ${show(nearest.entry.request)}`, ...differences]),
    ...(tape.ignored.size > 0 ? [`  (query parameters ignored: ${[...tape.ignored].join(", ")})`] : [])
  ].join("\n")
  const cause = new CassetteMiss({
    message,
    path: tape.path,
    request: asked,
    ...(nearest === undefined ? {} : { nearest: nearest.entry.request }),
    differences
  })
  return new HttpClientError.HttpClientError({
    reason: new HttpClientError.TransportError({ request, cause, description: message })
  })
}

const record = Effect.fn(function*(
  tape: Tape,
  upstream: HttpClient.HttpClient,
  write: Effect.Effect<void, unknown>,
  request: HttpClientRequest.HttpClientRequest,
  asked: RecordedRequest
) {
  for (const name of secretHeaders) {
    const value = request.headers[name]
    if (value !== undefined && value !== "") tape.secrets.add(value.replace(/^Bearer\s+/i, ""))
  }
  const response = yield* upstream.execute(request)
  const text = yield* response.text
  const headers = Object.fromEntries(keptHeaders.flatMap((name) => {
    const value = response.headers[name]
    return value === undefined ? [] : [[name, value] as const]
  }))
  const recorded: RecordedResponse = { status: response.status, headers, ...bodyFields(text) }
  tape.fresh.push({ request: asked, response: recorded })
  yield* Effect.orDie(write)
  return toResponse(request, recorded)
})

export const make = Effect.fn(function*(options: Options) {
  const fs = yield* FileSystem.FileSystem
  const upstream = options.mode === "replay" ? undefined : yield* HttpClient.HttpClient
  const ignored = new Set(options.ignoreQuery ?? [])
  const tape: Tape = {
    path: options.path,
    mode: options.mode,
    ignored,
    same: matches(ignored),
    old: yield* readCassette(fs, options.path, options.mode),
    fresh: [],
    secrets: new Set(),
    served: new Map()
  }
  const lock = yield* Semaphore.make(1)
  const write = lock.withPermits(1)(writeTape(fs, tape))
  return HttpClient.make((request, url) => {
    const asked = describeRequest(request, url)
    if (options.mode !== "record") {
      const found = replay(tape, asked)
      if (found !== undefined) return Effect.succeed(toResponse(request, found))
      if (options.mode === "replay") return Effect.fail(miss(tape, request, asked))
    }
    return record(tape, upstream!, write, request, asked)
  })
})

export const layer = (options: Options) =>
  Layer.effect(HttpClient.HttpClient, make(options)) as Layer.Layer<
    HttpClient.HttpClient,
    CassetteFileError,
    FileSystem.FileSystem | HttpClient.HttpClient
  >
