/**
 * A small hostile server on loopback, for tests that need an answer no emulator fault gives: each
 * request is recorded and answered by the test's handler (status, headers and body as raw as the
 * test wants them). HTTP and raw TCP (for a store that answers garbage).
 */
import * as Http from "node:http"
import * as Net from "node:net"

/** A request the server saw. */
export interface Seen {
  readonly method: string
  /** The path and query, as sent. */
  readonly url: string
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

/** What the handler answers: a status, headers and a body; or `"reset"` to drop the connection. */
export type Answer =
  | {
    readonly status?: number
    readonly headers?: Readonly<Record<string, string>>
    /** A value (sent as JSON) or a string (sent as is). */
    readonly json?: unknown
    readonly text?: string | Buffer
  }
  | "reset"

/** The handler: `index` counts requests from 0. It may answer by writing to `res` itself (return `undefined`). */
export type Handler = (
  seen: Seen,
  index: number,
  res: Http.ServerResponse
) => Answer | undefined | Promise<Answer | undefined>

export interface Loopback {
  /** `http://127.0.0.1:PORT` */
  readonly url: string
  readonly port: number
  readonly requests: Array<Seen>
  readonly close: () => Promise<void>
}

const listen = (server: Net.Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as Net.AddressInfo).port)))

const closing = (server: Net.Server, sockets: Set<Net.Socket>) => (): Promise<void> =>
  new Promise((resolve) => {
    for (const socket of sockets) socket.destroy()
    server.close(() => resolve())
  })

const track = (server: Net.Server): Set<Net.Socket> => {
  const sockets = new Set<Net.Socket>()
  server.on("connection", (socket: Net.Socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  return sockets
}

const reply = (res: Http.ServerResponse, answer: Answer) => {
  if (answer === "reset") {
    res.socket?.destroy()
    return
  }
  const body = answer.json !== undefined ? JSON.stringify(answer.json) : answer.text ?? ""
  const headers = { ...(answer.json !== undefined ? { "content-type": "application/json" } : {}), ...answer.headers }
  res.writeHead(answer.status ?? 200, headers)
  res.end(body)
}

/** Starts an HTTP server on a free loopback port; close it in `afterAll`. */
export const serve = async (handler: Handler): Promise<Loopback> => {
  const requests: Array<Seen> = []
  const server = Http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const seen: Seen = {
        method: req.method ?? "GET",
        url: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8")
      }
      const index = requests.push(seen) - 1
      Promise.resolve(handler(seen, index, res)).then(
        (answer) => answer !== undefined && reply(res, answer),
        (error) => reply(res, { status: 599, text: String(error) })
      )
    })
  })
  const sockets = track(server)
  const port = await listen(server)
  return { url: `http://127.0.0.1:${port}`, port, requests, close: closing(server, sockets) }
}

/** Starts a TCP server that answers every chunk it receives with `answer(chunk, index)` (e.g. a fake Redis). */
export const serveTcp = async (
  answer: (chunk: Buffer, index: number) => string | Buffer | "close" | undefined
): Promise<Omit<Loopback, "requests" | "url"> & { readonly received: Array<Buffer> }> => {
  const received: Array<Buffer> = []
  const server = Net.createServer((socket) => {
    socket.on("data", (chunk) => {
      const index = received.push(chunk) - 1
      const out = answer(chunk, index)
      if (out === "close") socket.destroy()
      else if (out !== undefined) socket.write(out)
    })
    socket.on("error", () => {})
  })
  const sockets = track(server)
  const port = await listen(server)
  return { port, received, close: closing(server, sockets) }
}
