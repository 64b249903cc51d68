/**
 * Bytes to text for a reference reader: UTF-8 (a byte-order mark dropped), UTF-16 with a byte-order
 * mark, or UTF-16 without one when every other byte of its start is zero (a Windows editor's
 * "Unicode"); anything else is refused, naming what it looks like.
 */
import * as Result from "effect/Result"
import { type Unreadable, unreadable } from "../Unreadable.js"

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })
const utf16le = new TextDecoder("utf-16le", { fatal: true, ignoreBOM: false })
const utf16be = new TextDecoder("utf-16be", { fatal: true, ignoreBOM: false })

/** Which UTF-16 a text without a byte-order mark is, when its start is ASCII with a zero byte beside each letter. */
const bareUtf16 = (bytes: Uint8Array): TextDecoder | undefined => {
  const n = Math.min(bytes.length - (bytes.length % 2), 512)
  if (n < 4) return undefined
  let even = 0
  let odd = 0
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++
    if (bytes[i + 1] === 0) odd++
  }
  const pairs = n / 2
  if (odd >= pairs * 0.9 && even === 0) return utf16le
  if (even >= pairs * 0.9 && odd === 0) return utf16be
  return undefined
}

const hex = (byte: number): string => `0x${byte.toString(16).toUpperCase().padStart(2, "0")}`

/** The first byte where UTF-8 fails (for the message). */
const firstBad = (bytes: Uint8Array): number => {
  let low = 0
  let high = bytes.length
  // The longest prefix that decodes, less a character's worth: a binary search over prefixes cut
  // mid-character would fail too, so the answer is within 3 bytes of the first bad byte.
  while (high - low > 1) {
    const mid = (low + high) >> 1
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, mid), { stream: true })
      low = mid
    } catch {
      high = mid
    }
  }
  return low
}

const decodeWith = (decoder: TextDecoder, bytes: Uint8Array, name: string): Result.Result<string, Unreadable> => {
  try {
    return Result.succeed(decoder.decode(bytes))
  } catch {
    return Result.fail(unreadable("Encoding", `the text is not valid ${name}`))
  }
}

/** See `Verify.decode`. */
export const decode = (bytes: Uint8Array): Result.Result<string, Unreadable> => {
  const [a, b, c, d] = bytes
  // UTF-32's marks first: FF FE 00 00 starts with UTF-16's little-endian mark, and read as UTF-16
  // every other character would be U+0000 ("no entries" without a word about the encoding).
  if ((a === 0xff && b === 0xfe && c === 0 && d === 0) || (a === 0 && b === 0 && c === 0xfe && d === 0xff)) {
    return Result.fail(unreadable("Encoding", "the text is UTF-32 (as its byte-order mark says), which is not read"))
  }
  if (a === 0xff && b === 0xfe) return decodeWith(utf16le, bytes, "UTF-16 (little-endian, as its byte-order mark says)")
  if (a === 0xfe && b === 0xff) return decodeWith(utf16be, bytes, "UTF-16 (big-endian, as its byte-order mark says)")
  if (a === 0xef && b === 0xbb && c === 0xbf) return decodeWith(utf8, bytes, "UTF-8 (as its byte-order mark says)")
  const bare = bareUtf16(bytes)
  if (bare !== undefined) return decodeWith(bare, bytes, "UTF-16")
  if (bytes.includes(0)) {
    return Result.fail(unreadable("Encoding", "the data looks binary (it holds zero bytes), not text"))
  }
  try {
    return Result.succeed(utf8.decode(bytes))
  } catch {
    const at = firstBad(bytes)
    return Result.fail(
      unreadable(
        "Encoding",
        `the text is not UTF-8 (byte ${hex(bytes[at] ?? 0)} at offset ${at}; Latin-1 or Windows-1252, perhaps)`
      )
    )
  }
}
