/**
 * A small labelled set built from the real recorded papers (../shared/s2-recordings, when present;
 * nothing of them copied): each paper cited as people write it (full author lists or "and others",
 * "Given Family" or "Family, G.", British spellings, a dropped leading article, the first version's
 * year) must be verified, and each bad variant (a partial author list, the first two authors
 * swapped, another paper's authors, one function word changed, a year before the first version)
 * flagged. The server is scripted over the same records.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Paper } from "@s2-effect/core"
import { Effect, Stream } from "effect"
import { TestClock } from "effect/testing"
import { Verify } from "../src/index.js"
import { corpusServer } from "./support/CorpusServer.js"
import { present, recordedPapers } from "./support/RecordedPapers.js"

const usable = (p: Paper): boolean =>
  typeof p.title === "string" && p.title.trim().split(/\s+/).length >= 4 && typeof p.year === "number" &&
  (p.authors ?? []).length >= 2 && (p.authors ?? []).every((a) => typeof a.name === "string" && a.name.includes(" "))

const server = (papers: ReadonlyArray<Paper>) =>
  corpusServer(papers, (p) => ({ ...p, authors: p.authors?.map((a) => ({ authorId: a.authorId, name: a.name })) }))

const family = (name: string) => name.trim().split(/\s+/).at(-1)!
const given = (name: string) => name.trim().split(/\s+/).slice(0, -1).join(" ")
const bibName = (name: string, style: number) =>
  style === 0 ? `${family(name)}, ${given(name)}` : style === 1 ? `${family(name)}, ${given(name)[0]}.` : name

const british = (title: string) =>
  title.replace(/\b(\w{3,})iz(e|es|ed|ing|ation|ations)\b/gi, (_, stem: string, end: string) => `${stem}is${end}`)
    .replace(/\b(\w+)yz(e|ed|ing)\b/gi, (_, stem: string, end: string) => `${stem}ys${end}`)
    .replace(/\b(colo|behavio|favo)r/gi, (_, stem: string) => `${stem}ur`)

const entry = (key: string, title: string, authors: ReadonlyArray<string>, year: number, others = false) =>
  `@article{${key}, title = {${title.replace(/[{}\\]/g, () => "")}}, author = {${
    [...authors, ...(others ? ["others"] : [])].join(" and ")
  }}, year = {${year}}}\n`

const swapFunctionWord = (title: string): string | undefined => {
  const swaps: ReadonlyArray<readonly [RegExp, string]> = [
    [/\bwith\b/i, "from"],
    [/\bfor\b/i, "with"],
    [/\bof\b/i, "for"],
    [/\bin\b/i, "on"],
    [/\bon\b/i, "in"]
  ]
  for (const [word, by] of swaps) if (word.test(title)) return title.replace(word, () => by)
  return undefined
}

describe.skipIf(!present)("a labelled set from the recorded papers", () => {
  it.effect("real references verified, bad ones flagged", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 1))
      const all = recordedPapers()
      const papers = all.filter(usable).slice(0, 150)
      expect(papers.length).toBeGreaterThan(50)
      let real = ""
      let bad = ""
      papers.forEach((p, i) => {
        const names = p.authors!.map((a) => a.name!)
        const style = i % 3
        const listed = i % 4 === 0 ? names.slice(0, 1) : names
        const title = i % 5 === 0
          ? british(p.title!)
          : i % 7 === 0
          ? p.title!.replace(/^(the|a|an) /i, () => "")
          : p.title!
        real += entry(`real${i}`, title, listed.map((n) => bibName(n, style)), p.year!, listed.length < names.length)
        // Bad: a partial list without "and others", the first two swapped, another paper's authors,
        // a function word changed, a year before the paper first appeared.
        bad += entry(`partial${i}`, p.title!, names.slice(0, -1).map((n) => bibName(n, style)), p.year!)
        bad += entry(
          `swapped${i}`,
          p.title!,
          [names[1]!, names[0]!, ...names.slice(2)].map((n) => bibName(n, style)),
          p.year!
        )
        const other = papers[(i + 1) % papers.length]!.authors!.map((a) => a.name!)
        bad += entry(`foreign${i}`, p.title!, other.map((n) => bibName(n, style)), p.year!)
        const swapped = swapFunctionWord(p.title!)
        if (swapped !== undefined) bad += entry(`word${i}`, swapped, names.map((n) => bibName(n, style)), p.year!)
        bad += entry(`early${i}`, p.title!, names.map((n) => bibName(n, style)), p.year! - 1)
      })
      const check = (bib: string) =>
        Stream.runCollect(Verify.references(Verify.fromBibtex(bib))).pipe(Effect.provide(server(all)))
      const realResults = yield* check(real)
      const badResults = yield* check(bad)
      const flagged = (v: Verify.Verification) => v.status !== "verified"
      const realFlagged = realResults.filter(flagged)
      const badPassed = badResults.filter((v) => !flagged(v))
      // The figures, for the report: how many of each, and which were wrong.
      console.log(
        `real: ${realResults.length - realFlagged.length}/${realResults.length} verified; ` +
          `bad: ${badResults.length - badPassed.length}/${badResults.length} flagged`
      )
      for (const v of [...realFlagged, ...badPassed].slice(0, 20)) {
        console.log(v.key, v.status, JSON.stringify(v.differences ?? v.notes))
      }
      expect(realFlagged.length / realResults.length).toBeLessThanOrEqual(0.01)
      expect(badPassed.map((v) => v.key)).toEqual([])
    }), 120_000)
})
