import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
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

const readCassette = (fs: FileSystem.FileSystem, path: string, mode: Mode) =>
  Effect.gen(function*() {
    const fail = (why: string) => new CassetteFileError({ message: `cassette ${path} ${why}`, path })
    const exists = yield* Effect.mapError(fs.exists(path), (e) => fail(`cannot be read: ${e.message}`))
    if (!exists) {
      return mode === "replay"
        ? yield* Effect.fail(fail("does not exist: record it first with mode \"record\" or \"auto\""))
        : []
    }
    const text = yield* Effect.mapError(fs.readFileString(path), (e) => fail(`cannot be read: ${e.message}`))
    const json = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => fail("is not JSON") })
    const file = yield* Schema.decodeUnknown(FileSchema)(json).pipe(
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

export const make = (options: Options) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const upstream = options.mode === "replay" ? undefined : yield* HttpClient.HttpClient
    const ignored = new Set(options.ignoreQuery ?? [])
    const same = matches(ignored)
    const old = yield* readCassette(fs, options.path, options.mode)
    // Entries recorded in this run, and how many answers each recorded request has served.
    const fresh: Array<Entry> = []
    const secrets = new Set<string>()
    const served = new Map<Entry, number>()
    const lock = yield* Effect.makeSemaphore(1)

    const write = lock.withPermits(1)(Effect.suspend(() => {
      const kept = old.filter((entry) => !fresh.some((f) => same(f.request, entry.request)))
      const text = serialize([...kept, ...fresh], [...secrets])
      const dir = options.path.replace(/[/\\][^/\\]*$/, "")
      const temp = `${options.path}.tmp`
      return Effect.all([
        dir === options.path ? Effect.void : fs.makeDirectory(dir, { recursive: true }),
        fs.writeFileString(temp, text),
        fs.rename(temp, options.path)
      ], { discard: true })
    }))

    /** The recorded answer: successive identical requests get successive answers, then the last again. */
    const replay = (asked: RecordedRequest): RecordedResponse | undefined => {
      const candidates = (options.mode === "record" ? fresh : [...old, ...fresh]).filter((e) => same(asked, e.request))
      const first = candidates[0]
      if (first === undefined) return undefined
      const count = served.get(first) ?? 0
      served.set(first, count + 1)
      return (candidates[Math.min(count, candidates.length - 1)] ?? first).response
    }

    const miss = (request: HttpClientRequest.HttpClientRequest, asked: RecordedRequest) => {
      const ranked = [...old, ...fresh]
        .map((entry) => ({ entry, comparison: compare(asked, entry.request, ignored) }))
        .sort((a, b) => distance(a.comparison) - distance(b.comparison))
      const nearest = ranked[0]
      const differences = nearest === undefined ? [] : nearest.comparison.map((c) => c.line)
      const message = [
        `no recorded exchange in ${options.path} matches ${show(asked)}`,
        ...(nearest === undefined
          ? ["the cassette is empty"]
          : [`nearest recorded: ${show(nearest.entry.request)}`, ...differences]),
        ...(ignored.size > 0 ? [`  (query parameters ignored: ${[...ignored].join(", ")})`] : [])
      ].join("\n")
      const cause = new CassetteMiss({
        message,
        path: options.path,
        request: asked,
        ...(nearest === undefined ? {} : { nearest: nearest.entry.request }),
        differences
      })
      return new HttpClientError.RequestError({ request, reason: "Transport", cause, description: message })
    }

    const record = (request: HttpClientRequest.HttpClientRequest, asked: RecordedRequest) =>
      Effect.gen(function*() {
        for (const name of secretHeaders) {
          const value = request.headers[name]
          if (value !== undefined && value !== "") secrets.add(value.replace(/^Bearer\s+/i, ""))
        }
        const response = yield* upstream!.execute(request)
        const text = yield* response.text
        const headers = Object.fromEntries(keptHeaders.flatMap((name) => {
          const value = response.headers[name]
          return value === undefined ? [] : [[name, value] as const]
        }))
        const recorded: RecordedResponse = { status: response.status, headers, ...bodyFields(text) }
        fresh.push({ request: asked, response: recorded })
        yield* Effect.orDie(write)
        return toResponse(request, recorded)
      })

    return HttpClient.make((request, url) => {
      const asked = describeRequest(request, url)
      if (options.mode !== "record") {
        const found = replay(asked)
        if (found !== undefined) return Effect.succeed(toResponse(request, found))
        if (options.mode === "replay") return Effect.fail(miss(request, asked))
      }
      return record(request, asked)
    })
  })

export const layer = (options: Options) =>
  Layer.effect(HttpClient.HttpClient, make(options)) as Layer.Layer<
    HttpClient.HttpClient,
    CassetteFileError,
    FileSystem.FileSystem | HttpClient.HttpClient
  >
