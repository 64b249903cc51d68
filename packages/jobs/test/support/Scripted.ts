/**
 * The client over the scripted HttpClient of `@s2-effect/test-support/scripted`: `testLayer`, with
 * the requests it saw as `Requests` (and that module's `json`, `requests`, `Seen`, `Handler`).
 */
import type { Options } from "@s2-effect/core"
import { SemanticScholar } from "@s2-effect/core"
import { clientLayer, type Handler } from "@s2-effect/test-support/scripted"
import { Layer } from "effect"

export * from "@s2-effect/test-support/scripted"

/** The client over a scripted server, with the recorded requests available as `Requests`. */
export const testLayer = (handler: Handler, options: Options = {}) =>
  SemanticScholar.layer({ apiUrl: "https://api.test", ...options }).pipe(Layer.provideMerge(clientLayer(handler)))
