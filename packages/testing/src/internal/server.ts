/** The emulator over node's `http` module: requests go to the {@link EmulatorCore}, answers come back on the socket. */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as http from "node:http"
import type { Socket } from "node:net"
import type * as Server from "../Server.js"
import { EmulatorCore, truncateBody } from "./core.js"
import { makeService } from "./emulator.js"

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

export const start: (options: Server.ServerOptions) => Effect.Effect<Server.EmulatorServer, never, Scope.Scope> = Effect
  .fn(function*(options: Server.ServerOptions) {
    // Filled in once the port (and so the file host) is known.
    const ref: { core: EmulatorCore | undefined } = { core: undefined }
    const sockets = new Set<Socket>()
    const timers = new Set<NodeJS.Timeout>()
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const core = ref.core
        if (core === undefined) return void res.destroy()
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(req.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value
        }
        const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`)
        const body = chunks.length === 0 ? undefined : Buffer.concat(chunks).toString("utf8")
        const outcome = core.handle({ method: req.method ?? "GET", url, headers, body }, Date.now())
        const act = () => {
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
        if (outcome.delayMillis > 0) {
          const t = setTimeout(() => {
            timers.delete(t)
            act()
          }, outcome.delayMillis)
          timers.add(t)
        } else {
          act()
        }
      })
    }
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
    return { ...makeService(core), url: `http://127.0.0.1:${port}`, port }
  })
