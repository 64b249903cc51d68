/**
 * Downloads of dataset files: each file is written as `<name>.part`, with what identifies the
 * host's file (its link, size, ETag or Last-Modified) noted in `<name>.part.json`; resumed with a
 * `Range` request under `If-Range` after an interruption or a transient failure, only when the host
 * still has that same file; and renamed once complete. One attempt is a stream of events; the retry
 * loop around it resumes from what is on disk each time.
 */
import type { InvalidOptions, RetryPolicy, S2Error } from "@s2-effect/core"
import {
  Files,
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
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as NodePath from "node:path"
import type { DownloadEvent as Event, DownloadOptions } from "../DatasetDownload.js"
import { DatasetFileError } from "../DatasetFileError.js"
import * as FileHost from "./fileHost.js"
import { noFollow, notFound, readRegular } from "./localFiles.js"

export const DownloadEvent = Data.taggedEnum<Event>()

const defaultConcurrency = 4

type Failure = S2Error | DatasetFileError
type Needs = HttpClient.HttpClient | FileSystem.FileSystem

/** The download's own files beside `<name>`: the partial file, and the notes on it. */
const partSuffix = ".part"
const notesSuffix = ".part.json"

/**
 * Characters a file name may not hold: C0 and C1 controls, the bidirectional marks, overrides and
 * isolates, line separators and lone surrogates. A name with U+202E shows another extension than
 * its own; one with a newline forges lines in a listing.
 */
const unsafeInName =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** A name as a message shows it: quoted, each unsafe character spelled `\u202e`. */
const spelled = (name: string): string =>
  `"${name.replace(unsafeInName, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`

export const fileNameOf = (url: string): Result.Result<string, DatasetFileError> => {
  const shown = FileHost.withoutQuery(url)
  const fail = (reason: "Name" | "Link", why: string) =>
    Result.fail(new DatasetFileError({ reason, file: shown, message: `${shown}: ${why}` }))
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return fail("Link", "not a URL")
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return fail("Link", `a ${parsed.protocol} link is not fetched: dataset files come from http(s) links only`)
  }
  const last = parsed.pathname.split("/").pop() ?? ""
  let name: string
  try {
    name = decodeURIComponent(last)
  } catch {
    return fail("Name", "its last path segment is not valid percent-encoding")
  }
  if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) {
    return fail("Name", `its last path segment ${spelled(name)} cannot be a file name`)
  }
  unsafeInName.lastIndex = 0
  if (unsafeInName.test(name)) {
    return fail("Name", `its name ${spelled(name)} holds control or bidirectional characters, which hide what it is`)
  }
  const working = [partSuffix, notesSuffix].find((suffix) => name.toLowerCase().endsWith(suffix))
  if (working !== undefined) {
    return fail("Name", `its name ${spelled(name)} ends in ${working}, as the download's own working files do`)
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

/**
 * What identifies the host's file, noted in `<name>.part.json` before the first byte of a partial
 * file is written: the link without its query, the file's size, and the host's validator (a strong
 * ETag, else the Last-Modified date: what `If-Range` takes). Only a partial file whose notes match
 * the host's answer is resumed; any other is downloaded again.
 */
const Notes = Schema.Struct({
  url: Schema.String,
  total: Schema.optional(Schema.Number),
  etag: Schema.optional(Schema.String),
  lastModified: Schema.optional(Schema.String)
})
type Notes = typeof Notes.Type
const decodeNotes = Schema.decodeUnknownResult(Schema.fromJsonString(Notes))

/** Notes are a few hundred bytes: a larger file there is no notes of ours. */
const maxNotesBytes = 64 * 1024

/** The notes on the file a response carries. */
const notesOf = (url: string, response: HttpClientResponse.HttpClientResponse, total: number | undefined): Notes => {
  const etag = response.headers["etag"]
  const lastModified = response.headers["last-modified"]
  return {
    url: FileHost.withoutQuery(url),
    ...(total === undefined ? {} : { total }),
    // A weak ETag (W/"…") promises equivalent content, not the same bytes: If-Range refuses one.
    ...(etag !== undefined && !etag.startsWith("W/") ? { etag } : {}),
    ...(lastModified === undefined ? {} : { lastModified })
  }
}

const validatorOf = (notes: Notes): string | undefined => notes.etag ?? notes.lastModified

/**
 * Why a response is not of the file the notes describe, or `undefined` when nothing it says differs:
 * a host may ignore `If-Range` and send the new file's bytes after the old one's.
 */
const changed = (
  notes: Notes,
  response: HttpClientResponse.HttpClientResponse,
  total: number | undefined
): string | undefined => {
  const etag = response.headers["etag"]
  const lastModified = response.headers["last-modified"]
  if (notes.etag !== undefined && etag !== undefined && etag !== notes.etag) {
    return `the host's ETag is ${etag}, the partial file's ${notes.etag}`
  }
  if (notes.etag === undefined && lastModified !== undefined && lastModified !== notes.lastModified) {
    return `the host's file was modified ${lastModified}, the partial file's ${notes.lastModified}`
  }
  if (notes.total !== undefined && total !== undefined && total !== notes.total) {
    return `the host's file has ${total} bytes, the partial file's ${notes.total}`
  }
  return undefined
}

/** The outcome of asking the host for the rest of a file. */
type Answer = Data.TaggedEnum<{
  /** The bytes from `from` on, of the file `notes` describe. */
  Body: {
    readonly body: Stream.Stream<Uint8Array, S2Error>
    readonly from: number
    readonly total: number | undefined
    readonly notes: Notes
  }
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
  /** The notes on the partial file (see {@link Notes}). */
  readonly notes: string
  readonly settings: Settings
  readonly client: HttpClient.HttpClient
  readonly fs: FileSystem.FileSystem
}

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

/** The notes of the partial file when they say it is part of the file at the link; else why not. */
const provenNotes = (job: Job): Effect.Effect<Result.Result<Notes, string>, DatasetFileError> =>
  readRegular(job.fs, job.notes, maxNotesBytes).pipe(
    Effect.mapError(FileHost.ioError(job.notes, "cannot read")),
    Effect.map((read): Result.Result<Notes, string> => {
      if (read._tag === "Missing") return Result.fail(`has no notes (${job.notes}) saying which file it is part of`)
      if (read._tag === "Refused") {
        return Result.fail(`has notes that are not a file of ours (${job.notes} ${read.why})`)
      }
      const notes = decodeNotes(new TextDecoder().decode(read.bytes))
      if (Result.isFailure(notes)) return Result.fail(`has notes that cannot be read (${job.notes})`)
      if (notes.success.url !== FileHost.withoutQuery(job.url)) {
        return Result.fail(`is part of ${notes.success.url}, another link`)
      }
      return validatorOf(notes.success) === undefined
        ? Result.fail("is part of a file the host gave no ETag or Last-Modified for, so it cannot be checked")
        : Result.succeed(notes.success)
    })
  )

/** Says that a partial file is not resumed, and why: the file is then downloaded from its start. */
const startAgain = (job: Job, why: string) =>
  Effect.logWarning(`${job.file}: the partial file ${job.part} ${why}; downloading ${job.file} again from the start`)

/**
 * Asks once for the bytes from `from` on, of the file `notes` describe, and reads the answer. The
 * range is asked under `If-Range`, so a host that has another file now answers with all of it; and
 * the answer is checked against the notes, for a host that ignores `If-Range`.
 */
const askOnce = (job: Job, from: number, notes: Notes | undefined): Effect.Effect<Answer, S2Error> =>
  Effect.gen(function*() {
    const validator = notes === undefined ? undefined : validatorOf(notes)
    const headers: Record<string, string> = from > 0 && validator !== undefined
      ? { range: `bytes=${from}-`, "if-range": validator }
      : {}
    const { response, target } = yield* FileHost.request(job.client, job.url, headers, job.settings.idle)
    const range = parseContentRange(response.headers["content-range"])
    const body = () => FileHost.bodyOf(response, target, job.settings.idle)
    // The rest of an unwanted body (gigabytes, perhaps) is not read: the request is aborted, after
    // its first chunk or once the host has been silent for the idle time-out.
    const drain = Effect.ignore(Effect.timeout(FileHost.discard(response), job.settings.idle))
    if (response.status === 200) {
      if (from > 0) {
        yield* startAgain(job, "was answered with the whole file (changed on the host, or a host ignoring ranges)")
      }
      const total = contentLength(response)
      return Answer.Body({ body: body(), from: 0, total, notes: notesOf(job.url, response, total) })
    }
    if (response.status === 206 && range?.start === from) {
      const why = notes === undefined ? undefined : changed(notes, response, range.total)
      if (why === undefined) {
        return Answer.Body({
          body: body(),
          from,
          total: range.total,
          notes: notes ?? notesOf(job.url, response, range.total)
        })
      }
      yield* drain
      return Answer.Restart({ why: `is not part of the file the host has now: ${why}` })
    }
    if (response.status === 416 && from > 0) {
      // Its headers say all there is to know; a body may be endless.
      yield* drain
      const why = notes === undefined ? undefined : changed(notes, response, range?.total)
      if (why !== undefined) return Answer.Restart({ why: `is not part of the file the host has now: ${why}` })
      return range?.total === from
        ? Answer.AlreadyComplete({ total: from })
        : Answer.Restart({ why: `ends at byte ${from}, but the host's file is not that long` })
    }
    if (response.status === 206) {
      yield* drain
      return Answer.Restart({ why: "was answered with a range other than the one asked for" })
    }
    return yield* FileHost.failWithStatus(response, target)
  })

/**
 * The host's answer for the bytes after `from`. A partial file that does not line up is removed and
 * the file asked for whole, once: a host that still answers with another range is broken.
 */
const ask = (job: Job, from: number, notes: Notes | undefined): Effect.Effect<Found, Failure> =>
  Effect.flatMap(
    askOnce(job, from, notes),
    (answer) =>
      found(answer) ? Effect.succeed(answer) : startAgain(job, answer.why).pipe(
        Effect.andThen(job.fs.remove(job.part)),
        Effect.catchIf(notFound, () => Effect.void),
        Effect.mapError(FileHost.ioError(job.part, "cannot remove")),
        Effect.andThen(askOnce(job, 0, undefined)),
        Effect.filterOrFail(found, (again) =>
          new UnexpectedStatus({
            subject: "the file host",
            problem: `answered the whole file with ${again._tag === "Restart" ? again.why : "no usable range"}`,
            request: `HTTP 206 from GET ${FileHost.withoutQuery(job.url)}`,
            status: 206,
            method: "GET",
            url: FileHost.withoutQuery(job.url),
            responder: "fileHost"
          }))
      )
  )

/** Checks the size on disk and moves the partial file to its final name; its notes go. */
const finish = (job: Job, total: number | undefined): Effect.Effect<Event, Failure> =>
  Effect.gen(function*() {
    const size = yield* sizeOf(job.fs, job.part)
    if (total !== undefined && size !== total) {
      // Retryable: the next attempt resumes from what is on disk.
      return yield* new TransportError({
        subject: "the body",
        problem: `was cut short: ${size} of ${total} bytes`,
        request: `GET ${FileHost.withoutQuery(job.url)}`,
        reason: "cutShort",
        method: "GET",
        url: FileHost.withoutQuery(job.url),
        responder: "fileHost"
      })
    }
    yield* job.fs.rename(job.part, job.path).pipe(Effect.mapError(FileHost.ioError(job.part, "cannot rename")))
    // Notes without their partial file are never read: one left by a crash here does no harm.
    yield* Effect.ignore(job.fs.remove(job.notes))
    return DownloadEvent.Completed({ file: job.file, path: job.path, bytesDone: size, bytesTotal: size })
  })

/**
 * Appends the body to the partial file, one `Progress` per chunk, flushed at the end. A file
 * started from its first byte is emptied first, then noted: notes never describe another file's
 * bytes.
 */
const write = (job: Job, answer: Data.TaggedEnum.Value<Answer, "Body">) =>
  Stream.unwrap(Effect.gen(function*() {
    // `noFollow`: a symbolic link put in place of the partial file since it was checked is not
    // followed; the open fails instead of writing wherever it points.
    const handle = yield* job.fs.open(job.part, { flag: answer.from > 0 ? "a" : "w", noFollow }).pipe(
      Effect.mapError(FileHost.ioError(job.part, "cannot open"))
    )
    if (answer.from === 0) {
      yield* Files.writeAtomic(job.notes, `${JSON.stringify(answer.notes)}\n`).pipe(
        Effect.provideService(FileSystem.FileSystem, job.fs),
        Effect.mapError(FileHost.ioError(job.notes, "cannot write"))
      )
    }
    return answer.body.pipe(
      Stream.mapAccumEffect(() => answer.from, (done, chunk) =>
        handle.writeAll(chunk).pipe(
          Effect.mapError(FileHost.ioError(job.part, "cannot write")),
          Effect.as(
            [
              done + chunk.length,
              [DownloadEvent.Progress({
                file: job.file,
                path: job.path,
                bytesDone: done + chunk.length,
                bytesTotal: answer.total
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

/**
 * One attempt: ask for what is missing (from the start when the partial file cannot be proven to
 * be part of the host's file), announce where it starts, write it, finish.
 */
const attempt = (job: Job): Stream.Stream<Event, Failure> =>
  Stream.unwrap(Effect.gen(function*() {
    const size = yield* partSize(job)
    const proven = size === 0 ? undefined : yield* provenNotes(job)
    if (proven !== undefined && Result.isFailure(proven)) yield* startAgain(job, proven.failure)
    const answer = proven !== undefined && Result.isSuccess(proven)
      ? yield* ask(job, size, proven.success)
      : yield* ask(job, 0, undefined)
    const from = answer._tag === "Body" ? answer.from : answer.total
    const started = DownloadEvent.Started({ file: job.file, path: job.path, bytesDone: from, bytesTotal: answer.total })
    const rest = answer._tag === "Body" ? write(job, answer) : Stream.empty
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
 * loop of `Stream.retry`, except that the policy starts afresh when the file gets further than any
 * attempt got before (so a long file on a flaky link still completes). Bytes alone are not
 * progress: a host that ignores `Range` and breaks off at the same byte each time sends bytes on
 * every attempt, and must use up the budget. The policy takes {@link S2Error}s; a disk error is
 * not transient, so it ends the retries rather than being fed to a schedule that cannot judge it.
 */
const attempts = (job: Job, given: RetryPolicy.RetryPolicy): Stream.Stream<Event, Failure> =>
  Stream.unwrap(Effect.gen(function*() {
    // Each retry is a Warning line and a `Retry` on the waits channel, as the client's own are.
    const policy = Retry.logged(given, { method: "GET", url: FileHost.withoutQuery(job.url) })
    // A step of the policy, sleeping its wait; a new one is a policy started afresh.
    let step = yield* Schedule.toStepWithSleep(policy)
    // The most bytes any attempt had on disk, and whether the last one passed it.
    let furthest = 0
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
          if (event._tag === "Progress" && event.bytesDone > furthest) {
            furthest = event.bytesDone
            progressed = true
          }
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
    const job: Job = {
      url,
      file,
      path,
      part: `${path}${partSuffix}`,
      notes: `${path}${notesSuffix}`,
      settings,
      client,
      fs
    }
    return startedOnce(settings.retry === false ? attempt(job) : attempts(job, settings.retry))
  }))

/** The directory, made with the directories above it: failing at once where Node's own `mkdir` would loop. */
const makeDirectory = (directory: string) =>
  Files.makeDirectory(directory).pipe(Effect.mapError(FileHost.ioError(directory, "cannot create the directory")))

export const downloadFile = (url: string, options: DownloadOptions): Stream.Stream<Event, Failure, Needs> =>
  Stream.unwrap(Effect.gen(function*() {
    const settings = yield* validate(options)
    yield* makeDirectory(options.directory)
    return fetchOne(url, options.directory, settings)
  }))

/**
 * Two links with one name would write to one file: refused before anything is fetched. Names that
 * differ only in case or in Unicode form are one file on some file systems (macOS, Windows), so
 * they are one name here.
 */
const checkNames = (files: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const seen = new Map<string, string>()
    for (const url of files) {
      const name = yield* Effect.fromResult(fileNameOf(url))
      const same = name.normalize("NFC").toLowerCase()
      const other = seen.get(same)
      const shown = FileHost.withoutQuery(url)
      if (other !== undefined) {
        return yield* new DatasetFileError({
          reason: "Name",
          file: shown,
          message: `${shown} and ${other} would both be saved as ${name}`
        })
      }
      seen.set(same, shown)
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
