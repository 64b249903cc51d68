/**
 * Standard input, read whole (`--ids-file -`, `s2 resolve -`, `s2 verify -`): through effect's
 * `Stdio` service, so that whatever provides `Stdio` (the process's, or a test's text) is what a
 * command reads.
 *
 * @since 1.3.0
 */
import * as Effect from "effect/Effect"
import type * as PlatformError from "effect/PlatformError"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"

/**
 * Every byte of standard input, once it ends.
 *
 * @since 1.3.0
 */
export const bytes: Effect.Effect<Uint8Array, PlatformError.PlatformError, Stdio.Stdio> = Effect.flatMap(
  Effect.service(Stdio.Stdio),
  (stdio) =>
    Stream.runFold(stdio.stdin, () => [] as Array<Uint8Array>, (chunks, chunk) => {
      chunks.push(chunk)
      return chunks
    }).pipe(Effect.map((chunks) => Buffer.concat(chunks)))
)

/**
 * Whether standard input is a terminal (nothing piped: reading it would wait for typing).
 *
 * @since 1.3.0
 */
export const isTerminal: Effect.Effect<boolean, never, Stdio.Stdio> = Effect.flatMap(
  Effect.service(Stdio.Stdio),
  (stdio) => stdio.stdinIsTerminal
)
