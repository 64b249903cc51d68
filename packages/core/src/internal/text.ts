/**
 * Values as messages quote them. Whatever a user or a server gave (an id of 120,000 characters, a
 * server's 8 KB explanation), a message built from it stays short.
 */

/**
 * At most `max` UTF-16 units, ending in "…" when cut (never splitting a surrogate pair). Only the
 * part kept is read, so a huge string costs no more than a short one.
 */
export const cut = (value: string, max: number): string => {
  if (value.length <= max) return value
  let end = max - 1
  const last = value.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return `${value.slice(0, end)}…`
}

/** The start of a text a message quotes: {@link cut} to 300 characters unless told otherwise. */
export const excerpt = (text: string, max = 300): string => cut(text, max)
