/**
 * The year ticks of the map's legend (render/map/look.js), run as the page runs them: a 155-pixel
 * bar holds 4-digit years about 27 pixels wide, so two ticks closer than a fifth of the bar overlap
 * ("19481960" on a map of papers from 1948 to 2025).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import * as vm from "node:vm"

const map = path.join(import.meta.dirname, "../src/render/map")
const source = ["dom.js", "data.js", "look.js"].map((part) => fs.readFileSync(path.join(map, part), "utf8")).join("\n")
const yearTicks = vm.runInNewContext(`${source}\n;yearTicks`, {}) as (y0: number, y1: number) => Array<number>

describe("the legend's year ticks", () => {
  it("the first and last year, round years between, none closer to another than a fifth of the bar", () => {
    for (const [y0, y1] of [[1948, 2025], [2014, 2022], [1900, 2025], [1990, 2024], [2019, 2020], [1665, 2026]]) {
      const ticks = yearTicks(y0!, y1!)
      expect(ticks[0]).toBe(y0)
      expect(ticks.at(-1)).toBe(y1)
      expect(ticks.length).toBeGreaterThanOrEqual(2)
      for (let k = 1; k < ticks.length; k++) {
        expect(ticks[k]! - ticks[k - 1]!, `${y0}–${y1}: ${ticks.join(" ")}`).toBeGreaterThanOrEqual((y1! - y0!) / 5)
      }
    }
    expect(yearTicks(1948, 2025)).toEqual([1948, 1980, 2000, 2025])
    expect(yearTicks(2014, 2022)).toEqual([2014, 2016, 2018, 2020, 2022])
    expect(yearTicks(2017, 2017)).toEqual([2017])
  })
})
