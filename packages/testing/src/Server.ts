/**
 * The emulator over HTTP on 127.0.0.1 (node's `http` module), scoped: it closes with its scope.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { EmulatorOptions, EmulatorService } from "./Emulator.js"
import * as internal from "./internal/server.js"

/**
 * Options for {@link startEmulator}.
 *
 * @category options
 * @since 0.1.0
 */
export interface ServerOptions extends EmulatorOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number
}

/**
 * A running HTTP emulator. `url` is the API root (`http://127.0.0.1:PORT`); dataset file links
 * point at `fileUrl` (`http://localhost:PORT`), a different host string on the same server, so a
 * test can check that a client never sends its API key there.
 *
 * @category models
 * @since 0.1.0
 */
export interface EmulatorServer extends EmulatorService {
  readonly url: string
  readonly port: number
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
 * @since 0.1.0
 */
export const startEmulator = (options: ServerOptions = {}): Effect.Effect<EmulatorServer, never, Scope.Scope> =>
  internal.start(options)
