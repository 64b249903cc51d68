/**
 * `--record DIR` / `--replay DIR`: reproducible scripts. With `--record`, every exchange of the
 * command is written to `DIR/s2.cassette.json` (entries of other commands already there are kept,
 * so a script of several commands fills one cassette, also when they run at once); with
 * `--replay`, the commands answer from that file with no network, retries answered by the
 * recorded retries without waiting, and a request that was not recorded fails with the nearest
 * recorded one shown field by field. The API key is never written. A cassette that cannot be
 * written or read, or has a malformed entry, is exit 10 naming the file (and the entry).
 *
 * @since 1.0.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import type { S2Error } from "@s2-effect/core"
import { Files, isRetryable, RetryPolicy } from "@s2-effect/core"
import type { Cassette } from "@s2-effect/testing"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as path from "node:path"
import type { CommandError } from "./ExitCode.js"
import { badInput, cassetteFailure, fileError } from "./ExitCode.js"
import * as TextFlag from "./TextFlag.js"

/**
 * The two flags, among the shared ones.
 *
 * @since 1.0.0
 */
export const flags = {
  record: TextFlag.optional(
    "record",
    "dir",
    "Record every exchange to DIR/s2.cassette.json (the API key is never written)"
  ),
  replay: TextFlag.optional(
    "replay",
    "dir",
    "Answer from DIR/s2.cassette.json, recorded with --record: no network, recorded retries without waiting"
  )
} as const

/** @since 1.0.0 */
export interface Settings {
  readonly record: Option.Option<string>
  readonly replay: Option.Option<string>
}

/**
 * The cassette file in a directory.
 *
 * @since 1.0.0
 */
export const file = (dir: string): string => path.join(dir, "s2.cassette.json")

/**
 * Whether the commands answer from a cassette (then retrying cannot change an answer).
 *
 * @since 1.0.0
 */
export const replaying = (settings: Settings): boolean => Option.isSome(settings.replay)

/**
 * The retry policy under a cassette, unless `--no-retry`: the default one, except that a cassette's
 * own failure (a request not recorded, a file that cannot be written) is not retried, and that a
 * replay answers the recorded retries (a 429, then its retry's 200) without their waits: there is
 * no server to be patient with.
 *
 * @since 1.0.0
 */
export const retry = (settings: Settings): { readonly retry?: RetryPolicy.RetryPolicy } => {
  if (Option.isNone(settings.record) && Option.isNone(settings.replay)) return {}
  const policy = RetryPolicy.make({ while: (error: S2Error) => isRetryable(error) && !cassetteFailure(error) })
  return {
    retry: replaying(settings) ? Schedule.modifyDelay(policy, () => Effect.succeed(Duration.zero)) : policy
  }
}

/**
 * The `HttpClient` of a command: `http` itself, or the cassette layer over it.
 *
 * @since 1.0.0
 */
export const around = (
  settings: Settings,
  http: Layer.Layer<HttpClient.HttpClient>
): Effect.Effect<Layer.Layer<HttpClient.HttpClient, CommandError>, CommandError> => {
  if (Option.isSome(settings.record) && Option.isSome(settings.replay)) {
    return Effect.fail(badInput("--record and --replay exclude each other: give one"))
  }
  const chosen: Option.Option<{ readonly mode: Cassette.Mode; readonly dir: string }> = Option.isSome(settings.record)
    ? Option.some({ mode: "record", dir: settings.record.value })
    : Option.map(settings.replay, (dir) => ({ mode: "replay", dir }))
  return Option.match(chosen, {
    onNone: () => Effect.succeed(http),
    // The testing package is loaded only with --record / --replay, as the emulator only with --emulator.
    onSome: ({ dir, mode }) =>
      Effect.map(
        Effect.andThen(
          // The directory of --record, made before anything is asked (the cassette would make it
          // after the first answer, with Node's recursive mkdir, which loops under /proc).
          mode === "record"
            ? Files.makeDirectory(dir).pipe(
              Effect.provide(NodeFileSystem.layer),
              Effect.mapError((cause) => fileError(`cannot create the --record directory ${dir}`, cause))
            )
            : Effect.void,
          Effect.promise(() => import("@s2-effect/testing"))
        ),
        ({ Cassette }) =>
          Cassette.layer({ path: file(dir), mode }).pipe(
            Layer.provide(Layer.merge(http, NodeFileSystem.layer)),
            mapLayerError((error) =>
              fileError(
                `cannot use the cassette for --${mode} ${dir}`,
                // The library's advice names its modes; a CLI user records with a flag.
                error._tag === "CassetteFileError" && error.problem !== undefined && error.advice !== undefined
                  ? `cassette ${error.path} ${error.problem}: record it first with --record ${dir}`
                  : error.message
              )
            )
          )
      )
  })
}

/**
 * Maps the error a layer fails with while it is built (Layer has no `mapError` in effect 4).
 *
 * @since 1.0.0
 */
export const mapLayerError =
  <E, E2>(f: (error: E) => E2) => <A, R>(self: Layer.Layer<A, E, R>): Layer.Layer<A, E2, R> =>
    Layer.catchCause(
      self,
      (cause) => Layer.effectContext(Effect.failCause(Cause.map(cause, f)) as Effect.Effect<never, E2>)
    ) as Layer.Layer<A, E2, R>
