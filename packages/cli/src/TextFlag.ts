/**
 * The shape most of `s2`'s flags share: an optional text value with a placeholder for the help.
 *
 * @since 1.0.0
 */
import * as Flag from "effect/cli/Flag"

/**
 * An optional text flag: `--name metavar`, described in the help.
 *
 * @since 1.0.0
 */
export const optional = (name: string, metavar: string, description: string) =>
  Flag.String(name).pipe(Flag.withMetavar(metavar), Flag.withDescription(description), Flag.optional)
