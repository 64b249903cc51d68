/**
 * `McpStdio.layer`: the package serves the protected transport by itself, with nothing but a
 * platform's `Stdio`. A line the bare transport cannot take (not JSON, too deep) is answered here and
 * the server goes on answering the next request.
 */
import { describe, expect, it } from "@effect/vitest"
import { McpStdio } from "@s2-effect/ai"
import { Effect, Fiber, Layer, Queue, Sink, Stdio, Stream } from "effect"
import { McpProtocol } from "effect/ai"

const encoder = new TextEncoder()

/** The server on a `Stdio` whose input is `lines` (then open), its output lines parsed into a queue. */
const serve = (lines: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const out = yield* Queue.unbounded<Record<string, unknown>>()
    const stdio = Stdio.layerTest({
      stdin: Stream.fromIterable(lines.map((line) => encoder.encode(`${line}\n`))).pipe(Stream.concat(Stream.never)),
      stdout: () =>
        Sink.forEach((chunk: string | Uint8Array) =>
          Effect.forEach(
            (typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk)).split("\n").filter((l) => l !== ""),
            (line) => Queue.offer(out, JSON.parse(line) as Record<string, unknown>)
          )
        )
    })
    const server = McpStdio.layer({ name: "test", version: "0.0.0", protocols: [McpProtocol.v2025_11_25] })
    const fiber = yield* Effect.forkChild(Layer.launch(server.pipe(Layer.provide(stdio))))
    return { out, fiber }
  })

describe("McpStdio.layer", () => {
  it.effect("answers what the bare transport cannot take, and goes on serving", () =>
    Effect.gen(function*() {
      const deep = `${"[".repeat(200)}${"]".repeat(200)}`
      const { fiber, out } = yield* serve([
        "not json",
        `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":${deep}}}`,
        `{"jsonrpc":"2.0","id":8,"method":"ping"}`
      ])
      const answers = [yield* Queue.take(out), yield* Queue.take(out), yield* Queue.take(out)]
      yield* Fiber.interrupt(fiber)
      expect(answers[0]).toMatchObject({ id: null, error: { code: -32700 } })
      expect(answers[1]).toMatchObject({ id: 7, error: { code: -32600 } })
      expect(String((answers[1]!["error"] as { message: string }).message)).toContain(
        `nested more than ${McpStdio.maxDepth} deep`
      )
      expect(answers[2]).toMatchObject({ id: 8, result: {} })
    }))
})
