/**
 * The answer budget: the text of every answer within a number of characters, cut at a record
 * boundary, saying how to continue. Applied to the answer itself (not its text), so that the text
 * the model reads and `structuredContent` hold the same records.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

/**
 * The default answer budget, in characters of the text the model reads: 24,000, about 6,000 to
 * 10,000 tokens (4 characters a token for English text, fewer for ids). Claude Code warns at
 * 10,000 tokens of a tool's answer, refuses one over 25,000 (`MAX_MCP_OUTPUT_TOKENS`) and saves an
 * answer over 50,000 characters to a file instead of showing it.
 */
export const defaultMaxAnswerChars = 24_000

/** The smallest budget taken: a page of a few records still fits. */
export const minMaxAnswerChars = 1_000

/** The answer budget of every tool call (see {@link defaultMaxAnswerChars}). */
export const MaxAnswerChars = Context.Reference<number>("@s2-effect/ai/AssistantTools/MaxAnswerChars", {
  defaultValue: () => defaultMaxAnswerChars
})

/**
 * Whether the call's answer is sent as `structuredContent` too (an MCP call under
 * `StructuredAnswers`): then the budget holds for the text and the structured answer together.
 * Set by `register` for each call; a handler run elsewhere (an agent) sends the text only.
 */
export const StructuredCall = Context.Reference<boolean>("@s2-effect/ai/AssistantTools/StructuredCall", {
  defaultValue: () => false
})

/**
 * How an answer is cut: how many records it holds, the answer with its first `k` only (which says
 * that it was cut at `chars` and how to continue), and its text.
 */
export interface Pager<A, P> {
  readonly records: (answer: A) => number
  readonly take: (answer: A, k: number, chars: number, params: P) => A
  readonly render: (answer: A) => string
}

/**
 * `answer` with as many of its records as keep its text within `chars`, at least one (a record is
 * never cut: its strings are bounded, so one record is too). Binary search over the count: a few
 * renderings, however many records.
 */
export const fit = <A, P>(pager: Pager<A, P>, answer: A, params: P, chars: number, structured = false): A => {
  // Under `structured`, the answer's JSON is sent beside its text (its encoding: plain data, the same size).
  const size = (a: A) => pager.render(a).length + (structured ? JSON.stringify(a).length : 0)
  const count = pager.records(answer)
  if (count <= 1 || size(answer) <= chars) return answer
  let low = 1
  let high = count - 1
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (size(pager.take(answer, mid, chars, params)) <= chars) low = mid
    else high = mid - 1
  }
  return pager.take(answer, low, chars, params)
}

/** A handler's answer within the budget of the call ({@link MaxAnswerChars}, {@link StructuredCall}). */
export const fitted = <A, P>(pager: Pager<A, P>, params: P) => <E, R>(answer: Effect.Effect<A, E, R>) =>
  Effect.flatMap(answer, (a) =>
    Effect.map(
      Effect.all([Effect.service(MaxAnswerChars), Effect.service(StructuredCall)]),
      ([chars, structured]) => fit(pager, a, params, chars, structured)
    ))
