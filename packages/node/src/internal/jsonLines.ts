/**
 * Gzipped JSON-lines in constant memory: bytes are gunzipped, split on newlines and each line
 * parsed, then decoded with the caller's schema by the core's compiled decoder (Schema's own runs
 * only for a record it declines, to say what is wrong).
 */
import * as NodeStream from "@effect/platform-node/NodeStream"
import type { S2Error } from "@s2-effect/core"
import { Decoder } from "@s2-effect/core"
import * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as HttpClient from "effect/http/HttpClient"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Zlib from "node:zlib"
import type { ReadOptions } from "../DatasetFile.js"
import { DatasetFileError } from "../DatasetFileError.js"
import * as FileHost from "./fileHost.js"

/** A record's decoder: the caller's schema, or none (the parsed JSON as it is). */
type Decode<A> = (json: unknown) => Result.Result<A, { readonly message: string }>

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
    readonly decode: Decode<A>
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
    if (Result.isFailure(decoded)) {
      return new DatasetFileError({
        reason: "Schema",
        file: this.file,
        line: this.line,
        message: `${this.file}, line ${this.line}: the record does not match the schema: ${decoded.failure.message}`
      })
    }
    out.push(decoded.success)
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
  const chunk = Stream.fromArray(records)
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
  decode: Decode<A>
): Stream.Stream<A, E | DatasetFileError, R> =>
  Stream.suspend(() => {
    const parser = new LineParser<A>(file, decode)
    // When the source fails, the gunzip stream is ended early and reports that too; the source's
    // error is the one that says what happened, so it is kept and wins.
    let sourceError: Option.Option<E> = Option.none()
    return bytes.pipe(
      Stream.tapError((e) => Effect.sync(() => (sourceError = Option.some(e)))),
      NodeStream.pipeThroughDuplex({
        evaluate: () => Zlib.createGunzip({ chunkSize: 256 * 1024 }),
        onError: (cause) => new GunzipFailure({ cause })
      }),
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

/** Without a schema the records are the parsed JSON, and `A` is its default, `unknown`. */
const decoderOf = <A, I>(schema: Schema.Codec<A, I> | undefined): Decode<A> =>
  schema === undefined ? (Result.succeed as Decode<A>) : Decoder.decodeUnknownResult(schema)

export const gzipJsonLines = <A, I, E, R>(
  bytes: Stream.Stream<Uint8Array, E, R>,
  file: string,
  schema?: Schema.Codec<A, I>
): Stream.Stream<A, E | DatasetFileError, R> => records(bytes, file, decoderOf(schema))

/** The bytes of a link, with no retry: a read cannot resume. */
const fromUrl = (url: string, idleTimeout: Duration.Input | undefined) =>
  Stream.unwrap(Effect.gen(function*() {
    const idle = yield* Effect.fromResult(FileHost.idleTimeout(idleTimeout))
    const client = yield* HttpClient.HttpClient
    const { response, target } = yield* FileHost.request(client, url, {}, idle)
    if (response.status !== 200) return yield* FileHost.failWithStatus(response, target)
    return FileHost.bodyOf(response, target, idle)
  }))

const fromDisk = (path: string) =>
  Stream.unwrap(
    Effect.map(
      FileSystem.FileSystem,
      (fs) => fs.stream(path, { chunkSize: 256 * 1024 }).pipe(Stream.mapError(FileHost.ioError(path, "cannot read")))
    )
  )

export const readDatasetFile = <A, I>(
  pathOrUrl: string,
  options?: ReadOptions<A, I>
): Stream.Stream<A, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem> => {
  const url = FileHost.isUrl(pathOrUrl)
  const bytes: Stream.Stream<Uint8Array, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem> =
    url ? fromUrl(pathOrUrl, options?.idleTimeout) : fromDisk(pathOrUrl)
  return records(bytes, url ? FileHost.withoutQuery(pathOrUrl) : pathOrUrl, decoderOf(options?.schema))
}
