/** The emulator over node's `http` module: requests go to the {@link EmulatorCore}, answers come back on the socket. */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as http from "node:http"
import type { Socket } from "node:net"
import type * as Server from "../Server.js"
import { EmulatorCore, type Outcome, redactSearch, truncateBody } from "./core.js"
import { countByPath, makeService } from "./emulator.js"

const listen = (server: http.Server, port: number, host: string): Effect.Effect<number, Error> =>
  Effect.callback<number, Error>((resume) => {
    const onError = (e: Error) => resume(Effect.fail(e))
    server.once("error", onError)
    server.listen(port, host, () => {
      server.off("error", onError)
      const address = server.address()
      resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : port))
    })
  })

/** Where `logRequests` lines go, if anywhere. */
const logSink = (option: Server.ServerOptions["logRequests"]): ((line: string) => void) | undefined =>
  option === true ? (line) => void process.stderr.write(`${line}\n`) : option === false ? undefined : option

/** The log line of one request. `URL` percent-encodes control characters, so it stays one line. */
export const logLine = (method: string, url: URL, outcome: string, millis: number): string =>
  `s2-emulator: ${method} ${url.pathname}${redactSearch(url.search)} ${outcome} ${Math.round(millis)}ms`

/** See {@link Server.requestsPath}. */
export const requestsPath = "/__emulator/requests" as const

/** The latest requests a `GET` of the request log shows. */
const RECENT = 100

const ADMIN_PREFIX = "/__emulator"

const admin = (core: EmulatorCore, method: string, url: URL, res: http.ServerResponse): void => {
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? "" : JSON.stringify(body)
    res.writeHead(status, {
      // Tells a reader this came from the emulator's own endpoint, not from an emulated API route.
      "x-s2-emulator": "admin",
      ...(text === "" ? {} : { "content-type": "application/json" }),
      "content-length": String(Buffer.byteLength(text)),
      ...headers
    })
    res.end(method === "HEAD" ? undefined : text)
  }
  if (url.pathname !== requestsPath) {
    return send(404, { error: `no emulator endpoint ${url.pathname}; the request log is ${requestsPath}` })
  }
  switch (method) {
    case "GET":
    case "HEAD": {
      const requests = core.requests
      const summary: Server.RequestSummary = {
        count: requests.length,
        counts: countByPath(requests),
        recent: requests.slice(-RECENT)
      }
      return send(200, summary)
    }
    case "DELETE":
      core.clearRequests()
      return send(204, undefined)
    case "OPTIONS":
      return send(204, undefined, {
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET, HEAD, DELETE, OPTIONS"
      })
    default:
      return send(405, { error: `${method} ${requestsPath}: use GET or DELETE` }, {
        allow: "GET, HEAD, DELETE"
      })
  }
}

/** Carries out an outcome of the core on the response (after its delay, kept in `timers` to cancel on close). */
const act = (
  outcome: Outcome,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  timers: Set<NodeJS.Timeout>
): void => {
  const now = () => {
    switch (outcome._tag) {
      case "Hang":
        return
      case "Reset":
        return void req.socket.destroy()
      case "Respond": {
        const { response, truncate } = outcome
        const out = truncate === undefined ? response.body : truncateBody(response.body, truncate)
        const outHeaders: Record<string, string> = { ...response.headers }
        if (truncate === undefined && outHeaders["content-length"] === undefined) {
          outHeaders["content-length"] = String(typeof out === "string" ? Buffer.byteLength(out) : out.length)
        }
        res.writeHead(response.status, outHeaders)
        res.end(out)
      }
    }
  }
  if (outcome.delayMillis <= 0) return now()
  const t = setTimeout(() => {
    timers.delete(t)
    now()
  }, outcome.delayMillis)
  timers.add(t)
}

/** The request's URL; a Host header that is no host falls back to 127.0.0.1; undefined when the target is no URL. */
const urlOf = (req: http.IncomingMessage): URL | undefined => {
  for (const base of [`http://${req.headers.host ?? "127.0.0.1"}`, "http://127.0.0.1"]) {
    try {
      return new URL(req.url ?? "/", base)
    } catch {
      // the next base
    }
  }
  return undefined
}

const makeHandler = (
  ref: { core: EmulatorCore | undefined },
  timers: Set<NodeJS.Timeout>,
  log: ((line: string) => void) | undefined
) =>
(req: http.IncomingMessage, res: http.ServerResponse) => {
  const started = performance.now()
  const url = urlOf(req)
  // Thrown here, a URL the parser refuses would end the whole server, not just this request.
  if (url === undefined) return void res.writeHead(400, { "content-length": "0" }).end()
  // What the core decided, for the log line of a request that ends without a response.
  let decided: Outcome["_tag"] | undefined
  if (log !== undefined) {
    res.once("close", () => {
      const outcome = res.writableFinished
        ? String(res.statusCode)
        : decided === "Hang"
        ? "hang"
        : decided === "Reset"
        ? "reset"
        : "aborted"
      log(logLine(req.method ?? "GET", url, outcome, performance.now() - started))
    })
  }
  const chunks: Array<Buffer> = []
  req.on("data", (c: Buffer) => chunks.push(c))
  req.on("end", () => {
    const core = ref.core
    if (core === undefined) return void res.destroy()
    const method = req.method ?? "GET"
    if (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`)) {
      return admin(core, method, url, res)
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value
    }
    const body = chunks.length === 0 ? undefined : Buffer.concat(chunks).toString("utf8")
    const outcome = core.handle({ method, url, headers, body }, Date.now())
    decided = outcome._tag
    act(outcome, req, res, timers)
  })
}

export const start: (options: Server.ServerOptions) => Effect.Effect<Server.EmulatorServer, never, Scope.Scope> = Effect
  .fn(function*(options: Server.ServerOptions) {
    // Filled in once the port (and so the file host) is known.
    const ref: { core: EmulatorCore | undefined } = { core: undefined }
    const sockets = new Set<Socket>()
    const timers = new Set<NodeJS.Timeout>()
    const handler = makeHandler(ref, timers, logSink(options.logRequests))
    const servers: Array<http.Server> = []
    const track = (server: http.Server) => {
      server.on("connection", (socket) => {
        sockets.add(socket)
        socket.on("close", () => sockets.delete(socket))
      })
      servers.push(server)
      return server
    }
    const main = track(http.createServer(handler))
    main.keepAliveTimeout = 5_000
    const port = yield* listen(main, options.port ?? 0, "127.0.0.1").pipe(Effect.orDie)
    yield* listen(track(http.createServer(handler)), port, "::1").pipe(Effect.ignore)
    const core = new EmulatorCore(options, `http://localhost:${port}`)
    ref.core = core
    yield* Effect.addFinalizer(() =>
      Effect.callback<void>((resume) => {
        for (const t of timers) clearTimeout(t)
        for (const s of sockets) s.destroy()
        let open = servers.length
        for (const server of servers) {
          server.close(() => {
            if (--open === 0) resume(Effect.void)
          })
        }
      })
    )
    const url = `http://127.0.0.1:${port}`
    return { ...makeService(core), url, port, requestsUrl: `${url}${requestsPath}` }
  })
