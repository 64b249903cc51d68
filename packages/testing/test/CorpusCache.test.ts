/**
 * Corpus files: a corpus read from its file is the corpus built from the seed (papers, graph,
 * authors' tables, search answers); a file that is damaged, truncated, hostile, stale, too long or
 * a symbolic link is never trusted (a Warning, then the corpus is built), never followed when
 * writing, and a directory keeps a bounded number of files.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, Ref } from "effect"
import * as fc from "fast-check"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
// @ts-expect-error: a plain script of this package, without types
import { corpusVersion } from "../scripts/corpus-version.mjs"
import { type Corpus, CorpusCache } from "../src/index.js"
import { CorpusImpl } from "../src/internal/corpus/corpus.js"
import { decode, encode } from "../src/internal/corpus/snapshot.js"
import { CORPUS_VERSION } from "../src/internal/corpus/version.js"

const SIZE = 300
const built = new CorpusImpl({ seed: 7, size: SIZE })
const key = { seed: 7, size: SIZE, authorCount: built.authorCount }
const QUERIES = ["neural network", "learning", "graph models", "transformer attention"]

const temporary = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-corpus-cache-"))

/** Everything a corpus answers from, compared as plain data. */
const contents = (corpus: Corpus) => ({
  papers: corpus.papers.map((p) => JSON.stringify(p)),
  graph: Object.fromEntries(Object.entries(corpus.graph).map(([name, a]) => [name, Array.from(a as Int32Array)])),
  authors: [corpus.authorPaperStart, corpus.authorPapers, corpus.authorCitationCount, corpus.authorHIndex].map((a) =>
    Array.from(a)
  ),
  searches: QUERIES.flatMap((q) => [corpus.searchIndex.search(q), corpus.searchIndex.search(q, { prefix: true })])
})
const truth = contents(built)

/** The corpus from `directory` and the Warnings said meanwhile. */
const fromCache = (directory: string, options: { readonly size?: number; readonly write?: boolean } = {}) =>
  Effect.gen(function*() {
    const lines = yield* Ref.make<ReadonlyArray<string>>([])
    const logger = Logger.make(({ logLevel, message }) =>
      Effect.runSync(Ref.update(lines, (all) => [...all, `${logLevel}: ${String(message)}`]))
    )
    const corpus = yield* CorpusCache.make({ seed: 7, size: options.size ?? SIZE, directory, write: options.write })
      .pipe(Effect.provide(Logger.layer([logger])))
    return { corpus: corpus as CorpusImpl, warnings: yield* Ref.get(lines) }
  }).pipe(Effect.provide(NodeFileSystem.layer))

const fileIn = (directory: string, size = SIZE) => Path.join(directory, CorpusCache.fileName(7, size))

describe("CorpusCache", () => {
  it("keys files by a version that is the generator's sources' hash", () => {
    // A changed generator must never read an old corpus: run scripts/corpus-version.mjs --write.
    expect(CORPUS_VERSION).toBe(corpusVersion())
    expect(CorpusCache.fileName(7, SIZE)).toBe(`corpus-7-${SIZE}-${CORPUS_VERSION.slice(0, 16)}.bin`)
  })

  it("chooses the user's cache directory, or none", () => {
    expect(CorpusCache.defaultDirectory({ S2_EMULATOR_CACHE: "off" })).toBeUndefined()
    expect(CorpusCache.defaultDirectory({ S2_EMULATOR_CACHE: "/tmp/x" })).toBe(Path.resolve("/tmp/x"))
    if (process.platform !== "win32") {
      expect(CorpusCache.defaultDirectory({ XDG_CACHE_HOME: "/c" })).toBe("/c/s2-effect/emulator")
      expect(CorpusCache.defaultDirectory({ XDG_CACHE_HOME: "relative" })).toBe(
        Path.join(Os.homedir(), ".cache", "s2-effect", "emulator")
      )
    }
  })

  it.effect("writes a corpus once and reads the same corpus back", () =>
    Effect.gen(function*() {
      const directory = Path.join(temporary(), "a", "b")
      const first = yield* fromCache(directory)
      expect(first.corpus.fromFile).toBe(false)
      expect(first.warnings).toEqual([])
      expect(Fs.lstatSync(fileIn(directory)).isFile()).toBe(true)
      const second = yield* fromCache(directory)
      expect(second.corpus.fromFile).toBe(true)
      expect(second.warnings).toEqual([])
      expect(contents(second.corpus)).toEqual(truth)
    }))

  it.effect("writes nothing with write: false, and reads nothing without a directory", () =>
    Effect.gen(function*() {
      const directory = temporary()
      const { corpus } = yield* fromCache(directory, { write: false })
      expect(Fs.readdirSync(directory)).toEqual([])
      yield* CorpusCache.save(corpus, directory).pipe(Effect.provide(NodeFileSystem.layer))
      expect(Fs.readdirSync(directory)).toEqual([CorpusCache.fileName(7, SIZE)])
      const none = yield* CorpusCache.make({ seed: 7, size: SIZE, directory: undefined })
        .pipe(Effect.provide(NodeFileSystem.layer))
      expect((none as CorpusImpl).fromFile).toBe(false)
    }))

  it.effect("never trusts a damaged file: any byte changed or the file cut, the corpus is the one built", () =>
    Effect.gen(function*() {
      const directory = temporary()
      yield* fromCache(directory)
      const good = Fs.readFileSync(fileIn(directory))
      const cases = fc.sample(
        fc.oneof(
          fc.record({ at: fc.nat(good.length - 1), xor: fc.integer({ min: 1, max: 255 }) }),
          fc.record({ cut: fc.nat(good.length - 1) })
        ),
        { numRuns: 12, seed: 47 }
      )
      for (const change of cases) {
        const bytes = Buffer.from(good)
        Fs.writeFileSync(fileIn(directory), "cut" in change ? bytes.subarray(0, change.cut) : bytes)
        if ("at" in change) {
          bytes[change.at] = bytes[change.at]! ^ change.xor
          Fs.writeFileSync(fileIn(directory), bytes)
        }
        const { corpus, warnings } = yield* fromCache(directory, { write: false })
        expect(contents(corpus)).toEqual(truth)
        // Only the header's 4 bytes of padding may change unseen.
        if (corpus.fromFile) expect("at" in change && change.at >= 108 && change.at < 112).toBe(true)
        else expect(warnings.join("\n")).toMatch(/^Warn: emulator corpus file .* not used \(.+\): building/)
      }
    }))

  it("refuses a hostile file whose checksum is right: indices out of range, lists out of order, another corpus", () => {
    const derived = built.derived()
    const tampered = (change: (copy: Int32Array) => void, pick: (d: typeof derived) => Int32Array) => {
      const copy = pick(derived).slice()
      change(copy)
      return { derived, copy, pick }
    }
    const graphWith = (name: "refTargets" | "citeSources" | "refStart", change: (copy: Int32Array) => void) => {
      const { copy } = tampered(change, (d) => d.graph[name])
      return encode(key, { ...derived, graph: { ...derived.graph, [name]: copy } })
    }
    expect(decode(graphWith("refTargets", (a) => void (a[0] = SIZE + 5)), key)).toBe("refTargets out of range")
    expect(decode(graphWith("citeSources", (a) => void (a[1] = -1)), key)).toBe("citeSources out of range")
    expect(decode(graphWith("refStart", (a) => void (a[5] = a[4]! - 1)), key)).toBe("refStart decreases")
    expect(decode(encode(key, derived), { ...key, seed: 8 })).toMatch(/^the corpus of seed 7/)
    // An author's papers that are not the papers': the corpus is built, with the reason.
    const authorPapers = derived.authorPapers.slice().reverse()
    const other = new CorpusImpl({ seed: 7, size: SIZE }, encode(key, { ...derived, authorPapers }))
    expect([other.fromFile, other.refused]).toEqual([false, "an author's papers"])
  })

  it("keeps terms as data: a term named __proto__ reaches no prototype", () => {
    const derived = built.derived()
    const termNames = [...derived.index.termNames]
    termNames[0] = "__proto__"
    termNames[1] = "constructor"
    const index = Object.assign(Object.create(Object.getPrototypeOf(derived.index)), derived.index, { termNames })
    const read = decode(encode(key, { ...derived, index }), key)
    expect(typeof read).toBe("object")
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
    expect(Object.getPrototypeOf({})).toBe(Object.prototype)
  })

  it.effect("never reads or writes through a symbolic link, nor reads a file too long to be a corpus", () =>
    Effect.gen(function*() {
      const directory = temporary()
      const target = Path.join(temporary(), "elsewhere.bin")
      Fs.writeFileSync(target, "not yours")
      Fs.symlinkSync(target, fileIn(directory))
      const linked = yield* fromCache(directory)
      expect(contents(linked.corpus)).toEqual(truth)
      expect(Fs.readFileSync(target, "utf8")).toBe("not yours")
      expect(Fs.lstatSync(fileIn(directory)).isSymbolicLink()).toBe(true)
      expect(linked.warnings.join("\n")).toMatch(/not a regular file/)
      Fs.rmSync(fileIn(directory))
      Fs.writeFileSync(fileIn(directory), Buffer.alloc(1_048_576 + 1024 * SIZE + 1))
      const long = yield* fromCache(directory)
      expect(long.warnings.join("\n")).toMatch(/too long/)
      expect(contents(long.corpus)).toEqual(truth)
      expect((yield* fromCache(directory)).corpus.fromFile).toBe(true)
    }))

  it.effect("keeps at most 4 corpus files in a directory, the newest", () =>
    Effect.gen(function*() {
      const directory = temporary()
      for (const size of [20, 21, 22, 23, 24]) {
        yield* fromCache(directory, { size })
        // Distinct times, oldest first, whatever the file system's resolution.
        const when = new Date(Date.UTC(2026, 0, 1, 0, size))
        Fs.utimesSync(fileIn(directory, size), when, when)
      }
      expect(Fs.readdirSync(directory).sort()).toEqual([21, 22, 23, 24].map((size) => CorpusCache.fileName(7, size)))
    }))
})
