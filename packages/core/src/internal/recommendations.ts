/**
 * The Recommendations API: papers like one paper, or like a list of examples and unlike another.
 */
import * as Effect from "effect/Effect"
import * as Fields from "../Fields.js"
import type * as Filters from "../Filters.js"
import type { ListRecommendationOptions, RecommendationOptions } from "../Options.js"
import type { Service } from "../SemanticScholar.js"
import * as Endpoint from "./endpoint.js"
import { RecommendationAnswer } from "./envelopes.js"
import * as Req from "./request.js"
import * as Validate from "./validate.js"

export const getRecommendedPapers: Endpoint.Endpoint = {
  name: "getRecommendedPapers",
  api: "recommendations",
  method: "GET",
  path: "/papers/forpaper/{id}",
  fields: Fields.paperList
}

export const getRecommendedPapersFromLists: Endpoint.Endpoint = {
  name: "getRecommendedPapersFromLists",
  api: "recommendations",
  method: "POST",
  path: "/papers/",
  fields: Fields.paperList
}

/** How many papers one answer holds, at most. */
const maxLimit = 500

const pools = ["recent", "all-cs"] as const

const query = (endpoint: Endpoint.Endpoint, options: ListRecommendationOptions) =>
  Effect.gen(function*() {
    const fields = yield* Endpoint.fieldsParam(endpoint, options.fields)
    const limit = yield* Validate.inputEffect(Validate.limit(options.limit ?? 100, maxLimit))
    return [fields, ["limit", String(limit)]] satisfies ReadonlyArray<Filters.QueryParam>
  })

const examples = (positivePaperIds: ReadonlyArray<string>, negativePaperIds: ReadonlyArray<string> | undefined) =>
  Effect.gen(function*() {
    if (positivePaperIds.length === 0) {
      return yield* Validate.inputEffect(Validate.refuse(
        "positivePaperIds",
        "positivePaperIds is empty: give at least one paper to find papers like it (the API needs a positive example)"
      ))
    }
    const positive = yield* Validate.inputEffect(Validate.ids(positivePaperIds, Validate.paperId, "positivePaperIds"))
    if (negativePaperIds === undefined || negativePaperIds.length === 0) return { positivePaperIds: positive }
    const negative = yield* Validate.inputEffect(Validate.ids(negativePaperIds, Validate.paperId, "negativePaperIds"))
    return { positivePaperIds: positive, negativePaperIds: negative }
  })

/** The recommendation operations of the service. */
export const make = (context: Endpoint.Context) => ({
  getRecommendedPapers: Endpoint.fn(getRecommendedPapers)(
    function*(paperId: string, options: RecommendationOptions = {}) {
      const id = yield* Validate.inputEffect(Validate.paperId(paperId))
      const poolFrom = yield* Validate.inputEffect(Validate.oneOf("poolFrom", options.poolFrom ?? "recent", pools))
      const params = [...yield* query(getRecommendedPapers, options), ["from", poolFrom] as const]
      const request = Req.get("recommendations", Endpoint.place(getRecommendedPapers, id, "paper"), params)
      const answer = yield* Endpoint.call(context, getRecommendedPapers, request, RecommendationAnswer)
      return answer.recommendedPapers
    }
  ),
  getRecommendedPapersFromLists: Endpoint.fn(getRecommendedPapersFromLists)(
    function*(
      positivePaperIds: ReadonlyArray<string>,
      negativePaperIds?: ReadonlyArray<string>,
      options: ListRecommendationOptions = {}
    ) {
      const body = yield* examples(positivePaperIds, negativePaperIds)
      const params = yield* query(getRecommendedPapersFromLists, options)
      const request = Req.post("recommendations", getRecommendedPapersFromLists.path, params, body)
      const answer = yield* Endpoint.call(context, getRecommendedPapersFromLists, request, RecommendationAnswer)
      return answer.recommendedPapers
    }
  )
} satisfies Partial<Service>)
