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
import type { CassetteFileError } from "./CassetteFile.js"
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

export { CassetteFileError, CassetteMiss, Entry, File, RecordedRequest, RecordedResponse } from "./CassetteFile.js"

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
