/**
 * The cassette file's shape and the cassette's errors. A leaf module (it imports nothing of this
 * package), so that `internal/cassette.ts`, which makes and reads them, imports them without
 * importing `Cassette.ts`, which imports it back; `Cassette.ts` re-exports each, and users reach
 * them there (`Cassette.CassetteMiss`).
 *
 * @since 1.0.0
 */
import * as Schema from "effect/Schema"

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
  // The message's parts when the file is missing, for a caller that advises in its own words
  // (the `s2` command's `--record`): what is wrong, and what to do.
  problem: Schema.optional(Schema.String),
  advice: Schema.optional(Schema.String),
  cause: Schema.optional(Schema.Defect())
}) {}
