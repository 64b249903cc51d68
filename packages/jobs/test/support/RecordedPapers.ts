/**
 * The paper records in the real recorded exchanges of ../shared/s2-recordings (when that folder is
 * present beside the checkout): every object with a `paperId`, a `title` and an `authors` list,
 * wherever it sits in an answer, merged by id and decoded with the client's own `Paper` schema.
 * Read where they lie; nothing of them is copied into the project.
 */
import { Paper } from "@s2-effect/core"
import { Schema } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"

// Beside the checkout; `S2_RECORDINGS` names the folder where the checkout is elsewhere (a worktree).
export const folder = process.env["S2_RECORDINGS"] ??
  Path.resolve(import.meta.dirname, "../../../../../shared/s2-recordings")

export const present = Fs.existsSync(folder)

const collect = (value: unknown, into: Map<string, Record<string, unknown>>): void => {
  if (Array.isArray(value)) value.forEach((v) => collect(v, into))
  else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>
    if (typeof record.paperId === "string" && typeof record.title === "string" && Array.isArray(record.authors)) {
      into.set(record.paperId, { ...into.get(record.paperId), ...record })
    }
    Object.values(record).forEach((v) => collect(v, into))
  }
}

/** The recorded papers, in a stable order (by file name, then as they appear). */
export const recordedPapers = (): ReadonlyArray<Paper> => {
  if (!present) return []
  const found = new Map<string, Record<string, unknown>>()
  for (const file of Fs.readdirSync(folder).filter((f) => f.endsWith(".json")).sort()) {
    collect(JSON.parse(Fs.readFileSync(Path.join(folder, file), "utf8")), found)
  }
  const decode = Schema.decodeUnknownSync(Paper)
  return Array.from(found.values(), (record) => decode(record))
}
