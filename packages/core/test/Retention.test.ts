/**
 * Guards the patch of `effect` that keeps a long harvest's pages out of V8's old generation
 * (packages/core/patches, docs/streams.md). V8 allocates a function literal assigned straight to a
 * property (`op.effect = () => effect`) in old space, where it holds its young context — and
 * through it the page an effectful stream stage was given — until the next full collection. The
 * patch makes Effect's channel and async primitives allocate those closures young. Asked of V8
 * itself with `%InYoungGeneration`, in a child process started with `--allow-natives-syntax`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { execFileSync } from "node:child_process"
import * as Path from "node:path"

const probe = `
import { Channel, Effect } from "effect"
const young = (value) => %InYoungGeneration(value)
const assigned = {}
assigned.f = () => 1
const channel = Channel.fromEffect(Effect.void)
const piped = Channel.pipeTo(channel, channel)
// Effect.async builds its OP_ASYNC primitive, and the closure in question, when it is committed.
const async = Effect.async((_resume) => {}).commit()
console.log(JSON.stringify({
  control: young(assigned.f),
  fromEffect: young(channel.effect),
  pipeTo: young(piped.left) && young(piped.right),
  async: async._op === "Async" && young(async.effect_instruction_i0),
  interruptible: young(Effect.interruptible(Effect.void).effect_instruction_i1)
}))
`

const Answer = Schema.Record({ key: Schema.String, value: Schema.Boolean })

const askV8 = Effect.sync(() =>
  execFileSync(process.execPath, ["--allow-natives-syntax", "--input-type=module", "-e", probe], {
    cwd: Path.resolve(import.meta.dirname, ".."),
    encoding: "utf8"
  })
).pipe(Effect.flatMap(Schema.decode(Schema.parseJson(Answer))))

describe("pages and V8's old generation", () => {
  it.effect("this Node still pretenures a function literal assigned to a property (the probe sees it)", () =>
    Effect.map(askV8, (answer) => expect(answer.control).toBe(false)))

  it.effect("the closures Effect's channels and async effects build per element are allocated young", () =>
    Effect.map(
      askV8,
      (answer) => expect(answer).toMatchObject({ fromEffect: true, pipeTo: true, async: true, interruptible: true })
    ))
})
