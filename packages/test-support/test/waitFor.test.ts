import { describe, expect, it } from "@effect/vitest"
import { waitFor } from "../src/index.js"

describe("waitFor", () => {
  it("resolves with the condition's first value that holds, after the looks that did not", async () => {
    let looks = 0
    const value = await waitFor(() => (++looks >= 3 ? `look ${looks}` : undefined), { what: "a third look", every: 1 })
    expect(value).toBe("look 3")
    expect(looks).toBe(3)
  })

  it("takes an asynchronous condition, and a look that throws as not yet", async () => {
    let looks = 0
    const value = await waitFor(async () => {
      if (++looks < 2) throw new Error("not written yet")
      return 0
    }, { what: "a parsed file", every: 1 })
    expect(value).toBe(0)
  })

  it("past its deadline: rejects naming what it waited for, with the last look's error as the cause", async () => {
    const failed = await waitFor(() => {
      throw new Error("ENOENT")
    }, { what: "the checkpoint", deadline: 0, every: 1 }).then(() => undefined, (error: unknown) => error)
    expect(failed).toBeInstanceOf(Error)
    expect((failed as Error).message).toBe("timed out after 0 ms waiting for the checkpoint")
    expect(((failed as Error).cause as Error).message).toBe("ENOENT")
  })
})
