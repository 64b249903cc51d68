/**
 * The queries `Resolve.references` sends for titles: a bulk search ORing quoted titles, and a title
 * match that, as lenient as the live endpoint appears in the recordings, still never matches on
 * stop words alone.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Emulator } from "../src/index.js"
import { arr, call, obj } from "./helpers.js"

const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0).join(" ")

const match = (title: string) =>
  call("GET", `/graph/v1/paper/search/match?query=${encodeURIComponent(title)}&fields=title`)

describe("bulk search: quoted titles ORed", () => {
  it.effect("answers every paper holding one of the phrases (title or abstract), each title's own paper among them", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const titles = corpus.papers.slice(0, 50).map((p) => p.title)
      // As Resolve sends them: letters and digits only, so nothing inside the quotes is an operator.
      const query = titles.map((t) => `"${t.replace(/[^\p{L}\p{N}]+/gu, " ").trim()}"`).join(" | ")
      const page = obj(
        (yield* call("GET", `/graph/v1/paper/search/bulk?query=${encodeURIComponent(query)}&fields=title,abstract`))
          .json
      )
      expect(page.token).toBe(null)
      const found = arr(page.data).map(obj)
      const foundIds = new Set(found.map((p) => String(p.paperId)))
      for (const p of corpus.papers.slice(0, 50)) expect(foundIds.has(p.paperId)).toBe(true)
      const phrases = titles.map(words)
      for (const p of found) {
        const text = words(`${String(p.title)} ${String(p.abstract ?? "")}`)
        expect(phrases.some((phrase) => ` ${text} `.includes(` ${phrase} `))).toBe(true)
      }
      expect(found.length).toBe(page.total)
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 2000 }))))

  it.effect("inside quotes, | - + ( ) * ~ are text, not operators", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const title = corpus.papers[7]!.title
      const [first, ...rest] = title.split(" ")
      const quoted = `"${first} - ( ${rest.join(" | ")} )*"`
      const page = obj(
        (yield* call("GET", `/graph/v1/paper/search/bulk?query=${encodeURIComponent(quoted)}&fields=title`)).json
      )
      expect(arr(page.data).map((p) => obj(p).paperId)).toContain(corpus.papers[7]!.paperId)
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 500 }))))
})

describe("title match", () => {
  it.effect("stop words alone never match: \"the texbook\" is 404, not \"On the cancer of elderly cancer\"", () =>
    Effect.gen(function*() {
      for (const query of ["the texbook", "on the of", "A Study of the"]) {
        const reply = yield* match(query)
        expect([query, reply.status]).toEqual([query, 404])
        expect(reply.text).toBe("{\"error\":\"Title match not found\"}\n")
      }
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 10_000 }))))

  it.effect("as lenient as the live endpoint: a fragment or half the content words answer the whole title", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const title = corpus.papers[3]!.title
      const fragment = title.split(" ").slice(0, 4).join(" ")
      const hit = obj(arr(obj((yield* match(fragment)).json).data)[0])
      const hitWords = new Set(words(String(hit.title)).split(" "))
      for (const word of words(fragment).split(" ")) expect(hitWords.has(word)).toBe(true)
      // The live endpoint answers a near title too: the client, not the server, checks it.
      const near = obj(arr(obj((yield* match("Deep residual learning for image recognition")).json).data)[0])
      expect(near.title).toBe("Deep variational inference for speech recognition and image classification")
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 1000 }))))
})
