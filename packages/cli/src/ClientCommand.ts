/**
 * A command that talks to the API, made in one way ({@link make}): the framework provides it the
 * client of the shared flags ({@link withClient}) once the command line is parsed, its handler runs
 * as an `Effect.fn` (a span named for the command), and the client's errors become one line saying
 * what failed, why and what to do ({@link run}).
 *
 * @since 1.1.0
 */
import type { S2Error } from "@s2-effect/core"
import { isS2Error } from "@s2-effect/core"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { ClientFacts, layer, logging } from "./Client.js"
import type { CommandError } from "./ExitCode.js"
import { fromS2Error } from "./ExitCode.js"
import type { SharedFlags } from "./SharedFlags.js"
import { s2 } from "./SharedFlags.js"

/**
 * Provides a command with the client of the shared flags, and the logging of `--verbose`: the
 * framework builds them once the command line is parsed, before the command's handler runs.
 *
 * @since 1.0.0
 */
export const withClient = <Name extends string, Input, ContextInput, E, R>(
  self: Command.Command<Name, Input, ContextInput, E, R>,
  /** A command's own defaults for the shared flags (`s2 mcp`: a shorter `--deadline`). */
  defaults: (common: SharedFlags) => SharedFlags = (common) => common
) =>
  Command.provide(
    self,
    Layer.unwrap(
      Effect.map(s2, (common) => layer(defaults(common)).pipe(Layer.provideMerge(logging(common.verbose))))
    )
  )

/**
 * Runs the body of a command against the client {@link withClient} provides, turning client errors
 * into one-line {@link CommandError}s (`what` says what was being done).
 *
 * @since 1.0.0
 */
export const run = <A, R>(
  what: string,
  body: Effect.Effect<A, S2Error | CommandError, R>
): Effect.Effect<A, CommandError, R | ClientFacts> =>
  ClientFacts.use((facts) =>
    body.pipe(
      Effect.catchIf(isS2Error, (error) => Effect.fail(fromS2Error(error, { what, ...facts })))
    )
  )

type Input<Config extends Command.Command.Config> = Command.Command.Config.Infer<Config>

/**
 * A command that talks to the API: `name` and its `config` (arguments and flags) as
 * `Command.make` takes them; `what` names what it does in its error lines (`paper DOI:…`,
 * `search "…"`); `body` is its handler, given the parsed input and that `what`. The handler runs
 * as an `Effect.fn` named `span` (default `s2 NAME`), in a scope closed when it ends (a harvest's
 * lock, an open output file), with the client of the shared flags; a client error becomes one line
 * saying what failed ({@link run}).
 *
 * @since 1.1.0
 */
export const make = <
  const Name extends string,
  const Config extends Command.Command.Config,
  Eff extends Effect.Effect<unknown, S2Error | CommandError, unknown>
>(
  name: Name,
  config: Config,
  what: string | ((input: Input<Config>) => string),
  body: (input: Input<Config>, what: string) => Generator<Eff, unknown, never>,
  options?: { readonly span?: string }
) => {
  // Typed here by what `body` yields: `Effect.fn` cannot tell that from a generic generator.
  const handler = Effect.fn(options?.span ?? `s2 ${name}`)(body, Effect.scoped) as unknown as (
    input: Input<Config>,
    what: string
  ) => Effect.Effect<unknown, S2Error | CommandError, Exclude<Effect.Services<Eff>, Scope.Scope>>
  return withClient(
    Command.make(name, config, (input) => {
      const said = typeof what === "string" ? what : what(input)
      return Effect.asVoid(run(said, handler(input, said)))
    })
  )
}
