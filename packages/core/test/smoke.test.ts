import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SemanticScholar } from "../src/index.js"
import { json, requests, testLayer } from "./support/Scripted.js"

describe("smoke", () => {
  it.effect("getPaper", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const p = yield* s2.getPaper("10.1093/mind/lix.236.433", { fields: ["title"] })
      expect(p.title).toBe("T")
      expect(p.keys()).toContain("extra")
      const seen = yield* requests
      expect(seen[0]!.url.toString()).toBe("https://api.test/graph/v1/paper/10.1093/mind/lix.236.433?fields=title")
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json({ paperId: "a".repeat(40), title: "T", extra: 1 }))))))
})
