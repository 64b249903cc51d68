/**
 * What broke below HTTP, read from the platform's error: one table from error codes to a
 * {@link TransportReason}, and the sentence each reason gets in a `TransportError`. Kept apart from
 * the transport so the table can grow without touching the exchange itself.
 */
import type * as HttpClientError from "effect/http/HttpClientError"
import type { TransportReason } from "../S2Error.js"
import { excerpt } from "./text.js"

/** Error codes of Node (libuv) and undici, by what they mean. */
const codes: ReadonlyArray<readonly [TransportReason, ReadonlyArray<string>]> = [
  ["refused", ["ECONNREFUSED"]],
  ["hostNotFound", ["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL"]],
  ["reset", ["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]]
]

/** The error and its causes, outermost first (bounded: a cause chain could be cyclic). */
const chain = (error: unknown): ReadonlyArray<unknown> => {
  const out: Array<unknown> = []
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    out.push(current)
    current = typeof current === "object" && "cause" in current ? current.cause : undefined
  }
  return out
}

const nameOf = (u: unknown): string | undefined => u instanceof Error ? u.name : undefined

const codeOf = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "code" in u && typeof u.code === "string" ? u.code : undefined

/** The deepest message in the chain: the platform's own words ("other side closed"), if any, cut. */
export const innermostMessage = (error: unknown): string | undefined => {
  const message = chain(error).map((u) => u instanceof Error ? u.message : undefined).filter((m) => m !== undefined)
    .at(-1)
  return message === undefined ? undefined : excerpt(message)
}

/**
 * Why an exchange failed, when the error says so. A failure while reading the body (after the
 * status arrived) is a body cut short unless its code says the connection was reset.
 */
export const reasonOf = (error: HttpClientError.HttpClientError): TransportReason | undefined => {
  for (const link of chain(error.reason)) {
    const code = codeOf(link)
    const found = code === undefined ? undefined : codes.find(([, names]) => names.includes(code))
    if (found !== undefined) return found[0]
    // An HTTP parser's error (undici's HTTPParserError, Node's HPE_* codes): a server answered, but not in HTTP.
    if (code?.startsWith("HPE_") === true || nameOf(link) === "HTTPParserError") return "malformed"
  }
  // A reason with a response (Effect 4's DecodeError, EmptyBodyError...) failed after the status arrived.
  return "response" in error.reason ? "cutShort" : undefined
}

/** `host:port` of a URL, with the scheme's default port written out (cut, as a host may be huge). */
export const hostPort = (url: string): string => {
  try {
    const parsed = new URL(url)
    return excerpt(
      `${parsed.hostname}:${parsed.port === "" ? (parsed.protocol === "https:" ? "443" : "80") : parsed.port}`
    )
  } catch {
    return excerpt(url)
  }
}

/** The sentence of each reason, naming where. */
export const describeReason: { readonly [R in TransportReason]: (where: string) => string } = {
  refused: (where) => `connection refused by ${where}: nothing listens there; check apiUrl`,
  hostNotFound: (where) => `host not found: ${where.replace(/:\d+$/, "")} does not resolve (DNS); check apiUrl`,
  reset: (where) => `connection reset by ${where}`,
  cutShort: (where) => `body cut short by ${where}`,
  malformed: (where) => `the answer of ${where} is not valid HTTP`
}

/** A short name of each reason, for the retry log and the CLI's progress line. */
export const reasonLabel: { readonly [R in TransportReason]: string } = {
  refused: "connection refused",
  hostNotFound: "host not found",
  reset: "connection reset",
  cutShort: "body cut short",
  malformed: "malformed answer"
}
