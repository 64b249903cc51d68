/**
 * The `verify_references` assistant tool: `Verify.references` over a reference list in any form (read
 * as `s2 verify` reads a file, by `Verify.read`), a .bib text or reference lines,
 * with a compact answer and the time budget of `resolve_references`; its definition (for the table
 * of `tools.ts`) and its handler.
 */
import type { S2Error, SemanticScholar } from "@s2-effect/core"
import { Citable, ReferenceInput, Verify } from "@s2-effect/jobs"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { limits, PaperSummary } from "../Answers.js"
import { type ToolFailure } from "../ToolFailure.js"
import { AnswerBudget, Bounded, bounds, Count, optional, TimeBudget } from "./answerParts.js"
import { budgetSeconds, withinBudget } from "./budget.js"
import { failure } from "./failure.js"
import { reportProgress } from "./mcp.js"
import type { Pager } from "./paging.js"
import { paperSummary } from "./summaries.js"
import * as text from "./text.js"

/** The longest .bib text a call takes: 200 entries of a generous 2,500 characters. */
export const maxBibtex = 500_000

/** The longest corrected BibTeX entry answered: longer ones (hundreds of authors) are left out. */
export const maxCorrection = 4000

/** A field that differs: the entry's value, the record's, and why. */
const Difference = Schema.Struct({
  field: Verify.Field,
  given: Bounded(bounds.line),
  record: Bounded(bounds.line),
  why: Bounded(bounds.message)
})

/**
 * A reference of `verify_references`: `{ key, status: "verified" | "mismatch" | "notFound" |
 * "unchecked" | "notTried", differs, differences?, correction?, paper?, nearest?, similarity?, notes }`.
 */
const VerifiedReference = Schema.Struct({
  key: Bounded(bounds.id),
  status: Schema.Literals([...Verify.Status.literals, "notTried"]),
  differs: Schema.Array(Verify.Field),
  differences: optional(Schema.Array(Difference)),
  correction: optional(
    Bounded(maxCorrection).annotate({
      description: "The entry corrected from Semantic Scholar's record (BibTeX, the user's key and own fields kept)"
    })
  ),
  paper: optional(PaperSummary),
  nearest: optional(PaperSummary),
  similarity: optional(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
  notes: Schema.Array(Bounded(bounds.message)).check(Schema.isMaxLength(3))
})
type VerifiedReference = typeof VerifiedReference.Type

/**
 * The answer of `verify_references`: `{ verified, mismatch, notFound, notTried?, timeBudgetSeconds?,
 * references, next?, nextKey?, answerBudgetChars? }`; cut to fit the answer budget, the first
 * entries (and their counts), `next` the position (from 0) of the first entry not answered and
 * `nextKey` its key.
 */
const VerifyAnswer = Schema.Struct({
  verified: Count,
  mismatch: Count,
  notFound: Count,
  unchecked: optional(Count),
  notTried: optional(Count),
  timeBudgetSeconds: TimeBudget,
  references: Schema.Array(VerifiedReference),
  next: optional(Count),
  nextKey: optional(Bounded(bounds.id)),
  answerBudgetChars: AnswerBudget
})
export type VerifyAnswer = typeof VerifyAnswer.Type

/** The longest reference list a call takes, in any form: as long as a .bib text. */
export const maxText = maxBibtex

const parameters = {
  text: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(maxText)).annotate({
      description: `A reference list in any form: .bib, RIS, CSL-JSON, references pasted from a paper, or ` +
        `an id or title per line (at most ${limits.lines}); give this, bibtex or lines`
    })
  ),
  bibtex: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(maxBibtex)).annotate({
      description: `A .bib file's text (at most ${limits.lines} entries)`
    })
  ),
  lines: Schema.optionalKey(
    Schema.Array(Schema.String.check(Schema.isMaxLength(2000))).check(
      Schema.isBetweenLength(1, limits.lines)
    ).annotate({
      description: `References, one per entry (an id, a link or a title; 1 to ${limits.lines})`
    })
  )
}

/** The corrected entry of a mismatch, as `s2 verify --format bibtex` writes it (`Verify.correction`). */
const correctionOf = (v: Verify.Verification): { readonly correction?: string } => {
  const fix = Verify.correction(v)
  if (v.status !== "mismatch" || fix._tag !== "record") return {}
  const entry = Citable.bibtexWriter().write(fix.item)
  return entry.length > maxCorrection ? {} : { correction: entry }
}

const differencesOf = (v: Verify.Verification) =>
  v.differences === undefined ? {} : {
    differences: v.differences.map((d) => ({
      field: d.field,
      given: text.cut(text.oneLine(d.given), bounds.line),
      record: text.cut(text.oneLine(d.record), bounds.line),
      why: text.cut(text.oneLine(d.why), bounds.message)
    }))
  }

/** A verification as the tool answers it: compact, its notes at most 3 and not the nearest's. */
export const reference = (v: Verify.Verification): VerifiedReference => ({
  key: text.cut(v.key, bounds.id),
  status: v.status,
  differs: v.differs,
  ...differencesOf(v),
  ...correctionOf(v),
  ...(v.paper === undefined ? {} : { paper: paperSummary(v.paper) }),
  ...(v.nearest === undefined ? {} : { nearest: paperSummary(v.nearest) }),
  ...(v.similarity === undefined || !Number.isFinite(v.similarity) ? {} : { similarity: v.similarity }),
  // The nearest's note is left out: `nearest` and `similarity` say it.
  notes: v.notesBesideNearest.slice(0, 3).map((note) => text.cut(text.oneLine(note), bounds.message))
})

const notTried = (key: string): VerifiedReference => ({
  key: text.cut(key, bounds.id),
  status: "notTried",
  differs: [],
  notes: []
})

type Params = {
  readonly text?: string | undefined
  readonly bibtex?: string | undefined
  readonly lines?: ReadonlyArray<string> | undefined
}

const isInputs = (
  u: ReadonlyArray<ReferenceInput.ReferenceInput> | ToolFailure
): u is ReadonlyArray<ReferenceInput.ReferenceInput> => Array.isArray(u)

/** The inputs of `text`, read as `s2 verify` reads a file (`Verify.read`), or why it cannot be. */
const readText = (text: string): ReadonlyArray<ReferenceInput.ReferenceInput> | ToolFailure => {
  const read = Verify.read(text)
  return Result.isFailure(read)
    ? failure("badParameter", `the text cannot be read: ${read.failure.message}`)
    : read.success.inputs
}

/** The inputs of a call: the text's references, the .bib's entries or the lines; a failure when not one of them, or too many. */
const inputsOf = (params: Params): ReadonlyArray<ReferenceInput.ReferenceInput> | ToolFailure => {
  const given = [params.text, params.bibtex, params.lines].filter((p) => p !== undefined).length
  if (given !== 1) {
    return failure(
      "badParameter",
      "give bibtex (a .bib file's text) or lines (one reference each), or text (a list in any form), one of them"
    )
  }
  const inputs = params.text !== undefined
    ? readText(params.text)
    : params.bibtex !== undefined
    ? Verify.fromBibtex(params.bibtex)
    : params.lines!.map((line, i): ReferenceInput.ReferenceInput => ({ key: String(i + 1), text: line }))
  if (!isInputs(inputs)) return inputs
  const what = params.text !== undefined ? "text" : "bibtex text"
  if (inputs.length === 0) {
    return failure("badParameter", `the ${what} has no ${params.text !== undefined ? "references" : "entries"}`)
  }
  if (inputs.length > limits.lines) {
    return failure(
      "badParameter",
      `the ${what} has ${inputs.length} ${
        params.text !== undefined ? "references" : "entries"
      }: give at most ${limits.lines} a call`
    )
  }
  return inputs
}

/**
 * `Verify.references` over the entries: it gives each verification as soon as it and those before
 * it are known, so at the budget the entries verified so far are answered and the rest are `notTried`.
 */
export const handle = (
  params: Params,
  budget: Duration.Duration
): Effect.Effect<VerifyAnswer, S2Error | ToolFailure, SemanticScholar> =>
  Effect.suspend((): Effect.Effect<VerifyAnswer, S2Error | ToolFailure, SemanticScholar> => {
    const inputs = inputsOf(params)
    if (!isInputs(inputs)) return Effect.fail(inputs)
    const results: Array<Verify.Verification> = []
    const work = Stream.runForEach(Verify.references(inputs), (v) => {
      results.push(v)
      return reportProgress(`${results.length} of ${inputs.length} references`)
    })
    return Effect.map(withinBudget(work, budget), (stopped): VerifyAnswer =>
      counted(
        inputs.map((input, i) =>
          results[i] === undefined ? notTried(ReferenceInput.keyOf(input, i)) : reference(results[i])
        ),
        stopped ? budgetSeconds(budget) : undefined
      ))
  })

/** The answer of these references: their counts, and the time budget when some were not tried. */
const counted = (references: ReadonlyArray<VerifiedReference>, timeBudget: number | undefined): VerifyAnswer => {
  const count = (status: VerifiedReference["status"]) => references.filter((r) => r.status === status).length
  const left = count("notTried")
  return {
    verified: count("verified"),
    mismatch: count("mismatch"),
    notFound: count("notFound"),
    ...(count("unchecked") > 0 ? { unchecked: count("unchecked") } : {}),
    ...(left > 0 ? { notTried: left } : {}),
    ...(timeBudget === undefined ? {} : { timeBudgetSeconds: timeBudget }),
    references
  }
}

/** The entries kept to the first `k`, counted again; `next` and `nextKey` name the first not answered. */
export const pager: Pager<VerifyAnswer, unknown> = {
  records: (answer) => answer.references.length,
  take: (answer, k, chars) => {
    const references = answer.references.slice(0, k)
    // The time budget is named only where the entries kept include some it left untried.
    const untried = references.some((r) => r.status === "notTried")
    return {
      ...counted(references, untried ? answer.timeBudgetSeconds : undefined),
      next: k,
      ...(answer.references[k] === undefined ? {} : { nextKey: answer.references[k].key }),
      answerBudgetChars: chars
    }
  },
  render: (answer) => render(answer)
}

const similar = (similarity: number | undefined) =>
  similarity === undefined ? "" : ` (similarity ${text.number(Math.round(similarity * 100) / 100)})`

const referenceLine = (r: VerifiedReference): string => {
  const notes = r.notes.length === 0 ? "" : ` — ${r.notes.join("; ")}`
  switch (r.status) {
    case "notTried":
      return `${r.key}: not tried`
    case "unchecked":
      return `${r.key}: could not be checked (not evidence against it)${notes}`
    case "notFound":
      return `${r.key}: not found${
        r.nearest === undefined ? "" : `; nearest: ${text.paperLine(r.nearest)}${similar(r.similarity)}`
      }${notes}`
    default:
      return `${r.key}: ${r.status}${r.differs.length === 0 ? "" : ` (${Verify.differ(r.differs)})`} → ${
        r.paper === undefined ? "" : text.paperLine(r.paper)
      }${r.differences === undefined ? "" : ` — ${r.differences.map((d) => `${d.field}: ${d.why}`).join("; ")}`}${
        r.correction === undefined ? "" : " (corrected entry in the structured answer)"
      }${notes}`
  }
}

/** The text the model sees: a header with the counts, then one line per entry. */
export const render = (answer: VerifyAnswer): string => {
  const header = `Verified ${text.number(answer.verified)} of ${text.number(answer.references.length)} references (${
    text.number(answer.mismatch)
  } mismatch, ${text.number(answer.notFound)} not found${
    answer.unchecked === undefined ? "" : `, ${text.number(answer.unchecked)} unchecked`
  })${
    answer.timeBudgetSeconds === undefined
      ? ""
      : `; stopped at the ${text.number(answer.timeBudgetSeconds)} s time budget: ${
        text.number(answer.notTried ?? 0)
      } not tried; call again with them`
  }${
    answer.next === undefined || answer.answerBudgetChars === undefined
      ? ""
      : `; ${text.budgetCut(answer.answerBudgetChars)}: call again with the references from no. ${
        text.number(answer.next + 1)
      }${answer.nextKey === undefined ? "" : ` (${answer.nextKey})`} on`
  }:`
  return [header, ...answer.references.map((r, i) => `${text.number(i + 1)}. ${referenceLine(r)}`)]
    .map((line) => text.cut(text.oneLine(line), text.maxLine)).join("\n")
}

/** The tool's definition, for the table of `tools.ts`. */
export const spec = {
  title: "Verify references",
  description: "Check references, one answer each, in order: verified; mismatch (fields that " +
    "differ, the record's values, a corrected entry); notFound (likely invented, the nearest title); " +
    "unchecked (no evidence against it).",
  parameters,
  success: VerifyAnswer,
  render
}
