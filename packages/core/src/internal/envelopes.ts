/** The envelopes of the answers that are not pages. Absent lists decode as empty ones. */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Paper } from "../Paper.js"
import { Autocomplete, Snippet } from "../Snippet.js"

const list = <A, I>(item: Schema.Codec<A, I>) =>
  Schema.Array(item).pipe(Schema.withDecodingDefaultType(Effect.sync((): ReadonlyArray<A> => [])))

export const MatchAnswer = Schema.Struct({ data: list(Paper) })
export const AutocompleteAnswer = Schema.Struct({ matches: list(Autocomplete) })
export const SnippetAnswer = Schema.Struct({ data: list(Snippet), retrievalVersion: Schema.optional(Schema.String) })
export const RecommendationAnswer = Schema.Struct({ recommendedPapers: Schema.Array(Paper) })
