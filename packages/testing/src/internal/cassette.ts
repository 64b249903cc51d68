import { Files, redactKey } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FileSystem from "effect/FileSystem"
import * as Headers from "effect/http/Headers"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as PlatformError from "effect/PlatformError"
import * as Schema from "effect/Schema"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import type { Mode, Options } from "../Cassette.js"
import type { Entry, File, RecordedRequest, RecordedResponse } from "../CassetteFile.js"
import { CassetteFileError, CassetteMiss, File as FileSchema } from "../CassetteFile.js"
import { concat, filler, TapeResponse } from "./tapeResponse.js"

/** Response headers worth keeping: what a client reads. Everything else (dates, ids, cookies) is noise. */
const keptHeaders = ["content-type", "retry-after", "content-range", "accept-ranges", "location"]

/** Request headers whose values are secrets: never written, and scrubbed from anything echoed. */
const secretHeaders = ["x-api-key", "authorization"]

const redacted = "<redacted>"

const decoder = new TextDecoder()
const encoder = new TextEncoder()

/** The most of a body read only in part that a cassette keeps: enough for any error's message. */
const keptStart = 64 * 1024

/** A chunk in memory of its own, not a view keeping a socket's whole buffer alive. */
const own = (chunk: Uint8Array): Uint8Array =>
  chunk.byteLength === chunk.buffer.byteLength ? chunk : new Uint8Array(chunk)

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

/** A header name as HTTP allows it (RFC 9110 token), and a value without line breaks or NUL. */
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const headerValue = /^[^\r\n\0]*$/

/** The forms a secret takes as written: as it is, and as a JSON string writes it. */
const secretForms = (secrets: Iterable<string>): ReadonlyArray<string> =>
  [...secrets].flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]).filter((s) => s.length > 0)

/** Every secret hidden in a text, in each form a reader would recognise (the client's own redaction). */
const hiding = (secrets: ReadonlyArray<string>) => {
  const hides = secrets.map((secret) => redactKey(secret))
  return (text: string): string => hides.reduce((out, hide) => hide(out), text)
}

/**
 * Each string in a JSON value (object keys too) with the secrets hidden, and a number that spells one
 * replaced by the marker. Per string, not over the file's text: a hidden form may come back decoded,
 * which is still a string here but would break the JSON if it replaced text inside the file.
 */
const redactJson = (hide: (text: string) => string) => {
  const go = (value: unknown): unknown => {
    if (typeof value === "string") return hide(value)
    if (typeof value === "number") return hide(String(value)) === String(value) ? value : redacted
    if (Array.isArray(value)) return value.map(go)
    if (typeof value === "object" && value !== null) {
      // Object.fromEntries defines each key as its own: a `__proto__` in a body stays data.
      return Object.fromEntries(Object.entries(value).map(([name, field]) => [hide(name), go(field)]))
    }
    return value
  }
  return go
}

/**
 * An entry with the secrets hidden in every value its request and response hold. A header whose
 * value came back decoded with a line break (`%0A` next to the key) is the marker alone: the file
 * must still read back as headers HTTP can carry.
 */
const redactEntry = (go: (value: unknown) => unknown) => (entry: Entry): Entry => {
  const fields = <A extends object>(part: A): A =>
    Object.fromEntries(Object.entries(part).map(([name, value]) => [name, go(value)])) as A
  const response = fields(entry.response)
  const headers = Object.fromEntries(
    Object.entries(response.headers).map(([name, value]) => [name, headerValue.test(value) ? value : redacted])
  )
  return { request: fields(entry.request), response: { ...response, headers } }
}

/** Entries sorted (the same request keeps its order of answers), as text with every secret hidden. */
export const serialize = (entries: ReadonlyArray<Entry>, secrets: ReadonlyArray<string>): string => {
  const sorted = [...entries].sort((a, b) =>
    sortKey(a.request).localeCompare(sortKey(b.request), "en", { numeric: true })
  )
  const hidden = sorted.map(redactEntry(redactJson(hiding(secrets))))
  return JSON.stringify({ version: 1, entries: hidden } satisfies File, null, 2) + "\n"
}

/** Text cut at an arbitrary byte may end with the start of a secret, in any case: that start is dropped too. */
const withoutSecretStart = (text: string, secrets: Iterable<string>): string => {
  let out = text
  for (const form of secretForms(secrets)) {
    for (let n = Math.min(form.length - 1, out.length); n > 0; n--) {
      if (out.slice(-n).toLowerCase() === form.slice(0, n).toLowerCase()) {
        out = out.slice(0, -n)
        break
      }
    }
  }
  return out
}

/** What is wrong with a recorded answer, if anything: what a live answer could not be either. */
const malformed = (response: RecordedResponse): string | undefined => {
  // 1xx answers are interim: a server's last answer is 200 to 999 (three digits, as HTTP/1.1 carries).
  if (response.status < 200 || response.status > 999) {
    return `status ${response.status} is not a final HTTP status (200 to 999)`
  }
  for (const [name, value] of Object.entries(response.headers)) {
    if (!headerName.test(name)) return `header name ${JSON.stringify(name)} is not one HTTP can carry`
    if (!headerValue.test(value)) return `header ${name} has a value with a line break or NUL`
  }
  if (response.truncated !== undefined && response.truncated < 0) return `truncated ${response.truncated} is negative`
  return undefined
}

const fileError = (path: string, why: string, cause?: unknown) =>
  new CassetteFileError({ message: `cassette ${path} ${why}`, path, ...(cause === undefined ? {} : { cause }) })

/** A file-system failure in the system's words (`no space left on device (ENOSPC)`), its error kept. */
const ioError = (path: string, doing: string) => (error: PlatformError.PlatformError) =>
  fileError(path, `${doing}: ${Files.describeError(error)}`, error)

/** The entries of the file, or `undefined` when there is none; a malformed file or entry is an error naming it. */
const readEntries = Effect.fn(function*(fs: FileSystem.FileSystem, path: string) {
  const fail = (why: string) => fileError(path, why)
  const exists = yield* Effect.mapError(fs.exists(path), ioError(path, "cannot be read"))
  if (!exists) return undefined
  const text = yield* Effect.mapError(fs.readFileString(path), ioError(path, "cannot be read"))
  const json = yield* Effect.try({
    try: () => JSON.parse(text) as unknown,
    catch: (cause) => fileError(path, "is not JSON", cause)
  })
  const file = yield* Schema.decodeUnknownEffect(FileSchema)(json).pipe(
    Effect.mapError((e) => fileError(path, `is not a cassette (version 1): ${e.message}`, e))
  )
  for (const [index, entry] of file.entries.entries()) {
    const wrong = malformed(entry.response)
    if (wrong !== undefined) return yield* Effect.fail(fail(`entries[${index}] (${show(entry.request)}): ${wrong}`))
  }
  return file.entries
})

const readCassette = Effect.fn(function*(fs: FileSystem.FileSystem, path: string, mode: Mode) {
  const entries = yield* readEntries(fs, path)
  if (entries !== undefined) return entries
  return mode === "replay"
    ? yield* Effect.fail(
      new CassetteFileError({
        message: `cassette ${path} does not exist: record it first with mode "record" or "auto"`,
        path,
        problem: "does not exist",
        advice: `record it first with mode "record" or "auto"`
      })
    )
    : []
})

const toResponse = (request: HttpClientRequest.HttpClientRequest, url: URL, recorded: RecordedResponse) => {
  const start = encoder.encode(bodyOf(recorded))
  const rest = recorded.truncated === undefined ? 0 : recorded.truncated - start.length
  const body = Stream.concat(start.length === 0 ? Stream.empty : Stream.succeed(start), filler(rest))
  return new TapeResponse(request, recorded.status, Headers.fromInput(recorded.headers), body, url.href)
}

/** One exchange of this run: its request, and its entry once the client has read the body. */
interface Take {
  readonly request: RecordedRequest
  /** Made once, so it counts its own replays in `served`. */
  entry?: Entry
}

/** A cassette in use: what was read, what this run recorded, and the secrets its requests carried. */
interface Tape {
  readonly path: string
  readonly mode: Mode
  readonly ignored: ReadonlySet<string>
  readonly same: (a: RecordedRequest, b: RecordedRequest) => boolean
  readonly old: ReadonlyArray<Entry>
  /** Exchanges of this run, in the order they were made. */
  readonly fresh: Array<Take>
  readonly secrets: Set<string>
  /** How many answers each recorded request has served. */
  readonly served: Map<Entry, number>
}

/** The exchanges of this run whose body has been read, as entries. */
const recorded = (tape: Tape): Array<Entry> =>
  tape.fresh.flatMap((take) => take.entry === undefined ? [] : [take.entry])

/** Waits for a lock: polls every 20 ms for up to 10 s; a lock older than 30 s was left by a recorder that died. */
const lockPoll = 20
const lockWait = 10_000
const lockStale = 30_000
/** A write takes milliseconds: a wait this long is worth saying. */
const lockWarn = 1000

const alreadyExists = (error: PlatformError.PlatformError) => error.reason._tag === "AlreadyExists"

/** Whether the lock file was left long ago. File times are wall-clock times, so `Date.now` (not the Clock) is theirs. */
const isStale = (fs: FileSystem.FileSystem, lock: string) =>
  fs.stat(lock).pipe(
    Effect.map((info) =>
      Option.match(info.mtime, { onNone: () => false, onSome: (t) => Date.now() - t.getTime() > lockStale })
    ),
    Effect.orElseSucceed(() => false)
  )

/**
 * Runs `body` holding `<path>.lock`, created exclusively: one recorder at a time merges into the
 * file. Two waiters may both take over the same stale lock; that needs a recorder to have died
 * within the last write, and costs at most an entry of that write.
 */
const withLock = <A, E>(fs: FileSystem.FileSystem, path: string, body: Effect.Effect<A, E>) => {
  const lock = `${path}.lock`
  const take = Effect.gen(function*() {
    for (let waited = 0;; waited += lockPoll) {
      const taken = yield* fs.writeFileString(lock, "", { flag: "wx" }).pipe(
        Effect.as(true),
        Effect.catchIf(alreadyExists, () => Effect.succeed(false)),
        Effect.mapError(ioError(path, `cannot be written: its lock ${lock} cannot be made`))
      )
      if (taken) return
      if (yield* isStale(fs, lock)) {
        yield* Effect.ignore(fs.remove(lock))
      } else if (waited >= lockWait) {
        return yield* Effect.fail(
          fileError(
            path,
            `is locked by another recorder (${lock}) for over ${lockWait / 1000} s; remove ${lock} if none runs`
          )
        )
      } else {
        if (waited === lockWarn) {
          yield* Effect.logWarning(
            `cassette ${path}: waiting for ${lock} (another recorder) up to ${lockWait / 1000} s`
          )
        }
        yield* Effect.sleep(lockPoll)
      }
    }
  })
  return Effect.acquireUseRelease(take, () => body, () => Effect.ignore(fs.remove(lock)))
}

/**
 * This run's entries merged into the file as it is now (another recorder may have written it since
 * it was read), written atomically: a temporary file created exclusively under a random name (a
 * planted link is never followed), then moved over the cassette. The directory is made with
 * `Files.makeDirectory`, which fails at once where Node's recursive `mkdir` loops (under /proc).
 */
const writeTape = (fs: FileSystem.FileSystem, tape: Tape): Effect.Effect<void, CassetteFileError> => {
  const dir = tape.path.replace(/[/\\][^/\\]*$/, "")
  const merge = Effect.gen(function*() {
    const fresh = recorded(tape)
    const disk = (yield* readEntries(fs, tape.path)) ?? []
    const kept = disk.filter((entry) => !fresh.some((f) => tape.same(f.request, entry.request)))
    yield* Files.writeAtomic(tape.path, serialize([...kept, ...fresh], [...tape.secrets])).pipe(
      Effect.provideService(FileSystem.FileSystem, fs),
      Effect.mapError(ioError(tape.path, "cannot be written"))
    )
  })
  const makeDirectory = dir === tape.path || dir === "" ? Effect.void : Files.makeDirectory(dir).pipe(
    Effect.provideService(FileSystem.FileSystem, fs),
    Effect.mapError(ioError(tape.path, `cannot be written: its directory ${dir} cannot be made`))
  )
  return Effect.andThen(makeDirectory, withLock(fs, tape.path, merge))
}

/**
 * The recorded answer: successive identical requests get successive answers, then the last again.
 * Only from the file as it was read: in `auto`, a request answered in this run (a 429) is sent
 * again when retried, and its answers are recorded in turn.
 */
const replay = (tape: Tape, asked: RecordedRequest): RecordedResponse | undefined => {
  const candidates = tape.old.filter((e) => tape.same(asked, e.request))
  const first = candidates[0]
  if (first === undefined) return undefined
  const count = tape.served.get(first) ?? 0
  tape.served.set(first, count + 1)
  return (candidates[Math.min(count, candidates.length - 1)] ?? first).response
}

/** A failure of the cassette as the HttpClient reports failures: a transport error carrying it. */
const asTransportError = (request: HttpClientRequest.HttpClientRequest, cause: CassetteMiss | CassetteFileError) =>
  new HttpClientError.HttpClientError({
    reason: new HttpClientError.TransportError({ request, cause, description: cause.message })
  })

const miss = (tape: Tape, request: HttpClientRequest.HttpClientRequest, asked: RecordedRequest) => {
  const ranked = [...tape.old, ...recorded(tape)]
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
  return asTransportError(
    request,
    new CassetteMiss({
      message,
      path: tape.path,
      request: asked,
      ...(nearest === undefined ? {} : { nearest: nearest.entry.request }),
      differences
    })
  )
}

const emptyBody = (error: HttpClientError.HttpClientError) => error.reason._tag === "EmptyBodyError"

/**
 * The body of a recorded answer as the client reads it, kept on the way. Read to the end, the
 * exchange is written before the client gets the end (a write that fails fails the read); left
 * unread past a point (the client's bound), it is written with the start of what was read and
 * how much (a write that fails then is logged: the call has already failed). A body that breaks
 * off, or whose read is interrupted (a time-out), is not recorded: the client retries it or
 * fails, as without a cassette.
 */
const passThrough = (
  tape: Tape,
  take: Take,
  response: HttpClientResponse.HttpClientResponse,
  write: Effect.Effect<void, CassetteFileError>
): Stream.Stream<Uint8Array, HttpClientError.HttpClientError> =>
  Stream.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let read = 0
    let settled = false
    const headers = (names: ReadonlyArray<string>) =>
      Object.fromEntries(names.flatMap((name) => {
        const value = response.headers[name]
        return value === undefined ? [] : [[name, value] as const]
      }))
    const body = response.stream.pipe(
      Stream.catchIf(emptyBody, () => Stream.empty),
      Stream.tap((chunk) => Effect.sync(() => void (chunks.push(own(chunk)), read += chunk.length)))
    )
    const drop = Effect.sync(() => {
      const at = tape.fresh.indexOf(take)
      if (at >= 0) tape.fresh.splice(at, 1)
    })
    const whole = Effect.suspend(() => {
      settled = true
      const text = decoder.decode(concat(chunks))
      take.entry = {
        request: take.request,
        response: { status: response.status, headers: headers(keptHeaders), ...bodyFields(text) }
      }
      return Effect.mapError(write, (error) => asTransportError(response.request, error))
    })
    // The declared length too: a replay then stops where this client stopped.
    const partial = Effect.suspend(() => {
      const start = decoder.decode(concat(chunks).subarray(0, keptStart))
      const text = withoutSecretStart(start, tape.secrets)
      take.entry = {
        request: take.request,
        response: {
          status: response.status,
          headers: headers([...keptHeaders, "content-length"]),
          ...(text === "" ? {} : { bodyText: text }),
          truncated: read
        }
      }
      return Effect.catch(write, (error) => Effect.logWarning(`cassette not written: ${error.message}`))
    })
    // Stopped by the client: recorded in part. Broken off, or interrupted (a time-out): not an answer.
    return Stream.concat(body, Stream.fromEffectDrain(whole)).pipe(
      Stream.onExit((exit) => settled ? Effect.void : Exit.isSuccess(exit) ? partial : drop)
    )
  })

const record = Effect.fn(function*(
  tape: Tape,
  upstream: HttpClient.HttpClient,
  write: Effect.Effect<void, CassetteFileError>,
  request: HttpClientRequest.HttpClientRequest,
  url: URL,
  asked: RecordedRequest
) {
  for (const name of secretHeaders) {
    const value = request.headers[name]
    if (value !== undefined && value !== "") tape.secrets.add(value.replace(/^Bearer\s+/i, ""))
  }
  const response = yield* upstream.execute(request)
  // Taken now, so repeated requests keep the order they were answered in (a 429, then its retry).
  const take: Take = { request: asked }
  tape.fresh.push(take)
  const body = passThrough(tape, take, response, write)
  return new TapeResponse(request, response.status, response.headers, body, response.url || url.href)
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
      if (found !== undefined) return Effect.succeed(toResponse(request, url, found))
      if (options.mode === "replay") return Effect.fail(miss(tape, request, asked))
    }
    return record(tape, upstream!, write, request, url, asked)
  })
})

export const layer = (options: Options) =>
  Layer.effect(HttpClient.HttpClient, make(options)) as Layer.Layer<
    HttpClient.HttpClient,
    CassetteFileError,
    FileSystem.FileSystem | HttpClient.HttpClient
  >
