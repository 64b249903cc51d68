/**
 * Conformance: replays every recorded real exchange (../shared/s2-recordings/test_*.json, read at
 * run time, never copied) against the emulator and compares the response body shapes.
 */
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Emulator } from "../src/index.js"
import { compareShapes, shapeOf } from "./shape.js"

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
const dir = path.resolve(repoRoot, "../shared/s2-recordings")

interface Exchange {
  readonly method: string
  readonly path: string
  readonly query: ReadonlyArray<readonly [string, string]>
  readonly body: unknown
  readonly status: number
  readonly response: unknown
}

const KEY = "conformance-key"

it.effect("conformance with the recorded real exchanges", () =>
  Effect.gen(function*() {
    if (!fs.existsSync(dir)) {
      console.log(`[conformance] recordings not found at ${dir}: nothing to compare`)
      expect(fs.existsSync(dir)).toBe(false)
      return
    }
    const files = fs.readdirSync(dir).filter((f) => f.startsWith("test_") && f.endsWith(".json")).sort()
    const client = yield* HttpClient.HttpClient
    const differences: Array<string> = []
    let compared = 0
    for (const file of files) {
      const exchanges = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as ReadonlyArray<Exchange>
      for (const [n, ex] of exchanges.entries()) {
        const url = new URL(`https://api.semanticscholar.org${ex.path}`)
        for (const [k, v] of ex.query) url.searchParams.append(k, v)
        // Datasets links/diffs need a key; a recorded 403 elsewhere came from a wrong key.
        const needsKey = /^\/datasets\/v1\/(release\/[^/]+\/dataset|diffs)\//.test(ex.path)
        const key = needsKey ? KEY : ex.status === 403 ? "wrong-key" : undefined
        let request = HttpClientRequest.make(ex.method === "POST" ? "POST" : "GET")(url.href)
        if (key !== undefined) request = HttpClientRequest.setHeader(request, "x-api-key", key)
        if (ex.body !== null && ex.body !== undefined) {
          request = yield* HttpClientRequest.bodyJson(request, ex.body).pipe(Effect.orDie)
        }
        const response = yield* client.execute(request).pipe(Effect.orDie)
        const body: unknown = yield* response.json.pipe(Effect.orDie)
        compared++
        const label = `${file}#${n} ${ex.method} ${ex.path}`
        if (response.status !== ex.status) {
          differences.push(`${label}: status ${ex.status} vs ${response.status} ${JSON.stringify(body).slice(0, 200)}`)
          continue
        }
        for (const d of compareShapes(shapeOf(ex.response), shapeOf(body))) differences.push(`${label}: ${d}`)
      }
    }
    console.log(
      `[conformance] ${compared} exchanges from ${files.length} scenarios compared, ${differences.length} differences`
    )
    for (const d of differences) console.log(`[conformance] DIFF ${d}`)
    expect(differences).toEqual([])
    expect(compared).toBeGreaterThan(0)
  }).pipe(
    Effect.provide(Emulator.layer({ seed: 1, size: 30_000, openWorld: true, faults: { keyPolicy: { keys: [KEY] } } }))
  ), 60_000)
