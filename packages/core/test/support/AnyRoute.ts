/** A scripted server that answers every route of the service with a minimal body of the right shape. */
import { Effect } from "effect"
import type { Handler } from "./Scripted.js"
import { json } from "./Scripted.js"

const paper = { paperId: "a".repeat(40), title: "t" }

/** Answers every route of the service with a minimal body of the right shape. */
export const anyRoute: Handler = (request) => {
  const path = request.url.pathname
  const ids = (request.body as { ids?: Array<string> } | undefined)?.ids
  if (ids !== undefined) return Effect.succeed(json(ids.map(() => path.includes("author") ? { authorId: "1" } : paper)))
  if (path === "/datasets/v1/release/") return Effect.succeed(json(["2025-01-07"]))
  if (path.includes("/dataset/")) return Effect.succeed(json({ name: "papers", files: [] }))
  if (path.startsWith("/datasets/v1/diffs")) {
    return Effect.succeed(json({ dataset: "papers", start_release: "a", end_release: "b", diffs: [] }))
  }
  if (path.startsWith("/datasets/v1/release/")) return Effect.succeed(json({ release_id: "2025-01-07", datasets: [] }))
  if (path.startsWith("/recommendations")) return Effect.succeed(json({ recommendedPapers: [paper] }))
  if (path.endsWith("/bulk")) return Effect.succeed(json({ total: 1, token: null, data: [paper] }))
  if (path.endsWith("/match")) return Effect.succeed(json({ data: [{ ...paper, matchScore: 1 }] }))
  if (path.endsWith("/autocomplete")) return Effect.succeed(json({ matches: [] }))
  if (path.startsWith("/graph/v1/snippet")) return Effect.succeed(json({ data: [] }))
  if (path.endsWith("/citations")) return Effect.succeed(json({ offset: 0, data: [{ citingPaper: paper }] }))
  if (path.endsWith("/references")) return Effect.succeed(json({ offset: 0, data: [{ citedPaper: paper }] }))
  if (path.endsWith("/authors") || path === "/graph/v1/author/search") {
    return Effect.succeed(json({ offset: 0, data: [{ authorId: "1" }] }))
  }
  if (path.endsWith("/papers") || path === "/graph/v1/paper/search") {
    return Effect.succeed(json({ offset: 0, data: [paper] }))
  }
  if (path.startsWith("/graph/v1/author/")) return Effect.succeed(json({ authorId: "1" }))
  return Effect.succeed(json(paper))
}
