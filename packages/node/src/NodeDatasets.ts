/**
 * Streaming downloads and reads of the Datasets API's files on Node: fetch every file of a dataset
 * to disk (resumable, concurrent, with progress events), read a gzipped JSON-lines file as a
 * `Stream` of records in constant memory, and turn a diff into a `Stream` of upserts and deletes.
 *
 * The files live on an object store, not on the API: their links are pre-signed URLs, so they are
 * fetched with the plain `HttpClient` from the context, never through the API transport, and never
 * with the API key.
 *
 * @since 0.1.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeStream from "@effect/platform-node/NodeStream"
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import type { DatasetDiff, RetryPolicy, S2Error } from "@s2-effect/core"
import {
  BadQueryParameters,
  Forbidden,
  isS2Error,
  ObjectNotFound,
  RateLimited,
  RetryPolicy as Retry,
  SemanticScholar,
  ServerError,
  Timeout,
  TransportError
} from "@s2-effect/core"
import {
  Chunk,
  Data,
  Duration,
  Effect,
  Either,
  Layer,
  Option,
  ParseResult,
  Schedule,
  ScheduleDecision,
  Schema,
  Stream
} from "effect"
import * as NodePath from "node:path"
import * as Zlib from "node:zlib"

// ---------------------------------------------------------------------------------------------
// Errors and events
// ---------------------------------------------------------------------------------------------

/**
 * A dataset file could not be written or read: `Io` (the disk), `Name` (a link whose name cannot
 * be a file name), `Corrupt` (not gzip), `Truncated` (the gzip stream ends early), `Json` (a line
 * is not JSON) or `Schema` (a record does not match the caller's schema). `file` is the local path,
 * or the URL without its query (a pre-signed link's query is a credential); `line` is the 1-based
 * line being read when it failed, where known.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const count = NodeDatasets.readDatasetFile("papers/part-0.jsonl.gz").pipe(
 *   Stream.runCount,
 *   Effect.catchTag("DatasetFileError", (e) => Effect.succeed(`${e.reason} in ${e.file} at line ${e.line}`)),
 *   Effect.provide(NodeDatasets.layer)
 * )
 * ```
 * @category errors
 * @since 0.1.0
 */
export class DatasetFileError extends Schema.TaggedError<DatasetFileError>()("DatasetFileError", {
  reason: Schema.Literal("Io", "Name", "Corrupt", "Truncated", "Json", "Schema"),
  file: Schema.String,
  line: Schema.optional(Schema.Number),
  message: Schema.String
}) {}

/**
 * Progress of a download, one file at a time (several files interleave when `concurrency` > 1).
 * `file` is the file's name (the last segment of its link), `path` where it is (or will be) on
 * disk, `bytesDone` the bytes on disk so far and `bytesTotal` the file's size, `undefined` only
 * when the host did not say.
 *
 * - `Started`: the host answered; `bytesDone` > 0 when a partial file is being resumed.
 * - `Progress`: a chunk was written.
 * - `Completed`: the file is complete under its final name.
 * - `Skipped`: the file was already complete on disk; nothing was fetched.
 *
 * @example
 * ```ts
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const line = NodeDatasets.DownloadEvent.$match({
 *   Started: (e) => `${e.file}: from ${e.bytesDone}`,
 *   Progress: (e) => `${e.file}: ${e.bytesDone}/${e.bytesTotal ?? "?"}`,
 *   Completed: (e) => `${e.file}: done`,
 *   Skipped: (e) => `${e.file}: already there`
 * })
 * ```
 * @category models
 * @since 0.1.0
 */
export type DownloadEvent = Data.TaggedEnum<{
  Started: DownloadState
  Progress: DownloadState
  Completed: DownloadState
  Skipped: DownloadState
}>

/**
 * The fields every {@link DownloadEvent} carries.
 *
 * @category models
 * @since 0.1.0
 */
export interface DownloadState {
  readonly file: string
  readonly path: string
  readonly bytesDone: number
  readonly bytesTotal: number | undefined
}

/**
 * Constructors, guards (`$is`) and `$match` for {@link DownloadEvent}.
 *
 * @example
 * ```ts
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const event = NodeDatasets.DownloadEvent.Skipped({ file: "a.gz", path: "/tmp/a.gz", bytesDone: 1, bytesTotal: 1 })
 * NodeDatasets.DownloadEvent.$is("Skipped")(event) // true
 * ```
 * @category constructors
 * @since 0.1.0
 */
export const DownloadEvent = Data.taggedEnum<DownloadEvent>()

/**
 * One record of a diff: `update` records are to be upserted (the whole new record), `delete`
 * records carry only the key (`corpusid` for the paper datasets).
 *
 * @category models
 * @since 0.1.0
 */
export interface DiffRecord {
  readonly op: "update" | "delete"
  readonly record: unknown
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

/**
 * Options of {@link downloadDataset} and {@link downloadFile}.
 *
 * @category options
 * @since 0.1.0
 */
export interface DownloadOptions {
  /** Where the files go; created if missing. Use one directory per release and dataset. */
  readonly directory: string
  /** How many files are fetched at once. Default 4. */
  readonly concurrency?: number | undefined
  /**
   * Retries of transient failures (5xx, 429, time-outs, dropped connections), each resuming where
   * the file stopped. Default {@link RetryPolicy.defaultPolicy}; `false` makes one attempt. The
   * policy starts afresh whenever bytes arrive, so a long file on a flaky link still completes.
   */
  readonly retry?: RetryPolicy.RetryPolicy | false | undefined
  /** How long the host may stay silent (before answering, or between chunks). Default 60 seconds. */
  readonly idleTimeout?: Duration.DurationInput | undefined
}

/**
 * Options of {@link readDatasetFile} for the URL case.
 *
 * @category options
 * @since 0.1.0
 */
export interface ReadOptions {
  /** How long the host may stay silent. Default 60 seconds. */
  readonly idleTimeout?: Duration.DurationInput | undefined
}

const defaultIdleTimeout = Duration.seconds(60)
const defaultConcurrency = 4

// ---------------------------------------------------------------------------------------------
// The file host
// ---------------------------------------------------------------------------------------------

/** A pre-signed link's query is its signature: keep it out of messages, logs and errors. */
const withoutQuery = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.origin}${parsed.pathname}`
  } catch {
    return url.replace(/[?#].*$/, "")
  }
}

const isUrl = (s: string): boolean => /^https?:\/\//i.test(s)

/**
 * The local name of a link: the last segment of its path, decoded; the query of a pre-signed link
 * is not part of the name. Names that could escape the directory are refused.
 *
 * @example
 * ```ts
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * NodeDatasets.fileNameOf("https://bucket.s3.amazonaws.com/staging/papers/part-0.jsonl.gz?X-Amz-Signature=abc")
 * // Either.right("part-0.jsonl.gz")
 * ```
 * @category utils
 * @since 0.1.0
 */
export const fileNameOf = (url: string): Either.Either<string, DatasetFileError> => {
  const fail = (why: string) =>
    Either.left(
      new DatasetFileError({ reason: "Name", file: withoutQuery(url), message: `${withoutQuery(url)}: ${why}` })
    )
  let pathname: string
  try {
    pathname = new URL(url).pathname
  } catch {
    return fail("not a URL")
  }
  const last = pathname.split("/").pop() ?? ""
  let name: string
  try {
    name = decodeURIComponent(last)
  } catch {
    return fail("its last path segment is not valid percent-encoding")
  }
  if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) {
    return fail(`its last path segment ${JSON.stringify(name)} cannot be a file name`)
  }
  return Either.right(name)
}

interface Target {
  readonly method: string
  readonly url: string
}

const statusError = (status: number, target: Target, body: string): S2Error => {
  const where = `${target.method} ${target.url}`
  const why = body.trim().slice(0, 200)
  const context = { status, ...target }
  if (status === 401 || status === 403) {
    return new Forbidden({
      message: `HTTP ${status} from the file host (${where}): the pre-signed link may have expired; ` +
        `fetch the links again. ${why}`,
      ...context
    })
  }
  if (status === 404) {
    return new ObjectNotFound({ message: `HTTP 404 from the file host (${where}): ${why}`, ...context })
  }
  if (status === 429) return new RateLimited({ message: `HTTP 429 from the file host (${where})`, ...context })
  if (status >= 500) {
    return new ServerError({ message: `HTTP ${status} from the file host (${where}): ${why}`, ...context })
  }
  if (status >= 400) {
    return new BadQueryParameters({ message: `HTTP ${status} from the file host (${where}): ${why}`, ...context })
  }
  return new TransportError({ message: `unexpected HTTP ${status} from the file host (${where})`, ...context })
}

const transportError = (error: HttpClientError.HttpClientError, target: Target): TransportError =>
  new TransportError({
    // The platform's message repeats the full URL, signature included; keep only the reason.
    message: `${target.method} ${target.url} failed: ${error.reason}${
      error.description === undefined ? "" : ` (${error.description})`
    }`,
    // Broken while the body was read: the host was there, so it gets the server-failure budget.
    ...(error._tag === "ResponseError" ? { reason: "cutShort" as const } : {}),
    ...target
  })

const timeoutError = (target: Target, idle: Duration.Duration): Timeout =>
  new Timeout({
    message: `the file host sent nothing for ${Duration.format(idle)} (${target.method} ${target.url})`,
    timeoutMillis: Duration.toMillis(idle),
    ...target
  })

/** Pre-signed storage may redirect (to a region, a CDN); a chain longer than this is a loop. */
const maxRedirects = 5

/** Ends the body after its first chunk at most, which aborts the request: nothing more is read. */
const discard = (response: HttpClientResponse.HttpClientResponse) => Effect.ignore(Stream.runHead(response.stream))

/** The next URL of a redirect, or the error that ends the chain. */
const redirectTarget = (
  response: HttpClientResponse.HttpClientResponse,
  url: string,
  target: Target,
  hops: number
): Either.Either<string, TransportError> => {
  const fail = (why: string) =>
    Either.left(
      new TransportError({
        message: `HTTP ${response.status} from the file host (${target.method} ${target.url}): ${why}`,
        status: response.status,
        ...target
      })
    )
  if (hops >= maxRedirects) return fail(`more than ${maxRedirects} redirects`)
  const location = response.headers["location"]
  if (location === undefined) return fail("a redirect without a location")
  try {
    const next = new URL(location, url)
    return next.protocol === "http:" || next.protocol === "https:"
      ? Either.right(next.href)
      : fail(`a redirect to a ${next.protocol} URL`)
  } catch {
    return fail("a redirect to an invalid location")
  }
}

/**
 * Sends one request to the file host, following up to {@link maxRedirects} redirects. Only the
 * headers given here are sent, to every hop: no API key (the links are pre-signed and on another
 * host), and `accept-encoding: identity` so that the bytes on disk are the stored `.gz` bytes
 * whatever the host's content negotiation.
 */
const fileRequest = (
  client: HttpClient.HttpClient,
  url: string,
  headers: Readonly<Record<string, string>>,
  idle: Duration.Duration,
  hops = 0
): Effect.Effect<{ readonly response: HttpClientResponse.HttpClientResponse; readonly target: Target }, S2Error> => {
  const target: Target = { method: "GET", url: withoutQuery(url) }
  return client.execute(
    HttpClientRequest.get(url).pipe(HttpClientRequest.setHeaders({ "accept-encoding": "identity", ...headers }))
  ).pipe(
    Effect.mapError((error) => transportError(error, target)),
    Effect.timeoutFail({ duration: idle, onTimeout: () => timeoutError(target, idle) }),
    Effect.flatMap((response) => {
      if (response.status < 300 || response.status >= 400 || response.status === 304) {
        return Effect.succeed({ response, target })
      }
      return Effect.zipRight(
        discard(response),
        Either.match(redirectTarget(response, url, target, hops), {
          onLeft: Effect.fail,
          onRight: (next) => fileRequest(client, next, headers, idle, hops + 1)
        })
      )
    })
  )
}

/** Enough of an error body for its message; a hostile host's endless one is not read further. */
const errorBodyBytes = 8 * 1024

/** Fails with the typed error of a non-2xx answer, after reading the start of its body. */
const failWithStatus = (response: HttpClientResponse.HttpClientResponse, target: Target) =>
  Effect.suspend(() => {
    const decoder = new TextDecoder()
    return Stream.runFoldWhile(
      response.stream,
      "",
      (text) => text.length < errorBodyBytes,
      (text, chunk) => text + decoder.decode(chunk.subarray(0, errorBodyBytes), { stream: true })
    )
  }).pipe(
    Effect.orElseSucceed(() => ""),
    Effect.flatMap((body) => Effect.fail(statusError(response.status, target, body)))
  )

const bodyOf = (
  response: HttpClientResponse.HttpClientResponse,
  target: Target,
  idle: Duration.Duration
): Stream.Stream<Uint8Array, S2Error> =>
  response.stream.pipe(
    Stream.mapError((error) => transportError(error, target)),
    // Per pull, so this bounds silence between chunks, not the length of a large download.
    Stream.timeoutFail(() => timeoutError(target, idle), idle)
  )

/** `bytes a-b/total` or `bytes * /total`. */
const parseContentRange = (
  header: string | undefined
): { readonly start: number | undefined; readonly total: number | undefined } | undefined => {
  if (header === undefined) return undefined
  const m = /^bytes\s+(?:(\d+)-\d+|\*)\/(\d+|\*)$/.exec(header.trim())
  if (m === null) return undefined
  return {
    start: m[1] === undefined ? undefined : Number(m[1]),
    total: m[2] === undefined || m[2] === "*" ? undefined : Number(m[2])
  }
}

const contentLength = (response: HttpClientResponse.HttpClientResponse): number | undefined => {
  const value = response.headers["content-length"]
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined
}

/**
 * The retry policy takes {@link S2Error}s; a disk error is not transient, so it ends the retries
 * rather than being fed to a schedule that cannot judge it.
 */
const onlyS2Errors = <E>(policy: RetryPolicy.RetryPolicy): Schedule.Schedule<unknown, S2Error | E> =>
  Schedule.makeWithState(
    policy.initial,
    (now, input: S2Error | E, state) =>
      isS2Error(input)
        ? policy.step(now, input, state)
        : Effect.succeed([state, undefined, ScheduleDecision.done] as const)
  )

// ---------------------------------------------------------------------------------------------
// Downloads
// ---------------------------------------------------------------------------------------------

const ioError = (file: string, what: string) => (error: { readonly message: string }) =>
  new DatasetFileError({ reason: "Io", file, message: `${what} ${file}: ${error.message}` })

/** The outcome of asking the host for the rest of a file. */
type Answer =
  | {
    readonly _tag: "Body"
    readonly body: Stream.Stream<Uint8Array, S2Error>
    readonly from: number
    readonly total: number | undefined
  }
  | { readonly _tag: "AlreadyComplete"; readonly total: number }

const validate = (options: DownloadOptions) =>
  Effect.gen(function*() {
    const concurrency = options.concurrency ?? defaultConcurrency
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      return yield* new BadQueryParameters({
        message: `concurrency ${concurrency} is invalid: give a whole number of files, 1 or more`,
        parameter: "concurrency"
      })
    }
    const idle = Duration.decodeUnknown(options.idleTimeout ?? defaultIdleTimeout)
    if (idle._tag === "None" || !Duration.greaterThan(idle.value, Duration.zero)) {
      return yield* new BadQueryParameters({
        message: `idleTimeout ${String(options.idleTimeout)} is invalid: give a positive duration such as "60 seconds"`,
        parameter: "idleTimeout"
      })
    }
    return { concurrency, idle: idle.value, retry: options.retry ?? Retry.defaultPolicy }
  })

const fetchOne = (
  url: string,
  directory: string,
  settings: { readonly idle: Duration.Duration; readonly retry: RetryPolicy.RetryPolicy | false }
): Stream.Stream<DownloadEvent, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem> =>
  Stream.unwrap(Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    // No tracing span: it would record the full link, signature included.
    const client = (yield* HttpClient.HttpClient).pipe(HttpClient.withTracerDisabledWhen(() => true))
    const file = yield* fileNameOf(url)
    const path = NodePath.join(directory, file)
    const part = `${path}.part`
    const sizeOf = (p: string) =>
      fs.stat(p).pipe(
        Effect.map((info) => Number(info.size)),
        Effect.catchIf((e) => e._tag === "SystemError" && e.reason === "NotFound", () => Effect.succeed(0)),
        Effect.mapError(ioError(p, "cannot read the size of"))
      )

    // A file under its final name was renamed there only once complete: nothing to fetch.
    if (yield* fs.exists(path).pipe(Effect.mapError(ioError(path, "cannot check")))) {
      const size = yield* sizeOf(path)
      return Stream.make(DownloadEvent.Skipped({ file, path, bytesDone: size, bytesTotal: size }))
    }

    const ask = (from: number): Effect.Effect<Answer, S2Error | DatasetFileError> =>
      Effect.gen(function*() {
        const headers: Record<string, string> = from > 0 ? { range: `bytes=${from}-` } : {}
        const { response, target } = yield* fileRequest(client, url, headers, settings.idle)
        const range = parseContentRange(response.headers["content-range"])
        if (response.status === 206 && range?.start === from) {
          return { _tag: "Body", body: bodyOf(response, target, settings.idle), from, total: range.total } as const
        }
        if (response.status === 200) {
          // The host ignored the range (or none was sent): start from scratch.
          return {
            _tag: "Body",
            body: bodyOf(response, target, settings.idle),
            from: 0,
            total: contentLength(response)
          } as const
        }
        if (response.status === 416 && from > 0) {
          yield* response.text.pipe(Effect.ignore)
          // Nothing after `from`: the partial file may already be whole (stopped before the rename).
          if (range?.total === from) return { _tag: "AlreadyComplete", total: from } as const
          yield* fs.remove(part).pipe(Effect.mapError(ioError(part, "cannot remove")))
          return yield* ask(0)
        }
        if (response.status === 206) {
          // A range other than the one asked for: the partial file cannot be trusted to line up.
          yield* response.stream.pipe(Stream.runDrain, Effect.ignore)
          yield* fs.remove(part).pipe(Effect.mapError(ioError(part, "cannot remove")))
          return yield* ask(0)
        }
        return yield* failWithStatus(response, target)
      })

    const finish = (total: number | undefined): Effect.Effect<DownloadEvent, S2Error | DatasetFileError> =>
      Effect.gen(function*() {
        const size = yield* sizeOf(part)
        if (total !== undefined && size !== total) {
          // Retryable: the next attempt resumes from what is on disk.
          return yield* new TransportError({
            message: `the body of ${withoutQuery(url)} was cut short: ${size} of ${total} bytes`,
            reason: "cutShort",
            method: "GET",
            url: withoutQuery(url)
          })
        }
        yield* fs.rename(part, path).pipe(Effect.mapError(ioError(part, "cannot rename")))
        return DownloadEvent.Completed({ file, path, bytesDone: size, bytesTotal: size })
      })

    // Only the first answer announces the file; later attempts report bytes, and an element is
    // what restarts the retry schedule, so a retry that gets nowhere does not reset it.
    let announced = false
    const attempt: Stream.Stream<DownloadEvent, S2Error | DatasetFileError> = Stream.unwrap(Effect.gen(function*() {
      const onDisk = yield* sizeOf(part)
      const answer = yield* ask(onDisk)
      const total = answer.total
      const from = answer._tag === "AlreadyComplete" ? answer.total : answer.from
      const start = announced
        ? Stream.empty
        : Stream.make(DownloadEvent.Started({ file, path, bytesDone: from, bytesTotal: total }))
      announced = true
      if (answer._tag === "AlreadyComplete") return Stream.concat(start, Stream.fromEffect(finish(total)))
      const write = Stream.unwrapScoped(Effect.gen(function*() {
        const handle = yield* fs.open(part, { flag: answer.from > 0 ? "a" : "w" }).pipe(
          Effect.mapError(ioError(part, "cannot open"))
        )
        let done = answer.from
        return answer.body.pipe(
          Stream.mapEffect((chunk) =>
            handle.writeAll(chunk).pipe(
              Effect.mapError(ioError(part, "cannot write")),
              Effect.map(() => {
                done += chunk.length
                return DownloadEvent.Progress({ file, path, bytesDone: done, bytesTotal: total })
              })
            )
          ),
          // Flushed before the rename, so a crash never leaves a short file under the final name.
          Stream.concat(Stream.execute(handle.sync.pipe(Effect.mapError(ioError(part, "cannot flush")))))
        )
      }))
      return Stream.concat(start, Stream.concat(write, Stream.fromEffect(finish(total))))
    }))
    return settings.retry === false ? attempt : Stream.retry(attempt, onlyS2Errors(settings.retry))
  }))

/**
 * Downloads one file of a dataset (a link from `getDatasetDownloadLinks` or a diff) into
 * `directory`, under the last segment of the link's path. The file is written as `<name>.part`
 * and renamed once complete; a `.part` left by an interrupted run is resumed with an HTTP `Range`
 * request (a host answering 200 instead restarts it), and a file already under its final name is
 * skipped without a request. Transient failures are retried with `retry`, each time resuming.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const url = "https://files.example/staging/2025-01-07/papers/part-0.jsonl.gz?X-Amz-Signature=abc"
 * NodeDatasets.downloadFile(url, { directory: "data/2025-01-07/papers" }).pipe(
 *   Stream.runLast,
 *   Effect.provide(NodeDatasets.layer),
 *   Effect.runPromise
 * )
 * ```
 * @category downloads
 * @since 0.1.0
 */
export const downloadFile = (
  url: string,
  options: DownloadOptions
): Stream.Stream<
  DownloadEvent,
  S2Error | DatasetFileError,
  HttpClient.HttpClient | FileSystem.FileSystem
> =>
  Stream.unwrap(Effect.gen(function*() {
    const settings = yield* validate(options)
    const fs = yield* FileSystem.FileSystem
    yield* fs.makeDirectory(options.directory, { recursive: true }).pipe(
      Effect.mapError(ioError(options.directory, "cannot create the directory"))
    )
    return fetchOne(url, options.directory, settings)
  }))

/**
 * Downloads every file of a dataset of a release into `options.directory`, `concurrency` files at
 * a time, as a `Stream` of {@link DownloadEvent}s for a progress display; run it to the end
 * (`Stream.runDrain`) to download. The links come from `getDatasetDownloadLinks` (so an API key is
 * needed); the files are fetched from the file host without it. See {@link downloadFile} for
 * resuming, skipping and retries. Interrupting the stream stops every download and leaves the
 * `.part` files for the next run to resume.
 *
 * @example
 * ```ts
 * import { Effect, Layer, Stream } from "effect"
 * import { NodeDatasets, NodeSemanticScholar } from "@s2-effect/node"
 *
 * const program = NodeDatasets.downloadDataset("latest", "abstracts", { directory: "data/abstracts", concurrency: 2 }).pipe(
 *   Stream.filter(NodeDatasets.DownloadEvent.$is("Completed")),
 *   Stream.runForEach((e) => Effect.log(`${e.file}: ${e.bytesDone} bytes`))
 * )
 * program.pipe(
 *   Effect.provide(Layer.merge(NodeSemanticScholar.layerConfig(), NodeDatasets.layer)),
 *   Effect.runPromise
 * )
 * ```
 * @category downloads
 * @since 0.1.0
 */
export const downloadDataset = (
  releaseId: string,
  datasetName: string,
  options: DownloadOptions
): Stream.Stream<
  DownloadEvent,
  S2Error | DatasetFileError,
  SemanticScholar | HttpClient.HttpClient | FileSystem.FileSystem
> =>
  Stream.unwrap(Effect.gen(function*() {
    const settings = yield* validate(options)
    const s2 = yield* SemanticScholar
    const dataset = yield* s2.getDatasetDownloadLinks(releaseId, datasetName)
    // Two links with one name would write to one file: refuse before fetching anything.
    const seen = new Map<string, string>()
    for (const url of dataset.files) {
      const name = yield* fileNameOf(url)
      const other = seen.get(name)
      if (other !== undefined) {
        return yield* new DatasetFileError({
          reason: "Name",
          file: withoutQuery(url),
          message: `${withoutQuery(url)} and ${other} would both be saved as ${name}`
        })
      }
      seen.set(name, withoutQuery(url))
    }
    const fs = yield* FileSystem.FileSystem
    yield* fs.makeDirectory(options.directory, { recursive: true }).pipe(
      Effect.mapError(ioError(options.directory, "cannot create the directory"))
    )
    return Stream.fromIterable(dataset.files).pipe(
      Stream.flatMap((url) => fetchOne(url, options.directory, settings), { concurrency: settings.concurrency })
    )
  }))

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/**
 * Splits text into lines and parses each as JSON, counting lines. Each chunk is decoded once with
 * a streaming decoder (a multi-byte character cut between two chunks is completed by the next),
 * which is much cheaper than decoding line by line. Mutable on purpose: one per run, fed chunk by
 * chunk.
 */
class LineParser<A> {
  line = 0
  private rest = ""
  private readonly decoder = new TextDecoder("utf-8")
  constructor(
    readonly file: string,
    readonly decode: (json: unknown) => Either.Either<A, ParseResult.ParseError>
  ) {}

  private parse(raw: string, out: Array<A>): DatasetFileError | undefined {
    this.line++
    // A Windows line ending or an empty line (e.g. a trailing newline) carries no record.
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw
    if (text.length === 0) return undefined
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (e) {
      return new DatasetFileError({
        reason: "Json",
        file: this.file,
        line: this.line,
        message: `${this.file}, line ${this.line}: not JSON (${e instanceof Error ? e.message : String(e)}): ${
          text.length > 120 ? `${text.slice(0, 120)}…` : text
        }`
      })
    }
    const decoded = this.decode(json)
    if (Either.isLeft(decoded)) {
      return new DatasetFileError({
        reason: "Schema",
        file: this.file,
        line: this.line,
        message: `${this.file}, line ${this.line}: the record does not match the schema: ${
          ParseResult.TreeFormatter.formatIssueSync(decoded.left.issue)
        }`
      })
    }
    out.push(decoded.right)
    return undefined
  }

  private lines(text: string): { readonly records: Array<A>; readonly error: DatasetFileError | undefined } {
    const records: Array<A> = []
    let start = 0
    let at = text.indexOf("\n")
    while (at >= 0) {
      const error = this.parse(text.slice(start, at), records)
      if (error !== undefined) return { records, error }
      start = at + 1
      at = text.indexOf("\n", start)
    }
    this.rest = text.slice(start)
    return { records, error: undefined }
  }

  push(chunk: Uint8Array): { readonly records: Array<A>; readonly error: DatasetFileError | undefined } {
    return this.lines(this.rest + this.decoder.decode(chunk, { stream: true }))
  }

  end(): { readonly records: Array<A>; readonly error: DatasetFileError | undefined } {
    const { records, error } = this.lines(this.rest + this.decoder.decode())
    if (error !== undefined || this.rest.length === 0) return { records, error }
    const last = this.rest
    this.rest = ""
    return { records, error: this.parse(last, records) }
  }
}

const emit = <A>(
  { error, records }: { readonly records: Array<A>; readonly error: DatasetFileError | undefined }
): Stream.Stream<A, DatasetFileError> => {
  const chunk = Stream.fromChunk(Chunk.unsafeFromArray(records))
  return error === undefined ? chunk : Stream.concat(chunk, Stream.fail(error))
}

/** A zlib failure, told apart: a stream that stops early is truncated, anything else is corrupt. */
class GunzipFailure extends Data.TaggedError("GunzipFailure")<{ readonly cause: unknown }> {}

const gunzipError = (file: string, line: number, cause: unknown): DatasetFileError => {
  const code = typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined
  const detail = cause instanceof Error ? cause.message : String(cause)
  const truncated = code === "Z_BUF_ERROR"
  return new DatasetFileError({
    reason: truncated ? "Truncated" : "Corrupt",
    file,
    line,
    message: truncated
      ? `${file} is truncated: the gzip stream ends early, in line ${line} (${detail})`
      : `${file} is not a valid gzip file (${detail}), at line ${line}`
  })
}

const records = <A, E, R>(
  bytes: Stream.Stream<Uint8Array, E, R>,
  file: string,
  decode: (json: unknown) => Either.Either<A, ParseResult.ParseError>
): Stream.Stream<A, E | DatasetFileError, R> =>
  Stream.suspend(() => {
    const parser = new LineParser<A>(file, decode)
    // When the source fails, the gunzip stream is ended early and reports that too; the source's
    // error is the one that says what happened, so it is kept and wins.
    let sourceError: Option.Option<E> = Option.none()
    return bytes.pipe(
      Stream.tapError((e) => Effect.sync(() => (sourceError = Option.some(e)))),
      NodeStream.pipeThroughDuplex(
        () => Zlib.createGunzip({ chunkSize: 256 * 1024 }),
        (cause) => new GunzipFailure({ cause })
      ),
      Stream.flatMap((chunk) => emit(parser.push(chunk))),
      Stream.concat(Stream.suspend(() => emit(parser.end()))),
      // Mapped here, downstream of the parser, so the line count covers every line before the break.
      Stream.mapError((e): E | DatasetFileError =>
        Option.getOrElse(
          sourceError,
          () => e instanceof GunzipFailure ? gunzipError(file, parser.line + 1, e.cause) : e
        )
      )
    )
  })

const isSchemaArgument = <A, I>(u: Schema.Schema<A, I> | ReadOptions | undefined): u is Schema.Schema<A, I> =>
  Schema.isSchema(u)

const decoderOf = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknownEither(schema)

/**
 * Decodes a gzipped JSON-lines byte stream from any source into records, in constant memory: the
 * bytes are gunzipped, split on newlines and each line parsed (and decoded with `schema` when
 * given). A corrupt or truncated gzip stream, a line that is not JSON and a record that does not
 * match fail with a {@link DatasetFileError} naming `file` and the line; the records before it
 * are emitted first.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { gzipSync } from "node:zlib"
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const bytes = Stream.make(new Uint8Array(gzipSync("{\"corpusid\":1}\n{\"corpusid\":2}\n")))
 * NodeDatasets.gzipJsonLines(bytes, "inline").pipe(Stream.runCollect, Effect.runPromise)
 * ```
 * @category reading
 * @since 0.1.0
 */
export const gzipJsonLines: {
  <E, R>(bytes: Stream.Stream<Uint8Array, E, R>, file: string): Stream.Stream<unknown, E | DatasetFileError, R>
  <A, I, E, R>(
    bytes: Stream.Stream<Uint8Array, E, R>,
    file: string,
    schema: Schema.Schema<A, I>
  ): Stream.Stream<A, E | DatasetFileError, R>
} = <A, I, E, R>(
  bytes: Stream.Stream<Uint8Array, E, R>,
  file: string,
  schema?: Schema.Schema<A, I>
): Stream.Stream<unknown, E | DatasetFileError, R> =>
  schema === undefined ? records(bytes, file, Either.right) : records(bytes, file, decoderOf(schema))

/**
 * Reads a gzipped JSON-lines dataset file, from a local path or an http(s) URL (a pre-signed link
 * from `getDatasetDownloadLinks` or a diff), as a `Stream` of records, in constant memory whatever
 * the file's size. With a `schema`, each record is decoded with it. See {@link gzipJsonLines} for
 * the failures; an HTTP failure is the matching {@link S2Error} (no retry: a read cannot resume).
 *
 * @example
 * ```ts
 * import { Effect, Schema, Stream } from "effect"
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const Abstract = Schema.Struct({ corpusid: Schema.Number, abstract: Schema.NullOr(Schema.String) })
 * NodeDatasets.readDatasetFile("data/abstracts/part-0.jsonl.gz", Abstract).pipe(
 *   Stream.filter((a) => a.abstract !== null),
 *   Stream.runCount,
 *   Effect.provide(NodeDatasets.layer),
 *   Effect.runPromise
 * )
 * ```
 * @category reading
 * @since 0.1.0
 */
export const readDatasetFile: {
  (
    pathOrUrl: string,
    options?: ReadOptions
  ): Stream.Stream<unknown, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem>
  <A, I>(
    pathOrUrl: string,
    schema: Schema.Schema<A, I>,
    options?: ReadOptions
  ): Stream.Stream<A, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem>
} = <A, I>(
  pathOrUrl: string,
  schemaOrOptions?: Schema.Schema<A, I> | ReadOptions,
  maybeOptions?: ReadOptions
): Stream.Stream<unknown, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem> => {
  const schema = isSchemaArgument(schemaOrOptions) ? schemaOrOptions : undefined
  const options = isSchemaArgument(schemaOrOptions) ? maybeOptions : schemaOrOptions
  const file = isUrl(pathOrUrl) ? withoutQuery(pathOrUrl) : pathOrUrl
  const bytes: Stream.Stream<
    Uint8Array,
    S2Error | DatasetFileError,
    HttpClient.HttpClient | FileSystem.FileSystem
  > = isUrl(pathOrUrl)
    ? Stream.unwrap(Effect.gen(function*() {
      const idle = Duration.decode(options?.idleTimeout ?? defaultIdleTimeout)
      const client = (yield* HttpClient.HttpClient).pipe(HttpClient.withTracerDisabledWhen(() => true))
      const { response, target } = yield* fileRequest(client, pathOrUrl, {}, idle)
      if (response.status !== 200) return yield* failWithStatus(response, target)
      return bodyOf(response, target, idle)
    }))
    : Stream.unwrap(
      Effect.map(
        FileSystem.FileSystem,
        (fs) => fs.stream(pathOrUrl, { chunkSize: 256 * 1024 }).pipe(Stream.mapError(ioError(pathOrUrl, "cannot read")))
      )
    )
  return schema === undefined ? records(bytes, file, Either.right) : records(bytes, file, decoderOf(schema))
}

/**
 * The records of a diff as a `Stream` of `{ op, record }`, in the order they must be applied:
 * for each step of `diff.diffs` in turn, every record of its `update_files` as `update`, then
 * every record of its `delete_files` as `delete` (only the key, `corpusid` for paper datasets).
 * The files are read straight from their links (see {@link readDatasetFile}); what to do with
 * each record is the caller's: see the SQLite example in `docs/datasets.md`.
 *
 * @example
 * ```ts
 * import { Effect, Layer, Schema, Stream } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 * import { NodeDatasets, NodeSemanticScholar } from "@s2-effect/node"
 *
 * const Key = Schema.Struct({ corpusid: Schema.Number })
 * const mirror = new Map<number, unknown>()
 * const program = Effect.gen(function*() {
 *   const s2 = yield* SemanticScholar
 *   const diff = yield* s2.getDatasetDiffs("papers", "2025-01-07", "latest")
 *   yield* NodeDatasets.diffRecords(diff).pipe(
 *     Stream.runForEach(({ op, record }) =>
 *       Effect.map(Schema.decodeUnknown(Key)(record), ({ corpusid }) => {
 *         if (op === "update") mirror.set(corpusid, record)
 *         else mirror.delete(corpusid)
 *       })
 *     )
 *   )
 * })
 * program.pipe(Effect.provide(Layer.merge(NodeSemanticScholar.layerConfig(), NodeDatasets.layer)), Effect.runPromise)
 * ```
 * @category reading
 * @since 0.1.0
 */
export const diffRecords = (
  diff: DatasetDiff,
  options?: ReadOptions
): Stream.Stream<DiffRecord, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem> =>
  Stream.fromIterable(diff.diffs).pipe(
    Stream.flatMap((step) =>
      Stream.concat(
        Stream.fromIterable(step.update_files).pipe(
          Stream.flatMap((url) => readDatasetFile(url, options ?? {})),
          Stream.map((record): DiffRecord => ({ op: "update", record }))
        ),
        Stream.fromIterable(step.delete_files).pipe(
          Stream.flatMap((url) => readDatasetFile(url, options ?? {})),
          Stream.map((record): DiffRecord => ({ op: "delete", record }))
        )
      )
    )
  )

/**
 * What the functions of this module need besides `SemanticScholar`: the file system and a plain
 * undici `HttpClient` for the file host (separate from the API client's, which holds the key).
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * NodeDatasets.readDatasetFile("part-0.jsonl.gz").pipe(Stream.runCount, Effect.provide(NodeDatasets.layer))
 * ```
 * @category layers
 * @since 0.1.0
 */
export const layer: Layer.Layer<HttpClient.HttpClient | FileSystem.FileSystem> = Layer.merge(
  NodeHttpClient.layerUndici,
  NodeFileSystem.layer
)
