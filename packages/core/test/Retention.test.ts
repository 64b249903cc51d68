/**
 * What the `effect` users install does with the closures of its channels and async primitives
 * (docs/streams.md, packages/bench/NOTES.md). V8 allocates a function literal assigned straight to
 * a property (`self.transform = (upstream, scope) => …`) in old space, where it holds its young
 * context — and whatever that context holds — until the next full collection. Effect 4.1 does this
 * in `Channel.fromTransform` (under `fromEffect` and `pipeTo`), which a stream builds once, not per
 * element: its stream stages promote no pages (the bench's `promotion` rows). Its async and
 * interruptible primitives, which run per request and per wait, allocate theirs young (the closures
 * are method arguments, see its `callbackOptions`). When an `effect` upgrade changes either, the
 * second test fails: then the bench's memory and promotion rows are due for a run
 * (`BENCH_ONLY=memory` and `BENCH_ONLY=promotion pnpm bench`). Asked of V8 itself with
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
// The Async primitive builds the closure in question when it is evaluated: by a stand-in fiber here.
let yielded
const fiber = { cache: { scheduler: {} }, yieldWith: (f) => { yielded = f }, _stack: [] }
const async = Effect.callback((_resume) => {})
async["~effect/Effect/evaluate"](fiber)
console.log(JSON.stringify({
  control: young(assigned.f),
  fromEffect: young(channel.transform),
  pipeTo: young(piped.transform),
  async: young(yielded),
  interruptible: young(Effect.interruptible(Effect.void)["~effect/Effect/args"])
}))
`

const Answer = Schema.Record(Schema.String, Schema.Union([Schema.Boolean, Schema.Literal("missing")]))

const askV8 = Effect.sync(() =>
  execFileSync(process.execPath, ["--allow-natives-syntax", "--input-type=module", "-e", probe], {
    cwd: Path.resolve(import.meta.dirname, ".."),
    encoding: "utf8"
  })
).pipe(Effect.flatMap(Schema.decodeUnknownEffect(Schema.fromJsonString(Answer))))

describe("pages and V8's old generation", () => {
  it.effect("this Node still pretenures a function literal assigned to a property (the probe sees it)", () =>
    Effect.map(askV8, (answer) => expect(answer.control).toBe(false)))

  it.effect("effect as released allocates its channels' per-element closures old and its async and interruptible ones young", () =>
    Effect.map(
      askV8,
      // Effect 4.1: the channels' closures old (built once per stream); the async and interruptible ones young.
      (answer) => expect(answer).toMatchObject({ fromEffect: false, pipeTo: false, async: true, interruptible: true })
    ))
})
