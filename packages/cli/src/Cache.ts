/**
 * `--cache DIR` and `--cache-ttl`: the response cache of the client, in a directory, so re-running
 * a command or a pipeline reuses what the API already answered.
 *
 * @since 1.0.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Files, type ResponseCache } from "@s2-effect/core"
import * as Flag from "effect/cli/Flag"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { CommandError } from "./ExitCode.js"
import { badInput, fileError } from "./ExitCode.js"
import * as TextFlag from "./TextFlag.js"

/**
 * The cache flags, shared by every command (the root's flags). `S2_CACHE` is the fallback of
 * `--cache` through the framework's config fallback.
 *
 * @since 1.0.0
 */
export const flags = {
  cache: Flag.String("cache").pipe(
    Flag.withMetavar("dir"),
    Flag.withDescription(
      "Keep API answers in this directory and reuse them (default: S2_CACHE; no cache when neither is set)"
    ),
    Flag.withFallbackConfig(Config.NonEmptyString("S2_CACHE")),
    Flag.optional
  ),
  cacheTtl: TextFlag.optional(
    "cache-ttl",
    "duration",
    "How long a cached answer is reused: a duration such as \"1 day\" or \"12 hours\" (default 1 day)"
  )
} as const

/**
 * The cache flags, parsed.
 *
 * @since 1.0.0
 */
export interface Flags {
  readonly cache: Option.Option<string>
  readonly cacheTtl: Option.Option<string>
}

/**
 * The layer's `cache` option from the flags (`--cache` or `S2_CACHE`), or `undefined` for none. Answers of
 * the in-process emulator are kept apart from the API's, so a cache directory never mixes them.
 *
 * @since 1.0.0
 */
export const cacheOption = (
  flags: Flags,
  emulator: boolean
): Effect.Effect<ResponseCache.CacheOptions | undefined, CommandError> =>
  Effect.gen(function*() {
    const directory = flags.cache
    if (Option.isNone(directory)) {
      return Option.isSome(flags.cacheTtl)
        ? yield* Effect.fail(badInput("--cache-ttl needs a cache: give --cache DIR or set S2_CACHE"))
        : undefined
    }
    const timeToLive = yield* Option.match(flags.cacheTtl, {
      onNone: () => Effect.succeed(Duration.days(1)),
      onSome: (text) => {
        const ttl = Duration.fromInput(text.trim() as Duration.Input)
        return Option.isSome(ttl) && Duration.isGreaterThan(ttl.value, Duration.zero)
          ? Effect.succeed(ttl.value)
          : Effect.fail(
            badInput(
              `--cache-ttl ${
                JSON.stringify(text)
              } is invalid: give a duration such as "1 day", "12 hours" or "30 minutes"`
            )
          )
      }
    })
    // Made here, so that a directory that cannot be made is one line naming the flag (the store
    // makes it the same way, failing at once where Node's recursive mkdir loops, under /proc).
    yield* Files.makeDirectory(directory.value).pipe(
      Effect.provide(NodeFileSystem.layer),
      Effect.mapError((cause) => fileError(`cannot create the --cache directory ${directory.value}`, cause))
    )
    // Loaded only with a cache, so that `s2 --help` and plain commands start without the Node layer.
    const { NodeCache } = yield* Effect.promise(() => import("@s2-effect/node"))
    return {
      store: NodeCache.fileSystem(directory.value),
      timeToLive,
      storeId: emulator ? "s2-effect-emulator" : "s2-effect"
    }
  })
