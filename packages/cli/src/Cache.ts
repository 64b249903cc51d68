/**
 * `--cache DIR` and `--cache-ttl`: the response cache of the client, in a directory, so re-running
 * a command or a pipeline reuses what the API already answered.
 *
 * @since 0.1.0
 */
import * as Options from "@effect/cli/Options"
import type { ResponseCache } from "@s2-effect/core"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { CliError } from "./ExitCode.js"
import { badInput } from "./ExitCode.js"

/**
 * The cache flags, merged into every command's options.
 *
 * @since 0.1.0
 */
export const options = {
  cache: Options.directory("cache").pipe(
    Options.withDescription(
      "Keep API answers in this directory and reuse them (default: S2_CACHE; no cache when neither is set)"
    ),
    Options.optional
  ),
  cacheTtl: Options.text("cache-ttl").pipe(
    Options.withDescription(
      "How long a cached answer is reused: a duration such as \"1 day\" or \"12 hours\" (default 1 day)"
    ),
    Options.optional
  )
} as const

/**
 * The cache flags, parsed.
 *
 * @since 0.1.0
 */
export interface Flags {
  readonly cache: Option.Option<string>
  readonly cacheTtl: Option.Option<string>
}

/**
 * The layer's `cache` option from the flags and `S2_CACHE`, or `undefined` for none. Answers of
 * the in-process emulator are kept apart from the API's, so a cache directory never mixes them.
 *
 * @since 0.1.0
 */
export const cacheOption = (
  flags: Flags,
  emulator: boolean
): Effect.Effect<ResponseCache.CacheOptions | undefined, CliError> =>
  Effect.gen(function*() {
    const fromEnv = yield* Config.option(Config.nonEmptyString("S2_CACHE")).pipe(
      Effect.orElseSucceed(() => Option.none<string>())
    )
    const directory = Option.orElse(flags.cache, () => fromEnv)
    if (Option.isNone(directory)) {
      return Option.isSome(flags.cacheTtl)
        ? yield* Effect.fail(badInput("--cache-ttl needs a cache: give --cache DIR or set S2_CACHE"))
        : undefined
    }
    const timeToLive = yield* Option.match(flags.cacheTtl, {
      onNone: () => Effect.succeed(Duration.days(1)),
      onSome: (text) => {
        const ttl = Duration.decodeUnknown(text.trim())
        return Option.isSome(ttl) && Duration.greaterThan(ttl.value, Duration.zero)
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
    // Loaded only with a cache, so that `s2 --help` and plain commands start without the Node layer.
    const { NodeCache } = yield* Effect.promise(() => import("@s2-effect/node"))
    return {
      store: NodeCache.fileSystem(directory.value),
      timeToLive,
      storeId: emulator ? "s2-effect-emulator" : "s2-effect"
    }
  })
