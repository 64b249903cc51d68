import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Sink from "effect/Sink"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import * as Framing from "./framing.js"
import { oneLine } from "./mcp.js"

/**
 * Standard input cut into lines and checked before effect's stdio transport sees them, standard
 * output made well-formed (see ./framing/lines.ts). A line refused is answered here, with a Warning
 * (`<label>: <why>`); the transport gets the others, one JSON-RPC message (or batch) a line.
 */
export const framed = (label: string): Layer.Layer<Stdio.Stdio, never, Stdio.Stdio> =>
  Layer.effect(
    Stdio.Stdio,
    Effect.map(Effect.service(Stdio.Stdio), (stdio) => {
      const stdout = (options?: { readonly endOnDone?: boolean | undefined }) =>
        Sink.mapInput(
          stdio.stdout(options),
          (chunk: string | Uint8Array) => typeof chunk === "string" ? Framing.wellFormedJson(chunk) : chunk
        )
      const handle = (outcome: Framing.Outcome) =>
        Effect.gen(function*() {
          if (outcome.warning !== undefined) yield* Effect.logWarning(`${label}: ${oneLine(outcome.warning)}`)
          if (outcome.answer !== undefined) {
            // An answer that cannot be written goes where the transport's own would: nowhere.
            yield* Stream.run(Stream.make(`${outcome.answer}\n`), stdout()).pipe(Effect.ignore)
          }
          return outcome.forward
        })
      const stdin = Stream.suspend(() => {
        const framer = Framing.makeFramer()
        return stdio.stdin.pipe(
          Stream.map(framer.push),
          Stream.concat(Stream.sync(framer.end)),
          Stream.flattenIterable,
          Stream.mapEffect((line) => handle(Framing.outcomeOf(line))),
          Stream.filter((line): line is string => line !== undefined),
          // Not rewritten: a request holding a lone surrogate was refused (see ./framing/messages.ts).
          Stream.map((line) => `${line}\n`),
          Stream.encodeText
        )
      })
      return Stdio.make({ args: stdio.args, stdout, stderr: (options) => stdio.stderr(options), stdin })
    })
  )
