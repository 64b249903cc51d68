import type { Fields, Paper, S2Error, Service } from "@s2-effect/core"
import * as Effect from "effect/Effect"

/**
 * Batch-fetches distinct ids, answering `[id, paper | undefined]` in request order (with
 * `returnNotFound`, a batch where no id is known is an answer, not an `ObjectNotFound`).
 */
export const papersById = (
  s2: Service,
  ids: ReadonlyArray<string>,
  fields: ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined
): Effect.Effect<Array<readonly [string, Paper | undefined]>, S2Error> =>
  s2.getPapers(ids, { returnNotFound: true, ...(fields === undefined ? {} : { fields }) }).pipe(
    Effect.map(({ found, notFound }) => {
      // `found` holds the papers of the ids not in `notFound`, in order: ids are distinct here.
      const missing = new Set(notFound)
      let next = 0
      return ids.map((id) => [id, missing.has(id) ? undefined : found[next++]] as const)
    })
  )
