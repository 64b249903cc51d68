/** Transport-independent request/response values shared by the in-memory layer and the HTTP server. */
import type { EmulatorRequest, EmulatorResponse } from "../Emulator.js"

export type { EmulatorRequest, EmulatorResponse }

export const JSON_TYPE = "application/json"

/** JSON body; the API's bodies (errors included) end with a newline. */
export const json = (status: number, value: unknown, headers: Record<string, string> = {}): EmulatorResponse => ({
  status,
  headers: { "content-type": JSON_TYPE, ...headers },
  body: JSON.stringify(value) + "\n"
})

/** A body already serialized (fast path for bulk pages). */
export const rawJson = (status: number, body: string): EmulatorResponse => ({
  status,
  headers: { "content-type": JSON_TYPE },
  body
})

export const error = (status: number, message: string): EmulatorResponse => json(status, { error: message })
export const message = (status: number, text: string): EmulatorResponse => json(status, { message: text })

export const forbidden = (): EmulatorResponse => message(403, "Forbidden")
export const notFoundRoute = (): EmulatorResponse => message(404, "Not Found")

/** Query access that keeps the difference between an absent and an empty parameter. */
export class Query {
  constructor(readonly params: URLSearchParams) {}
  get(name: string): string | undefined {
    const v = this.params.get(name)
    return v === null ? undefined : v
  }
  has(name: string): boolean {
    return this.params.has(name)
  }
}

export type Handler = (request: EmulatorRequest, query: Query, segments: ReadonlyArray<string>) => EmulatorResponse

export const parseJsonBody = (
  body: string | undefined
): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  if (body === undefined || body.trim() === "") return { ok: false }
  try {
    return { ok: true, value: JSON.parse(body) as unknown }
  } catch {
    return { ok: false }
  }
}
