import { describe, expect, it } from "@effect/vitest"
import { Config, ConfigProvider, Effect, Layer, Redacted } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { SemanticScholar } from "../src/index.js"
import * as SemanticScholarModule from "../src/SemanticScholar.js"
import { clientLayer, json, requests } from "./support/Scripted.js"

const paper = { paperId: "p1", title: "A title" }
const server = clientLayer(() => Effect.succeed(json(paper)))

const withEnv = (env: Record<string, string>) => ConfigProvider.layer(ConfigProvider.fromEnv({ env }))

const lookup = Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1", { fields: ["title"] }))

describe("configuration in one place", () => {
  it.effect("layerConfig() reads S2_API_URL and S2_API_KEY, trimmed", () =>
    Effect.gen(function*() {
      yield* lookup.pipe(
        Effect.provide(
          SemanticScholar.layerConfig({ rateLimit: false }).pipe(
            Layer.provide(withEnv({ S2_API_URL: " https://env.test/ ", S2_API_KEY: "  env-key \n" }))
          )
        )
      )
      const [seen] = yield* requests
      expect(seen?.url.origin).toBe("https://env.test")
      expect(seen?.headers["x-api-key"]).toBe("env-key")
    }).pipe(Effect.provide(server)))

  it.effect("with nothing given and nothing set, it is the production root without a key", () =>
    Effect.gen(function*() {
      const resolved = yield* SemanticScholar.config({}).pipe(Effect.provide(withEnv({ S2_API_KEY: "   " })))
      expect(resolved).toEqual({})
      yield* lookup.pipe(Effect.provide(SemanticScholarModule.layerConfig().pipe(Layer.provide(withEnv({})))))
      const [seen] = yield* requests
      expect(seen?.url.origin).toBe("https://api.semanticscholar.org")
      expect(seen?.headers["x-api-key"]).toBeUndefined()
    }).pipe(Effect.provide(server)))

  it.effect("an option given (a value or a Config) wins over the environment", () =>
    Effect.gen(function*() {
      const layer = SemanticScholarModule.layerConfig({
        apiKey: Config.Redacted("MY_KEY"),
        apiUrl: "https://given.test",
        rateLimit: false
      })
      yield* lookup.pipe(
        Effect.provide(layer.pipe(
          Layer.provide(withEnv({ MY_KEY: "mine", S2_API_KEY: "env", S2_API_URL: "https://env.test" }))
        ))
      )
      const [seen] = yield* requests
      expect(seen?.url.origin).toBe("https://given.test")
      expect(seen?.headers["x-api-key"]).toBe("mine")
    }).pipe(Effect.provide(server)))

  it.effect("a setting out of range is InvalidOptions naming it, before anything is sent", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.provide(lookup, SemanticScholarModule.layer({ apiUrl: "ftp://x", apiKey: Redacted.make("k") }))
      )
      expect(error._tag).toBe("InvalidOptions")
      expect(error._tag === "InvalidOptions" && error.option).toBe("apiUrl")
      expect(yield* requests).toHaveLength(0)
    }).pipe(Effect.provide(server)))

  it.effect("transformClient wraps the HttpClient: a header added there goes out with every request", () =>
    Effect.gen(function*() {
      const layer = SemanticScholarModule.layer({
        apiUrl: "https://api.test",
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("x-proxy-token", "t1"))
      })
      yield* lookup.pipe(Effect.provide(layer))
      const [seen] = yield* requests
      expect(seen?.headers["x-proxy-token"]).toBe("t1")
    }).pipe(Effect.provide(server)))
})
