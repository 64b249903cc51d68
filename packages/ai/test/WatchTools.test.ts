import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Corpus, Emulator } from "@s2-effect/testing"
import { Effect, Layer, Stream } from "effect"
import { TestClock } from "effect/testing"
import { WatchTools } from "../src/index.js"

const corpus = Corpus.make({ seed: 1, size: 2000 })
/** The paper of this corpus with the most citing papers of 2025. */
const PAPER = "CorpusId:33175"

const layer = WatchTools.handlers.pipe(
  Layer.provideMerge(WatchTools.memory()),
  Layer.provideMerge(SemanticScholar.layer()),
  Layer.provideMerge(Emulator.layer({ corpus }))
)

const call = (name: "check_watches" | "add_watch", params: unknown) =>
  Effect.gen(function*() {
    const toolkit = yield* WatchTools.toolkit
    const results = yield* toolkit.handle(name, params as never, undefined, { onExcessProperty: "error" })
    const all = yield* Stream.runCollect(results)
    return all[all.length - 1]!
  })

describe("WatchTools", () => {
  it.effect("add_watch then check_watches: each new paper shown once, the rest of a cut list next time", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2025, 11, 31))
      const added = yield* call("add_watch", { name: "mine", kind: "citations", target: PAPER })
      expect(added.isFailure).toBe(false)
      expect(added.result).toEqual({ name: "mine", watches: 1 })
      // The first check lists the window before it (90 days): papers citing it from October on.
      const first = yield* call("check_watches", { limit: 2 })
      const answer = first.result as typeof WatchTools.CheckAnswer.Type
      expect(first.isFailure).toBe(false)
      const [watch] = answer.watches
      expect(watch!.new).toHaveLength(2)
      const more = watch!.more ?? 0
      expect(more).toBeGreaterThan(0)
      const text = first.modelOutput?.[0]
      expect(text?.type === "text" ? text.text : "").toContain(`mine: 2 new (${more} more)`)
      const second = (yield* call("check_watches", { names: ["mine"], limit: 100 }))
        .result as typeof WatchTools.CheckAnswer.Type
      expect(second.watches[0]!.new).toHaveLength(more)
      const shown = [...watch!.new, ...second.watches[0]!.new].map((p) => p.paperId)
      expect(new Set(shown).size).toBe(shown.length)
      const third = (yield* call("check_watches", {})).result as typeof WatchTools.CheckAnswer.Type
      expect(third.watches[0]!.new).toEqual([])
      const unknown = yield* call("check_watches", { names: ["other"] })
      expect(unknown.isFailure).toBe(true)
      const again = yield* call("add_watch", { name: "mine", kind: "author", target: "12" })
      expect(again.isFailure).toBe(true)
      // What can never be a paper id is refused when added, not at every check after.
      const never = yield* call("add_watch", { name: "never", kind: "citations", target: "DOI:" })
      expect(never.isFailure).toBe(true)
      expect(JSON.stringify(never.result)).toContain("nothing after DOI:")
      const remaining = (yield* call("check_watches", {})).result as typeof WatchTools.CheckAnswer.Type
      expect(remaining.watches.map((watch) => watch.name)).toEqual(["mine"])
    }).pipe(Effect.provide(layer)))
})
