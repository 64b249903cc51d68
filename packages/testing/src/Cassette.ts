/**
 * Record and replay of real exchanges: a layer over `HttpClient` that writes every exchange to a
 * cassette (a readable JSON file) and answers from it later with no network.
 *
 * - `record`: every request goes to the wrapped client (the real API, or any `apiUrl`) and its
 *   exchange is written once the client has read its body: the body passes through as the client
 *   reads it, so the client's bound (`maxResponseBytes`) holds while recording too. Entries of
 *   other requests already in the file are kept; entries of a request made again are replaced.
 *   Several recorders (processes) may write one file at once: each write takes a lock file
 *   (`<path>.lock`, waited for up to 10 s, taken over when older than 30 s), merges its entries
 *   into the file as it is then, and replaces it by an exclusively created temporary file.
 * - `replay`: answers from the cassette; nothing is sent. A request with no entry fails with a
 *   {@link CassetteMiss} that shows it next to the nearest recorded request, field by field.
 * - `auto`: replays what the cassette had when it was read and records what it lacks (a request
 *   retried in this run, after a 429, is sent again and its answers recorded in turn).
 *
 * The file holds, per exchange, the method, path, query, body, status, the response headers that
 * matter (`content-type`, `retry-after`, …) and the response; entries are sorted by request so a
 * re-recording diffs well. Request headers are not written, so neither is the API key (and a key
 * the server echoes back is replaced by `<redacted>`). The host is not recorded either: a cassette
 * recorded against the emulator replays under any `apiUrl`.
 *
 * @example
 * ```ts
 * import { NodeFileSystem, NodeHttpClient } from "@effect/platform-node"
 * import { SemanticScholar } from "@s2-effect/core"
 * import { Cassette } from "@s2-effect/testing"
 * import { Layer } from "effect"
 *
 * // Record once against the API, then commit the file and replay it in CI with mode "replay".
 * const S2 = SemanticScholar.layer().pipe(
 *   Layer.provide(Cassette.layer({ path: "test/cassettes/citations.json", mode: "auto" })),
 *   Layer.provide(Layer.merge(NodeHttpClient.layerUndici, NodeFileSystem.layer))
 * )
 * ```
 * @since 1.0.0
 */
import type * as FileSystem from "effect/FileSystem"
import type * as HttpClient from "effect/http/HttpClient"
import type * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as internal from "./internal/cassette.js"

/**
 * `record` sends and writes, `replay` answers from the file alone, `auto` replays what it can and
 * records the rest.
 *
 * @category models
 * @since 1.0.0
 */
export type Mode = "record" | "replay" | "auto"

/**
 * Settings of {@link layer}.
 *
 * @category options
 * @since 1.0.0
 */
export interface Options<M extends Mode = Mode> {
  /** The cassette file (its directory is created when recording, one level at a time). */
  readonly path: string
  readonly mode: M
  /**
   * Query parameters left out of matching, e.g. `["fields"]` when the code under test may ask for
   * other fields than were recorded. They are still written. Default: none (exact matching).
   */
  readonly ignoreQuery?: ReadonlyArray<string> | undefined
}

/**
 * A recorded request: what matching compares. `query` maps each parameter to its value (or values,
 * when repeated); `body` is the JSON body, `bodyText` a body that is not JSON.
 *
 * @category models
 * @since 1.0.0
 */
export const RecordedRequest = Schema.Struct({
  method: Schema.String,
  path: Schema.String,
  query: Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Array(Schema.String)])),
  body: Schema.optional(Schema.Unknown),
  bodyText: Schema.optional(Schema.String)
})
/**
 * @category models
 * @since 1.0.0
 */
export type RecordedRequest = typeof RecordedRequest.Type

/**
 * A recorded response: status, the headers that matter, and the body (`body` when JSON, else
 * `bodyText`). `truncated`: the client stopped reading the body (it was over `maxResponseBytes`,
 * or an error's body past what its message needs) after that many bytes; `bodyText` then holds
 * the start of what was read (at most 64 KB) and a replay sends that many bytes again, so the
 * replaying client stops at the same point.
 *
 * Reading a cassette checks each entry: a status of 200 to 999 (what a server can answer last) and
 * headers HTTP can carry; otherwise a {@link CassetteFileError} names the file and the entry.
 *
 * @category models
 * @since 1.0.0
 */
export const RecordedResponse = Schema.Struct({
  status: Schema.Int,
  headers: Schema.Record(Schema.String, Schema.String),
  body: Schema.optional(Schema.Unknown),
  bodyText: Schema.optional(Schema.String),
  truncated: Schema.optional(Schema.Int)
})
/**
 * @category models
 * @since 1.0.0
 */
export type RecordedResponse = typeof RecordedResponse.Type

/**
 * One exchange of a cassette.
 *
 * @category models
 * @since 1.0.0
 */
export const Entry = Schema.Struct({ request: RecordedRequest, response: RecordedResponse })
/**
 * @category models
 * @since 1.0.0
 */
export type Entry = typeof Entry.Type

/**
 * The cassette file.
 *
 * @category models
 * @since 1.0.0
 */
export const File = Schema.Struct({ version: Schema.Literal(1), entries: Schema.Array(Entry) })
/**
 * @category models
 * @since 1.0.0
 */
export type File = typeof File.Type

/**
 * No recorded exchange matches a request in `replay` mode. `differences` compares the request with
 * the `nearest` recorded one field by field (method, path, each query parameter, body); the
 * message shows all of it. Reaches the caller as the `cause` of an `HttpClientError` whose reason
 * is a `TransportError` (the message is its description), so the s2-effect client reports it as a
 * `TransportError` carrying the same text.
 *
 * @category errors
 * @since 1.0.0
 */
export class CassetteMiss extends Schema.TaggedError<CassetteMiss>()("CassetteMiss", {
  message: Schema.String,
  path: Schema.String,
  request: RecordedRequest,
  nearest: Schema.optional(RecordedRequest),
  differences: Schema.Array(Schema.String)
}) {}

/**
 * The cassette file cannot be read, parsed or written, or an entry is malformed (the message names
 * the entry, as `entries[3]`). Fails the layer when the file is read; a write that fails reaches
 * the caller as the `cause` of an `HttpClientError` whose reason is a `TransportError`, as a
 * {@link CassetteMiss} does. A failure of the file system is said in the system's words (`no space
 * left on device (ENOSPC)`), and its `PlatformError` is the `cause`.
 *
 * @category errors
 * @since 1.0.0
 */
export class CassetteFileError extends Schema.TaggedError<CassetteFileError>()("CassetteFileError", {
  message: Schema.String,
  path: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

/**
 * The layer: an `HttpClient` over the wrapped one (not needed in `replay`), with the cassette read
 * when the layer is built (a missing file is an empty cassette, except in `replay`).
 *
 * @category layers
 * @since 1.0.0
 */
export const layer: {
  (options: Options<"replay">): Layer.Layer<HttpClient.HttpClient, CassetteFileError, FileSystem.FileSystem>
  (
    options: Options
  ): Layer.Layer<HttpClient.HttpClient, CassetteFileError, FileSystem.FileSystem | HttpClient.HttpClient>
  // Replay never reads the wrapped client; the overloads say so to the type checker.
} = internal.layer as (options: Options) => Layer.Layer<HttpClient.HttpClient, CassetteFileError>
