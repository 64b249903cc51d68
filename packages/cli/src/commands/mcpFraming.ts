/**
 * The framing of `s2 mcp`'s standard input and output, in front of effect/ai's stdio transport. That
 * transport parses each read whole and fails the read on the first line it cannot take: a line that
 * is not JSON, one over its 16 MiB buffer, one nested deep enough to overflow the stack when it is
 * re-serialized, one whose `headers` is not a list. The messages read with it are lost unanswered.
 * It also answers an id that is not a string or number with a defect carrying `"id": -32603`, a
 * `null` id as `""`, and a message that is not an object not at all.
 *
 * So standard input is cut into lines here, as bytes: a line longer than {@link maxLineBytes} is
 * dropped while it streams (never held whole), scanned only for its top-level `id`. A line within
 * the limit is parsed only if it is nested at most {@link maxDepth} deep. What JSON-RPC 2.0 calls an
 * invalid request is answered here (`-32600`, or `-32700` for a line that is not JSON), with the
 * request's id when it is a valid one, else `null`; what passes goes on to the transport rebuilt of
 * its JSON-RPC members only. A lone UTF-16 surrogate in a request's id or params refuses it: we
 * write every line with lone surrogates replaced by U+FFFD ({@link wellFormedJson}; strict JSON
 * parsers refuse them, and with them the whole answer), so such an id would come back as one the
 * client never sent, and nothing read is rewritten. A batch with an invalid member is answered here
 * whole, in one array.
 *
 * @since 1.0.0
 */

/**
 * The longest line of standard input taken, in bytes (4 MiB). The largest call a tool accepts,
 * `resolve_references` with 200 lines of 2,000 characters each, is at most 2.4 MB even with every
 * character escaped.
 *
 * @since 1.0.0
 */
export const maxLineBytes = 4 * 1024 * 1024

/**
 * The deepest nesting of arrays and objects taken in a message (a tool call is 4 or 5 deep).
 *
 * @since 1.0.0
 */
export const maxDepth = 64

/** The longest key or `id` value the scanner keeps, in bytes. */
const maxCapture = 1024

/** The most of a refused line quoted in the Warning, in bytes. */
const headBytes = 160

const enum Byte {
  Tab = 0x09,
  LineFeed = 0x0a,
  Return = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Comma = 0x2c,
  Colon = 0x3a,
  OpenSquare = 0x5b,
  Backslash = 0x5c,
  CloseSquare = 0x5d,
  OpenCurly = 0x7b,
  CloseCurly = 0x7d
}

/** Where a scan is in a member of the top-level object. */
const enum Member {
  None,
  Key,
  Colon,
  Value,
  Literal,
  After
}

const isSpace = (byte: number): boolean =>
  byte === Byte.Space || byte === Byte.Tab || byte === Byte.Return || byte === Byte.LineFeed

const textOf = (bytes: ArrayLike<number>): string => new TextDecoder().decode(Uint8Array.from(bytes))

/**
 * What a line holds, found without parsing it, in constant memory: how deep it nests, and the raw
 * text of the last `id` member of a top-level object (as `JSON.parse` keeps the last of duplicate
 * keys) — `undefined` when there is none, `null` when it is an object, an array or too long. Only
 * structural bytes matter, all ASCII, so UTF-8 is scanned as bytes.
 */
class Scanner {
  started = false
  depth = 0
  deepest = 0
  id: string | null | undefined = undefined
  private inString = false
  private escaped = false
  private member = Member.None
  private keyIsId = false
  /** The bytes of the key or id being read; `overflow` once it is longer than we keep. */
  private capture: Array<number> | undefined = undefined
  private overflow = false

  push(bytes: Uint8Array, start: number, end: number): void {
    // The next quote (or `end`), found once and kept until the scan passes it: searched again after
    // each backslash, a line of backslashes cost a pass over the rest of the chunk per byte.
    let quote = start - 1
    for (let i = start; i < end; i++) {
      if (this.inString && !this.escaped && this.capture === undefined && bytes[i] !== Byte.Backslash) {
        // Most of a long line is the inside of a string: only a quote or a backslash matters there.
        // (A backslash under the scan is read as it is: a search from it would only find itself.)
        if (quote < i) quote = nextIndex(bytes, Byte.Quote, i, end)
        i = nextIndex(bytes, Byte.Backslash, i, quote)
        if (i === end) break
      }
      const byte = bytes[i]!
      if (this.inString) {
        if (this.capture !== undefined) this.keep(byte)
        if (this.escaped) this.escaped = false
        else if (byte === Byte.Backslash) this.escaped = true
        else if (byte === Byte.Quote) {
          this.inString = false
          if (this.depth === 1) this.endString()
        }
      } else if (this.member === Member.Literal && isLiteral(byte)) {
        if (this.capture !== undefined) this.keep(byte)
      } else {
        if (this.member === Member.Literal) this.endValue()
        if (!isSpace(byte)) this.structural(byte)
      }
    }
  }

  private structural(byte: number): void {
    this.started = true
    if (this.depth === 1 && this.member === Member.Value) this.startValue(byte)
    else if (this.depth === 1 && this.member === Member.Key && byte === Byte.Quote) this.startCapture(byte)
    if (byte === Byte.Quote) {
      this.inString = true
    } else if (byte === Byte.OpenCurly || byte === Byte.OpenSquare) {
      if (this.depth === 0 && byte === Byte.OpenCurly) this.member = Member.Key
      this.depth++
      if (this.depth > this.deepest) this.deepest = this.depth
    } else if (byte === Byte.CloseCurly || byte === Byte.CloseSquare) {
      this.depth = Math.max(0, this.depth - 1)
      if (this.depth === 0) this.member = Member.None
    } else if (this.depth === 1 && byte === Byte.Colon && this.member === Member.Colon) {
      this.member = Member.Value
    } else if (this.depth === 1 && byte === Byte.Comma && this.member !== Member.None) {
      this.member = Member.Key
    }
  }

  /** The first byte of a member's value: the id's is captured when a string or literal. */
  private startValue(byte: number): void {
    const nested = byte === Byte.OpenCurly || byte === Byte.OpenSquare
    this.member = byte === Byte.Quote || nested ? Member.After : Member.Literal
    if (!this.keyIsId) return
    if (nested) this.id = null
    else this.startCapture(byte)
  }

  private startCapture(byte: number): void {
    this.capture = [byte]
    this.overflow = false
  }

  private keep(byte: number): void {
    if (this.capture!.length < maxCapture) this.capture!.push(byte)
    else this.overflow = true
  }

  private endString(): void {
    if (this.member === Member.Key) {
      this.keyIsId = !this.overflow && this.capture !== undefined && keyText(this.capture) === "id"
      this.capture = undefined
      this.member = Member.Colon
    } else {
      this.endValue()
    }
  }

  /** The end of a member's value at the top level: the id's raw text when it was captured. */
  private endValue(): void {
    if (this.capture !== undefined) this.id = this.overflow ? null : textOf(this.capture)
    this.capture = undefined
    this.member = Member.After
  }
}

/** Where `byte` is first found in `bytes` from `from` up to `to`, or `to`: never looks past `to`. */
const nextIndex = (bytes: Uint8Array, byte: number, from: number, to: number): number => {
  const at = bytes.subarray(from, to).indexOf(byte)
  return at === -1 ? to : from + at
}

/** A byte that continues a literal (`true`, `null`, a number): any but a space or what ends a value. */
const isLiteral = (byte: number): boolean =>
  !isSpace(byte) && byte !== Byte.Comma && byte !== Byte.CloseCurly && byte !== Byte.CloseSquare

const keyText = (raw: ReadonlyArray<number>): string | undefined => {
  try {
    return JSON.parse(textOf(raw)) as string
  } catch {
    return undefined
  }
}

/**
 * A line of standard input: its bytes when it is within {@link maxLineBytes}, what a scan found, and
 * its first bytes for a Warning.
 *
 * @since 1.0.0
 */
export interface Line {
  readonly bytes: Uint8Array | undefined
  readonly size: number
  readonly head: string
  readonly blank: boolean
  readonly depth: number
  readonly id: string | null | undefined
}

/**
 * Cuts bytes into lines at each line feed. A line is kept up to `limit` bytes; past it, it is dropped
 * as it streams and only scanned. `push` gives the lines each chunk completes, `end` the last one
 * when the input did not end with a line feed.
 *
 * @since 1.0.0
 */
export const makeFramer = (limit: number = maxLineBytes) => {
  let pieces: Array<Uint8Array> = []
  let head: Array<number> = []
  let size = 0
  let scanner = new Scanner()
  const take = (chunk: Uint8Array, start: number, end: number) => {
    scanner.push(chunk, start, end)
    for (let i = start; i < end && head.length < headBytes; i++) head.push(chunk[i]!)
    size += end - start
    if (size <= limit) pieces.push(chunk.slice(start, end))
    else pieces = []
  }
  const line = (): Line => {
    const done: Line = {
      bytes: size <= limit ? joined(pieces, size) : undefined,
      size,
      head: textOf(head),
      blank: !scanner.started,
      depth: scanner.deepest,
      id: scanner.id
    }
    pieces = []
    head = []
    size = 0
    scanner = new Scanner()
    return done
  }
  return {
    push: (chunk: Uint8Array): Array<Line> => {
      const lines: Array<Line> = []
      let start = 0
      for (let feed = chunk.indexOf(Byte.LineFeed); feed !== -1; feed = chunk.indexOf(Byte.LineFeed, start)) {
        take(chunk, start, feed)
        lines.push(line())
        start = feed + 1
      }
      take(chunk, start, chunk.length)
      return lines
    },
    end: (): Array<Line> => (size > 0 ? [line()] : [])
  }
}

const joined = (pieces: ReadonlyArray<Uint8Array>, size: number): Uint8Array => {
  const bytes = new Uint8Array(size)
  let at = 0
  for (const piece of pieces) {
    bytes.set(piece, at)
    at += piece.length
  }
  return bytes
}

// ---------------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------------

/** A request id as JSON-RPC 2.0 has it (MCP: never null). */
type Id = string | number

/** A lone UTF-16 surrogate (`String.prototype.isWellFormed` is ES2024, past the project's lib). */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const isWellFormed = (text: string): boolean => !loneSurrogate.test(text)

/**
 * A string or a finite number that can be answered as it came: a string with a lone surrogate would
 * come back with U+FFFD in its place (see {@link wellFormedJson}), an integer past 2^53 rounded
 * (12345678901234567890 as 12345678901234567000); a client would match neither to its request.
 */
const isId = (value: unknown): value is Id =>
  (typeof value === "string" && isWellFormed(value)) ||
  (typeof value === "number" && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)))

const kindOf = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
    ? "an array"
    : typeof value === "object"
    ? "an object"
    : typeof value === "string"
    ? isWellFormed(value) ? "a string" : "a string that is not well-formed (a lone UTF-16 surrogate)"
    : typeof value === "number"
    ? Number.isSafeInteger(value) || !Number.isInteger(value) ? `the number ${value}` : "an integer beyond ±(2^53 − 1)"
    : String(value)

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const has = (record: Readonly<Record<string, unknown>>, key: string): boolean => Object.hasOwn(record, key)

/**
 * A message checked: rebuilt of its JSON-RPC members, or why it is refused and with which id, or a
 * response from the client that is dropped.
 *
 * @since 1.0.0
 */
export type Checked =
  | { readonly _tag: "Valid"; readonly message: Readonly<Record<string, unknown>> }
  | { readonly _tag: "Invalid"; readonly id: Id | null; readonly code: number; readonly problem: string }
  | { readonly _tag: "Ignored"; readonly problem: string }

/** JSON-RPC's error codes for what we answer here, with the title each answer starts with. */
const parseError = -32700
const invalidRequest = -32600
const invalidParams = -32602
const titles: Readonly<Record<number, string>> = {
  [parseError]: "Parse error",
  [invalidRequest]: "Invalid Request",
  [invalidParams]: "Invalid params"
}

const invalid = (id: Id | null, problem: string, code: number = invalidRequest): Checked => ({
  _tag: "Invalid",
  id,
  code,
  problem
})

const idProblem = (value: unknown): string =>
  `id must be a string or a number (an integer within ±(2^53 − 1)), not ${kindOf(value)}`

/** A key as a path shows it: as it is when it is a plain name, else quoted (and short). */
const keyPath = (key: string): string =>
  /^[A-Za-z_$][\w$-]{0,63}$/.test(key)
    ? `.${key}`
    : `[${JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key)}]`

/** Where in `value` the first lone surrogate is, in a key or a string (`params.arguments.id`). */
const lonePath = (value: unknown, path: string): string | undefined => {
  if (typeof value === "string") return isWellFormed(value) ? undefined : path
  if (typeof value !== "object" || value === null) return undefined
  for (const [key, member] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : `${path}${keyPath(key)}`
    const found = isWellFormed(key) ? lonePath(member, at) : at
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * A response from the client (to a request of ours): forwarded when well formed; otherwise it is
 * dropped, never answered, so that two peers cannot answer each other's errors for ever.
 */
const checkResponse = (message: Readonly<Record<string, unknown>>): Checked => {
  const { error, id } = message
  if (!isId(id)) return { _tag: "Ignored", problem: `a response: ${idProblem(id)}` }
  if (message["jsonrpc"] !== "2.0") return { _tag: "Ignored", problem: "a response: jsonrpc must be \"2.0\"" }
  if (has(message, "result")) return { _tag: "Valid", message: { jsonrpc: "2.0", id, result: message["result"] } }
  if (isRecord(error) && Number.isSafeInteger(error["code"]) && typeof error["message"] === "string") {
    const { code, data } = error
    const body = { code, message: error["message"], ...(has(error, "data") ? { data } : {}) }
    return { _tag: "Valid", message: { jsonrpc: "2.0", id, error: body } }
  }
  return { _tag: "Ignored", problem: "a response: error must be { code: integer, message: string }" }
}

/**
 * One message as JSON-RPC 2.0 and MCP have it: a request (with an id), a notification (without) or
 * a response. Only the members JSON-RPC defines go on: effect's transport reads members of its own
 * (`headers`, `discard`, span ids) from the client's message, and a `headers` that is not a list
 * ended its input.
 *
 * @since 1.0.0
 */
export const checkMessage = (value: unknown): Checked => {
  if (!isRecord(value)) return invalid(null, `a message must be a JSON object, not ${kindOf(value)}`)
  if (!has(value, "method") && (has(value, "result") || has(value, "error"))) return checkResponse(value)
  const hasId = has(value, "id")
  if (hasId && !isId(value["id"])) return invalid(null, idProblem(value["id"]))
  const id = hasId ? value["id"] as Id : null
  if (value["jsonrpc"] !== "2.0") return invalid(id, "jsonrpc must be \"2.0\"")
  if (!has(value, "method")) return invalid(id, "a request needs a method")
  const method = value["method"]
  if (typeof method !== "string" || !isWellFormed(method)) {
    return invalid(id, `method must be a string, not ${kindOf(method)}`)
  }
  // The request is well formed but its params are not text the method can be given: replaced by
  // U+FFFD they would run it on what the client did not send (get_paper on "x\ud800y" asked the
  // API for x%EF%BF%BDy). JSON-RPC's code for params a method cannot take is -32602; a notification
  // is never answered, so it is dropped.
  const lone = lonePath(value["params"], "params")
  if (lone !== undefined) {
    const problem = `${lone} holds a lone UTF-16 surrogate; strings must be well-formed Unicode`
    return hasId ? invalid(id, problem, invalidParams) : { _tag: "Ignored", problem: `a notification: ${problem}` }
  }
  return {
    _tag: "Valid",
    message: {
      jsonrpc: "2.0",
      ...(hasId ? { id } : {}),
      method,
      ...(has(value, "params") ? { params: value["params"] } : {})
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Lines
// ---------------------------------------------------------------------------------------------------

/**
 * What becomes of a line of standard input: a line for effect's transport, a line we answer
 * ourselves, and a Warning saying why (each when there is one).
 *
 * @since 1.0.0
 */
export interface Outcome {
  readonly forward?: string
  readonly answer?: string
  readonly warning?: string
}

const errorAnswer = (id: Id | null, code: number, message: string) => ({ jsonrpc: "2.0", id, error: { code, message } })

/** The id a refused line is answered with: its own when a scan found a valid one, else null. */
const scannedId = (raw: string | null | undefined): Id | null => {
  if (typeof raw !== "string") return null
  try {
    const value: unknown = JSON.parse(raw)
    return isId(value) ? value : null
  } catch {
    return null
  }
}

const refused = (line: Line, id: Id | null, code: number, problem: string): Outcome => ({
  answer: JSON.stringify(errorAnswer(id, code, `${titles[code]}: ${problem}`)),
  warning: `${problem}; answered with JSON-RPC error ${code}${id === null ? "" : ` for id ${JSON.stringify(id)}`}: ${
    line.head.slice(0, 80)
  }`
})

const decoder = new TextDecoder("utf-8", { fatal: true })

const isRequest = (message: Readonly<Record<string, unknown>>): boolean => has(message, "method") && has(message, "id")

/**
 * A batch (MCP 2025-03-26 has them): when all its messages are valid it goes on whole. One invalid
 * member and it is answered here, in one array as JSON-RPC 2.0 has it: an error for that member and
 * for each valid request, which is not run. To run those we would have to wait for the transport's
 * answers and pick them out of its output to merge them into ours, a second JSON-RPC layer around
 * effect's; a client that sent a malformed batch sends it again. Its notifications and responses
 * still go on, each on a line of its own: they are never answered, so the batch gets no second array.
 */
const batchOutcome = (line: Line, values: ReadonlyArray<unknown>): Outcome => {
  const checked = values.map(checkMessage)
  const problems = checked.flatMap((c) => (c._tag === "Valid" ? [] : [c.problem]))
  const warning = `${problems.length} of the ${values.length} messages of a batch refused (${problems[0]}): ${
    line.head.slice(0, 80)
  }`
  const valid = checked.flatMap((c) => (c._tag === "Valid" ? [c.message] : []))
  if (!checked.some((c) => c._tag === "Invalid")) {
    return {
      ...(valid.length > 0 ? { forward: JSON.stringify(valid) } : {}),
      ...(problems.length > 0 ? { warning } : {})
    }
  }
  const first = checked.findIndex((c) => c._tag === "Invalid")
  const notRun = `Invalid Request: not run: message ${first + 1} of its batch is invalid`
  const answers = checked.flatMap((c) =>
    c._tag === "Invalid"
      ? [errorAnswer(c.id, c.code, `${titles[c.code]}: ${c.problem}`)]
      : c._tag === "Valid" && isRequest(c.message)
      ? [errorAnswer(c.message["id"] as Id, invalidRequest, notRun)]
      : []
  )
  const unanswered = checked.flatMap((c) =>
    c._tag === "Valid" && !isRequest(c.message) ? [JSON.stringify(c.message)] : []
  )
  return {
    ...(unanswered.length > 0 ? { forward: unanswered.join("\n") } : {}),
    answer: JSON.stringify(answers),
    warning
  }
}

/**
 * What becomes of one line: nothing when it is blank; otherwise refused when it is too long, too
 * deep, not JSON (or not UTF-8) or not a JSON-RPC message; else forwarded, rebuilt.
 *
 * @since 1.0.0
 */
export const outcomeOf = (line: Line): Outcome => {
  if (line.blank) return {}
  if (line.bytes === undefined) {
    return refused(
      line,
      scannedId(line.id),
      invalidRequest,
      `a message of ${line.size} bytes, over the limit of ${maxLineBytes} bytes`
    )
  }
  if (line.depth > maxDepth) {
    return refused(line, scannedId(line.id), invalidRequest, `a message nested more than ${maxDepth} deep`)
  }
  let value: unknown
  try {
    value = JSON.parse(decoder.decode(line.bytes))
  } catch {
    return refused(line, null, parseError, "a line of standard input is not JSON")
  }
  // JSON-RPC 2.0 answers an empty batch with one error, not an array.
  if (Array.isArray(value) && value.length === 0) return refused(line, null, invalidRequest, "an empty batch")
  if (Array.isArray(value)) return batchOutcome(line, value)
  const checked = checkMessage(value)
  switch (checked._tag) {
    case "Valid":
      return { forward: JSON.stringify(checked.message) }
    case "Invalid":
      return refused(line, checked.id, checked.code, checked.problem)
    case "Ignored":
      return { warning: `${checked.problem}, dropped: ${line.head.slice(0, 80)}` }
  }
}

// ---------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------

/**
 * In order: an escaped surrogate pair (kept), an escaped lone surrogate, any other escape (kept, so
 * that `\\ud800` — a backslash, then text — is not read as one), a lone surrogate code unit.
 */
const surrogates =
  /\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2}|\\[^]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const mayHaveSurrogates = /\\u[dD][89a-fA-F]|[\ud800-\udfff]/

/**
 * JSON text with every lone UTF-16 surrogate replaced by U+FFFD, escaped (`\ud800`, as
 * `JSON.stringify` writes one) or not. Strict parsers (pydantic-core, orjson, serde_json) refuse a
 * lone surrogate, and with it the whole message.
 *
 * @since 1.0.0
 */
export const wellFormedJson = (text: string): string =>
  mayHaveSurrogates.test(text)
    ? text.replace(surrogates, (match) => match.length === 6 ? "\\ufffd" : match.length === 1 ? "\ufffd" : match)
    : text
