/**
 * The framing of an MCP server's standard input and output, in front of effect/ai's stdio transport. That
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
