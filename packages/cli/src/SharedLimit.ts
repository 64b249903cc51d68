/**
 * `--redis URL`: one rate limit (the API's 1 request per second per key) shared through Redis by
 * every `s2` process and program on the key, instead of each process pacing itself alone.
 *
 * @since 1.0.0
 */
import type { Options as ClientOptions } from "@s2-effect/core"
import * as Flag from "effect/cli/Flag"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/**
 * The flag, with `S2_REDIS_URL` as its fallback.
 *
 * @since 1.0.0
 */
export const redisFlag = Flag.String("redis").pipe(
  Flag.withMetavar("url"),
  Flag.withDescription(
    "Share one rate limit (1 request/s) with every process using this Redis, e.g. redis://127.0.0.1:6379 (default S2_REDIS_URL)"
  ),
  Flag.withFallbackConfig(Config.NonEmptyString("S2_REDIS_URL")),
  Flag.optional
)

/**
 * The client's `rateLimit` for `--redis`, or nothing (the client's default) without it. A run
 * whose Redis fails ends with exit code 11 rather than pacing alone and overrunning the key.
 *
 * @since 1.0.0
 */
export const rateLimit = (redis: Option.Option<string>): Effect.Effect<Pick<ClientOptions, "rateLimit">> =>
  Option.match(redis, {
    onNone: () => Effect.succeed({}),
    // Loaded only with --redis, so that other commands start without the Node layer and ioredis.
    onSome: (url) =>
      Effect.map(
        Effect.promise(() => import("@s2-effect/node")),
        ({ NodeRateLimit }) => ({ rateLimit: NodeRateLimit.shared({ store: "redis", url }) })
      )
  })
