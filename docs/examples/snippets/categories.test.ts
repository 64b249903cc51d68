/**
 * Every export of the documented packages carries a TSDoc `@category`, so the API reference
 * groups it.
 */
import { describe, expect, it } from "@effect/vitest"
import { uncategorized } from "./categories.js"

describe("API reference", () => {
  it("every public export carries @category", () => {
    expect(uncategorized()).toEqual([])
  }, 60_000)
})
