/**
 * The words of a command line as values: durations (`--timeout`, `--deadline`), comma-separated
 * lists, and the client's own checks (`Validate`) as exit-2 errors naming the flag.
 *
 * @since 1.1.0
 */
import { excerpt, Validate } from "@s2-effect/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { CommandError } from "./ExitCode.js"
import { badInput } from "./ExitCode.js"

/**
 * A check of the client's `Validate` module as a CLI error (exit 2): its message names the flag,
 * or `message` replaces it.
 *
 * @since 1.0.0
 */
export const check = <A>(result: Validate.Check<A>, message?: string): Effect.Effect<A, CommandError> =>
  Result.match(result, {
    onFailure: (invalid) => Effect.fail(badInput(message ?? invalid.message)),
    onSuccess: Effect.succeed
  })

/**
 * Parses a duration flag (`--timeout`, `--deadline`): a number of seconds, `500ms`, `10s`, `2m`, or
 * an Effect duration ("10 seconds").
 *
 * @since 1.0.0
 */
export const duration = (flag: string, text: string): Effect.Effect<Duration.Duration, CommandError> => {
  const trimmed = text.trim()
  const unit = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(trimmed)
  const input: Duration.Input | undefined = unit === null
    ? Option.getOrUndefined(Duration.fromInput(trimmed as Duration.Input))
    : Duration.millis(Number(unit[1]) * (unit[2] === "ms" ? 1 : unit[2] === "m" ? 60_000 : 1000))
  const message = `${flag} ${
    JSON.stringify(excerpt(text, 200))
  } is invalid: give seconds (30), 500ms, 10s, 2m or "10 seconds"`
  return input === undefined
    ? Effect.fail(badInput(message))
    : check(Validate.positiveDuration(flag, input), message)
}

/**
 * Splits a comma-separated option value, trimming and dropping empty entries.
 *
 * @since 1.0.0
 */
export const splitList = (text: string): Array<string> =>
  text.split(",").map((s) => s.trim()).filter((s) => s.length > 0)
