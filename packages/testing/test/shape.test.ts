import { describe, expect, it } from "@effect/vitest"
import { compareShapes, shapeOf } from "./shape.js"

describe("conformance shape comparison", () => {
  it("detects missing keys and type changes, tolerates nulls, empty arrays and `next`", () => {
    expect(compareShapes(shapeOf({ a: 1, b: "x" }), shapeOf({ a: 2, b: "y" }))).toEqual([])
    expect(compareShapes(shapeOf({ a: 1 }), shapeOf({ a: "1" }))).toEqual(["$.a: number vs string"])
    expect(compareShapes(shapeOf({ a: 1, b: 2 }), shapeOf({ a: 1 }))).toEqual(["$.b: missing in emulator"])
    expect(compareShapes(shapeOf({ data: [{ a: 1 }] }), shapeOf({ data: [{ a: 1, c: true }] }))).toEqual([
      "$.data[].c: missing in recording"
    ])
    expect(compareShapes(shapeOf({ a: null, d: [] }), shapeOf({ a: { x: 1 }, d: [1] }))).toEqual([])
    expect(compareShapes(shapeOf({ offset: 0, next: 100 }), shapeOf({ offset: 0 }))).toEqual([])
  })
})
