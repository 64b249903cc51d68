/**
 * The flags of what a command prints, and what they turn into: `--fields` (the field selection,
 * checked), `--max` (a limit, checked) and `--format` (by default pretty JSON on a terminal, JSON
 * lines into a pipe). Unlike the shared flags (`SharedFlags.ts`), each is a flag of the commands
 * it acts on.
 *
 * @since 1.1.0
 */
import type { S2Error } from "@s2-effect/core"
import { BadQueryParameters, Fields, Validate } from "@s2-effect/core"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { badInput, type CommandError } from "./ExitCode.js"
import * as Parse from "./Parse.js"
import { Printer } from "./Printer.js"
import type { Format } from "./render/Format.js"
import * as TextFlag from "./TextFlag.js"

/**
 * `--fields`: the fields to return, for the commands that select fields.
 *
 * @since 1.0.0
 */
export const fieldsFlag = TextFlag.optional(
  "fields",
  "list",
  "Comma-separated fields to return (e.g. title,year,authors.name); `all` for every field"
)

/**
 * `--max`: for the commands that print a list.
 *
 * @since 1.0.0
 */
export const maxFlag = Flag.Int("max").pipe(Flag.withDescription("Stop after N records"), Flag.optional)

/**
 * `--format`: for the commands that print records.
 *
 * @since 1.0.0
 */
export const formatFlag = Flag.Literals("format", ["json", "jsonl", "table", "csv"]).pipe(
  Flag.withDescription("Output format (default: pretty JSON on a terminal, JSON lines when piped)"),
  Flag.optional
)

/**
 * The output flags of a command that prints one record.
 *
 * @since 1.0.0
 */
export interface Shown {
  readonly format: Option.Option<Format>
}

/**
 * The output flags of a command that prints a list.
 *
 * @since 1.0.0
 */
export interface Listed extends Shown {
  readonly max: Option.Option<number>
}

/**
 * The output format: `--format`, else pretty JSON on a terminal and JSON lines when piped.
 *
 * @since 1.0.0
 */
export const format = (shown: Shown): Effect.Effect<Format, never, Printer> =>
  Printer.useSync((printer) => Option.getOrElse(shown.format, () => (printer.outIsTTY ? "json" : "jsonl")))

/**
 * The `--max` limit, checked (a whole number ≥ 1), or `undefined` for no limit.
 *
 * @since 1.0.0
 */
export const max = (listed: { readonly max: Option.Option<number> }): Effect.Effect<number | undefined, CommandError> =>
  Option.match(listed.max, {
    onNone: () => Effect.succeed(undefined),
    onSome: (n) => Parse.check(Validate.wholeNumber("--max", n, { min: 1 }))
  })

/**
 * The field selection of a command: `--fields` checked against what the endpoint accepts (a typed
 * `BadQueryParameters` naming the unknown field), the command's defaults when omitted, and the
 * client's own default (every field) for `--fields all`.
 *
 * @since 1.0.0
 */
export const fields = (
  selected: { readonly fields: Option.Option<string> },
  set: Fields.FieldSet,
  defaults: ReadonlyArray<string>
): Effect.Effect<Fields.Selection | undefined, S2Error> => {
  const given = Option.getOrUndefined(selected.fields)
  if (given !== undefined && given.trim() === "all") return Effect.succeed(undefined)
  // Checked once here; the client sends a Selection as is. Names the client does not know are
  // refused: `--fields all` is the way to fields newer than this client.
  return Fields.select(set, given === undefined ? defaults : Parse.splitList(given)).pipe(Effect.mapError(forCli))
}

/**
 * The client's advice for an unknown field is for code (`Fields.unchecked(…)`); on the command
 * line, `--fields all` asks for every field the API has, newer ones included.
 */
const forCli = (error: S2Error): S2Error => {
  if (error._tag !== "BadQueryParameters" || error.parameter !== "fields" || error.advice === undefined) return error
  const advice = "--fields all returns every field the API has, including fields newer than this client"
  return new BadQueryParameters({ ...error, advice })
}

/**
 * A map is a web page of about a megabyte: it goes into a file or a pipe, never onto a terminal
 * (`s2 related` and `s2 graph` with `--format html` and no `--out`).
 *
 * @since 1.1.0
 */
export const mapNotOnTerminal: Effect.Effect<void, CommandError, Printer> = Printer.use((printer) =>
  printer.outIsTTY
    ? Effect.fail(badInput("--format html writes a web page: give --out FILE.html (or redirect: > map.html)"))
    : Effect.void
)
