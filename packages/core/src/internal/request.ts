import type { QueryParam } from "../Filters.js"

/** Which API of the three a request is for; the client adds its path prefix. */
export type Api = "graph" | "recommendations" | "datasets"

export const prefixes: Record<Api, string> = {
  graph: "/graph/v1",
  recommendations: "/recommendations/v1",
  datasets: "/datasets/v1"
}

/**
 * A request, described as a plain value before anything is sent: easy to test, to log, and the
 * only thing operations hand to the transport.
 */
export interface S2Request {
  readonly api: Api
  readonly method: "GET" | "POST"
  /** Below the API prefix, starting with `/`, ids already placed with `PaperId.toPath`. */
  readonly path: string
  readonly query: ReadonlyArray<QueryParam>
  readonly body?: unknown
  /**
   * `false`: the response cache neither reads nor stores this answer. A batch call of lookups is
   * one: each of its lookups is stored on its own (`lookups.ts`), so the one transport serves both.
   */
  readonly cache?: false | undefined
}

export const get = (api: Api, path: string, query: ReadonlyArray<QueryParam> = []): S2Request => ({
  api,
  method: "GET",
  path,
  query
})

export const post = (api: Api, path: string, query: ReadonlyArray<QueryParam>, body: unknown): S2Request => ({
  api,
  method: "POST",
  path,
  query,
  body
})
