/**
 * What the `effect` users install does with the closures its channels build per element
 * (docs/streams.md, packages/bench/NOTES.md). V8 allocates a function literal assigned straight to
 * a property (`op.effect = () => effect`) in old space, where it holds its young context — and
 * through it the page an effectful stream stage was given — until the next full collection. Effect
 * 3.22 as released does this in its channel and async primitives; the workspace installs it as
 * released (no patch), so the memory figures in the docs are the ones users get. When an `effect`
 * upgrade allocates these closures young, the second test fails: then the docs' memory figures and
 * the bench's patched row (packages/bench/effect-patch) are out of date. Asked of V8 itself with
 * `%InYoungGeneration`, in a child process started with `--allow-natives-syntax`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { execFileSync } from "node:child_process"
import * as Path from "node:path"

const probe = `
import { Channel, Effect } from "effect"
// "missing" when the probe no longer reaches a closure, so a \`false\` is V8's answer, not a miss.
const young = (value) => typeof value === "function" ? %InYoungGeneration(value) : "missing"
const assigned = {}
assigned.f = () => 1
const channel = Channel.fromEffect(Effect.void)
const piped = Channel.pipeTo(channel, channel)
// Effect.async builds its OP_ASYNC primitive, and the closure in question, when it is committed.
const async = Effect.async((_resume) => {}).commit()
console.log(JSON.stringify({
  control: young(assigned.f),
  fromEffect: young(channel.effect),
  pipeTo: young(piped.left) === young(piped.right) ? young(piped.left) : "missing",
  async: async._op === "Async" ? young(async.effect_instruction_i0) : "missing",
  interruptible: young(Effect.interruptible(Effect.void).effect_instruction_i1)
}))
`

const Answer = Schema.Record({ key: Schema.String, value: Schema.Union(Schema.Boolean, Schema.Literal("missing")) })

const askV8 = Effect.sync(() =>
  execFileSync(process.execPath, ["--allow-natives-syntax", "--input-type=module", "-e", probe], {
    cwd: Path.resolve(import.meta.dirname, ".."),
    encoding: "utf8"
  })
).pipe(Effect.flatMap(Schema.decode(Schema.parseJson(Answer))))

describe("pages and V8's old generation", () => {
  it.effect("this Node still pretenures a function literal assigned to a property (the probe sees it)", () =>
    Effect.map(askV8, (answer) => expect(answer.control).toBe(false)))

  it.effect("effect as released allocates the closures its channels and async effects build per element old", () =>
    Effect.map(
      askV8,
      (answer) => expect(answer).toMatchObject({ fromEffect: false, pipeTo: false, async: false, interruptible: false })
    ))
})
