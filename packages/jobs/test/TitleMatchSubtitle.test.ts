/**
 * TitleMatch.relation when a title asks or exclaims before its subtitle: the subtitle added or
 * dropped may follow any of its subtitle starts, not only the first (issue 45: a third of the
 * accuracy bench's subtitle variants that carried an id were flagged for this alone).
 */
import { describe, expect, it } from "@effect/vitest"
import { TitleMatch } from "../src/index.js"

describe("TitleMatch.relation, titles with more than one subtitle start", () => {
  it("a subtitle added or dropped after a question, an exclamation or a dash is a subtitle", () => {
    const pairs: ReadonlyArray<readonly [string, string]> = [
      [
        "Is attention all you need? Rethinking transformers",
        "Is attention all you need? Rethinking transformers: A survey"
      ],
      ["Stop the clock! Timing attacks on web servers: A study", "Stop the clock! Timing attacks on web servers"],
      ["Graph neural networks - Part II", "Graph neural networks - Part II: Continuity with classic methods"]
    ]
    for (const [a, b] of pairs) {
      expect(TitleMatch.relation(a, b)).toBe("subtitle")
      expect(TitleMatch.relation(b, a)).toBe("subtitle")
    }
  })

  it("any other word changed is still another title", () => {
    expect(
      TitleMatch.relation(
        "Is attention all you need? Rethinking transformers",
        "Is attention all you want? Rethinking transformers: A survey"
      )
    ).toBe("other")
    expect(TitleMatch.relation("Stop the clock! Timing attacks", "Stop the clock! Timing defences: A study")).toBe(
      "other"
    )
  })
})
