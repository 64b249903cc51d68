/**
 * The emulator over HTTP on 127.0.0.1 (node's `http` module), scoped: it closes with its scope.
 *
 * @since 1.0.0
 */
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { EmulatorOptions, EmulatorService, RecordedRequest } from "./Emulator.js"
import * as internal from "./internal/server.js"

/**
 * Options for {@link startEmulator}.
 *
 * @category options
 * @since 1.0.0
 */
export interface ServerOptions extends EmulatorOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number
  /**
   * One line per request once it is answered (`true`: on stderr; a function: handed each line), e.g.
   * `s2-emulator: POST /graph/v1/paper/batch?fields=title 200 4ms`: method, path and query (an API key
   * sent in the query shown as `<redacted>`; headers never shown), then the status, or `hang`, `reset`
   * or `aborted` (the client went away first), then the milliseconds until then.
   */
  readonly logRequests?: boolean | ((line: string) => void)
}

/**
 * The path of the running server's request log, outside every API path (`/graph/v1`,
 * `/recommendations/v1`, `/datasets/v1`) so that no base URL ending in an API root reaches it, and
 * served over HTTP only (the in-memory layer answers it with the API's 404). `GET` answers a
 * {@link RequestSummary} as JSON; `DELETE` forgets the requests (204). Its own requests are not counted.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { requestsPath, type RequestSummary } from "@s2-effect/testing"
 *
 * // In a test of a program talking to `s2-emulator --port 8787`:
 * const requestCounts = Effect.promise(async () => {
 *   const res = await fetch(`http://127.0.0.1:8787${requestsPath}`)
 *   return ((await res.json()) as RequestSummary).counts
 * })
 * ```
 * @category constants
 * @since 1.0.0
 */
export const requestsPath: "/__emulator/requests" = internal.requestsPath

/**
 * What `GET` {@link requestsPath} answers: the requests since start (or the last `DELETE`), counted
 * and by path, and the latest of them (at most 100, oldest first; the API key redacted).
 *
 * @category models
 * @since 1.0.0
 */
export interface RequestSummary {
  readonly count: number
  readonly counts: Readonly<Record<string, number>>
  readonly recent: ReadonlyArray<RecordedRequest>
}

/**
 * A running HTTP emulator. `url` is the API root (`http://127.0.0.1:PORT`); dataset file links
 * point at `fileUrl` (`http://localhost:PORT`), a different host string on the same server, so a
 * test can check that a client never sends its API key there.
 *
 * @category models
 * @since 1.0.0
 */
export interface EmulatorServer extends EmulatorService {
  readonly url: string
  readonly port: number
  /** `url` + {@link requestsPath}: the request log for a test that only has HTTP. */
  readonly requestsUrl: string
}

/**
 * Starts the emulator on 127.0.0.1 (and ::1 on the same port when available, so that
 * `localhost` works whichever address family it resolves to).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { startEmulator } from "@s2-effect/testing"
 *
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const emulator = yield* startEmulator({ seed: 1, size: 1000 })
 *   const res = yield* Effect.promise(() => fetch(`${emulator.url}/graph/v1/paper/search?query=graph`))
 * }))
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const startEmulator = (options: ServerOptions = {}): Effect.Effect<EmulatorServer, never, Scope.Scope> =>
  internal.start(options)
