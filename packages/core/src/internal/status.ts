/**
 * The one mapping from an HTTP status that is not the expected success to an `S2Error`, for the
 * API transport and for the file host of the datasets alike. A table of rules, tried in order:
 * the first that matches the status builds the error, and a status none matches is an
 * `UnexpectedStatus`, so every status ends in an error.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import type { Answer, ResponseContext } from "../HttpStatus.js"
import type { Responder, S2Error } from "../S2Error.js"
import {
  BadQueryParameters,
  Forbidden,
  ObjectNotFound,
  RateLimited,
  ServerError,
  TransportError,
  UnexpectedStatus
} from "../S2Error.js"
import { excerpt, readStart } from "./response.js"

/** The redirects a client may follow; other 3xx (300, 304, 305, …) are no place to go. */
export const isRedirect = (status: number): boolean =>
  status === 301 || status === 302 || status === 303 || status === 307 || status === 308

/** `Retry-After` is either delay-seconds or an HTTP date. */
export const parseRetryAfter = (value: string | undefined, nowMillis: number): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMillis)
}

/** The server's explanation, from `{"error": …}` or `{"message": …}`, else the start of the body. */
const serverMessage = (text: string): string => {
  try {
    const json: unknown = JSON.parse(text)
    if (typeof json === "object" && json !== null) {
      if ("error" in json && typeof json.error === "string") return excerpt(json.error)
      if ("message" in json && typeof json.message === "string") return excerpt(json.message)
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return excerpt(text.trim(), 200)
}

const hostOf = (location: string | undefined, base: string): string => {
  if (location === undefined) return "nowhere (no location header)"
  try {
    return new URL(location, base).host
  } catch {
    return "an invalid location"
  }
}

/** What each responder's messages say beyond the status: who it is and what to do. */
const voices: {
  readonly [R in Responder]: { readonly label: string; readonly forbidden: string; readonly notFollowed: string }
} = {
  api: {
    label: "",
    forbidden: "the API key is missing, wrong, or has no access; set S2_API_KEY",
    notFollowed:
      "the client does not follow redirects from the API (the key is sent to the API root only): check --api-url / apiUrl"
  },
  fileHost: {
    label: "the file host, ",
    forbidden: "the pre-signed link may have expired; fetch the links again",
    notFollowed: "the client does not follow it"
  }
}

/** An answer with the parts every message uses worked out once. */
interface Told {
  readonly answer: Answer
  readonly voice: (typeof voices)[Responder]
  /** The server's explanation, possibly empty. */
  readonly why: string
  readonly context: {
    readonly status: number
    readonly method: string
    readonly url: string
    readonly responder?: "fileHost"
    /** The exchange: `HTTP 503 from GET https://…` (with the responder's label). */
    readonly request: string
  }
}

/** The server's explanation as a part of the message, when it gave one. */
const said = ({ why }: Told) => why === "" ? undefined : why
const retryAfter = ({ answer }: Told) =>
  answer.retryAfterMillis === undefined ? {} : { retryAfterMillis: answer.retryAfterMillis }

interface Rule {
  readonly matches: (status: number, responder: Responder) => boolean
  readonly make: (told: Told) => S2Error
}

/** In order; a status no rule matches is {@link unexpected}. */
const rules: ReadonlyArray<Rule> = [
  {
    // The API judges the request's input; a file host's 400 is about a link the client was given.
    matches: (status, responder) => status === 400 && responder === "api",
    make: (told) => new BadQueryParameters({ problem: said(told), refusedBy: "server", ...told.context })
  },
  {
    matches: (status) => status === 401 || status === 403,
    make: (told) => new Forbidden({ problem: said(told), advice: told.voice.forbidden, ...told.context })
  },
  {
    matches: (status) => status === 404,
    make: (told) => new ObjectNotFound({ problem: said(told), ...told.context })
  },
  {
    matches: (status) => status === 429,
    make: (told) =>
      new RateLimited({ problem: "rate limited", advice: said(told), ...told.context, ...retryAfter(told) })
  },
  {
    matches: (status) => status >= 500 && status <= 599,
    make: (told) =>
      new ServerError({ problem: "server error", advice: said(told), ...told.context, ...retryAfter(told) })
  },
  {
    matches: isRedirect,
    make: ({ answer, context, voice }) =>
      new UnexpectedStatus({
        subject: context.request,
        problem: `a redirect to ${hostOf(answer.location, answer.url)}`,
        advice: answer.notFollowed ?? voice.notFollowed,
        ...context
      })
  },
  {
    // What a browser's fetch reports for a request it blocked (CORS) or lost: no answer at all.
    matches: (status) => status === 0,
    make: ({ context }) =>
      new TransportError({
        problem: "blocked or lost before an answer",
        advice: "in a browser usually CORS or a refused connection; see its console",
        ...context
      })
  }
]

/**
 * A redirect of the API as `fetch` reports it with `redirect: "manual"`: an "opaqueredirect"
 * response, status 0, whose status and location the browser keeps to itself.
 */
export const opaqueRedirect = (target: { readonly method: string; readonly url: string }): S2Error =>
  new UnexpectedStatus({
    problem: "an opaque redirect: a redirect whose status and location the browser does not reveal",
    advice: voices.api.notFollowed,
    request: `HTTP 0 from ${target.method} ${target.url}`,
    status: 0,
    ...target
  })

/** Any other status: 1xx, a 2xx other than the one expected, 3xx that are no redirect, other 4xx, 600+. */
const unexpected = (told: Told): S2Error =>
  new UnexpectedStatus({ problem: "unexpected status", advice: said(told), ...told.context })

export const toError = (answer: Answer): S2Error => {
  const { method, status, url } = answer
  const responder = answer.responder ?? "api"
  const voice = voices[responder]
  const told: Told = {
    answer,
    voice,
    why: serverMessage(answer.body ?? ""),
    context: {
      status,
      method,
      url,
      request: `HTTP ${status} from ${voice.label}${method} ${url}`,
      ...(responder === "fileHost" ? { responder } : {})
    }
  }
  return (rules.find((rule) => rule.matches(status, responder))?.make ?? unexpected)(told)
}

export const fromResponse = (
  response: HttpClientResponse.HttpClientResponse,
  request: ResponseContext
): Effect.Effect<S2Error> => {
  const hide = request.redact ?? ((text: string) => text)
  const location = response.headers["location"]
  return Effect.zipWith(
    // A body that breaks off while its start is read still has a status worth reporting.
    readStart(response).pipe(Effect.orElseSucceed(() => "")),
    Clock.currentTimeMillis,
    (body, now) =>
      toError({
        status: response.status,
        method: request.method,
        url: request.url,
        body: hide(body),
        retryAfterMillis: parseRetryAfter(response.headers["retry-after"], now),
        location: location === undefined ? undefined : hide(location),
        responder: request.responder,
        notFollowed: request.notFollowed
      })
  )
}
