/**
 * Answers read defensively. Bodies are read with a bound: a server (or anything answering at the API URL) may send
 * far more than any real page: the body is counted while it streams in and the read stops at the
 * bound, so memory never holds more than it. Stopping the stream aborts the request, which drops
 * the connection instead of draining the rest.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { Base64, Base64Url } from "effect/encoding"
import type * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Stream from "effect/Stream"
import { ProtocolError } from "../S2Error.js"

/**
 * The default bound of a response: three times the API's own limit (it refuses answers over 10 MB).
 * Reading a body to the bound costs about twice the bound in RSS (the socket's buffers and the kept
 * chunks), so the bound also bounds the memory a hostile answer can take.
 */
export const defaultMaxResponseBytes = 32 * 1024 * 1024

/** Enough of an error body for its message; the rest is not read. */
export const errorBodyBytes = 8 * 1024

export { excerpt } from "./text.js"

/** `12.3 MB` / `4.0 KB` / `17 bytes`. */
export const formatBytes = (bytes: number): string =>
  bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : bytes >= 1024
    ? `${(bytes / 1024).toFixed(1)} KB`
    : `${bytes} bytes`

/** A body that did not fit: how much was read before stopping, and what `content-length` said. */
export class TooLarge extends Data.TaggedError("TooLarge")<{
  readonly read: number
  readonly declared: number | undefined
}> {}

interface Reading {
  readonly chunks: Array<Uint8Array>
  size: number
  over: boolean
}

/**
 * The chunk in memory of its own. A chunk may be a view on a larger buffer of the socket; kept as
 * it is, it would keep the whole buffer alive, and a body would cost several times its size.
 */
const own = (chunk: Uint8Array): Uint8Array =>
  chunk.byteLength === chunk.buffer.byteLength ? chunk : new Uint8Array(chunk)

/**
 * The first `max` bytes of the body, and whether there was more. The chunks are kept as they came
 * (no copy while reading, so a body over the bound costs at most the bound) and decoded at the end.
 */
const readUpTo = (
  response: HttpClientResponse.HttpClientResponse,
  max: number
): Effect.Effect<Reading, HttpClientError.HttpClientError> =>
  Effect.suspend(() => {
    const reading: Reading = { chunks: [], size: 0, over: false }
    // Returning false ends the run, which closes the stream and so aborts the request.
    return Stream.runForEachWhile(response.stream, (chunk) =>
      Effect.sync(() => {
        const room = max - reading.size
        reading.over = chunk.length > room
        if (!reading.over) reading.chunks.push(own(chunk))
        else if (room > 0) reading.chunks.push(own(chunk.subarray(0, room)))
        reading.size += chunk.length
        return !reading.over
      })).pipe(Effect.as(reading))
  })

/** UTF-8 decoded chunk by chunk: no joined copy of the bytes. A character cut at the end is dropped. */
const text = (reading: Reading): string => {
  const decoder = new TextDecoder()
  const parts = reading.chunks.map((chunk) => decoder.decode(chunk, { stream: true }))
  if (!reading.over) parts.push(decoder.decode())
  return parts.join("")
}

const declaredLength = (response: HttpClientResponse.HttpClientResponse): number | undefined => {
  const raw = response.headers["content-length"]
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined
}

/**
 * Whether the body can be read in one piece: its length was declared (and is within the bound) and
 * it is not compressed. The client then reads exactly that many bytes (HTTP framing ends the body
 * there), so the platform's own text read is as bounded as the counted stream, and much cheaper:
 * one buffer and one UTF-8 decode per page instead of a stream step, a copy and a decode per chunk.
 * A compressed body may inflate past its declared length, so it is counted as it streams.
 */
const whole = (response: HttpClientResponse.HttpClientResponse): boolean => {
  const encoding = response.headers["content-encoding"]
  return encoding === undefined || encoding === "" || encoding === "identity"
}

/** The whole body as text, or {@link TooLarge} as soon as it passes `max` bytes. */
export const readCapped = (
  response: HttpClientResponse.HttpClientResponse,
  max: number
): Effect.Effect<string, HttpClientError.HttpClientError | TooLarge> => {
  const declared = declaredLength(response)
  if (declared !== undefined && declared > max) {
    // Nothing worth reading: one chunk ends the stream, which aborts the request.
    return Effect.andThen(
      Stream.runHead(response.stream).pipe(Effect.ignore),
      Effect.fail(new TooLarge({ read: 0, declared }))
    )
  }
  if (declared !== undefined && whole(response)) return response.text
  return Effect.flatMap(readUpTo(response, max), (reading) =>
    reading.over
      ? Effect.fail(new TooLarge({ read: reading.size, declared }))
      : Effect.succeed(text(reading)))
}

/** The start of an error body, at most {@link errorBodyBytes}: enough for the server's message. */
export const readStart = (
  response: HttpClientResponse.HttpClientResponse
): Effect.Effect<string, HttpClientError.HttpClientError> => Effect.map(readUpTo(response, errorBodyBytes), text)

/** Where a request went, for error messages; never holds the key. */
export interface Target {
  readonly method: string
  readonly url: string
}

/** The error of a body over the bound, saying the size. */
export const tooLarge = (over: TooLarge, max: number, target: Target, status: number): ProtocolError =>
  new ProtocolError({
    subject: "the response",
    problem: `is larger than maxResponseBytes (${formatBytes(max)}): ${
      over.declared === undefined
        ? `stopped after ${formatBytes(over.read)}`
        : `content-length ${formatBytes(over.declared)}`
    }`,
    request: `HTTP ${status} from ${target.method} ${target.url}`,
    advice: "raise maxResponseBytes in the layer options if the answer is genuine",
    reason: "tooLarge",
    status,
    ...target
  })

/** One character (code point) from its number, or the text it was written as when there is none. */
const character = (code: number, written: string): string => code <= 0x10ffff ? String.fromCodePoint(code) : written

const named: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'" }

/** A run of `%XX`: UTF-8 when it is, else each byte below 0x80 as its character. */
const percent = (run: string): string => {
  try {
    return decodeURIComponent(run)
  } catch {
    return run.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  }
}

/**
 * The ways a server may write a character instead of itself: JSON and JavaScript escapes
 * (`\u004b`, `\u{4b}`, `\x4b`, `\"`), HTML references (`&#75;`, `&#x4b;`, `&amp;`) and
 * percent-encoding (`%4B`).
 */
const escape =
  /\\u\{([0-9a-f]{1,6})\}|\\u([0-9a-f]{4})|\\x([0-9a-f]{2})|\\([/\\"'])|&#x([0-9a-f]{1,6});?|&#(\d{1,7});?|&(amp|lt|gt|quot|apos);|(?:%[0-9a-f]{2})+/gi

const unescape = (written: string, ...groups: Array<string | undefined>): string => {
  const [braced, u, x, single, hex, decimal, name] = groups
  const code = braced ?? u ?? x ?? hex
  if (code !== undefined) return character(parseInt(code, 16), written)
  if (decimal !== undefined) return character(Number(decimal), written)
  return single ?? (name === undefined ? percent(written) : named[name.toLowerCase()] ?? written)
}

/** Characters a terminal shows as nothing (zero-width spaces and joiners, bidi marks, soft hyphens). */
const invisible = /\p{Cf}/gu

/** Whether a text may show other characters than it holds. */
const encoded = /[\\%&\p{Cf}]/u

/**
 * The text as a reader sees it once decoded: escapes resolved, invisible characters dropped,
 * again while that changes it (an escape written escaped, `%5Cu004b`), a few rounds at most.
 */
const shown = (text: string): string => {
  let view = text
  for (let round = 0; round < 4 && encoded.test(view); round++) {
    const next = view.replace(escape, (written, ...groups) => unescape(written, ...groups)).replace(invisible, "")
    if (next === view) break
    view = next
  }
  return view
}

const specials = /[.*+?^${}()|[\]\\]/g

/**
 * The key as base64 and base64url carry it: whole (padded or not), and, inside a longer encoded
 * text (`user:key` in Basic credentials), the characters whose bits are all the key's, at each of the
 * three byte alignments (the ones at its edges share bits with its neighbours and vary with them).
 */
const base64Forms = (key: string): ReadonlyArray<string> => {
  const bytes = new TextEncoder().encode(key)
  const whole = [Base64.encode(bytes), Base64Url.encodePadded(bytes)].flatMap((form) => [form, form.split("=")[0]!])
  const aligned = [0, 1, 2].flatMap((shift) => {
    const shifted = new Uint8Array(shift + bytes.length)
    shifted.set(bytes, shift)
    const [from, to] = [Math.ceil(shift * 8 / 6), Math.floor(shifted.length * 8 / 6)]
    return [Base64.encode(shifted).slice(from, to), Base64Url.encode(shifted).slice(from, to)]
  })
  // Fewer characters than this are ordinary words as often as a key's (`aw` for `k`): a key that
  // short is only hidden as it is.
  return [...whole, ...aligned].filter((form) => form.length >= 8)
}

/**
 * The text with the key hidden, in any form a reader would recognise: as it is, as a JSON string
 * writes it, base64- or base64url-encoded (alone or inside a longer encoded text), in any letter case, and (the text is then shown decoded) written with escapes of any
 * kind, percent-encoded or HTML references, mixed, nested or with invisible characters in between.
 * For anything a server echoed back: the key is matched on what the text shows, not only its bytes.
 */
export const redactKey = (key: string | undefined) => {
  if (key === undefined || key === "") return (text: string): string => text
  const alternatives = (forms: ReadonlyArray<string>) =>
    [...new Set(forms)].map((form) => form.replace(specials, "\\$&")).join("|")
  const pattern = new RegExp(alternatives([key, JSON.stringify(key).slice(1, -1)]), "gi")
  // Base64 is case-sensitive (matching it in any case costs ten times as much). Longest first: where
  // a whole encoded form matches, its padding goes with it.
  const encodedForms = [...base64Forms(key)].sort((a, b) => b.length - a.length)
  const encodedPattern = encodedForms.length === 0 ? undefined : new RegExp(alternatives(encodedForms), "g")
  const hide = (text: string): string => {
    const plain = text.replace(pattern, "<redacted>")
    return encodedPattern === undefined ? plain : plain.replace(encodedPattern, "<redacted>")
  }
  return (text: string): string => {
    const hidden = hide(text)
    const view = shown(hidden)
    const viewHidden = hide(view)
    return viewHidden === view ? hidden : viewHidden
  }
}

/**
 * Whether a text holds the key in any spelling {@link redactKey} hides: what must never be kept
 * (an answer that echoed the key is not cached).
 */
export const holdsKey = (key: string | undefined) => {
  const hide = redactKey(key)
  return (text: string): boolean => hide(text) !== text
}
