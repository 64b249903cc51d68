/// <reference types="node" />
/**
 * Node-side helpers of the browser tests: bundle the page with esbuild, serve it from a local
 * server (another port than the emulator, so every API call is cross-origin), watch connections
 * through a pass-through proxy. Chromium itself is launched by `@s2-effect/test-support/chromium`,
 * as every package's browser tests launch it.
 */
import * as esbuild from "esbuild"
import * as http from "node:http"

/** Bundles a browser entry (TypeScript) to one ES module, as a page would ship it. */
export const bundle = async (entry: string): Promise<string> => {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    sourcemap: "inline",
    logLevel: "silent"
  })
  const [file] = result.outputFiles
  if (file === undefined) throw new Error(`esbuild produced no output for ${entry}`)
  return file.text
}

const listen = (server: http.Server): Promise<string> =>
  new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      if (address === null || typeof address === "string") reject(new Error("the server has no TCP port"))
      else resolve(`http://127.0.0.1:${address.port}`)
    })
  })

const close = (server: http.Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

export interface Served {
  readonly url: string
  readonly close: () => Promise<void>
}

/** Serves fixed files (path → content type and body) on 127.0.0.1; anything else is 404. */
export const serveFiles = async (
  files: Readonly<Record<string, { readonly type: string; readonly body: string }>>
): Promise<Served> => {
  const server = http.createServer((req, res) => {
    const file = files[new URL(req.url ?? "/", "http://x").pathname]
    if (file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" })
      res.end("not found")
      return
    }
    res.writeHead(200, { "content-type": file.type, "cache-control": "no-store" })
    res.end(file.body)
  })
  const url = await listen(server)
  return { url, close: () => close(server) }
}

export interface Recorded {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
}

export interface RecordingServer extends Served {
  /** Every request that reached the server, preflights included, oldest first. */
  readonly requests: ReadonlyArray<Recorded>
}

/** An answer of a {@link recordingServer}: status, headers (CORS ones added) and body. */
export interface Answer {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
}

/** CORS that lets any page send anything, the key included: what a hostile host would answer. */
const openCors = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "*, x-api-key",
  "access-control-allow-methods": "GET, POST, OPTIONS"
}

/**
 * A server on 127.0.0.1 (an origin of its own) that records every request it gets, headers
 * included, answers preflights with open CORS, and other requests with `answer(path)`.
 */
export const recordingServer = async (answer: (path: string) => Answer): Promise<RecordingServer> => {
  const requests: Array<Recorded> = []
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/"
    requests.push({ method: req.method ?? "GET", path, headers: { ...req.headers } })
    const { body = "", headers = {}, status } = req.method === "OPTIONS" ? { status: 204 } : answer(path)
    res.writeHead(status, { ...openCors, ...headers })
    res.end(body)
  })
  const url = await listen(server)
  return { url, requests, close: () => close(server) }
}

export interface Exchange {
  readonly method: string
  readonly path: string
}

export interface WatchingProxy extends Served {
  /** Requests whose client went away before the answer was complete (an aborted fetch). */
  readonly aborted: ReadonlyArray<Exchange>
  /** Resolves at the next such abort, or rejects after `timeoutMillis`. */
  readonly nextAbort: (timeoutMillis: number) => Promise<Exchange>
}

/**
 * A pass-through HTTP proxy in front of `target` (headers, CORS included, go through untouched)
 * that records which requests the client abandoned: the server-side view of a cancelled request.
 */
export const watchingProxy = async (target: string): Promise<WatchingProxy> => {
  const aborted: Array<Exchange> = []
  const waiting: Array<(exchange: Exchange) => void> = []
  const server = http.createServer((req, res) => {
    const exchange: Exchange = { method: req.method ?? "GET", path: req.url ?? "/" }
    const upstream = http.request(new URL(exchange.path, target), { method: exchange.method, headers: req.headers })
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on("error", () => res.destroy())
    req.pipe(upstream)
    res.on("close", () => {
      if (res.writableFinished) return
      upstream.destroy()
      aborted.push(exchange)
      for (const resolve of waiting.splice(0)) resolve(exchange)
    })
  })
  const url = await listen(server)
  return {
    url,
    aborted,
    close: () => close(server),
    nextAbort: (timeoutMillis) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no aborted request reached the proxy within ${timeoutMillis} ms`)),
          timeoutMillis
        )
        waiting.push((exchange) => {
          clearTimeout(timer)
          resolve(exchange)
        })
      })
  }
}
