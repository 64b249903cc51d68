/**
 * `s2 match` as a claim, checked (issue 37, point 1): the API's title match answers the nearest
 * title it has however far (the emulator is as lenient), so the real bin shows its paper only when
 * it has the title given, and otherwise says "not found" in one line naming the nearest (exit 3).
 */
import { describe, expect, it } from "@effect/vitest"
import { runS2 } from "./support/inProcess.js"

const s2 = (args: ReadonlyArray<string>) => runS2(args)

const TURING = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"

const nearest = (given: string, title: string) =>
  new RegExp(
    `^s2: title match "${given}" failed: no paper has this title; the nearest, "${title}", is 0\\.\\d\\d similar ` +
      `\\(0\\.90 and the same words needed\\); check the title, or look for it with s2 search\\n$`
  )

describe("s2 match checks what it claims", () => {
  it("the title given, case and punctuation aside: the paper, exit 0", async () => {
    const ran = await s2(["match", "computing machinery and intelligence.", "--emulator", "--format", "jsonl"])
    expect(ran.stderr).toBe("")
    expect(ran.code).toBe(0)
    expect(JSON.parse(ran.stdout)).toMatchObject({ paperId: TURING, title: "Computing Machinery and Intelligence" })
  }, 60_000)

  it("one content word changed: not found, exit 3, one line naming the nearest and its similarity", async () => {
    const ran = await s2(["match", "Computing Hardware and Intelligence", "--emulator"])
    expect(ran.code).toBe(3)
    expect(ran.stdout).toBe("")
    expect(ran.stderr).toMatch(nearest("Computing Hardware and Intelligence", "Computing Machinery and Intelligence"))
  }, 60_000)

  it("checked whatever --fields says (the title is asked for), and however far the API's answer", async () => {
    const ran = await s2(["match", "Deep residual learning for image recognition", "--emulator", "--fields", "year"])
    expect(ran.code).toBe(3)
    expect(ran.stdout).toBe("")
    expect(ran.stderr).toMatch(
      nearest(
        "Deep residual learning for image recognition",
        "Deep variational inference for speech recognition and image classification"
      )
    )
    const found = await s2([
      "match",
      "Attention is all you need",
      "--emulator",
      "--fields",
      "year",
      "--format",
      "jsonl"
    ])
    expect(found.code).toBe(0)
    expect(Object.keys(JSON.parse(found.stdout)).sort()).toEqual(["matchScore", "paperId", "title", "year"])
  }, 60_000)
})
