/**
 * The bulk-search boolean query language: `+` and, `|` or, `-` not, `"phrase"`, `word*` prefix,
 * `( )` grouping, `~N` fuzziness on words and slop on phrases. Juxtaposition means AND.
 */
import * as Data from "effect/Data"
import type { Corpus } from "../Corpus.js"
import { term, terms, tokenize } from "./corpus/corpus.js"

export type QueryNode = Data.TaggedEnum<{
  All: Record<never, never>
  Word: { readonly word: string; readonly prefix: boolean; readonly fuzzy: number }
  Phrase: { readonly words: ReadonlyArray<string>; readonly slop: number }
  Not: { readonly node: QueryNode }
  And: { readonly nodes: ReadonlyArray<QueryNode> }
  Or: { readonly nodes: ReadonlyArray<QueryNode> }
}>

const QueryNode = Data.taggedEnum<QueryNode>()

/** Matches everything: an empty query, or a part of one that has no words. */
const all: QueryNode = QueryNode.All()
const isAll = QueryNode.$is("All")

type Token =
  | { readonly t: "op"; readonly v: "+" | "|" | "-" | "(" | ")" }
  | { readonly t: "word"; readonly v: string; readonly prefix: boolean; readonly tilde: number | undefined }
  | { readonly t: "phrase"; readonly v: string; readonly tilde: number | undefined }

const lex = (input: string): Array<Token> => {
  const out: Array<Token> = []
  let i = 0
  const tilde = (): number | undefined => {
    if (input[i] !== "~") return undefined
    i++
    let digits = ""
    while (i < input.length && /\d/.test(input[i]!)) digits += input[i++]
    return digits === "" ? 2 : Number(digits)
  }
  while (i < input.length) {
    const c = input[i]!
    if (/\s/.test(c)) {
      i++
    } else if (c === "+" || c === "|" || c === "-" || c === "(" || c === ")") {
      out.push({ t: "op", v: c })
      i++
    } else if (c === "\"") {
      const end = input.indexOf("\"", i + 1)
      const text = end < 0 ? input.slice(i + 1) : input.slice(i + 1, end)
      i = end < 0 ? input.length : end + 1
      out.push({ t: "phrase", v: text, tilde: tilde() })
    } else {
      let word = ""
      while (i < input.length && !/[\s+|()"~]/.test(input[i]!)) word += input[i++]
      const prefix = word.endsWith("*")
      if (prefix) word = word.slice(0, -1)
      out.push({ t: "word", v: word, prefix, tilde: tilde() })
    }
  }
  return out
}

/** Parses a bulk query; an empty query matches everything. Never fails: stray operators are ignored. */
export const parseBulkQuery = (input: string): QueryNode => {
  const tokens = lex(input)
  let pos = 0
  const peek = (): Token | undefined => tokens[pos]
  const parseOr = (): QueryNode => {
    const nodes = [parseAnd()]
    while (peek()?.t === "op" && peek()?.v === "|") {
      pos++
      nodes.push(parseAnd())
    }
    const real = nodes.filter((n) => !isAll(n))
    if (real.length < nodes.length) return all
    return real.length === 1 ? real[0]! : QueryNode.Or({ nodes: real })
  }
  const parseAnd = (): QueryNode => {
    const nodes: Array<QueryNode> = []
    for (;;) {
      const t = peek()
      if (t === undefined || (t.t === "op" && (t.v === "|" || t.v === ")"))) break
      if (t.t === "op" && t.v === "+") {
        pos++
        continue
      }
      nodes.push(parseUnary())
    }
    const real = nodes.filter((n) => !isAll(n))
    if (real.length === 0) return all
    return real.length === 1 ? real[0]! : QueryNode.And({ nodes: real })
  }
  const parseUnary = (): QueryNode => {
    const t = peek()
    if (t?.t === "op" && t.v === "-") {
      pos++
      const node = parseUnary()
      return isAll(node) ? node : QueryNode.Not({ node })
    }
    return parsePrimary()
  }
  const parsePrimary = (): QueryNode => {
    const t = tokens[pos++]
    if (t === undefined) return all
    if (t.t === "op") {
      if (t.v === "(") {
        const node = parseOr()
        if (peek()?.t === "op" && peek()?.v === ")") pos++
        return node
      }
      return all
    }
    // Words are matched by their stems, as the index holds them; a prefix is matched as typed.
    if (t.t === "phrase") {
      const words = terms(t.v)
      if (words.length === 0) return all
      if (words.length === 1) return QueryNode.Word({ word: words[0]!, prefix: false, fuzzy: 0 })
      return QueryNode.Phrase({ words, slop: t.tilde ?? 0 })
    }
    const words = tokenize(t.v)
    if (words.length === 0) return all
    if (words.length > 1) return QueryNode.Phrase({ words: words.map(term), slop: 0 })
    return QueryNode.Word({ word: t.prefix ? words[0]! : term(words[0]!), prefix: t.prefix, fuzzy: t.tilde ?? 0 })
  }
  return parseOr()
}

export const editDistanceAtMost = (a: string, b: string, max: number): boolean => {
  if (Math.abs(a.length - b.length) > max) return false
  let prev = Array.from({ length: b.length + 1 }, (_, k) => k)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    let best = i
    for (let k = 1; k <= b.length; k++) {
      const v = Math.min(prev[k]! + 1, cur[k - 1]! + 1, prev[k - 1]! + (a[i - 1] === b[k - 1] ? 0 : 1))
      cur.push(v)
      if (v < best) best = v
    }
    if (best > max) return false
    prev = cur
  }
  return prev[b.length]! <= max
}

const phraseAt = (tokens: ReadonlyArray<string>, words: ReadonlyArray<string>, slop: number): boolean => {
  for (let start = 0; start < tokens.length; start++) {
    if (tokens[start] !== words[0]) continue
    let pos = start
    let gaps = 0
    let ok = true
    for (let w = 1; w < words.length && ok; w++) {
      let next = pos + 1
      while (next < tokens.length && tokens[next] !== words[w] && next - pos - 1 + gaps <= slop) next++
      if (next >= tokens.length || tokens[next] !== words[w]) ok = false
      else {
        gaps += next - pos - 1
        pos = next
      }
    }
    if (ok && gaps <= slop) return true
  }
  return false
}

/** Evaluates a query over the materialized corpus to a membership bitmap. */
export const evaluate = (corpus: Corpus, node: QueryNode): Uint8Array => {
  const size = corpus.size
  const fromPostings = (lists: ReadonlyArray<Int32Array>): Uint8Array => {
    const out = new Uint8Array(size)
    for (const list of lists) for (const i of list) out[i] = 1
    return out
  }
  switch (node._tag) {
    case "All":
      return new Uint8Array(size).fill(1)
    case "Word": {
      const postings = corpus.postings
      if (!node.prefix && node.fuzzy === 0) return fromPostings([postings.get(node.word) ?? new Int32Array(0)])
      const lists: Array<Int32Array> = []
      for (const [token, list] of postings) {
        const matches = node.prefix
          ? token.startsWith(node.word) || token === term(node.word)
          : editDistanceAtMost(token, node.word, node.fuzzy)
        if (matches) {
          lists.push(list)
        }
      }
      return fromPostings(lists)
    }
    case "Phrase": {
      const out = evaluate(
        corpus,
        QueryNode.And({ nodes: node.words.map((word) => QueryNode.Word({ word, prefix: false, fuzzy: 0 })) })
      )
      for (let i = 0; i < size; i++) if (out[i] === 1 && !phraseAt(corpus.tokens(i), node.words, node.slop)) out[i] = 0
      return out
    }
    case "Not": {
      const inner = evaluate(corpus, node.node)
      for (let i = 0; i < size; i++) inner[i] = inner[i] === 1 ? 0 : 1
      return inner
    }
    case "And": {
      const [first, ...rest] = node.nodes.map((n) => evaluate(corpus, n))
      const out = first ?? new Uint8Array(size).fill(1)
      for (const other of rest) for (let i = 0; i < size; i++) out[i] = out[i]! & other[i]!
      return out
    }
    case "Or": {
      const out = new Uint8Array(size)
      for (const other of node.nodes.map((n) => evaluate(corpus, n))) {
        for (let i = 0; i < size; i++) out[i] = out[i]! | other[i]!
      }
      return out
    }
  }
}
