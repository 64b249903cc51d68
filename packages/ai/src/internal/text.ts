/**
 * The short text each assistant tool shows the model (its `toModelOutput`): a header line, then
 * one line per record. Whatever the server sent, the text is bounded (every line at most
 * {@link maxLine} characters, at most one line per record plus a few) and carries no control
 * character but the line breaks between lines, so a hostile record cannot flood the model's
 * context or smuggle terminal escapes into a transcript.
 */
import { excerpt as cut, replaceUnsafe } from "@s2-effect/core"
import type {
  AuthorPapersAnswer,
  AuthorSearchAnswer,
  AuthorSummary,
  CitationsAnswer,
  GraphAnswer,
  PaperDetail,
  PapersAnswer,
  PaperSearchAnswer,
  PaperSummary,
  RecommendationsAnswer,
  ReferencesAnswer,
  RelatedAnswer,
  SnippetsAnswer,
  TitleMatch
} from "../Answers.js"

/** The longest line of any rendering. */
export const maxLine = 2000

/**
 * `value` on one line: every character core's `replaceUnsafe` lists a space (C0 and C1 controls,
 * line and paragraph separators, the bidirectional controls, which can make a line read
 * differently from what it holds, and lone surrogates).
 */
export const oneLine = (value: string): string => replaceUnsafe(value, () => " ")

export { cut }

/** One line of the rendering: controls replaced, cut to {@link maxLine}. */
const line = (value: string) => cut(oneLine(value), maxLine)

const lines = (header: string, body: ReadonlyArray<string>) => [header, ...body].map(line).join("\n")

/** 25000 → "25,000". */
export const number = (n: number): string => n.toLocaleString("en-US")

const plural = (n: number, one: string, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`

const quoted = (value: string) => `"${cut(oneLine(value), 200)}"`

const surname = (name: string) => {
  const words = name.trim().split(/\s+/)
  return words[words.length - 1] ?? name
}

/** "Kipf, Welling" or "Vaswani, Shazeer, Parmar et al.". */
const authorList = (paper: PaperSummary) => {
  const names = paper.authors.slice(0, 3).map(surname).filter((n) => n.length > 0)
  if (names.length === 0) return undefined
  return paper.authorCount > names.length ? `${names.join(", ")} et al.` : names.join(", ")
}

const present = (parts: ReadonlyArray<string | undefined>) =>
  parts.filter((p): p is string => p !== undefined && p.length > 0)

/** "Title (2016) — Kipf, Welling · ICLR · 25,000 citations · paperId … · arXiv 1609.02907". */
export const paperLine = (paper: PaperSummary, extra: ReadonlyArray<string | undefined> = []): string => {
  const title = `${paper.title.length > 0 ? paper.title : "(untitled)"}${
    paper.year === undefined ? "" : ` (${paper.year})`
  }`
  const authors = authorList(paper)
  return present([
    `${title}${authors === undefined ? "" : ` — ${authors}`}`,
    paper.venue,
    paper.citationCount === undefined ? undefined : plural(paper.citationCount, "citation"),
    ...extra,
    `paperId ${paper.paperId}`,
    paper.doi === undefined ? undefined : `DOI ${paper.doi}`,
    paper.arxiv === undefined ? undefined : `arXiv ${paper.arxiv}`
  ]).join(" · ")
}

const numbered = <A>(items: ReadonlyArray<A>, start: number, render: (item: A) => string) =>
  items.map((item, i) => `${number(start + i + 1)}. ${render(item)}`)

/** Why an answer holds fewer records than it found: the answer budget, in characters. */
export const budgetCut = (chars: number): string => `cut at the ${number(chars)}-character answer budget`

/** " (next offset 10)", or " (cut at the 24,000-character answer budget; next offset 7)" for a cut page. */
const nextNote = (next: number | undefined, cutAt?: number) =>
  next === undefined
    ? ""
    : ` (${cutAt === undefined ? "" : `${budgetCut(cutAt)}; `}next offset ${number(next)})`

/** "; cut at the 24,000-character answer budget: <then>" for a cut answer, else nothing. */
const cutNote = (cutAt: number | undefined, then: string) => cutAt === undefined ? "" : `; ${budgetCut(cutAt)}: ${then}`

/** "no. 14" of a position from 0. */
const ordinal = (position: number) => `no. ${number(position + 1)}`

const atOffset = (offset: number) => offset > 0 ? ` at offset ${number(offset)}` : ""

export const searchPapers = (answer: PaperSearchAnswer): string =>
  answer.papers.length === 0
    ? line(`no papers found${atOffset(answer.offset)}`)
    : lines(
      `${number(answer.papers.length)} of ${plural(answer.total, "paper")} found${
        nextNote(answer.next, answer.answerBudgetChars)
      }:`,
      numbered(answer.papers, answer.offset, (p) => paperLine(p))
    )

export const paperDetail = (paper: PaperDetail): string =>
  lines(
    paperLine(paper, [
      paper.influentialCitationCount === undefined
        ? undefined
        : `${number(paper.influentialCitationCount)} influential`,
      paper.referenceCount === undefined ? undefined : plural(paper.referenceCount, "reference")
    ]),
    present([
      paper.authors.length === 0 ?
        undefined :
        `Authors: ${paper.authors.join(", ")}${
          paper.authorCount > paper.authors.length
            ? ` and ${number(paper.authorCount - paper.authors.length)} more`
            : ""
        }`,
      paper.journal === undefined && paper.publicationDate === undefined
        ? undefined
        : `Published: ${present([paper.journal, paper.publicationDate]).join(", ")}`,
      paper.fieldsOfStudy === undefined || paper.fieldsOfStudy.length === 0
        ? undefined
        : `Fields: ${paper.fieldsOfStudy.join(", ")}`,
      paper.tldr === undefined ? undefined : `TL;DR: ${paper.tldr}`,
      paper.abstract === undefined ? undefined : `Abstract: ${paper.abstract}`,
      paper.openAccessPdf === undefined ? undefined : `PDF: ${paper.openAccessPdf}`,
      paper.url === undefined ? undefined : `URL: ${paper.url}`
    ])
  )

export const papers = (answer: PapersAnswer): string => {
  const missing = answer.notFound.length === 0
    ? ""
    : ` (${number(answer.notFound.length)} not found: ${cut(answer.notFound.join(", "), 1000)})`
  const rest = answer.next === undefined
    ? ""
    : cutNote(answer.answerBudgetChars, `call again with the ids from ${ordinal(answer.next)} on`)
  return answer.papers.length === 0
    ? line(`no papers found${missing}`)
    : lines(
      `${plural(answer.papers.length, "paper")}${missing}${rest}:`,
      numbered(answer.papers, 0, (p) => paperLine(p))
    )
}

export const citations = (answer: CitationsAnswer, relation: "citing" | "cited by"): string =>
  answer.papers.length === 0
    ? line(`no papers ${relation} ${answer.paperId}${atOffset(answer.offset)}`)
    : lines(
      `${plural(answer.papers.length, "paper")} ${relation} ${answer.paperId}${
        nextNote(answer.next, answer.answerBudgetChars)
      }:`,
      numbered(
        answer.papers,
        answer.offset,
        (p) => paperLine(p, [p.isInfluential === true ? "influential" : undefined])
      )
    )

export const authorLine = (author: AuthorSummary): string =>
  present([
    author.name.length > 0 ? author.name : "(unnamed)",
    author.affiliations.length === 0 ? undefined : author.affiliations.join("; "),
    author.paperCount === undefined ? undefined : plural(author.paperCount, "paper"),
    author.citationCount === undefined ? undefined : plural(author.citationCount, "citation"),
    author.hIndex === undefined ? undefined : `h-index ${number(author.hIndex)}`,
    `authorId ${author.authorId}`
  ]).join(" · ")

export const searchAuthors = (answer: AuthorSearchAnswer): string =>
  answer.authors.length === 0
    ? line(`no authors found${atOffset(answer.offset)}`)
    : lines(
      `${number(answer.authors.length)} of ${plural(answer.total, "author")} found${
        nextNote(answer.next, answer.answerBudgetChars)
      }:`,
      numbered(answer.authors, answer.offset, authorLine)
    )

export const author = (answer: AuthorSummary): string =>
  lines(authorLine(answer), present([answer.homepage === undefined ? undefined : `Homepage: ${answer.homepage}`]))

export const authorPapers = (answer: AuthorPapersAnswer): string =>
  answer.papers.length === 0
    ? line(`no papers by author ${answer.authorId}${atOffset(answer.offset)}`)
    : lines(
      `${plural(answer.papers.length, "paper")} by author ${answer.authorId}${
        nextNote(answer.next, answer.answerBudgetChars)
      }:`,
      numbered(answer.papers, answer.offset, (p) => paperLine(p))
    )

export const recommendations = (answer: RecommendationsAnswer): string =>
  answer.papers.length === 0
    ? `no papers recommended${atOffset(answer.offset ?? 0)}`
    : lines(
      `${plural(answer.papers.length, "recommended paper")}${nextNote(answer.next, answer.answerBudgetChars)}:`,
      numbered(answer.papers, answer.offset ?? 0, (p) => paperLine(p))
    )

export const titleMatch = (answer: TitleMatch): string =>
  lines(
    `Best title match${answer.matchScore === undefined ? "" : ` (score ${number(answer.matchScore)})`}:`,
    [paperLine(answer)]
  )

export const snippets = (answer: SnippetsAnswer): string =>
  answer.snippets.length === 0
    ? `no passages found${atOffset(answer.offset ?? 0)}`
    : lines(
      `${plural(answer.snippets.length, "passage")} found${nextNote(answer.next, answer.answerBudgetChars)}:`,
      numbered(answer.snippets, answer.offset ?? 0, (s) =>
        present([
          `"${s.text}" — ${s.paper.title.length > 0 ? s.paper.title : "(untitled)"}`,
          s.section,
          s.score === undefined ? undefined : `score ${number(Math.round(s.score * 1000) / 1000)}`,
          s.paper.paperId.length > 0 ? `paperId ${s.paper.paperId}` : undefined
        ]).join(" · "))
    )

/** Why an answer stopped at the time budget, and what to do next. */
const stoppedAt = (seconds: number | undefined, then: string) =>
  seconds === undefined ? "" : `; stopped at the ${number(seconds)} s time budget: ${then}`

export const references = (answer: ReferencesAnswer): string =>
  lines(
    `Resolved ${number(answer.found)} of ${plural(answer.references.length, "line")}${
      answer.notFound > 0 ? ` (${number(answer.notFound)} not found)` : ""
    }${
      stoppedAt(
        answer.timeBudgetSeconds,
        `${plural(answer.notTried ?? 0, "line")} not tried; call again with them`
      )
    }${
      answer.next === undefined
        ? ""
        : cutNote(answer.answerBudgetChars, `call again with the lines from ${ordinal(answer.next)} on`)
    }:`,
    numbered(answer.references, 0, (r) =>
      r.reason === "notTried"
        ? `not tried: ${quoted(r.line)}`
        : r.paper === undefined
        ? `not found (${r.reason ?? "unknown"}): ${quoted(r.line)}${
          r.nearest === undefined
            ? ""
            : `; nearest: ${paperLine(r.nearest)}${
              r.similarity === undefined ? "" : ` (similarity ${number(Math.round(r.similarity * 100) / 100)})`
            }`
        }`
        : `${quoted(r.line)} → ${paperLine(r.paper)}${r.via === undefined ? "" : ` (by ${r.via})`}`)
  )

export const related = (answer: RelatedAnswer): string =>
  lines(
    `${plural(answer.papers.length, "paper")} related to ${
      answer.seeds.map((s) => quoted(s.title.length > 0 ? s.title : s.paperId)).join(", ") || "no seed found"
    }, best first, of ${number(answer.candidates)} ranked from ${plural(answer.citing, "paper")} citing a seed and ${
      number(answer.cited)
    } cited by one${
      answer.cutLists === 0 ? "" : ` (${plural(answer.cutLists, "list")} cut at 1,000: counts may be low)`
    }${stoppedAt(answer.timeBudgetSeconds, "ranked from the lists read so far; call again with fewer seeds")}${
      answer.notFound.length === 0 ? "" : `; not found: ${cut(answer.notFound.join(", "), 1000)}`
    }${answer.next === undefined ? "" : cutNote(answer.answerBudgetChars, `next offset ${number(answer.next)}`)}:`,
    numbered(answer.papers, answer.offset ?? 0, (p) =>
      paperLine(p, [
        `score ${number(Math.round(p.score * 1000) / 1000)}`,
        `co-cited ${number(p.coCitation)}, coupled ${number(p.coupling)}`,
        p.citesSeed ? "cites a seed" : undefined,
        p.citedBySeed ? "cited by a seed" : undefined
      ]))
  )

/** Edges in the text: at most this many lines of "[n] cites [m], [k]". */
const maxEdgeLines = 100

export const graph = (answer: GraphAnswer): string => {
  const index = new Map(answer.nodes.map((node, i) => [node.paperId, i + 1]))
  const cites = new Map<number, Array<number>>()
  for (const edge of answer.edges) {
    const from = index.get(edge.from)
    const to = index.get(edge.to)
    if (from === undefined || to === undefined) continue
    const list = cites.get(from) ?? []
    list.push(to)
    cites.set(from, list)
  }
  const edgeLines = [...cites].map(([from, to]) => `[${from}] cites ${to.map((n) => `[${n}]`).join(", ")}`)
  const shown = edgeLines.slice(0, maxEdgeLines)
  return lines(
    `${plural(answer.nodes.length, "paper")}, ${plural(answer.edges.length, "citation")}${
      answer.truncated && answer.timeBudgetSeconds === undefined ? " (cut at the paper limit)" : ""
    }${
      stoppedAt(
        answer.timeBudgetSeconds,
        "the papers found so far; for more, call again with a smaller depth or perNode, or fewer seeds"
      )
    }${answer.notFound.length === 0 ? "" : `; not found: ${cut(answer.notFound.join(", "), 1000)}`}${
      answer.skipped === undefined
        ? ""
        : `; skipped ${plural(answer.skipped, "id")} the server listed that no request can carry`
    }${
      cutNote(
        answer.answerBudgetChars,
        `${plural(answer.notShown ?? 0, "more paper")} (the farthest from the seeds) not shown; ` +
          "for them, call again with a smaller maxNodes or perNode, or from some of them as seeds"
      )
    }:`,
    [
      ...answer.nodes.map((node, i) =>
        present([
          `[${i + 1}] ${node.title.length > 0 ? node.title : "(untitled)"}${
            node.year === undefined ? "" : ` (${node.year})`
          }`,
          node.citationCount === undefined ? undefined : plural(node.citationCount, "citation"),
          `depth ${node.depth}`,
          `paperId ${node.paperId}`
        ]).join(" · ")
      ),
      ...shown,
      ...(edgeLines.length > shown.length
        ? [`… and ${number(edgeLines.length - shown.length)} more citing papers`]
        : [])
    ]
  )
}
