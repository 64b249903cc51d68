/**
 * The 33,000-paper walk that the large-map test and the bench's map row both draw: 3 seeds, each
 * paper at the depth a breadth-first walk finds it, 3 citations each.
 */
import * as Map from "../../src/render/Map.js"

export const count = 33_000
export const idOf = (i: number) => i.toString(16).padStart(40, "0")

/** A walk's map: 3 seeds, each paper at the depth a breadth-first walk finds it, 3 citations each. */
export const walk = (): string => {
  const lines: Array<string> = []
  for (let i = 0; i < count; i++) {
    lines.push(Map.line(Map.mapPaper(
      {
        paperId: idOf(i),
        title: `Paper ${i} of a large walk`,
        year: 1980 + (i % 45),
        authors: [{ authorId: null, name: `Author ${i % 997}` }],
        citationCount: (i * 7919) % 5000,
        venue: null
      } as never,
      i < 3,
      { depth: i < 3 ? 0 : i < 300 ? 1 : i < 6000 ? 2 : 3 }
    )))
  }
  for (let i = 3; i < count; i++) {
    for (const j of [Math.floor(i / 10), (i * 31) % count, (i * 17 + 11) % count]) {
      lines.push(Map.line({ type: "link", from: idOf(i), to: idOf(j) }))
    }
  }
  return lines.join("")
}
