/**
 * The transport-independent emulator: request → outcome. Records every request, applies faults
 * and the key policy, dispatches to the route handlers and adds CORS headers. Time comes in as an
 * argument so the in-memory layer can use Effect's Clock and the HTTP server the wall clock.
 */
import * as Data from "effect/Data"
import type { Corpus } from "../Corpus.js"
import type { EmulatorOptions, RecordedRequest } from "../Emulator.js"
import type { Config, Fault } from "../Faults.js"
import { Timeline } from "./arrivals.js"
import { makeContext, type RouteContext } from "./context.js"
import { make as makeCorpus } from "./corpus/corpus.js"
import { bodyFor, FaultState } from "./faults.js"
import * as datasets from "./routes/datasets.js"
import * as graph from "./routes/graph.js"
import * as recommendations from "./routes/recommendations.js"
import { type EmulatorRequest, type EmulatorResponse, forbidden, json, notFoundRoute, Query } from "./wire.js"

/** What the transport must do with a request: answer (after a delay, maybe cut short), never answer, or drop it. */
export type Outcome = Data.TaggedEnum<{
  Respond: {
    readonly delayMillis: number
    readonly response: EmulatorResponse
    readonly truncate: number | undefined
  }
  Hang: { readonly delayMillis: number }
  Reset: { readonly delayMillis: number }
}>

export const Outcome = Data.taggedEnum<Outcome>()

export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "Retry-After, Content-Range, Content-Length, Accept-Ranges, ETag",
  "access-control-allow-headers": "x-api-key, content-type, range",
  "access-control-allow-methods": "GET, POST, HEAD, OPTIONS"
}

const REDACTED = "<redacted>"

const segmentsOf = (pathname: string): Array<string> => pathname.split("/").slice(1)

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** Query parameters that may carry an API key (the API reads the header only, but people try these). */
const KEY_PARAM = /^(?:x-api-key|api[-_]?key|key)$/i

/**
 * A URL's `search` with the values of key parameters redacted, the rest as sent. Names are
 * compared decoded, so `api%5Fkey=` is redacted too.
 */
export const redactSearch = (search: string): string =>
  search.replace(
    /([?&])([^=&]*)=([^&]*)/g,
    (all, sep: string, name: string) =>
      KEY_PARAM.test(decode(name.replaceAll("+", " "))) ? `${sep}${name}=${REDACTED}` : all
  )

export class EmulatorCore {
  readonly corpus: Corpus
  readonly context: RouteContext
  readonly datasets: datasets.DatasetsConfig
  private faultState: FaultState
  private readonly rateLimit: number | undefined
  private recorded: Array<RecordedRequest> = []
  private seq = 0

  constructor(options: EmulatorOptions, fileBase: string) {
    this.corpus = options.corpus ?? makeCorpus({
      seed: options.seed ?? 1,
      size: options.size ?? 1000,
      ...(options.bulkSize !== undefined ? { bulkSize: options.bulkSize } : {}),
      ...(options.openWorld !== undefined ? { openWorld: options.openWorld } : {})
    })
    this.context = makeContext(
      this.corpus,
      (options.fileBase ?? fileBase).replace(/\/$/, ""),
      options.arrivals === undefined ? undefined : new Timeline(this.corpus, options.arrivals)
    )
    this.datasets = {
      releases: datasets.releaseDates(options.releases?.start ?? "2022-05-10", options.releases?.count ?? 172)
    }
    this.rateLimit = options.rateLimit
    this.faultState = this.faultStateOf(options.faults ?? {})
  }

  /** The fault state of `config`, with the emulator's own rate limit unless the config sets one. */
  private faultStateOf(config: Config): FaultState {
    const rate = config.keyPolicy?.ratePerSecond ?? this.rateLimit
    return new FaultState(
      rate === undefined ? config : { ...config, keyPolicy: { ...config.keyPolicy, ratePerSecond: rate } }
    )
  }

  get requests(): ReadonlyArray<RecordedRequest> {
    return this.recorded
  }
  clearRequests(): void {
    this.recorded = []
  }
  /** Replaces the fault configuration and resets its counters. */
  setFaults(config: Config): void {
    this.faultState = this.faultStateOf(config)
  }

  handle(request: EmulatorRequest, now: number): Outcome {
    const key = request.headers["x-api-key"]
    const keyPresent = key !== undefined && key !== ""
    const policy = this.faultState.config.keyPolicy
    const keyMatched = policy?.keys === undefined ? undefined : keyPresent && policy.keys.includes(key)
    const outcome = this.decide(request, now, keyPresent ? key : undefined, keyMatched)
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) headers[name] = name === "x-api-key" ? REDACTED : value
    const search = redactSearch(request.url.search)
    this.recorded.push({
      seq: ++this.seq,
      at: now,
      method: request.method,
      url: search === request.url.search
        ? request.url.href
        : request.url.href.replace(request.url.search, () => search),
      host: request.url.host,
      path: request.url.pathname,
      query: [...request.url.searchParams.entries()].map((
        [name, value]
      ) => [name, KEY_PARAM.test(name) ? REDACTED : value]),
      headers,
      body: request.body,
      keyPresent,
      keyMatched,
      outcome: Outcome.$match(outcome, {
        Respond: ({ response }) => response.status,
        Hang: () => "hang" as const,
        Reset: () => "reset" as const
      })
    })
    if (outcome._tag !== "Respond") return outcome
    const response = { ...outcome.response, headers: { ...outcome.response.headers, ...CORS_HEADERS } }
    return Outcome.Respond({ ...outcome, response })
  }

  private decide(
    request: EmulatorRequest,
    now: number,
    key: string | undefined,
    keyMatched: boolean | undefined
  ): Outcome {
    const respond = (response: EmulatorResponse, delayMillis = 0, truncate?: number): Outcome =>
      Outcome.Respond({ delayMillis, response, truncate })
    if (request.method === "OPTIONS") {
      return respond({ status: 204, headers: { "access-control-max-age": "600" }, body: "" })
    }
    const path = request.url.pathname
    const isFile = path.startsWith("/files/")
    const decision = this.faultState.decide(request.method, path)
    const delay = decision.delayMillis
    const terminal: Fault | undefined = decision.terminal
    if (terminal !== undefined) {
      switch (terminal._tag) {
        case "Status": {
          const headers: Record<string, string> = terminal.retryAfter === undefined
            ? {}
            : { "retry-after": String(terminal.retryAfter) }
          const response = terminal.body === undefined
            ? json(terminal.status, bodyFor(terminal.status), headers)
            : {
              status: terminal.status,
              headers: { "content-type": "application/json", ...headers },
              body: terminal.body
            }
          return respond(response, delay)
        }
        case "Hang":
          return Outcome.Hang({ delayMillis: delay })
        case "Reset":
          return Outcome.Reset({ delayMillis: delay })
        default:
          break
      }
    }
    if (!isFile) {
      const policy = this.faultState.config.keyPolicy
      if (keyMatched === false && key !== undefined) return respond(forbidden(), delay)
      if (policy?.required === true && key === undefined) return respond(forbidden(), delay)
      if (this.faultState.overRate(key, now)) return respond(json(429, bodyFor(429), { "retry-after": "1" }), delay)
    }
    if (terminal?._tag === "RepeatPage") return respond(this.repeatPage(request), delay)
    this.context.now = now
    const response = this.rememberFirstToken(request, this.route(request))
    if (terminal?._tag === "CursorLoop" || terminal?._tag === "CursorBack") {
      return respond(this.moveCursor(request, response, terminal._tag), delay)
    }
    if (terminal?._tag === "Total") return respond(withTotal(response, terminal.total), delay)
    return respond(response, delay, terminal?._tag === "Truncate" ? terminal.fraction : undefined)
  }

  /** The bulk token of the latest first page, where `cursorBack` sends a bulk stream. */
  private firstToken: string | undefined

  private rememberFirstToken(request: EmulatorRequest, response: EmulatorResponse): EmulatorResponse {
    if (
      response.status === 200 && request.url.pathname.endsWith("/search/bulk") &&
      !request.url.searchParams.has("token")
    ) {
      const token = cursorOf(response)?.token
      if (typeof token === "string") this.firstToken = token
    }
    return response
  }

  /** A broken server's cursor: pointing at the page just served, or before it. */
  private moveCursor(
    request: EmulatorRequest,
    response: EmulatorResponse,
    fault: "CursorLoop" | "CursorBack"
  ): EmulatorResponse {
    const body = cursorOf(response)
    if (response.status !== 200 || body === undefined) return response
    const params = request.url.searchParams
    // The last page too: a broken server's list need not end.
    if (typeof body.offset === "number") {
      const offset = Number(params.get("offset") ?? 0)
      const limit = Number(params.get("limit") ?? 0)
      body.next = fault === "CursorLoop" ? offset : Math.max(0, offset - limit)
    } else if ("token" in body) {
      body.token = fault === "CursorLoop" ? params.get("token") ?? body.token : this.firstToken ?? body.token
    } else {
      return response
    }
    return json(200, body, response.headers)
  }

  /** Made-up bulk tokens of `repeatPage`, numbered so that each is new. */
  private repeats = 0

  /** `Faults.repeatPage`: the list's first page again, with a cursor that moves on all the same. */
  private repeatPage(request: EmulatorRequest): EmulatorResponse {
    const asked = request.url.searchParams
    const url = new URL(request.url)
    url.searchParams.delete("token")
    if (asked.has("offset")) url.searchParams.set("offset", "0")
    const response = this.route({ ...request, url })
    const body = cursorOf(response)
    if (response.status !== 200 || body === undefined) return response
    if (typeof body.offset === "number") {
      const offset = Number(asked.get("offset") ?? 0)
      const served = Array.isArray(body.data) ? body.data.length : 0
      body.offset = offset
      body.next = offset + Number(asked.get("limit") ?? Math.max(1, served))
    } else if ("token" in body) {
      // The token the asked page would have had (a one-off repeat continues the search), else a new one.
      const natural = this.route(request)
      const token = natural.status === 200 ? cursorOf(natural)?.token : undefined
      body.token = typeof token === "string" ? token : `PCREPEAT${++this.repeats}`
    } else {
      return response
    }
    return json(200, body, response.headers)
  }

  route(request: EmulatorRequest): EmulatorResponse {
    const ctx = this.context
    const method = request.method
    const query = new Query(request.url.searchParams)
    const s = segmentsOf(request.url.pathname)
    const [root, version, ...rest] = s
    const get = method === "GET" || method === "HEAD"
    if (root === "files" && get) {
      return datasets.serveFile(ctx, this.datasets, request, [version ?? "", ...rest].map(decode).join("/"))
    }
    if (version !== "v1") return notFoundRoute()
    const [head, ...tail] = rest
    const joined = decode(tail.join("/"))
    if (root === "graph") {
      if (head === "paper") {
        if (method === "POST") return joined === "batch" ? graph.paperBatch(ctx, request, query) : notFoundRoute()
        if (!get || tail.length === 0 || joined === "") return notFoundRoute()
        switch (joined) {
          case "search":
            return graph.searchPaper(ctx, query)
          case "search/bulk":
            return graph.searchPaperBulk(ctx, query)
          case "search/match":
            return graph.searchPaperMatch(ctx, query)
          case "autocomplete":
            return graph.autocomplete(ctx, query)
        }
        const sub = /^(.+)\/(authors|citations|references)$/.exec(joined)
        if (sub !== null) {
          const id = sub[1]!
          switch (sub[2]) {
            case "authors":
              return graph.paperAuthors(ctx, query, id)
            case "citations":
              return graph.paperCitations(ctx, query, id)
            default:
              return graph.paperReferences(ctx, query, id)
          }
        }
        return graph.getPaper(ctx, query, joined)
      }
      if (head === "author") {
        if (method === "POST") return joined === "batch" ? graph.authorBatch(ctx, request, query) : notFoundRoute()
        if (!get || joined === "") return notFoundRoute()
        if (joined === "search") return graph.searchAuthor(ctx, query)
        const sub = /^([^/]+)\/papers$/.exec(joined)
        if (sub !== null) return graph.authorPapers(ctx, query, sub[1]!)
        if (joined.includes("/")) return notFoundRoute()
        return graph.getAuthor(ctx, query, joined)
      }
      if (head === "snippet" && joined === "search" && get) return graph.searchSnippet(ctx, query)
      return notFoundRoute()
    }
    if (root === "recommendations" && head === "papers") {
      if (method === "POST" && joined === "") return recommendations.fromLists(ctx, request, query)
      const sub = /^forpaper\/(.+)$/.exec(joined)
      if (get && sub !== null) return recommendations.forPaper(ctx, query, sub[1]!)
      return notFoundRoute()
    }
    if (root === "datasets" && get) {
      const parts = tail.map(decode).filter((x, k) => x !== "" || k < tail.length - 1)
      if (head === "release") {
        if (parts.length === 0) return datasets.listReleases(this.datasets)
        if (parts.length === 1) return datasets.getRelease(this.datasets, parts[0]!)
        if (parts.length === 3 && parts[1] === "dataset") {
          return datasets.getDataset(ctx, this.datasets, request, parts[0]!, parts[2]!)
        }
      }
      if (head === "diffs" && parts.length === 4 && parts[1] === "to") {
        return datasets.getDiffs(ctx, this.datasets, request, parts[0]!, parts[2]!, parts[3]!)
      }
    }
    return notFoundRoute()
  }
}

/** `Faults.total`: a page (a 200 with `data`) saying it has `total` results; other answers as they are. */
const withTotal = (response: EmulatorResponse, total: number): EmulatorResponse => {
  const body = cursorOf(response)
  if (response.status !== 200 || body === undefined || !Array.isArray(body.data)) return response
  return json(200, { ...body, total }, response.headers)
}

/** The JSON object of a page, when the body is one. */
const cursorOf = (response: EmulatorResponse): Record<string, unknown> | undefined => {
  try {
    const text = typeof response.body === "string" ? response.body : new TextDecoder().decode(response.body)
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : undefined
  } catch {
    return undefined
  }
}

/** Cuts a body short so that it no longer parses. */
export const truncateBody = (body: string | Uint8Array, fraction: number): Uint8Array => {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body
  const cut = Math.max(0, Math.min(bytes.length - 1, Math.floor(bytes.length * fraction)))
  return bytes.subarray(0, cut)
}
