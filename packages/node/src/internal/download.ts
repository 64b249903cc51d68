/**
 * Downloads of dataset files: each file is written as `<name>.part`, resumed with a `Range` request
 * after an interruption or a transient failure, and renamed once complete. One attempt is a stream
 * of events; the retry loop around it resumes from what is on disk each time.
 */
import type { InvalidOptions, RetryPolicy, S2Error } from "@s2-effect/core"
import {
  isS2Error,
  RetryPolicy as Retry,
  SemanticScholar,
  TransportError,
  UnexpectedStatus,
  Validate
} from "@s2-effect/core"
import * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import type * as PlatformError from "effect/PlatformError"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as NodePath from "node:path"
import type { DownloadEvent as Event, DownloadOptions } from "../DatasetDownload.js"
import { DatasetFileError } from "../DatasetFileError.js"
import * as FileHost from "./fileHost.js"

export const DownloadEvent = Data.taggedEnum<Event>()

const defaultConcurrency = 4

type Failure = S2Error | DatasetFileError
type Needs = HttpClient.HttpClient | FileSystem.FileSystem

export const fileNameOf = (url: string): Result.Result<string, DatasetFileError> => {
  const shown = FileHost.withoutQuery(url)
  const fail = (why: string) =>
    Result.fail(new DatasetFileError({ reason: "Name", file: shown, message: `${shown}: ${why}` }))
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
  return Result.succeed(name)
}

interface Settings {
  readonly concurrency: number
  readonly idle: Duration.Duration
  readonly retry: RetryPolicy.RetryPolicy | false
}

/** The options checked before anything is sent: bad ones are the caller's settings, not a request. */
const validate = (options: DownloadOptions): Effect.Effect<Settings, InvalidOptions> =>
  Effect.gen(function*() {
    const concurrency = yield* Effect.fromResult(Result.mapError(
      Validate.wholeNumber("concurrency", options.concurrency ?? defaultConcurrency, { min: 1 }),
      Validate.asOption
    ))
    const idle = yield* Effect.fromResult(FileHost.idleTimeout(options.idleTimeout))
    return { concurrency, idle, retry: options.retry ?? Retry.defaultPolicy }
  })

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

/** The outcome of asking the host for the rest of a file. */
type Answer = Data.TaggedEnum<{
  /** The bytes from `from` on. */
  Body: { readonly body: Stream.Stream<Uint8Array, S2Error>; readonly from: number; readonly total: number | undefined }
  /** Nothing after `from`: the partial file is whole (stopped before the rename). */
  AlreadyComplete: { readonly total: number }
  /** The partial file cannot be trusted to line up with the host's bytes: start it again. */
  Restart: { readonly why: string }
}>
const Answer = Data.taggedEnum<Answer>()
type Found = Data.TaggedEnum.Value<Answer, "Body" | "AlreadyComplete">
const found = (answer: Answer): answer is Found => answer._tag !== "Restart"

/** One file: where it goes, and how to reach it. */
interface Job {
  readonly url: string
  readonly file: string
  readonly path: string
  readonly part: string
  readonly settings: Settings
  readonly client: HttpClient.HttpClient
  readonly fs: FileSystem.FileSystem
}

const notFound = (e: PlatformError.PlatformError) => e.reason._tag === "NotFound"

const sizeOf = (fs: FileSystem.FileSystem, path: string) =>
  fs.stat(path).pipe(
    Effect.map((info) => Number(info.size)),
    Effect.catchIf(notFound, () => Effect.succeed(0)),
    Effect.mapError(FileHost.ioError(path, "cannot read the size of"))
  )

/**
 * The size of the partial file, which must be a file of ours: a symbolic link there (planted, or
 * left by another tool) is refused rather than resumed, so nothing is ever written through it.
 */
const partSize = Effect.fn("NodeDatasets.partSize")(function*(job: Job) {
  const info = yield* job.fs.lstat(job.part).pipe(
    Effect.catchIf(notFound, () => Effect.undefined),
    Effect.mapError(FileHost.ioError(job.part, "cannot read the size of"))
  )
  if (info === undefined) return 0
  if (info.type === "SymbolicLink") {
    return yield* new DatasetFileError({
      reason: "Io",
      file: job.part,
      message: `${job.part} is a symbolic link: a download never writes through one; remove it to download again`
    })
  }
  return Number(info.size)
})

/** Asks once for the bytes from `from` on, and reads the answer. */
const askOnce = (job: Job, from: number): Effect.Effect<Answer, S2Error> =>
  Effect.gen(function*() {
    const headers: Record<string, string> = from > 0 ? { range: `bytes=${from}-` } : {}
    const { response, target } = yield* FileHost.request(job.client, job.url, headers, job.settings.idle)
    const range = parseContentRange(response.headers["content-range"])
    const body = () => FileHost.bodyOf(response, target, job.settings.idle)
    if (response.status === 206 && range?.start === from) return Answer.Body({ body: body(), from, total: range.total })
    // The host ignored the range (or none was sent): start from scratch.
    if (response.status === 200) return Answer.Body({ body: body(), from: 0, total: contentLength(response) })
    if (response.status === 416 && from > 0) {
      yield* response.text.pipe(Effect.ignore)
      return range?.total === from
        ? Answer.AlreadyComplete({ total: from })
        : Answer.Restart({ why: `nothing after byte ${from} of a file that is not that long` })
    }
    if (response.status === 206) {
      yield* response.stream.pipe(Stream.runDrain, Effect.ignore)
      return Answer.Restart({ why: "a range other than the one asked for" })
    }
    return yield* FileHost.failWithStatus(response, target)
  })

/**
 * The host's answer for the bytes after `from`. A partial file that does not line up is removed and
 * the file asked for whole, once: a host that still answers with another range is broken.
 */
const ask = (job: Job, from: number): Effect.Effect<Found, Failure> =>
  Effect.flatMap(askOnce(job, from), (answer) =>
    found(answer) ? Effect.succeed(answer) : job.fs.remove(job.part).pipe(
      Effect.catchIf(notFound, () => Effect.void),
      Effect.mapError(FileHost.ioError(job.part, "cannot remove")),
      Effect.andThen(askOnce(job, 0)),
      Effect.filterOrFail(found, (again) =>
        new UnexpectedStatus({
          message: `the file host (GET ${FileHost.withoutQuery(job.url)}) answered the whole file with ${
            again._tag === "Restart" ? again.why : "no usable range"
          }`,
          status: 206,
          method: "GET",
          url: FileHost.withoutQuery(job.url)
        }))
    ))

/** Checks the size on disk and moves the partial file to its final name. */
const finish = (job: Job, total: number | undefined): Effect.Effect<Event, Failure> =>
  Effect.gen(function*() {
    const size = yield* sizeOf(job.fs, job.part)
    if (total !== undefined && size !== total) {
      // Retryable: the next attempt resumes from what is on disk.
      return yield* new TransportError({
        message: `the body of ${FileHost.withoutQuery(job.url)} was cut short: ${size} of ${total} bytes`,
        reason: "cutShort",
        method: "GET",
        url: FileHost.withoutQuery(job.url)
      })
    }
    yield* job.fs.rename(job.part, job.path).pipe(Effect.mapError(FileHost.ioError(job.part, "cannot rename")))
    return DownloadEvent.Completed({ file: job.file, path: job.path, bytesDone: size, bytesTotal: size })
  })

/** Appends the body to the partial file, one `Progress` per chunk, flushed at the end. */
const write = (job: Job, body: Stream.Stream<Uint8Array, S2Error>, from: number, total: number | undefined) =>
  Stream.unwrap(Effect.gen(function*() {
    // `noFollow`: a symbolic link put in place of the partial file since it was checked is not
    // followed; the open fails instead of writing wherever it points.
    const handle = yield* job.fs.open(job.part, { flag: from > 0 ? "a" : "w", noFollow: true }).pipe(
      Effect.mapError(FileHost.ioError(job.part, "cannot open"))
    )
    return body.pipe(
      Stream.mapAccumEffect(() => from, (done, chunk) =>
        handle.writeAll(chunk).pipe(
          Effect.mapError(FileHost.ioError(job.part, "cannot write")),
          Effect.as(
            [
              done + chunk.length,
              [DownloadEvent.Progress({
                file: job.file,
                path: job.path,
                bytesDone: done + chunk.length,
                bytesTotal: total
              })]
            ] as const
          )
        )),
      // Flushed before the rename, so a crash never leaves a short file under the final name.
      Stream.concat(
        Stream.fromEffectDrain(handle.sync.pipe(Effect.mapError(FileHost.ioError(job.part, "cannot flush"))))
      )
    )
  }))

/** One attempt: ask for what is missing, announce where it starts, write it, finish. */
const attempt = (job: Job): Stream.Stream<Event, Failure> =>
  Stream.unwrap(Effect.gen(function*() {
    const answer = yield* ask(job, yield* partSize(job))
    const from = answer._tag === "Body" ? answer.from : answer.total
    const started = DownloadEvent.Started({ file: job.file, path: job.path, bytesDone: from, bytesTotal: answer.total })
    const rest = answer._tag === "Body" ? write(job, answer.body, answer.from, answer.total) : Stream.empty
    return Stream.concat(Stream.make(started), Stream.concat(rest, Stream.fromEffect(finish(job, answer.total))))
  }))

/** The first `Started` of a file only: a resumed attempt reports bytes, not a new start. */
const startedOnce = <E, R>(events: Stream.Stream<Event, E, R>): Stream.Stream<Event, E, R> =>
  events.pipe(
    Stream.mapAccum(() => false, (announced, event): readonly [boolean, ReadonlyArray<Event>] =>
      event._tag !== "Started"
        ? [announced, [event]]
        : [true, announced ? [] : [event]])
  )

/**
 * Attempts until one completes or the policy gives up, each resuming from what is on disk: the
 * loop of `Stream.retry`, except that the policy starts afresh only when bytes arrive (so a long
 * file on a flaky link still completes, and a retry that gets nowhere does not reset it). The
 * policy takes {@link S2Error}s; a disk error is not transient, so it ends the retries rather than
 * being fed to a schedule that cannot judge it.
 */
const attempts = (job: Job, policy: RetryPolicy.RetryPolicy): Stream.Stream<Event, Failure> =>
  Stream.unwrap(Effect.gen(function*() {
    // A step of the policy, sleeping its wait; a new one is a policy started afresh.
    let step = yield* Schedule.toStepWithSleep(policy)
    let progressed = false
    const retry = (error: S2Error) =>
      Effect.gen(function*() {
        if (progressed) {
          progressed = false
          step = yield* Schedule.toStepWithSleep(policy)
        }
        return yield* step(error)
      })
    const loop: Stream.Stream<Event, Failure> = attempt(job).pipe(
      Stream.tap((event) =>
        Effect.sync(() => {
          if (event._tag === "Progress") progressed = true
        })
      ),
      Stream.catch((error) =>
        isS2Error(error)
          ? Stream.unwrap(Effect.match(retry(error), { onFailure: () => Stream.fail(error), onSuccess: () => loop }))
          : Stream.fail(error)
      )
    )
    return loop
  }))

const fetchOne = (url: string, directory: string, settings: Settings): Stream.Stream<Event, Failure, Needs> =>
  Stream.unwrap(Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const client = yield* HttpClient.HttpClient
    const file = yield* Effect.fromResult(fileNameOf(url))
    const path = NodePath.join(directory, file)
    // A file under its final name was renamed there only once complete: nothing to fetch.
    if (yield* fs.exists(path).pipe(Effect.mapError(FileHost.ioError(path, "cannot check")))) {
      const size = yield* sizeOf(fs, path)
      return Stream.make(DownloadEvent.Skipped({ file, path, bytesDone: size, bytesTotal: size }))
    }
    const job: Job = { url, file, path, part: `${path}.part`, settings, client, fs }
    return startedOnce(settings.retry === false ? attempt(job) : attempts(job, settings.retry))
  }))

const makeDirectory = (directory: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    fs.makeDirectory(directory, { recursive: true }).pipe(
      Effect.mapError(FileHost.ioError(directory, "cannot create the directory"))
    ))

export const downloadFile = (url: string, options: DownloadOptions): Stream.Stream<Event, Failure, Needs> =>
  Stream.unwrap(Effect.gen(function*() {
    const settings = yield* validate(options)
    yield* makeDirectory(options.directory)
    return fetchOne(url, options.directory, settings)
  }))

/** Two links with one name would write to one file: refused before anything is fetched. */
const checkNames = (files: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const seen = new Map<string, string>()
    for (const url of files) {
      const name = yield* Effect.fromResult(fileNameOf(url))
      const other = seen.get(name)
      const shown = FileHost.withoutQuery(url)
      if (other !== undefined) {
        return yield* new DatasetFileError({
          reason: "Name",
          file: shown,
          message: `${shown} and ${other} would both be saved as ${name}`
        })
      }
      seen.set(name, shown)
    }
  })

export const downloadDataset = (
  releaseId: string,
  datasetName: string,
  options: DownloadOptions
): Stream.Stream<Event, Failure, SemanticScholar | Needs> =>
  Stream.unwrap(Effect.gen(function*() {
    const settings = yield* validate(options)
    const s2 = yield* SemanticScholar
    const dataset = yield* s2.getDatasetDownloadLinks(releaseId, datasetName)
    yield* checkNames(dataset.files)
    yield* makeDirectory(options.directory)
    return Stream.fromIterable(dataset.files).pipe(
      Stream.flatMap((url) => fetchOne(url, options.directory, settings), { concurrency: settings.concurrency })
    )
  }))
