/**
 * The messages of the framed stdio (see ./lines.ts): each line checked as JSON-RPC 2.0 and MCP have
 * it, refused lines answered here, and output made well-formed.
 *
 * @since 1.0.0
 */
import { type Line, maxDepth, maxLineBytes } from "./lines.js"

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
